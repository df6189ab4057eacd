// Memory for the finished state sets of an Earley chart.
//
// A whole discourse parsed as one string leaves millions of items behind. Growing one vector
// per state set costs growth copies, leaves up to half of each vector's capacity unused, and
// scatters the chart over the heap in small pieces. Instead ChartStorage hands out large blocks
// filled front to back. The items of the set under construction grow in place at the end of the
// block being filled (an open region: all the room left in that block, moved to a larger block,
// with one copy, only when it runs out) and stay there when the set is finished, which trims the
// region to its items; the set's smaller lists are copied in when it is finished. Blocks of 2 MiB
// and more are aligned to 2 MiB and, on Linux, advised for transparent huge pages, which spares the
// processor most page-table walks on a chart of hundreds of megabytes. rewind() makes every block
// free again without returning it, so a chart parsed into repeatedly (a batch of discourses, an EM
// iteration) reuses memory that is already mapped.
//
// Invariants: memory handed out stays at its address until rewind() or destruction; blocks
// are never shared between storages (a copied chart copies its items into its own storage).
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

#include "gwb/common/const_span.h"

namespace gwb {

class ChartStorage {
 public:
  ChartStorage() = default;
  // `purpose` names what the memory is for in a memory-budget error ("the Earley chart").
  explicit ChartStorage(const char* purpose) : purpose_(purpose) {}
  ChartStorage(const ChartStorage&) = delete;
  ChartStorage& operator=(const ChartStorage&) = delete;
  ChartStorage(ChartStorage&& other) noexcept;
  ChartStorage& operator=(ChartStorage&& other) noexcept;
  ~ChartStorage();

  // Copies `values` into the storage and returns where they now live (nullptr when empty).
  // T must be trivially copyable.
  template <typename T>
  const T* store(const T* values, std::size_t count) {
    if (count == 0) return nullptr;
    void* to = allocate(count * sizeof(T), alignof(T));
    copyBytes(to, values, count * sizeof(T));
    return static_cast<const T*>(to);
  }
  template <typename T>
  const T* store(const std::vector<T>& values) {
    return store(values.data(), values.size());
  }
  // Room for `count` values of T (trivially copyable and destructible), constructed by default;
  // the caller fills them in place. nullptr when `count` is 0.
  template <typename T>
  T* allocateArray(std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "blocks are reused and freed without running destructors");
    if (count == 0) return nullptr;
    auto* const to = static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic): within the block
    for (std::size_t i = 0; i < count; ++i) new (to + i) T;
    return to;
  }

  // The open region (at most one at a time; nothing else may be stored while it is open):
  // openRegion() returns room for at least `minBytes` bytes, aligned to `alignment`, and how much
  // room there is; growRegion() returns room for at least `minBytes` more than `usedBytes`, with
  // the region's first `usedBytes` bytes copied there when it had to move; closeRegion() keeps
  // the first `usedBytes` bytes and frees the rest for what is stored next.
  void* openRegion(std::size_t minBytes, std::size_t alignment, std::size_t* roomBytes);
  void* growRegion(void* region, std::size_t usedBytes, std::size_t minBytes, std::size_t alignment,
                   std::size_t* roomBytes);
  void closeRegion(void* region, std::size_t usedBytes);

  // Everything handed out becomes free again; the blocks stay mapped for the next parse.
  void rewind();
  // Bytes in blocks (mapped), and bytes handed out since the last rewind.
  std::size_t capacityBytes() const;
  std::size_t usedBytes() const { return used_; }

 private:
  struct Block {
    unsigned char* data = nullptr;
    std::size_t size = 0;
  };
  void* allocate(std::size_t bytes, std::size_t alignment);
  static void copyBytes(void* to, const void* from, std::size_t bytes);
  void release();

  std::vector<Block> blocks_;
  std::size_t current_ = 0;  // block being filled
  std::size_t offset_ = 0;   // first free byte in it
  std::size_t used_ = 0;
  const char* purpose_ = "the Earley chart";
};

}  // namespace gwb
