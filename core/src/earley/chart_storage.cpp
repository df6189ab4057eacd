#include "gwb/earley/chart_storage.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "gwb/common/memory_budget.h"

namespace gwb {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;       // 2 MiB
constexpr std::size_t kFirstBlock = std::size_t{64} << 10;    // 64 KiB: a sentence's chart
constexpr std::size_t kLargestBlock = std::size_t{64} << 20;  // 64 MiB

std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

ChartStorage::ChartStorage(ChartStorage&& other) noexcept
    : blocks_(std::move(other.blocks_)),
      current_(other.current_),
      offset_(other.offset_),
      used_(other.used_),
      purpose_(other.purpose_) {
  other.blocks_.clear();
  other.current_ = other.offset_ = other.used_ = 0;
}

ChartStorage& ChartStorage::operator=(ChartStorage&& other) noexcept {
  if (this != &other) {
    release();
    blocks_ = std::move(other.blocks_);
    current_ = other.current_;
    offset_ = other.offset_;
    used_ = other.used_;
    purpose_ = other.purpose_;
    other.blocks_.clear();
    other.current_ = other.offset_ = other.used_ = 0;
  }
  return *this;
}

ChartStorage::~ChartStorage() { release(); }

void ChartStorage::release() {
  for (const Block& b : blocks_) {
    std::free(b.data);
    releaseMemory(b.size);
  }
  blocks_.clear();
  current_ = offset_ = used_ = 0;
}

void ChartStorage::rewind() {
  current_ = 0;
  offset_ = 0;
  used_ = 0;
}

std::size_t ChartStorage::capacityBytes() const {
  std::size_t total = 0;
  for (const Block& b : blocks_) total += b.size;
  return total;
}

void ChartStorage::copyBytes(void* to, const void* from, std::size_t bytes) {
  std::memcpy(to, from, bytes);
}

void* ChartStorage::openRegion(std::size_t minBytes, std::size_t alignment,
                               std::size_t* roomBytes) {
  auto* const start = static_cast<unsigned char*>(allocate(minBytes, alignment));
  // All the room left in the block: closeRegion() gives back what the region does not use.
  const Block& b = blocks_[current_];
  const auto room = static_cast<std::size_t>(b.data + b.size - start);
  used_ += room - minBytes;
  offset_ = b.size;
  *roomBytes = room;
  return start;
}

void* ChartStorage::growRegion(void* region, std::size_t usedBytes, std::size_t minBytes,
                               std::size_t alignment, std::size_t* roomBytes) {
  // The region fills its block to the end: it moves to the next block with room, or a new one.
  const Block& old = blocks_[current_];
  used_ -= static_cast<std::size_t>(old.data + old.size - static_cast<unsigned char*>(region));
  void* const moved = openRegion(usedBytes + minBytes, alignment, roomBytes);
  if (usedBytes > 0) copyBytes(moved, region, usedBytes);
  return moved;
}

void ChartStorage::closeRegion(void* region, std::size_t usedBytes) {
  const Block& b = blocks_[current_];
  const auto start = static_cast<std::size_t>(static_cast<unsigned char*>(region) - b.data);
  used_ -= b.size - start - usedBytes;
  offset_ = start + usedBytes;
}

void* ChartStorage::allocate(std::size_t bytes, std::size_t alignment) {
  // The first block (after a rewind, the next one) with room.
  while (current_ < blocks_.size()) {
    const Block& b = blocks_[current_];
    const std::size_t start = roundUp(offset_, alignment);
    if (start + bytes <= b.size) {
      offset_ = start + bytes;
      used_ += bytes;
      return b.data + start;
    }
    ++current_;
    offset_ = 0;
  }
  // A new block, twice what is mapped so far (within bounds), and at least the request.
  std::size_t size = std::clamp(capacityBytes(), kFirstBlock, kLargestBlock);
  size = std::max(size, roundUp(bytes, kFirstBlock));
  Block block;
  if (size >= kHugePage) size = roundUp(size, kHugePage);
  reserveMemory(size, purpose_);
  if (size >= kHugePage) {
    block.data = static_cast<unsigned char*>(std::aligned_alloc(kHugePage, size));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: where transparent huge pages are off this changes nothing.
    if (block.data) madvise(block.data, size, MADV_HUGEPAGE);
#endif
  } else {
    block.data = static_cast<unsigned char*>(std::malloc(size));
  }
  if (!block.data) {
    releaseMemory(size);
    throw std::bad_alloc();
  }
  block.size = size;
  blocks_.push_back(block);
  current_ = blocks_.size() - 1;
  offset_ = bytes;
  used_ += bytes;
  return block.data;
}

}  // namespace gwb
