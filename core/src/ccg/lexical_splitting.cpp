#include "gwb/ccg/lexical_splitting.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

namespace gwb::ccg {

namespace {

using Path = std::vector<int>;
using Scope = std::vector<std::pair<int, TypePtr>>;  // binders above a subterm, outermost first

// `term` rebuilt with other children (same kind, variable and type).
Term rebuild(const Term& term, std::vector<Term> children) {
  switch (term->kind) {
    case TermKind::Application: {
      Term head = children.front();
      children.erase(children.begin());
      return makeApplication(head, std::move(children));
    }
    case TermKind::Lambda: return makeLambda(term->variable, term->variableType, children.front());
    case TermKind::And:
    case TermKind::Or:
    case TermKind::Not:
    case TermKind::Equals:
    case TermKind::Less:
    case TermKind::Greater: return makeOperator(term->kind, std::move(children));
    case TermKind::Exists:
    case TermKind::Count:
    case TermKind::The:
    case TermKind::Argmax:
    case TermKind::Argmin:
    case TermKind::Sum: return makeQuantifier(term->kind, term->variable, std::move(children));
    case TermKind::Constant:
    case TermKind::Variable: break;
  }
  return term;
}

Term replaceAt(const Term& term, const Path& path, std::size_t depth, const Term& replacement) {
  if (depth == path.size()) return replacement;
  std::vector<Term> children = term->children;
  const auto index = static_cast<std::size_t>(path[depth]);
  children[index] = replaceAt(children[index], path, depth + 1, replacement);
  return rebuild(term, std::move(children));
}

bool occursFree(const Term& term, int variable) {
  const std::vector<int> free = freeVariables(term);
  return std::binary_search(free.begin(), free.end(), variable);
}

// A candidate subterm: where it is (the `and` node for a conjunct subset), the binders above
// it, and for a subset the indices of the extracted conjuncts.
struct Candidate {
  Path path;
  Scope scope;
  std::vector<int> conjuncts;  // empty: the whole node at `path`
};

void collectCandidates(const Term& term, Path* path, Scope* scope, const SplitOptions& options,
                       std::vector<Candidate>* out) {
  if (!path->empty() && term->kind != TermKind::Variable) out->push_back({*path, *scope, {}});
  if (term->kind == TermKind::And && term->children.size() >= 3) {
    const int n = static_cast<int>(term->children.size());
    const int largest = std::min(options.maxExtractedConjuncts, n - 1);
    if (n <= 16) {
      for (unsigned mask = 1; mask < (1U << n); ++mask) {
        const int size = __builtin_popcount(mask);
        if (size < 2 || size > largest) continue;
        std::vector<int> chosen;
        for (int i = 0; i < n; ++i) {
          if ((mask & (1U << i)) != 0) chosen.push_back(i);
        }
        out->push_back({*path, *scope, chosen});
      }
    }
  }
  const bool binds = isBinder(term->kind);
  if (binds) {
    scope->emplace_back(term->variable,
                        term->kind == TermKind::Lambda ? term->variableType : atomicType("e"));
  }
  for (std::size_t i = 0; i < term->children.size(); ++i) {
    // Limited application: the head of an application is never extracted.
    if (term->kind == TermKind::Application && i == 0) continue;
    path->push_back(static_cast<int>(i));
    collectCandidates(term->children[i], path, scope, options, out);
    path->pop_back();
  }
  if (binds) scope->pop_back();
}

const Term& termAt(const Term& term, const Path& path) {
  const Term* node = &term;
  for (int index : path) node = &(*node)->children[static_cast<std::size_t>(index)];
  return *node;
}

// The extracted subterm e of a candidate and the term with e replaced by `hole`.
std::pair<Term, Term> extract(const Term& root, const Candidate& candidate, const Term& hole) {
  const Term& node = termAt(root, candidate.path);
  if (candidate.conjuncts.empty()) return {node, replaceAt(root, candidate.path, 0, hole)};
  std::vector<Term> extracted;
  std::vector<Term> rest;
  std::size_t next = 0;
  for (std::size_t i = 0; i < node->children.size(); ++i) {
    if (next < candidate.conjuncts.size() && candidate.conjuncts[next] == static_cast<int>(i)) {
      extracted.push_back(node->children[i]);
      if (next == 0) rest.push_back(hole);
      ++next;
    } else {
      rest.push_back(node->children[i]);
    }
  }
  Term replaced = makeOperator(TermKind::And, std::move(rest));
  return {makeOperator(TermKind::And, std::move(extracted)),
          replaceAt(root, candidate.path, 0, replaced)};
}

// `term` eta-reduced at its top: λv.M becomes F when M reduces to F(v) with v not free in F
// (λa.λb.y(a, b) -> λa.y(a) -> y).
Term etaReduceTop(const Term& term) {
  if (term->kind != TermKind::Lambda) return term;
  const Term body = etaReduceTop(term->children.front());
  if (body->kind == TermKind::Application) {
    const std::vector<Term>& children = body->children;  // head, arguments
    const Term& last = children.back();
    bool reducible = last->kind == TermKind::Variable && last->variable == term->variable;
    for (std::size_t i = 0; reducible && i + 1 < children.size(); ++i) {
      reducible = !occursFree(children[i], term->variable);
    }
    if (reducible) {
      if (children.size() == 2) return children.front();
      return makeApplication(children.front(),
                             std::vector<Term>(children.begin() + 1, children.end() - 1));
    }
  }
  return body == term->children.front() ? term
                                        : makeLambda(term->variable, term->variableType, body);
}

// Whether λy.body (y = `variable`) is the identity up to eta-reduction.
bool isEtaIdentity(const Term& body, int variable) {
  const Term reduced = etaReduceTop(body);
  return reduced->kind == TermKind::Variable && reduced->variable == variable;
}

}  // namespace

std::string toString(const LexicalItem& item) {
  std::string out;
  for (const std::string& word : item.words) out += word + " ";
  return out + ":- " + toString(item.category) + " : " + toString(item.semantics);
}

Category categoryForType(const TypePtr& type) {
  if (type->isFunction()) {
    return makeComplexCategory(categoryForType(type->to), Slash::Vertical,
                               categoryForType(type->from));
  }
  return makeAtomicCategory(type->atom == "t" ? "S" : "NP");
}

TypePtr typeOfClosedTerm(const Term& term, const TypeSystem& types) {
  return typeCheck(term, types, "", 0, 0, nullptr);
}

std::vector<SemanticSplit> splitSemantics(const Term& semantics, const TypeSystem& types,
                                          const SplitOptions& options) {
  std::vector<SemanticSplit> out;
  std::set<std::string> seen;
  const int fresh = std::max(semantics->maxVariable, 0) + 1;
  auto emit = [&](const Term& function, const Term& argument, bool composition) {
    SemanticSplit split{canonicalTerm(function), canonicalTerm(argument), composition};
    const std::string key = std::string(composition ? "B " : "A ") + toString(split.function) +
                            " | " + toString(split.argument);
    if (seen.insert(key).second) out.push_back(std::move(split));
  };

  // Application: h = f(g).
  std::vector<Candidate> candidates;
  Path path;
  Scope scope;
  collectCandidates(semantics, &path, &scope, options, &candidates);
  for (const Candidate& candidate : candidates) {
    const Term& node = termAt(semantics, candidate.path);
    Term probe = candidate.conjuncts.empty() ? node : extract(semantics, candidate, node).first;
    const std::vector<int> free = freeVariables(probe);
    std::vector<std::pair<int, TypePtr>> abstracted;
    for (const auto& binder : candidate.scope) {
      if (!std::binary_search(free.begin(), free.end(), binder.first)) continue;
      auto same = std::find_if(abstracted.begin(), abstracted.end(),
                               [&](const auto& b) { return b.first == binder.first; });
      if (same != abstracted.end()) abstracted.erase(same);  // an inner binder shadows
      abstracted.push_back(binder);
    }
    if (static_cast<int>(abstracted.size()) > options.maxAbstractedVariables) continue;
    std::vector<Term> variables;
    for (const auto& binder : abstracted) variables.push_back(makeVariable(binder.first));
    Term hole =
        variables.empty() ? makeVariable(fresh) : makeApplication(makeVariable(fresh), variables);
    auto [extracted, body] = extract(semantics, candidate, hole);
    Term argument = extracted;
    for (auto it = abstracted.rbegin(); it != abstracted.rend(); ++it) {
      argument = makeLambda(it->first, it->second, argument);
    }
    // f = λy.λx.y(x) is the identity up to eta-reduction (e the body of h's abstractions, g is
    // h itself): not made when SplitOptions::etaIdentityFunctions is off.
    if (!options.etaIdentityFunctions && isEtaIdentity(body, fresh)) continue;
    TypePtr argumentType = typeOfClosedTerm(argument, types);
    if (!argumentType) continue;
    emit(makeLambda(fresh, argumentType, body), argument, false);
  }

  // Composition: h = λx.f(g(x)).
  if (options.composition && semantics->kind == TermKind::Lambda) {
    const int x = semantics->variable;
    const Term& body = semantics->children.front();
    std::vector<Candidate> inner;
    Path innerPath;
    Scope innerScope;
    collectCandidates(body, &innerPath, &innerScope, options, &inner);
    for (const Candidate& candidate : inner) {
      const Term& node = termAt(body, candidate.path);
      Term probe = candidate.conjuncts.empty() ? node : extract(body, candidate, node).first;
      const std::vector<int> free = freeVariables(probe);
      if (!std::binary_search(free.begin(), free.end(), x)) continue;
      bool boundInside = false;
      for (const auto& binder : candidate.scope) {
        if (std::binary_search(free.begin(), free.end(), binder.first)) boundInside = true;
      }
      if (boundInside) continue;
      auto [extracted, rest] = extract(body, candidate, makeVariable(fresh));
      if (occursFree(rest, x)) continue;
      Term argument = makeLambda(x, semantics->variableType, extracted);
      TypePtr argumentType = typeOfClosedTerm(argument, types);
      if (!argumentType || !argumentType->isFunction()) continue;
      emit(makeLambda(fresh, argumentType->to, rest), argument, true);
    }
  }
  return out;
}

std::vector<LexicalSplit> splitLexicalItem(const LexicalItem& item, const TypeSystem& types,
                                           const SplitOptions& options) {
  std::vector<LexicalSplit> out;
  const std::size_t n = item.words.size();
  if (n < 2) return out;
  for (const SemanticSplit& split : splitSemantics(item.semantics, types, options)) {
    TypePtr argumentType = typeOfClosedTerm(split.argument, types);
    if (!argumentType) continue;
    std::vector<std::pair<Combinator, std::pair<Category, Category>>> shapes;  // left, right
    if (!split.composition) {
      const Category y = categoryForType(argumentType);
      shapes.push_back({Combinator::ForwardApplication,
                        {makeComplexCategory(item.category, Slash::Forward, y), y}});
      shapes.push_back({Combinator::BackwardApplication,
                        {y, makeComplexCategory(item.category, Slash::Backward, y)}});
    } else {
      if (item.category->isAtomic()) continue;
      const Category y = categoryForType(argumentType->to);
      const Category& result = item.category->result;
      const Category& z = item.category->argument;
      const Slash slash = item.category->slash;
      if (slash != Slash::Backward) {
        shapes.push_back(
            {Combinator::ForwardComposition,
             {makeComplexCategory(result, Slash::Forward, y), makeComplexCategory(y, slash, z)}});
      }
      if (slash != Slash::Forward) {
        shapes.push_back(
            {Combinator::BackwardComposition,
             {makeComplexCategory(y, slash, z), makeComplexCategory(result, Slash::Backward, y)}});
      }
    }
    for (const auto& [combinator, categories] : shapes) {
      const bool functionLeft = combinator == Combinator::ForwardApplication ||
                                combinator == Combinator::ForwardComposition;
      for (std::size_t k = 1; k < n; ++k) {
        LexicalSplit lexical;
        lexical.combinator = combinator;
        lexical.left.words.assign(item.words.begin(), item.words.begin() + k);
        lexical.right.words.assign(item.words.begin() + k, item.words.end());
        lexical.left.category = categories.first;
        lexical.right.category = categories.second;
        lexical.left.semantics = functionLeft ? split.function : split.argument;
        lexical.right.semantics = functionLeft ? split.argument : split.function;
        out.push_back(std::move(lexical));
      }
    }
  }
  return out;
}

LexicalItem applyTemplate(const Lexeme& lexeme, const LexicalTemplate& lexicalTemplate) {
  std::unordered_map<std::string, Term> slots;
  for (std::size_t i = 0; i < lexeme.constants.size(); ++i) {
    slots["#" + std::to_string(i)] = makeConstant(lexeme.constants[i]);
  }
  return {lexeme.words, lexicalTemplate.category,
          constantsAsOperators(replaceConstants(lexicalTemplate.semantics, slots))};
}

Factoring maximalFactoringOf(const LexicalItem& item, LexicalOperators operators) {
  Factoring factoring;
  maximalFactoring(item.words, item.category, item.semantics, &factoring.lexeme,
                   &factoring.lexicalTemplate, operators);
  return factoring;
}

std::vector<Factoring> partialFactorings(const LexicalItem& item, int maxConstants) {
  std::vector<Factoring> out;
  const std::vector<std::string> constants = constantsInOrder(item.semantics);
  const int m = static_cast<int>(constants.size());
  if (m < 2 || m > maxConstants) return out;
  for (unsigned mask = 1; mask + 1 < (1U << m); ++mask) {
    Factoring factoring;
    factoring.lexeme.words = item.words;
    std::unordered_map<std::string, Term> slots;
    for (int i = 0; i < m; ++i) {
      if ((mask & (1U << i)) == 0) continue;
      slots[constants[i]] = makeConstant("#" + std::to_string(factoring.lexeme.constants.size()));
      factoring.lexeme.constants.push_back(constants[i]);
    }
    factoring.lexicalTemplate.category = item.category;
    factoring.lexicalTemplate.semantics = canonicalTerm(replaceConstants(item.semantics, slots));
    factoring.lexicalTemplate.slotCount = static_cast<int>(factoring.lexeme.constants.size());
    out.push_back(std::move(factoring));
  }
  return out;
}

}  // namespace gwb::ccg
