// Steps of the type checker that term.cpp (on Terms) and term_arena.cpp (on the parser's term
// store) share: the passes to a fixed point, which signatures of a predicate fit its arguments'
// types, and how the disjuncts of an `or` narrow the variables bound outside it. One definition, so
// that the two checkers cannot drift apart on them.
#pragma once

#include <vector>

#include "gwb/ccg/lambda_type.h"

namespace gwb::ccg::detail {

// The term's type once every bound variable has the type its uses require: `inferOnce` is one
// pass over the term (its type, or null when ill typed), narrowing bindings[b].type as it goes
// (a binding made during a pass starts at bindings[b].declared). Narrowing only makes variables
// more specific, so the passes reach a fixed point: at most one per step down the type tree of
// each variable, and one more that narrows nothing. `before` is scratch space.
template <class Bindings, class InferOnce>
TypePtr inferUntilNothingNarrows(const Bindings& bindings, std::vector<TypePtr>* before,
                                 InferOnce&& inferOnce) {
  for (;;) {
    before->clear();
    for (const auto& binding : bindings) before->push_back(binding.type);
    TypePtr type = inferOnce();
    if (!type) return nullptr;
    bool narrowed = false;
    for (std::size_t b = 0; b < bindings.size() && !narrowed; ++b) {
      const TypePtr& start = b < before->size() ? (*before)[b] : bindings[b].declared;
      narrowed = !sameType(start, bindings[b].type);
    }
    if (!narrowed) return type;
  }
}

// The first of `signatures` whose arguments are compatible with `arguments` (null: none); then
// (*required)[i] is the join of what the fitting signatures take at argument i, the type the
// argument is narrowed to.
inline const Signature* fitSignatures(const TypeSystem& types,
                                      const std::vector<Signature>& signatures,
                                      const std::vector<TypePtr>& arguments,
                                      std::vector<TypePtr>* required) {
  const Signature* first = nullptr;
  required->assign(arguments.size(), nullptr);
  for (const Signature& signature : signatures) {
    if (signature.arguments.size() != arguments.size()) continue;
    bool fits = true;
    for (std::size_t i = 0; i < arguments.size() && fits; ++i) {
      fits = types.compatible(arguments[i], signature.arguments[i]);
    }
    if (!fits) continue;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      (*required)[i] = first == nullptr ? signature.arguments[i]
                                        : types.join((*required)[i], signature.arguments[i]);
    }
    if (first == nullptr) first = &signature;
  }
  return first;
}

// After one disjunct: each variable's type (bindings[b].type) joins what the disjuncts before
// left it (*joined, null for the first); no common supertype leaves it as it was before the
// `or` (start).
template <class Bindings>
void joinDisjunct(const TypeSystem& types, const std::vector<TypePtr>& start,
                  const Bindings& bindings, std::vector<TypePtr>* joined) {
  for (std::size_t b = 0; b < start.size(); ++b) {
    const TypePtr& type = bindings[b].type;
    TypePtr& sofar = (*joined)[b];
    if (!sofar) {
      sofar = type;
    } else if (!sameType(sofar, type)) {
      TypePtr both = types.join(sofar, type);
      sofar = both ? both : start[b];
    }
  }
}

}  // namespace gwb::ccg::detail
