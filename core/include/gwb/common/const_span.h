// A read-only view of consecutive values owned elsewhere: chart state sets in ChartStorage,
// the right-hand sides and rule lists a CompiledGrammar keeps back to back. C++17 has no
// std::span; this has the part of its interface the core needs.
//
// Invariant: the view is valid while its owner keeps the values at their address (see the
// owner's own rules on when they move).
#pragma once

#include <cstddef>
#include <vector>

namespace gwb {

template <typename T>
class ConstSpan {
 public:
  ConstSpan() = default;
  ConstSpan(const T* data, std::size_t size) : data_(data), size_(size) {}
  explicit ConstSpan(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}

  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t k) const { return data_[k]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gwb
