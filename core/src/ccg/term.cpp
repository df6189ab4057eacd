#include "gwb/ccg/term.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <utility>

#include "ccg/sexpr_tokens.h"
#include "ccg/type_check_steps.h"

namespace gwb::ccg {

namespace {

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

Term finish(TermNode node) {
  std::size_t h = std::hash<int>()(static_cast<int>(node.kind));
  if (!node.name.empty()) h = mix(h, std::hash<std::string>()(node.name));
  h = mix(h, std::hash<int>()(node.variable));
  if (node.variableType) h = mix(h, std::hash<std::string>()(toString(node.variableType)));
  std::int64_t size = 1;
  int depth = 0;
  int maxVariable = node.variable;
  std::vector<int> free;
  if (node.kind == TermKind::Variable) free.push_back(node.variable);
  bool normal = true;
  const bool connective = node.kind == TermKind::And || node.kind == TermKind::Or;
  if (node.kind == TermKind::Application && node.children.front()->kind == TermKind::Lambda) {
    normal = false;
  }
  for (const Term& child : node.children) {
    normal = normal && child->betaNormal && !(connective && child->kind == node.kind);
    h = mix(h, child->hash);
    size = std::min<std::int64_t>(size + child->size, std::numeric_limits<int>::max());
    depth = std::max(depth, child->depth);
    maxVariable = std::max(maxVariable, child->maxVariable);
    if (!child->freeVariables.empty()) {
      if (free.empty()) {
        free = child->freeVariables;
      } else {
        std::vector<int> merged;
        std::set_union(free.begin(), free.end(), child->freeVariables.begin(),
                       child->freeVariables.end(), std::back_inserter(merged));
        free = std::move(merged);
      }
    }
  }
  if (isBinder(node.kind)) {
    auto it = std::lower_bound(free.begin(), free.end(), node.variable);
    if (it != free.end() && *it == node.variable) free.erase(it);
  }
  node.hash = h;
  node.size = static_cast<int>(size);  // saturated in the loop
  node.depth = depth + 1;
  node.maxVariable = maxVariable;
  node.freeVariables = std::move(free);
  node.betaNormal = normal;
  return std::make_shared<const TermNode>(std::move(node));
}

// Applies `f` to each child of `term`; returns the new children only when one changed (the
// vector is made on the first change), else an empty vector and *changed false.
template <class F>
std::vector<Term> mapChildren(const Term& term, F f, bool* changed) {
  std::vector<Term> out;
  *changed = false;
  const auto& children = term->children;
  for (std::size_t i = 0; i < children.size(); ++i) {
    Term mapped = f(children[i]);
    if (!*changed && mapped != children[i]) {
      *changed = true;
      out.reserve(children.size());
      out.insert(out.end(), children.begin(), children.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (*changed) out.push_back(std::move(mapped));
  }
  return out;
}

// A copy of `term` with other children (same kind, name, variable and type).
Term withChildren(const Term& term, std::vector<Term> children) {
  if (term->kind == TermKind::Application &&
      (children.size() < 2 || children.front()->kind == TermKind::Application)) {
    // A head that became an application is flattened into this one (makeApplication does).
    Term head = children.front();
    children.erase(children.begin());
    return makeApplication(head, std::move(children));
  }
  // Otherwise the node keeps its shape: built on `children` as they are (what makeApplication
  // would build, without a second vector).
  TermNode node;
  node.kind = term->kind;
  node.name = term->name;
  node.variable = term->variable;
  node.variableType = term->variableType;
  node.children = std::move(children);
  return finish(std::move(node));
}

Term withVariableAndChildren(const Term& term, int variable, std::vector<Term> children) {
  TermNode node;
  node.kind = term->kind;
  node.variable = variable;
  node.variableType = term->variableType;
  node.children = std::move(children);
  return finish(std::move(node));
}

}  // namespace

const char* termKeyword(TermKind kind) {
  switch (kind) {
    case TermKind::Lambda: return "lambda";
    case TermKind::And: return "and";
    case TermKind::Or: return "or";
    case TermKind::Not: return "not";
    case TermKind::Equals: return "=";
    case TermKind::Less: return "<";
    case TermKind::Greater: return ">";
    case TermKind::Exists: return "exists";
    case TermKind::Count: return "count";
    case TermKind::The: return "the";
    case TermKind::Argmax: return "argmax";
    case TermKind::Argmin: return "argmin";
    case TermKind::Sum: return "sum";
    case TermKind::Constant:
    case TermKind::Variable:
    case TermKind::Application: return "";
  }
  return "";
}

bool isBinder(TermKind kind) {
  switch (kind) {
    case TermKind::Lambda:
    case TermKind::Exists:
    case TermKind::Count:
    case TermKind::The:
    case TermKind::Argmax:
    case TermKind::Argmin:
    case TermKind::Sum: return true;
    default: return false;
  }
}

Term makeConstant(std::string name) {
  TermNode node;
  node.kind = TermKind::Constant;
  node.name = std::move(name);
  return finish(std::move(node));
}

Term makeVariable(int number) {
  TermNode node;
  node.kind = TermKind::Variable;
  node.variable = number;
  return finish(std::move(node));
}

Term makeApplication(const Term& head, std::vector<Term> arguments) {
  if (arguments.empty()) return head;
  TermNode node;
  node.kind = TermKind::Application;
  const bool flatten = head->kind == TermKind::Application;
  node.children.reserve((flatten ? head->children.size() : 1) + arguments.size());
  if (flatten) {
    node.children.insert(node.children.end(), head->children.begin(), head->children.end());
  } else {
    node.children.push_back(head);
  }
  for (Term& argument : arguments) node.children.push_back(std::move(argument));
  return finish(std::move(node));
}

Term makeLambda(int variable, TypePtr variableType, Term body) {
  TermNode node;
  node.kind = TermKind::Lambda;
  node.variable = variable;
  node.variableType = std::move(variableType);
  node.children.push_back(std::move(body));
  return finish(std::move(node));
}

Term makeOperator(TermKind kind, std::vector<Term> arguments) {
  TermNode node;
  node.kind = kind;
  node.children = std::move(arguments);
  return finish(std::move(node));
}

Term makeQuantifier(TermKind kind, int variable, std::vector<Term> bodies) {
  TermNode node;
  node.kind = kind;
  node.variable = variable;
  node.children = std::move(bodies);
  return finish(std::move(node));
}

bool structurallyEqual(const Term& a, const Term& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->hash != b->hash || a->size != b->size || a->kind != b->kind ||
      a->variable != b->variable || a->name != b->name ||
      a->children.size() != b->children.size()) {
    return false;
  }
  if ((a->variableType != nullptr) != (b->variableType != nullptr)) return false;
  if (a->variableType && !sameType(a->variableType, b->variableType)) return false;
  for (std::size_t i = 0; i < a->children.size(); ++i) {
    if (!structurallyEqual(a->children[i], b->children[i])) return false;
  }
  return true;
}

namespace {

void print(const Term& term, std::string* out) {
  switch (term->kind) {
    case TermKind::Constant: *out += term->name; return;
    case TermKind::Variable: *out += "$" + std::to_string(term->variable); return;
    case TermKind::Application:
      *out += '(';
      for (std::size_t i = 0; i < term->children.size(); ++i) {
        if (i > 0) *out += ' ';
        print(term->children[i], out);
      }
      *out += ')';
      return;
    default: break;
  }
  *out += '(';
  *out += termKeyword(term->kind);
  if (isBinder(term->kind)) *out += " $" + std::to_string(term->variable);
  if (term->kind == TermKind::Lambda) *out += " " + toString(term->variableType);
  for (const Term& child : term->children) {
    *out += ' ';
    print(child, out);
  }
  *out += ')';
}

}  // namespace

std::string toString(const Term& term) {
  if (!term) return "<null>";
  std::string out;
  print(term, &out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reader

namespace {

using detail::SexprToken;

struct KeywordInfo {
  TermKind kind;
  int minArguments;  // after the variable (and type) for binders
  int maxArguments;  // -1: unbounded
};

bool keywordInfo(std::string_view text, KeywordInfo* info) {
  static const std::pair<const char*, KeywordInfo> kTable[] = {
      {"lambda", {TermKind::Lambda, 1, 1}}, {"and", {TermKind::And, 1, -1}},
      {"or", {TermKind::Or, 1, -1}},        {"not", {TermKind::Not, 1, 1}},
      {"=", {TermKind::Equals, 2, 2}},      {"<", {TermKind::Less, 2, 2}},
      {">", {TermKind::Greater, 2, 2}},     {"exists", {TermKind::Exists, 1, -1}},
      {"count", {TermKind::Count, 1, 1}},   {"the", {TermKind::The, 1, 1}},
      {"argmax", {TermKind::Argmax, 2, 2}}, {"argmin", {TermKind::Argmin, 2, 2}},
      {"sum", {TermKind::Sum, 2, 2}},
  };
  for (const auto& entry : kTable) {
    if (text == entry.first) {
      *info = entry.second;
      return true;
    }
  }
  return false;
}

bool parseVariableName(std::string_view text, int* number) {
  if (text.size() < 2 || text[0] != '$' || text.size() > 8) return false;
  int value = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *number = value;
  return true;
}

class TermReader {
 public:
  TermReader(detail::SexprCursor& cursor, const std::string& file, int endLine, int endColumn,
             Diagnostics* diagnostics, TermPositions* positions, const TermReadOptions& options)
      : cursor_(cursor),
        file_(file),
        endLine_(endLine),
        endColumn_(endColumn),
        diagnostics_(diagnostics),
        positions_(positions),
        options_(options) {}

  Term readAll() {
    Term term = read(0);
    if (!term) return nullptr;
    if (!cursor_.atEnd()) {
      error(cursor_.current(), "unexpected '" + std::string(cursor_.current().text) +
                                   "' after the end of the logical form");
      return nullptr;
    }
    return term;
  }

 private:
  void error(const SexprToken& token, std::string message) {
    diagnostics_->error(file_, token.line, token.column, std::move(message));
  }
  void errorAtEnd(std::string message) {
    diagnostics_->error(file_, endLine_, endColumn_, std::move(message));
  }
  Term note(Term term, const SexprToken& token) {
    if (positions_ && term) (*positions_)[term.get()] = {token.line, token.column};
    return term;
  }

  Term read(int depth) {
    if (cursor_.atEnd()) {
      errorAtEnd("expected a logical form, found the end of the text");
      return nullptr;
    }
    const SexprToken token = cursor_.current();  // a copy: the cursor moves on
    if (depth > options_.maxDepth) {
      error(token,
            "logical form nested more than " + std::to_string(options_.maxDepth) + " levels deep");
      return nullptr;
    }
    if (token.kind == SexprToken::Kind::Close) {
      error(token, "unexpected ')': expected a constant, a variable or '('");
      return nullptr;
    }
    if (token.kind == SexprToken::Kind::Atom) {
      cursor_.advance();
      return readAtom(token);
    }
    cursor_.advance();  // '('
    if (cursor_.atEnd()) {
      errorAtEnd("expected a logical form after '(', found the end of the text");
      return nullptr;
    }
    const SexprToken first = cursor_.current();
    if (first.kind == SexprToken::Kind::Close) {
      error(first, "empty list '()': expected an operator, a quantifier or a function");
      return nullptr;
    }
    KeywordInfo info{};
    if (first.kind == SexprToken::Kind::Atom && keywordInfo(first.text, &info)) {
      cursor_.advance();
      return note(readKeyword(token, first, info, depth), token);
    }
    Term head = read(depth + 1);
    if (!head) return nullptr;
    std::vector<Term> arguments;
    if (!readArguments(depth, &arguments)) return nullptr;
    if (arguments.empty()) {
      error(token, "'(" + toString(head) + ")' applies a function to no argument");
      return nullptr;
    }
    return note(makeApplication(head, std::move(arguments)), token);
  }

  Term readAtom(const SexprToken& token) {
    if (token.text[0] == '$') {
      int number = 0;
      if (!parseVariableName(token.text, &number)) {
        error(token, "bad variable '" + std::string(token.text) +
                         "': expected '$' followed by up to 7 digits");
        return nullptr;
      }
      return note(makeVariable(number), token);
    }
    KeywordInfo info{};
    if (keywordInfo(token.text, &info)) {
      error(token, "'" + std::string(token.text) + "' must follow '(' (as in '(" +
                       std::string(token.text) + " ...)')");
      return nullptr;
    }
    return note(makeConstant(std::string(token.text)), token);
  }

  // Reads terms up to and including the closing ')'.
  bool readArguments(int depth, std::vector<Term>* arguments) {
    while (true) {
      if (cursor_.atEnd()) {
        errorAtEnd("expected ')', found the end of the text");
        return false;
      }
      if (cursor_.current().kind == SexprToken::Kind::Close) {
        cursor_.advance();
        return true;
      }
      Term argument = read(depth + 1);
      if (!argument) return false;
      arguments->push_back(std::move(argument));
    }
  }

  Term readKeyword(const SexprToken& open, const SexprToken& keyword, const KeywordInfo& info,
                   int depth) {
    const std::string name(keyword.text);
    int variable = -1;
    TypePtr variableType;
    if (isBinder(info.kind)) {
      if (cursor_.atEnd() || cursor_.current().kind != SexprToken::Kind::Atom ||
          !parseVariableName(cursor_.current().text, &variable)) {
        if (cursor_.atEnd()) {
          errorAtEnd("expected a variable ($0, $1, ...) after '" + name + "'");
        } else {
          error(cursor_.current(), "expected a variable ($0, $1, ...) after '" + name +
                                       "', found '" + std::string(cursor_.current().text) + "'");
        }
        return nullptr;
      }
      cursor_.advance();
      if (info.kind == TermKind::Lambda) {
        if (cursor_.atEnd() || cursor_.current().kind != SexprToken::Kind::Atom) {
          if (cursor_.atEnd()) {
            errorAtEnd("expected the type of the lambda variable (e, t, i, <e,t>, ...)");
          } else {
            error(cursor_.current(),
                  "expected the type of the lambda variable (e, t, i, <e,t>, ...)");
          }
          return nullptr;
        }
        std::string typeError;
        variableType = parseType(cursor_.current().text, &typeError);
        if (!variableType) {
          error(cursor_.current(),
                "bad type '" + std::string(cursor_.current().text) + "': " + typeError);
          return nullptr;
        }
        cursor_.advance();
      }
    }
    std::vector<Term> arguments;
    if (!readArguments(depth, &arguments)) return nullptr;
    const int count = static_cast<int>(arguments.size());
    if (count < info.minArguments || (info.maxArguments >= 0 && count > info.maxArguments)) {
      std::string expected = info.maxArguments < 0
                                 ? "at least " + std::to_string(info.minArguments)
                                 : (info.minArguments == info.maxArguments
                                        ? std::to_string(info.minArguments)
                                        : std::to_string(info.minArguments) + " to " +
                                              std::to_string(info.maxArguments));
      error(open, "'" + name + "' takes " + expected +
                      (isBinder(info.kind) ? " body term(s) after its variable" : " argument(s)") +
                      ", found " + std::to_string(count));
      return nullptr;
    }
    if (info.kind == TermKind::Lambda) {
      return makeLambda(variable, variableType, std::move(arguments.front()));
    }
    if (isBinder(info.kind)) return makeQuantifier(info.kind, variable, std::move(arguments));
    return makeOperator(info.kind, std::move(arguments));
  }

  detail::SexprCursor& cursor_;
  const std::string& file_;
  int endLine_;
  int endColumn_;
  Diagnostics* diagnostics_;
  TermPositions* positions_;
  TermReadOptions options_;
};

}  // namespace

Term readTerm(std::string_view text, const std::string& file, int line, int column,
              Diagnostics* diagnostics, TermPositions* positions, const TermReadOptions& options) {
  // Tokens are read as the reader needs them: it stops at the first error, or at the token
  // after the one logical form.
  detail::SexprCursor cursor(text, line, column, false);
  // Where the text ends, for "found the end of the text".
  int endLine = line;
  int endColumn = column;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (detail::endsLine(text, i)) {
      ++endLine;
      endColumn = 1;
    } else {
      ++endColumn;
    }
  }
  if (cursor.atEnd()) {
    diagnostics->error(file, line, column, "expected a logical form, found an empty text");
    return nullptr;
  }
  TermReader reader(cursor, file, endLine, endColumn, diagnostics, positions, options);
  return reader.readAll();
}

Term parseTerm(std::string_view text, std::string* error) {
  Diagnostics diagnostics;
  Term term = readTerm(text, "<string>", 1, 1, &diagnostics);
  if (!term && error && !diagnostics.empty()) *error = toString(diagnostics.items().front());
  return term;
}

// ---------------------------------------------------------------------------------------------
// Variables, substitution, beta-reduction

namespace {

class Substitution {
 public:
  // `work`, when given, counts the nodes the substitution rebuilds (BetaReducer's budget).
  Substitution(int variable, Term value, int firstFresh, long long* work = nullptr)
      : variable_(variable), value_(std::move(value)), fresh_(firstFresh), work_(work) {
    freeInValue_ = value_->freeVariables;
  }

  Term apply(const Term& term) {
    if (!std::binary_search(term->freeVariables.begin(), term->freeVariables.end(), variable_)) {
      return term;  // no free occurrence
    }
    if (term->kind == TermKind::Variable) return value_;
    if (work_ != nullptr) ++*work_;
    if (isBinder(term->kind) &&
        std::binary_search(freeInValue_.begin(), freeInValue_.end(), term->variable)) {
      // Rename the binder so that it does not capture a free variable of the value.
      const int fresh = fresh_++;
      Substitution rename(term->variable, makeVariable(fresh), fresh_, work_);
      std::vector<Term> children;
      for (const Term& child : term->children) children.push_back(apply(rename.apply(child)));
      fresh_ = std::max(fresh_, rename.fresh_);
      return withVariableAndChildren(term, fresh, std::move(children));
    }
    bool changed = false;
    std::vector<Term> children = mapChildren(
        term, [this](const Term& c) { return apply(c); }, &changed);
    return changed ? withChildren(term, std::move(children)) : term;
  }

 private:
  int variable_;
  Term value_;
  std::vector<int> freeInValue_;
  int fresh_;
  long long* work_;
};

class BetaReducer {
 public:
  explicit BetaReducer(int maxSteps) : stepsLeft_(maxSteps) {}
  bool exhausted() const { return exhausted_; }

  Term reduce(const Term& term) {
    if (exhausted_ || term->betaNormal) return term;
    if (++work_ > kMaxReductionWork || nesting_ >= kMaxReductionDepth) {
      exhausted_ = true;
      return term;
    }
    ++nesting_;
    Term result = reduceUnbounded(term);
    --nesting_;
    if (!withinBounds(result)) return term;
    return result;
  }

 private:
  // False, and the reduction over, when `term` is past the bounds of betaReduce (term.h).
  bool withinBounds(const Term& term) {
    if (term->depth > kMaxReductionDepth || term->size > kMaxReducedSize) exhausted_ = true;
    return !exhausted_;
  }

  Term reduceUnbounded(const Term& term) {
    switch (term->kind) {
      case TermKind::Constant:
      case TermKind::Variable: return term;
      case TermKind::Application: return reduceApplication(term);
      case TermKind::And:
      case TermKind::Or: return reduceConnective(term);
      default: break;
    }
    std::vector<Term> children;
    bool changed = false;
    for (const Term& child : term->children) {
      children.push_back(reduce(child));
      changed = changed || children.back() != child;
    }
    return changed ? withChildren(term, std::move(children)) : term;
  }

  Term reduceApplication(const Term& term) {
    Term head = reduce(term->children.front());
    std::vector<Term> arguments(term->children.begin() + 1, term->children.end());
    std::size_t next = 0;
    while (head->kind == TermKind::Lambda && next < arguments.size()) {
      if (--stepsLeft_ < 0) {
        exhausted_ = true;
        return term;
      }
      const Term& argument = arguments[next++];
      const int firstFresh = std::max(head->maxVariable, argument->maxVariable) + 1;
      Substitution substitution(head->variable, argument, firstFresh, &work_);
      Term body = substitution.apply(head->children.front());
      if (work_ > kMaxReductionWork || !withinBounds(body)) {
        exhausted_ = true;
        return term;
      }
      head = reduce(body);
      if (exhausted_) return term;
    }
    std::vector<Term> rest;
    bool changed = head != term->children.front() || next > 0;
    for (std::size_t i = next; i < arguments.size(); ++i) {
      rest.push_back(reduce(arguments[i]));
      changed = changed || rest.back() != arguments[i];
    }
    if (!changed) return term;
    return makeApplication(head, std::move(rest));
  }

  Term reduceConnective(const Term& term) {
    std::vector<Term> children;
    bool changed = false;
    for (const Term& child : term->children) {
      Term reduced = reduce(child);
      if (reduced->kind == term->kind) {
        work_ += static_cast<long long>(reduced->children.size());  // flattened in
        children.insert(children.end(), reduced->children.begin(), reduced->children.end());
        changed = true;
      } else {
        changed = changed || reduced != child;
        children.push_back(std::move(reduced));
      }
    }
    return changed ? makeOperator(term->kind, std::move(children)) : term;
  }

  int stepsLeft_;
  long long work_ = 0;  // nodes walked by reduce and rebuilt by substitutions so far
  int nesting_ = 0;     // calls of reduce under way
  bool exhausted_ = false;
};

}  // namespace

std::vector<int> freeVariables(const Term& term) { return term->freeVariables; }

Term substitute(const Term& term, int variable, const Term& value) {
  Substitution substitution(variable, value, std::max(term->maxVariable, value->maxVariable) + 1);
  return substitution.apply(term);
}

Term betaReduce(const Term& term, int maxSteps) {
  BetaReducer reducer(maxSteps);
  Term result = reducer.reduce(term);
  return reducer.exhausted() ? nullptr : result;
}

// ---------------------------------------------------------------------------------------------
// Canonical forms and equality

namespace {

struct Renamer {
  bool flattenAndSort = false;
  int offset = 0;
  std::vector<std::pair<int, int>> bound;  // old -> new, innermost last

  Term apply(const Term& term) {
    switch (term->kind) {
      case TermKind::Constant: return term;
      case TermKind::Variable:
        for (auto it = bound.rbegin(); it != bound.rend(); ++it) {
          if (it->first == term->variable) {
            return it->second == term->variable ? term : makeVariable(it->second);
          }
        }
        return term;
      default: break;
    }
    const bool binds = isBinder(term->kind);
    const int newVariable = binds ? offset + static_cast<int>(bound.size()) : term->variable;
    if (binds) bound.emplace_back(term->variable, newVariable);
    const bool connective = term->kind == TermKind::And || term->kind == TermKind::Or;
    bool changed = false;
    std::vector<Term> children = mapChildren(
        term, [this](const Term& c) { return apply(c); }, &changed);
    if (binds) bound.pop_back();
    if (flattenAndSort && connective) {
      if (!changed) children = term->children;
      std::vector<Term> flat;
      for (Term& child : children) {
        if (child->kind == term->kind) {
          flat.insert(flat.end(), child->children.begin(), child->children.end());
          changed = true;
        } else {
          flat.push_back(std::move(child));
        }
      }
      std::vector<Term> sorted = flat;
      std::stable_sort(sorted.begin(), sorted.end(), [](const Term& a, const Term& b) {
        if (a->hash != b->hash) return a->hash < b->hash;
        return toString(a) < toString(b);
      });
      for (std::size_t i = 0; i < sorted.size(); ++i) changed = changed || sorted[i] != flat[i];
      children = std::move(sorted);
    }
    if (!changed && newVariable == term->variable) return term;
    if (!changed) children = term->children;
    if (binds) return withVariableAndChildren(term, newVariable, std::move(children));
    return withChildren(term, std::move(children));
  }
};

int boundOffset(const Term& term) {
  return term->freeVariables.empty() ? 0 : term->freeVariables.back() + 1;
}

}  // namespace

Term canonicalTerm(const Term& term) {
  Renamer renamer;
  renamer.offset = boundOffset(term);
  return renamer.apply(term);
}

Term exactMatchKey(const Term& term) {
  Renamer renamer;
  renamer.flattenAndSort = true;
  renamer.offset = boundOffset(term);
  return renamer.apply(term);
}

bool alphaEquivalent(const Term& a, const Term& b) {
  return structurallyEqual(canonicalTerm(a), canonicalTerm(b));
}

bool exactMatch(const Term& a, const Term& b) {
  return structurallyEqual(exactMatchKey(a), exactMatchKey(b));
}

namespace {

void collectConstants(const Term& term, std::vector<std::string>* out) {
  if (term->kind == TermKind::Constant) {
    if (std::find(out->begin(), out->end(), term->name) == out->end()) out->push_back(term->name);
    return;
  }
  for (const Term& child : term->children) collectConstants(child, out);
}

}  // namespace

std::vector<std::string> constantsInOrder(const Term& term) {
  std::vector<std::string> out;
  collectConstants(term, &out);
  return out;
}

Term replaceConstants(const Term& term, const std::unordered_map<std::string, Term>& replacements) {
  if (term->kind == TermKind::Constant) {
    auto it = replacements.find(term->name);
    return it == replacements.end() ? term : it->second;
  }
  bool changed = false;
  std::vector<Term> children = mapChildren(
      term, [&](const Term& c) { return replaceConstants(c, replacements); }, &changed);
  return changed ? withChildren(term, std::move(children)) : term;
}

namespace {

// The quantifiers a word can name, held in a lexeme as constants.
constexpr std::array<TermKind, 4> kLexicalOperators = {TermKind::Argmax, TermKind::Argmin,
                                                       TermKind::Count, TermKind::Sum};
// Those of RankingAndQuantifiers beyond the ranking ones.
constexpr std::array<TermKind, 3> kQuantifierOperators = {TermKind::Exists, TermKind::The,
                                                          TermKind::Not};

template <std::size_t N>
bool among(const std::array<TermKind, N>& kinds, TermKind kind) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

}  // namespace

const char* lexicalOperatorsName(LexicalOperators which) {
  switch (which) {
    case LexicalOperators::Ranking: return "ranking";
    case LexicalOperators::RankingAndOr: return "ranking-or";
    case LexicalOperators::RankingAndQuantifiers: return "quantifiers";
    case LexicalOperators::RankingQuantifiersAndOr: return "quantifiers-or";
  }
  return "ranking";
}

bool lexicalOperatorsNamed(const std::string& name, LexicalOperators* which) {
  constexpr std::array<LexicalOperators, 4> kSets = {
      LexicalOperators::Ranking, LexicalOperators::RankingAndOr,
      LexicalOperators::RankingAndQuantifiers, LexicalOperators::RankingQuantifiersAndOr};
  const auto* found = std::find_if(kSets.begin(), kSets.end(), [&](LexicalOperators candidate) {
    return name == lexicalOperatorsName(candidate);
  });
  if (found == kSets.end()) return false;
  *which = *found;
  return true;
}

bool isLexicalOperator(TermKind kind, LexicalOperators which) {
  if (among(kLexicalOperators, kind)) return true;
  if (kind == TermKind::Or) {
    return which == LexicalOperators::RankingAndOr ||
           which == LexicalOperators::RankingQuantifiersAndOr;
  }
  return among(kQuantifierOperators, kind) && (which == LexicalOperators::RankingAndQuantifiers ||
                                               which == LexicalOperators::RankingQuantifiersAndOr);
}

Term operatorsAsConstants(const Term& term, LexicalOperators which) {
  if (term->kind == TermKind::Constant || term->kind == TermKind::Variable) return term;
  bool changed = false;
  std::vector<Term> children = mapChildren(
      term, [which](const Term& c) { return operatorsAsConstants(c, which); }, &changed);
  if (!changed) children = term->children;
  const bool takesNoLambda = term->kind == TermKind::Not || term->kind == TermKind::Or;
  if (takesNoLambda && isLexicalOperator(term->kind, which)) {
    return makeApplication(makeConstant(termKeyword(term->kind)), std::move(children));
  }
  if (isLexicalOperator(term->kind, which)) {
    std::vector<Term> functions;
    functions.reserve(children.size());
    for (const Term& child : children) {
      functions.push_back(makeLambda(term->variable, atomicType("e"), child));
    }
    return makeApplication(makeConstant(termKeyword(term->kind)), std::move(functions));
  }
  return changed ? withChildren(term, std::move(children)) : term;
}

namespace {

// The operator a constant names ("argmax" -> Argmax), or Constant when it names none.
TermKind lexicalOperatorNamed(const std::string& name) {
  for (TermKind kind : kLexicalOperators) {
    if (name == termKeyword(kind)) return kind;
  }
  for (TermKind kind : kQuantifierOperators) {
    if (name == termKeyword(kind)) return kind;
  }
  if (name == termKeyword(TermKind::Or)) return TermKind::Or;
  return TermKind::Constant;
}

// Whether an application of the operator's constant to `arguments` lambdas is one of its forms.
bool operatorArityFits(TermKind kind, std::size_t arguments) {
  switch (kind) {
    case TermKind::Count:
    case TermKind::The: return arguments == 1;
    case TermKind::Exists: return arguments >= 1;  // several bodies are conjoined
    default: return arguments == 2;
  }
}

// The operator that an application of one of its constants to `children` (the constant first)
// writes, or null when it is none of the operator's forms.
Term operatorOfApplication(const std::vector<Term>& children) {
  const TermKind kind = lexicalOperatorNamed(children.front()->name);
  if (kind == TermKind::Constant) return nullptr;
  if (kind == TermKind::Not) {
    return children.size() == 2 ? makeOperator(TermKind::Not, {children[1]}) : nullptr;
  }
  if (kind == TermKind::Or) {
    if (children.size() < 3) return nullptr;  // a disjunction has two disjuncts or more
    return makeOperator(TermKind::Or, std::vector<Term>(children.begin() + 1, children.end()));
  }
  if (!operatorArityFits(kind, children.size() - 1)) return nullptr;
  for (std::size_t i = 1; i < children.size(); ++i) {
    if (children[i]->kind != TermKind::Lambda) return nullptr;
  }
  // One variable for the bodies: the first lambda's, unless another body has it free.
  int variable = children[1]->variable;
  for (std::size_t i = 2; i < children.size(); ++i) {
    const Term& lambda = children[i];
    if (lambda->variable == variable) continue;
    const std::vector<int>& free = lambda->freeVariables;
    if (std::binary_search(free.begin(), free.end(), variable)) {
      int fresh = -1;
      for (std::size_t j = 1; j < children.size(); ++j) {
        fresh = std::max(fresh, children[j]->maxVariable);
      }
      variable = fresh + 1;
      break;
    }
  }
  std::vector<Term> bodies;
  for (std::size_t i = 1; i < children.size(); ++i) {
    const Term& lambda = children[i];
    const Term& body = lambda->children.front();
    bodies.push_back(lambda->variable == variable
                         ? body
                         : substitute(body, lambda->variable, makeVariable(variable)));
  }
  return makeQuantifier(kind, variable, std::move(bodies));
}

}  // namespace

Term constantsAsOperators(const Term& term) {
  if (term->kind == TermKind::Constant || term->kind == TermKind::Variable) return term;
  bool changed = false;
  std::vector<Term> children = mapChildren(
      term, [](const Term& c) { return constantsAsOperators(c); }, &changed);
  if (!changed) children = term->children;
  if (term->kind == TermKind::Application && children.front()->kind == TermKind::Constant) {
    if (Term quantifier = operatorOfApplication(children)) return quantifier;
  }
  return changed ? withChildren(term, std::move(children)) : term;
}

// ---------------------------------------------------------------------------------------------
// Type checking

namespace {

class TypeChecker {
 public:
  TypeChecker(const TypeSystem& types, const std::string& file, int line, int column,
              Diagnostics* diagnostics, const TermPositions* positions)
      : types_(types),
        file_(file),
        line_(line),
        column_(column),
        diagnostics_(diagnostics),
        positions_(positions) {
    // Room for the variables of a typical meaning, so that binding them allocates once.
    bindings_.reserve(8);
    scope_.reserve(8);
    before_.reserve(8);
  }

  // The term's type once every bound variable has the type its uses require (passes to a fixed
  // point, type_check_steps.h).
  TypePtr check(const Term& term) {
    return detail::inferUntilNothingNarrows(bindings_, &before_, [&] { return infer(term); });
  }

 private:
  TypePtr infer(const Term& term) {
    switch (term->kind) {
      case TermKind::Constant: {
        TypePtr type = types_.constantType(term->name);
        if (!type) {
          return fail(term, [&] {
            return "unknown constant '" + term->name +
                   "': no signature in the lang file and no known type after ':'";
          });
        }
        return type;
      }
      case TermKind::Variable: {
        const int binding = bindingOf(term);
        if (binding < 0) {
          return fail(term, [&] {
            return "free variable $" + std::to_string(term->variable) +
                   ": no lambda or quantifier binds it";
          });
        }
        return bindings_[binding].type;
      }
      case TermKind::Application: return inferApplication(term);
      case TermKind::Lambda: {
        // The function takes what its variable is declared as (narrowing checks the uses; the
        // declared type is what a split or a template writes, so it stays as general).
        bind(term, term->variableType);
        TypePtr body = infer(term->children.front());
        scope_.pop_back();
        return body ? functionType(term->variableType, body) : nullptr;
      }
      case TermKind::Or: return inferDisjunction(term);
      case TermKind::And:
      case TermKind::Not:
        for (const Term& child : term->children) {
          if (!expect(child, truth(), {"an argument", term->kind})) {
            return nullptr;
          }
        }
        return truth();
      case TermKind::Equals: {
        TypePtr left = infer(term->children[0]);
        if (!left) return nullptr;
        TypePtr right = infer(term->children[1]);
        if (!right) return nullptr;
        if (!types_.compatible(left, right)) {
          return fail(term, [&] {
            return "'=' compares a " + toString(left) + " with a " + toString(right);
          });
        }
        if (TypePtr both = types_.meet(left, right)) {
          narrow(term->children[0], both);
          narrow(term->children[1], both);
        }
        return truth();
      }
      case TermKind::Less:
      case TermKind::Greater:
        for (const Term& child : term->children) {
          if (!expect(child, number(), {"an argument", term->kind})) {
            return nullptr;
          }
        }
        return truth();
      case TermKind::Exists:
      case TermKind::Count:
      case TermKind::The:
      case TermKind::Argmax:
      case TermKind::Argmin:
      case TermKind::Sum: {
        const int binding = bind(term, entity());
        const Role what{"the body", term->kind};
        bool ok = expect(term->children[0], truth(), what);
        // (exists $v b1 b2 ...) conjoins its bodies (two Geo880 forms are written so).
        for (std::size_t b = 1; ok && term->kind == TermKind::Exists && b < term->children.size();
             ++b) {
          ok = expect(term->children[b], truth(), what);
        }
        if (ok && term->kind != TermKind::Exists && term->children.size() > 1) {
          ok = expect(term->children[1], number(), {"the value", term->kind});
        }
        scope_.pop_back();
        if (!ok) return nullptr;
        switch (term->kind) {
          case TermKind::Exists: return truth();
          case TermKind::Count:
          case TermKind::Sum: return number();
          default: return bindings_[binding].type;  // argmax, argmin, the: one of its entities
        }
      }
    }
    return nullptr;
  }

  TypePtr truth() const { return types_.truthType(); }
  TypePtr number() const { return types_.numberType(); }
  TypePtr entity() const { return types_.entityType(); }

  // Enters the scope of a lambda or quantifier node; its variable starts at `declared`, or at
  // what an earlier pass narrowed it to. Returns the binding's index.
  int bind(const Term& binder, const TypePtr& declared) {
    int index = -1;
    for (std::size_t b = 0; b < bindings_.size(); ++b) {
      if (bindings_[b].binder == binder.get()) index = static_cast<int>(b);
    }
    if (index < 0) {
      // An atomic type is compared by index from here on (a function type is kept: rebuilding
      // it would cost more than its look-ups by name).
      const TypePtr interned =
          declared && !declared->isFunction() ? types_.intern(declared) : declared;
      bindings_.push_back({binder.get(), interned, interned});
      index = static_cast<int>(bindings_.size()) - 1;
    }
    scope_.emplace_back(binder->variable, index);
    return index;
  }
  int bindingOf(const Term& variable) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->first == variable->variable) return it->second;
    }
    return -1;
  }
  // A bare bound variable used where `required` is expected takes the more specific of the two
  // as its type; the next pass re-checks every use with it.
  void narrow(const Term& argument, const TypePtr& required) {
    if (argument->kind != TermKind::Variable || !required || required->isFunction()) return;
    const int binding = bindingOf(argument);
    if (binding < 0) return;
    TypePtr& type = bindings_[binding].type;
    if (type->isFunction()) return;
    if (TypePtr narrower = types_.meet(type, required)) type = narrower;
  }

  // Each disjunct narrows the variables bound outside it on its own; afterwards such a variable
  // has the nearest common supertype of what the disjuncts required: in
  // `(or (town:t $1) (city:t $1))` $1 is a town or a city, a location.
  TypePtr inferDisjunction(const Term& term) {
    std::vector<TypePtr> start;
    for (const Binding& binding : bindings_) start.push_back(binding.type);
    std::vector<TypePtr> joined(start.size());
    for (const Term& child : term->children) {
      for (std::size_t b = 0; b < start.size(); ++b) bindings_[b].type = start[b];
      if (!expect(child, truth(), {"an argument", TermKind::Or})) return nullptr;
      detail::joinDisjunct(types_, start, bindings_, &joined);
    }
    for (std::size_t b = 0; b < start.size(); ++b) {
      if (joined[b]) bindings_[b].type = joined[b];
    }
    return truth();
  }

  // What a term is to its parent, for a message: "the body of 'count'".
  struct Role {
    const char* role;
    TermKind parent;
    std::string text() const { return std::string(role) + " of '" + termKeyword(parent) + "'"; }
  };

  bool expect(const Term& term, const TypePtr& expected, const Role& what) {
    TypePtr type = infer(term);
    if (!type) return false;
    if (!types_.compatible(type, expected)) {
      fail(term, [&] {
        return what.text() + " must be of type " + toString(expected) + ", but '" + toString(term) +
               "' has type " + toString(type);
      });
      return false;
    }
    narrow(term, expected);
    return true;
  }

  TypePtr inferApplication(const Term& term) {
    const Term& head = term->children.front();
    std::vector<TypePtr> arguments;
    for (std::size_t i = 1; i < term->children.size(); ++i) {
      TypePtr type = infer(term->children[i]);
      if (!type) return nullptr;
      arguments.push_back(type);
    }
    if (head->kind == TermKind::Constant) {
      if (const auto* signatures = types_.signatures(head->name)) {
        // Per argument, the join of what the fitting signatures take there (null: no narrowing).
        std::vector<TypePtr> required;
        const Signature* first = detail::fitSignatures(types_, *signatures, arguments, &required);
        if (first != nullptr) {
          for (std::size_t i = 0; i < arguments.size(); ++i) {
            narrow(term->children[i + 1], required[i]);
          }
          return first->result;
        }
        return fail(term, [&] {
          std::string given;
          for (const TypePtr& type : arguments)
            given += (given.empty() ? "" : ", ") + toString(type);
          std::string known;
          for (const Signature& signature : *signatures) {
            std::string one;
            for (const TypePtr& type : signature.arguments) one += toString(type) + " ";
            known += (known.empty() ? "" : "; ") + one + "-> " + toString(signature.result);
          }
          return "no signature of '" + head->name + "' takes (" + given +
                 "); its signatures: " + known;
        });
      }
      TypePtr type = types_.constantType(head->name);
      if (type && !type->isFunction()) {
        return fail(term, [&] {
          return "'" + head->name + "' is a constant of type " + toString(type) +
                 ", not a function; it cannot take arguments";
        });
      }
    }
    TypePtr type = infer(head);
    if (!type) return nullptr;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      if (!type->isFunction()) {
        return fail(term, [&] {
          return "'" + toString(head) + "' of type " + toString(type) +
                 " is applied to more arguments than it takes";
        });
      }
      if (!types_.compatible(arguments[i], type->from)) {
        return fail(term->children[i + 1], [&] {
          return "argument " + std::to_string(i + 1) + " of '" + toString(head) +
                 "' must be of type " + toString(type->from) + ", found " + toString(arguments[i]);
        });
      }
      narrow(term->children[i + 1], type->from);
      type = type->to;
    }
    return type;
  }

  // Fails the check; the message is made only when it is reported (a check without diagnostics,
  // as the chart runs on every meaning, only asks whether the term is well typed).
  template <typename MakeMessage>
  TypePtr fail(const Term& term, MakeMessage&& makeMessage) {
    if (failed_ || diagnostics_ == nullptr) {
      failed_ = true;
      return nullptr;
    }
    int line = line_;
    int column = column_;
    if (positions_) {
      auto it = positions_->find(term.get());
      if (it != positions_->end()) {
        line = it->second.first;
        column = it->second.second;
      }
    }
    diagnostics_->error(file_, line, column, makeMessage());
    failed_ = true;
    return nullptr;
  }

  const TypeSystem& types_;
  const std::string& file_;
  int line_;
  int column_;
  Diagnostics* diagnostics_;
  const TermPositions* positions_;
  struct Binding {
    const void* binder;  // the lambda or quantifier node
    TypePtr declared;    // its variable's declared type (e for quantifiers)
    TypePtr type;        // narrowed by the uses seen so far
  };
  std::vector<Binding> bindings_;
  std::vector<std::pair<int, int>> scope_;  // variable number -> index into bindings_
  std::vector<TypePtr> before_;             // check(): the bindings' types before a pass
  bool failed_ = false;
};

}  // namespace

TypePtr typeCheck(const Term& term, const TypeSystem& types, const std::string& file, int line,
                  int column, Diagnostics* diagnostics, const TermPositions* positions) {
  TypeChecker checker(types, file, line, column, diagnostics, positions);
  return checker.check(term);
}

}  // namespace gwb::ccg
