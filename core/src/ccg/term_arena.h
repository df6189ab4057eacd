// A compact, hash-consed store of lambda-calculus terms for the CKY parser's inner loop: the
// same terms as term.h, but as integer ids into one arena, with variables as de Bruijn indices
// (a variable is the number of binders between it and its own; a free variable $n under D
// binders is D + n), so that alpha-equivalent terms are the same id and structural equality is
// an integer comparison. No reference counting and no allocation per node beyond the arena's
// vectors.
//
// Every operation computes exactly what its term.h counterpart computes, in the parser's
// canonical naming: apply(f, g) and compose(f, g) are combineSemantics' f(g) and λx.f(g(x))
// (category.h: beta-reduction by the same strategy and the same step count, nested and/or
// flattened, application heads flattened), exactMatchKey(t) identifies terms exactly when
// term.h's exactMatchKey does, and toTerm(id) is canonicalTerm of the term. The tests compare
// them on the parser's own workload.
//
// An arena is used by one thread; ids are valid for its lifetime.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gwb/ccg/term.h"

namespace gwb::ccg::detail {

// Ids index flat arrays and child lists are (pointer, count) spans: the hot loop of the parser.
// NOLINTBEGIN(cppcoreguidelines-pro-bounds-pointer-arithmetic)
class TermArena {
 public:
  using Id = std::int32_t;
  static constexpr Id kNone = -1;

  TermArena();

  Id fromTerm(const Term& term);
  // The term with bound variables numbered by binding depth above 1 + its largest free
  // variable (canonicalTerm's naming).
  Term toTerm(Id id);

  // f(g) and λx.f(g(x)), beta-reduced; kNone when the reduction needs more than `maxSteps`
  // steps.
  Id apply(Id function, Id argument, int maxSteps);
  Id compose(Id function, Id argument, int maxSteps);
  // Nested and/or flattened and their arguments in a fixed order: two terms match exactly when
  // their keys are the same id.
  Id exactMatchKey(Id id);

  std::size_t size() const { return nodes_.size(); }

 private:
  // A short list of ids, inline up to 8 (most terms have fewer children): the walks below
  // make one per node visited, and the heap is not what they should spend their time on.
  class IdList {
   public:
    IdList() = default;
    IdList(const Id* first, const Id* last) { append(first, last); }
    IdList(const IdList&) = delete;
    IdList& operator=(const IdList&) = delete;
    IdList(IdList&&) = delete;
    IdList& operator=(IdList&&) = delete;
    ~IdList() = default;
    void add(Id id) {
      if (size_ == capacity_) grow();
      data_[size_++] = id;
    }
    void append(const Id* first, const Id* last) {
      for (; first != last; ++first) add(*first);
    }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Id* begin() { return data_; }
    Id* end() { return data_ + size_; }
    const Id* begin() const { return data_; }
    const Id* end() const { return data_ + size_; }
    Id& operator[](std::size_t i) { return data_[i]; }
    Id operator[](std::size_t i) const { return data_[i]; }

   private:
    void grow() {
      std::vector<Id> bigger(data_, data_ + size_);
      bigger.resize(capacity_ * 2);
      heap_.swap(bigger);
      data_ = heap_.data();
      capacity_ *= 2;
    }
    std::array<Id, 8> inline_ = {};
    std::vector<Id> heap_;
    Id* data_ = inline_.data();
    std::size_t size_ = 0;
    std::size_t capacity_ = 8;
  };

  struct Node {
    TermKind kind;
    bool normal;         // no redex and no and/or directly in the same connective, anywhere
    std::int16_t depth;  // as term.h's TermNode::depth, saturating
    std::int32_t value;  // Constant: name id; Variable: index; Lambda: type id; else 0
    std::int32_t first;  // children_[first, first + count)
    std::int32_t count;
    std::int32_t freeDepth;  // binders needed above the term to close it (0: closed)
    std::int32_t size;       // as term.h's TermNode::size (a tree's count), saturating
    std::uint64_t hash;
  };
  static_assert(sizeof(Node) <= 32, "two nodes to a cache line");

  Id make(TermKind kind, std::int32_t value, const Id* children, std::size_t count);
  Id make(TermKind kind, std::int32_t value, const IdList& children) {
    return make(kind, value, children.begin(), children.size());
  }
  Id makeApplication(Id head, const Id* arguments, std::size_t count);
  Id variable(std::int32_t index) { return make(TermKind::Variable, index, nullptr, 0); }
  const Id* children(Id id) const { return children_.data() + nodes_[id].first; }
  void grow();

  Id fromTerm(const Term& term, std::vector<int>* bound);
  Term toTerm(Id id, int depth, int offset);

  Id shift(Id id, int amount, int cutoff);
  Id substitute(Id id, int index, Id value);
  Id reduce(Id id);
  Id reduceUnbounded(Id id);
  bool withinBounds(Id id);
  Id reduceApplication(Id id);
  Id reduceConnective(Id id);
  Id reduceTop(Id id, int maxSteps);

  std::int32_t nameId(const std::string& name);
  std::int32_t typeId(const TypePtr& type);

  std::vector<Node> nodes_;
  std::vector<Id> children_;
  std::vector<Id> table_;  // open addressing over nodes_, linear probing, power-of-two size
  std::vector<Id> keys_;   // exactMatchKey memo, by id (kNone: not yet)
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::int32_t> nameIds_;
  std::vector<TypePtr> types_;
  std::unordered_map<std::string, std::int32_t> typeIds_;
  std::unordered_map<std::uint64_t, Term> toTermMemo_;  // (id, depth, offset)
  int stepsLeft_ = 0;
  int nesting_ = 0;  // calls of reduce under way
  bool exhausted_ = false;
};

// NOLINTEND(cppcoreguidelines-pro-bounds-pointer-arithmetic)

}  // namespace gwb::ccg::detail
