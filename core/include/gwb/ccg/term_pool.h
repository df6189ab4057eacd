// Hash-consing of lambda-calculus terms (term.h): a pool that keeps one representative of every
// structurally distinct term it is given, so that terms from the pool are equal exactly when
// their pointers are (structural equality in O(1)) and memo tables can be keyed by pointer.
//
// `intern(t)` returns the pool's representative of t: t itself when t and all its subterms are
// new to the pool, else a term built from the representatives of t's children (or one found).
// Every subterm of a representative is a representative. The pool owns a reference to each
// representative, so pointers from it stay valid for the pool's lifetime. Terms are compared
// shallowly (kind, name, variable, variable type and the children's pointers), using the
// structural hash each node caches. A pool is used by one thread at a time.
#pragma once

#include <cstddef>
#include <vector>

#include "gwb/ccg/term.h"

namespace gwb::ccg {

class TermPool {
 public:
  TermPool();

  // The representative of `term` (non-null).
  const Term& intern(const Term& term);
  // Whether `term` (the pointer itself) is a representative of this pool.
  bool isRepresentative(const Term& term) const;
  std::size_t size() const { return size_; }

 private:
  // The slot holding `term`'s pointer, or the one holding an equal node whose children are
  // `children` (the representatives of term's children), or the empty slot where it would go.
  std::size_t find(const TermNode& node, const std::vector<Term>* children) const;
  void grow();

  std::vector<Term> slots_;  // open addressing, linear probing; size a power of two
  std::size_t size_ = 0;
};

}  // namespace gwb::ccg
