#include "gwb/ccg/category.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

namespace gwb::ccg {

namespace {

std::size_t mixHash(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace

Category makeAtomicCategory(std::string name) {
  auto node = std::make_shared<CategoryNode>();
  node->hash = std::hash<std::string>()(name);
  node->atom = std::move(name);
  return node;
}

Category makeComplexCategory(Category result, Slash slash, Category argument) {
  auto node = std::make_shared<CategoryNode>();
  node->hash = mixHash(mixHash(result->hash, static_cast<std::size_t>(slash) + 1), argument->hash);
  node->slash = slash;
  node->result = std::move(result);
  node->argument = std::move(argument);
  return node;
}

char slashChar(Slash slash) {
  switch (slash) {
    case Slash::Forward: return '/';
    case Slash::Backward: return '\\';
    case Slash::Vertical: return '|';
  }
  return '?';
}

namespace {

void printCategory(const Category& category, bool parenthesise, std::string* out) {
  if (category->isAtomic()) {
    *out += category->atom;
    return;
  }
  if (parenthesise) *out += '(';
  printCategory(category->result, true, out);
  *out += slashChar(category->slash);
  printCategory(category->argument, true, out);
  if (parenthesise) *out += ')';
}

}  // namespace

std::string toString(const Category& category) {
  if (!category) return "<null>";
  std::string out;
  printCategory(category, false, &out);
  return out;
}

bool sameCategory(const Category& a, const Category& b) {
  if (a == b) return true;
  if (!a || !b || a->hash != b->hash || a->isAtomic() != b->isAtomic()) return false;
  if (a->isAtomic()) return a->atom == b->atom;
  return a->slash == b->slash && sameCategory(a->result, b->result) &&
         sameCategory(a->argument, b->argument);
}

bool categoriesMatch(const Category& a, const Category& b) {
  if (a == b) return true;
  if (!a || !b || a->isAtomic() != b->isAtomic()) return false;
  if (a->isAtomic()) return a->atom == b->atom;
  if (a->slash != b->slash && a->slash != Slash::Vertical && b->slash != Slash::Vertical) {
    return false;
  }
  return categoriesMatch(a->result, b->result) && categoriesMatch(a->argument, b->argument);
}

int slashCount(const Category& category) {
  if (category->isAtomic()) return 0;
  return 1 + slashCount(category->result) + slashCount(category->argument);
}

namespace {

class CategoryReader {
 public:
  CategoryReader(std::string_view text, const std::string& file, int line, int column,
                 Diagnostics* diagnostics)
      : text_(text), file_(file), line_(line), column_(column), diagnostics_(diagnostics) {}

  Category readAll() {
    int treeDepth = 0;
    Category category = readSequence(0, &treeDepth);
    if (!category) return nullptr;
    skipSpaces();
    if (pos_ < text_.size()) {
      return fail(std::string("unexpected '") + text_[pos_] +
                  "' in a category: expected '/', '\\', '|' or the end");
    }
    return category;
  }

 private:
  Category fail(std::string message) {
    diagnostics_->error(file_, line_, column_ + static_cast<int>(pos_), std::move(message));
    return nullptr;
  }
  void skipSpaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  // `depth` counts parentheses; *treeDepth is the category's depth as a tree (an atom 1), which
  // bounds every recursive walk over it and the parentheses its printed form needs (the printer
  // brackets every complex part, so "A/B/C/..." prints as "((A/B)/C)/..."): both are at most
  // kMaxDepth, so what is read prints to a text that reads back.
  Category readSequence(int depth, int* treeDepth) {
    Category category = readPrimary(depth, treeDepth);
    if (!category) return nullptr;
    while (true) {
      skipSpaces();
      if (pos_ >= text_.size()) return category;
      const char c = text_[pos_];
      Slash slash = Slash::Forward;
      if (c == '/') {
        slash = Slash::Forward;
      } else if (c == '\\') {
        slash = Slash::Backward;
      } else if (c == '|') {
        slash = Slash::Vertical;
      } else {
        return category;
      }
      const std::size_t slashPosition = pos_;
      ++pos_;
      int argumentDepth = 0;
      Category argument = readPrimary(depth, &argumentDepth);
      if (!argument) return nullptr;
      *treeDepth = std::max(*treeDepth, argumentDepth) + 1;
      if (*treeDepth > kMaxDepth) {
        pos_ = slashPosition;  // the error is at the slash that nests too deep
        return fail("category nested more than " + std::to_string(kMaxDepth) + " levels deep");
      }
      category = makeComplexCategory(category, slash, argument);
    }
  }

  Category readPrimary(int depth, int* treeDepth) {
    skipSpaces();
    if (depth > kMaxDepth) {
      return fail("category nested more than " + std::to_string(kMaxDepth) + " levels deep");
    }
    if (pos_ >= text_.size()) return fail("expected a category, found the end of the text");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      Category inner = readSequence(depth + 1, treeDepth);
      if (!inner) return nullptr;
      skipSpaces();
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        return fail("expected ')' closing the category");
      }
      ++pos_;
      return inner;
    }
    auto isLetter = [](char ch) { return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'); };
    if (!isLetter(c)) {
      return fail(std::string("expected an atomic category (S, NP, N, ...) or '(', found '") + c +
                  "'");
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (isLetter(text_[pos_]) || (text_[pos_] >= '0' && text_[pos_] <= '9') ||
            text_[pos_] == '_')) {
      ++pos_;
    }
    *treeDepth = 1;
    return makeAtomicCategory(std::string(text_.substr(start, pos_ - start)));
  }

  static constexpr int kMaxDepth = 64;

  std::string_view text_;
  const std::string& file_;
  int line_;
  int column_;
  Diagnostics* diagnostics_;
  std::size_t pos_ = 0;
};

}  // namespace

Category readCategory(std::string_view text, const std::string& file, int line, int column,
                      Diagnostics* diagnostics) {
  CategoryReader reader(text, file, line, column, diagnostics);
  return reader.readAll();
}

Category parseCategory(std::string_view text, std::string* error) {
  Diagnostics diagnostics;
  Category category = readCategory(text, "<string>", 1, 1, &diagnostics);
  if (!category && error && !diagnostics.empty()) *error = toString(diagnostics.items().front());
  return category;
}

const char* combinatorSymbol(Combinator combinator) {
  switch (combinator) {
    case Combinator::Lexical: return "lex";
    case Combinator::Skip: return "skip";
    case Combinator::ForwardApplication: return ">";
    case Combinator::BackwardApplication: return "<";
    case Combinator::ForwardComposition: return ">B";
    case Combinator::BackwardComposition: return "<B";
  }
  return "?";
}

namespace {

// A functor needs a direction: a vertical slash only matches as part of an argument (as UBL's
// and SPF's combinators do), so `states ⊢ S|NP` is an argument of `what ⊢ S/(S|NP)` but never
// applies to an NP itself.
bool takesRight(const Category& category) {
  return !category->isAtomic() && category->slash == Slash::Forward;
}
bool takesLeft(const Category& category) {
  return !category->isAtomic() && category->slash == Slash::Backward;
}

Term apply(const Term& function, const Term& argument, int maxSteps) {
  Term reduced = betaReduce(makeApplication(function, {argument}), maxSteps);
  return reduced ? canonicalTerm(reduced) : nullptr;
}

// λx.f(g(x))
Term compose(const Term& f, const Term& g, int maxSteps) {
  const int x = std::max(f->maxVariable, g->maxVariable) + 1;
  TypePtr type = g->kind == TermKind::Lambda ? g->variableType : atomicType("e");
  Term body = makeApplication(f, {makeApplication(g, {makeVariable(x)})});
  Term reduced = betaReduce(makeLambda(x, type, body), maxSteps);
  return reduced ? canonicalTerm(reduced) : nullptr;
}

}  // namespace

std::vector<CombinationRule> combinationRules(const Category& leftCategory,
                                              const Category& rightCategory,
                                              const CombinatorOptions& options) {
  std::vector<CombinationRule> out;
  // >  X/Y Y => X
  if (takesRight(leftCategory) && categoriesMatch(leftCategory->argument, rightCategory)) {
    out.push_back({Combinator::ForwardApplication, leftCategory->result});
  }
  // <  Y X\Y => X
  if (takesLeft(rightCategory) && categoriesMatch(rightCategory->argument, leftCategory)) {
    out.push_back({Combinator::BackwardApplication, rightCategory->result});
  }
  if (!options.composition) return out;
  // >B  X/Y Y/Z => X/Z
  if (takesRight(leftCategory) && takesRight(rightCategory) &&
      categoriesMatch(leftCategory->argument, rightCategory->result)) {
    out.push_back(
        {Combinator::ForwardComposition,
         makeComplexCategory(leftCategory->result, rightCategory->slash, rightCategory->argument)});
  }
  // <B  Y\Z X\Y => X\Z
  if (takesLeft(leftCategory) && takesLeft(rightCategory) &&
      categoriesMatch(rightCategory->argument, leftCategory->result)) {
    out.push_back(
        {Combinator::BackwardComposition,
         makeComplexCategory(rightCategory->result, leftCategory->slash, leftCategory->argument)});
  }
  return out;
}

Term combineSemantics(Combinator combinator, const Term& leftSemantics, const Term& rightSemantics,
                      int maxBetaSteps) {
  switch (combinator) {
    case Combinator::ForwardApplication: return apply(leftSemantics, rightSemantics, maxBetaSteps);
    case Combinator::BackwardApplication: return apply(rightSemantics, leftSemantics, maxBetaSteps);
    case Combinator::ForwardComposition:
      return compose(leftSemantics, rightSemantics, maxBetaSteps);
    case Combinator::BackwardComposition:
      return compose(rightSemantics, leftSemantics, maxBetaSteps);
    case Combinator::Lexical:
    case Combinator::Skip: break;
  }
  return nullptr;
}

std::vector<Combination> combine(const Category& leftCategory, const Term& leftSemantics,
                                 const Category& rightCategory, const Term& rightSemantics,
                                 const CombinatorOptions& options) {
  std::vector<Combination> out;
  for (CombinationRule& rule : combinationRules(leftCategory, rightCategory, options)) {
    if (Term semantics = combineSemantics(rule.combinator, leftSemantics, rightSemantics,
                                          options.maxBetaSteps)) {
      out.push_back({rule.combinator, std::move(rule.category), std::move(semantics)});
    }
  }
  return out;
}

}  // namespace gwb::ccg
