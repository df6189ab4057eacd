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
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "gwb/ccg/term.h"

namespace gwb::ccg::detail {

// Ids index flat arrays and child lists are (pointer, count) spans: the hot loop of the parser.
// NOLINTBEGIN(cppcoreguidelines-pro-bounds-pointer-arithmetic)
// A growable array of trivially copyable values that grows with realloc: for the sizes the
// arena reaches (hundreds of MB on a long sentence), glibc moves the pages (mremap) instead of
// copying them, so growing never needs the old and the new buffer at once — a std::vector's
// doubling does, and that was a third of a parse's peak memory. Out of memory throws
// std::bad_alloc, as a vector would.
template <typename T>
class ReallocArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "moved by realloc");

 public:
  ReallocArray() = default;
  ReallocArray(const ReallocArray&) = delete;
  ReallocArray& operator=(const ReallocArray&) = delete;
  ReallocArray(ReallocArray&&) = delete;
  ReallocArray& operator=(ReallocArray&&) = delete;
  ~ReallocArray() { std::free(data_); }  // NOLINT(cppcoreguidelines-no-malloc)

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  void pushBack(const T& value) {
    if (size_ == capacity_) reserveFor(size_ + 1);
    data_[size_++] = value;
  }
  // [first, last) may lie in this array: it is found again after growing.
  void append(const T* first, const T* last) {
    const auto count = static_cast<std::size_t>(last - first);
    if (count == 0) return;
    if (size_ + count > capacity_) {
      const bool inside = first >= data_ && first < data_ + size_;
      const std::size_t offset = inside ? static_cast<std::size_t>(first - data_) : 0;
      reserveFor(size_ + count);
      if (inside) first = data_ + offset;
    }
    std::memmove(data_ + size_, first, count * sizeof(T));
    size_ += count;
  }
  void swap(ReallocArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

 private:
  void reserveFor(std::size_t needed) {
    std::size_t capacity = capacity_ == 0 ? 1024 : capacity_;
    while (capacity < needed) capacity += capacity / 2 + 1;
    // NOLINTNEXTLINE(cppcoreguidelines-no-malloc,cppcoreguidelines-owning-memory)
    void* grown = std::realloc(data_, capacity * sizeof(T));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    capacity_ = capacity;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

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

  // typeCheck (term.h) of toTerm(id) without building the Term: the type, null when ill typed.
  // The same passes, narrowing and joins, on the arena's nodes; a binder is identified by its id
  // and depth, as toTerm shares the Term of a subterm met twice at one depth. `types` must not
  // change while the arena lives (the parser's CkyOptions::types, which it keeps by address).
  TypePtr typeOf(Id id, const TypeSystem& types);

  // Keeps only the terms reachable from `roots` (kNone entries are left alone), renumbered in
  // their order, and rewrites `roots` to the new ids; every other id is invalid afterwards, and
  // so is anything keyed by ids (a caller's memo tables). What the arena computes is a function
  // of structure, so compacting changes no result, only which ids name it: a parser compacts
  // between cells so that the garbage of the combinations its beam dropped does not
  // accumulate over a long sentence.
  void compact(std::vector<Id>* roots);

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

  class TypeChecker;
  Id make(TermKind kind, std::int32_t value, const Id* children, std::size_t count);
  static std::uint64_t nodeHash(TermKind kind, std::int32_t value, const Id* children,
                                std::size_t count);
  void rebuildTable(std::size_t slots);
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

  ReallocArray<Node> nodes_;
  ReallocArray<Id> children_;
  std::vector<Id> table_;  // open addressing over nodes_, linear probing, power-of-two size
  ReallocArray<Id> keys_;  // exactMatchKey memo, by id (kNone: not yet)
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::int32_t> nameIds_;
  std::vector<TypePtr> types_;
  std::unordered_map<std::string, std::int32_t> typeIds_;
  std::unordered_map<std::uint64_t, Term> toTermMemo_;  // (id, depth, offset)
  // typeOf's look-ups by constant name id, for the type system `typesOfNames_` (unset: not yet).
  struct NameTypes {
    bool known = false;
    const std::vector<Signature>* signatures = nullptr;
    TypePtr type;  // TypeSystem::constantType
  };
  const TypeSystem* typesOfNames_ = nullptr;
  std::vector<NameTypes> nameTypes_;
  static constexpr std::size_t kToTermMemoLimit = std::size_t{1} << 16;
  int stepsLeft_ = 0;
  int nesting_ = 0;  // calls of reduce under way
  bool exhausted_ = false;
};

// NOLINTEND(cppcoreguidelines-pro-bounds-pointer-arithmetic)

}  // namespace gwb::ccg::detail
