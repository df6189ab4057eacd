// Work spread over several processes (ranks), as `mpirun -np N gwb ...` starts them, seen through
// a few collective operations and nothing of the transport: core computes with a Distribution
// and stays free of MPI; the MPI implementation lives in mpi/ (target gwb_mpi), which the CLI
// links when GWB_WITH_MPI is on. SingleProcess is the one-rank implementation every caller gets
// by default, under which each operation is a copy.
//
// Every operation is collective: every rank calls it, in the same order, or the job hangs. What
// a caller needs to stay bitwise reproducible for any number of ranks is to decide its order of
// summation itself: gather the parts in a fixed order on rank 0, reduce there, and broadcast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gwb {

class Distribution {
 public:
  virtual ~Distribution() = default;
  virtual int rank() const = 0;  // 0 .. size() - 1
  virtual int size() const = 0;  // at least 1
  bool leader() const { return rank() == 0; }

  // Every rank passes its bytes; rank 0 gets every rank's, in rank order; the others get an
  // empty vector.
  virtual std::vector<std::string> gather(const std::string& mine) = 0;
  // Rank 0's `bytes` replace every other rank's.
  virtual void broadcast(std::string& bytes) = 0;
  // Point to point, for work queues (rank 0 hands out work, the others ask for it): `bytes` to
  // rank `to`; the next message from any rank, with its sender. Not collective.
  virtual void send(int to, const std::string& bytes) = 0;
  virtual std::string receiveFromAny(int* from) = 0;
  // True on every rank when `ok` is true on every rank.
  virtual bool allTrue(bool ok) = 0;
  // Prints `message` (with this rank's number when there are several) on stderr and ends the
  // whole job with exit status 1: for an error that only this rank met, while the others may be
  // waiting in a collective operation.
  [[noreturn]] virtual void abort(const std::string& message) = 0;
  // Payload bytes this rank has sent and received so far (for benchmarks).
  virtual std::uint64_t bytesCommunicated() const = 0;
};

// One process, one rank.
class SingleProcess final : public Distribution {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
  void broadcast(std::string&) override {}
  bool allTrue(bool ok) override { return ok; }
  void send(int to, const std::string& bytes) override;
  std::string receiveFromAny(int* from) override;
  [[noreturn]] void abort(const std::string& message) override;
  std::uint64_t bytesCommunicated() const override { return 0; }
};

// The process-wide single-process distribution (for defaults).
Distribution& singleProcess();

// Splits items 0..costs.size()-1 into `parts` consecutive ranges of about equal total cost:
// range p is [bounds[p], bounds[p + 1]). Every rank computes the same bounds from the same
// costs. A range may be empty (more parts than items).
std::vector<std::size_t> balancedRanges(const std::vector<std::size_t>& costs, int parts);

// Plain bytes for the collective operations: numbers in this machine's representation (every
// rank of a job runs the same binary on the same kind of machine), strings with their length.
class ByteWriter {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void putString(const std::string& text) {
    put<std::uint64_t>(text.size());
    bytes_ += text;
  }
  void putDoubles(const std::vector<double>& values) {
    put<std::uint64_t>(values.size());
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const std::string& bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  std::string getString() {
    const auto length = static_cast<std::size_t>(get<std::uint64_t>());
    return std::string(take(length), length);
  }
  std::vector<double> getDoubles() {
    const auto count = static_cast<std::size_t>(get<std::uint64_t>());
    std::vector<double> values(count);
    if (count > 0) std::memcpy(values.data(), take(count * sizeof(double)), count * sizeof(double));
    return values;
  }
  bool atEnd() const { return offset_ == bytes_.size(); }

 private:
  const char* take(std::size_t n) {
    if (n > bytes_.size() - offset_)
      throw std::runtime_error("distribution: a message ended early (ranks out of step)");
    const char* at = bytes_.data() + offset_;
    offset_ += n;
    return at;
  }
  const std::string& bytes_;
  std::size_t offset_ = 0;
};

}  // namespace gwb
