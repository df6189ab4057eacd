#include "gwb/mpi/mpi_distribution.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

namespace gwb::mpi {

namespace {

// MPI counts are ints: long messages go in pieces of at most 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;
constexpr int kSizeTag = 1;
constexpr int kBytesTag = 2;
// Point-to-point messages of work queues, apart from the gathers'.
constexpr int kQueueSizeTag = 3;
constexpr int kQueueBytesTag = 4;

class MpiWorld final : public Distribution {
 public:
  MpiWorld() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiWorld() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> gather(const std::string& mine) override {
    std::vector<std::string> all;
    if (rank_ != 0) {
      send(mine, 0);
      return all;
    }
    all.resize(static_cast<std::size_t>(size_));
    all[0] = mine;
    for (int from = 1; from < size_; ++from) all[static_cast<std::size_t>(from)] = receive(from);
    return all;
  }

  void broadcast(std::string& bytes) override {
    std::uint64_t length = bytes.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank_ != 0) bytes.resize(static_cast<std::size_t>(length));
    for (std::size_t at = 0; at < length; at += kPiece) {
      const std::size_t n = std::min<std::size_t>(kPiece, length - at);
      MPI_Bcast(bytes.data() + at, static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    bytes_ += length;
  }

  void send(int to, const std::string& bytes) override {
    send(bytes, to, kQueueSizeTag, kQueueBytesTag);
  }

  std::string receiveFromAny(int* from) override {
    // Polls with short sleeps rather than blocking in MPI_Recv, which spins a core at 100% —
    // the dispatching rank would take the CPU from the ranks that work beside it.
    MPI_Status status;
    for (;;) {
      int waiting = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kQueueSizeTag, MPI_COMM_WORLD, &waiting, &status);
      if (waiting != 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (from != nullptr) *from = status.MPI_SOURCE;
    return receive(status.MPI_SOURCE, kQueueSizeTag, kQueueBytesTag);
  }

  bool allTrue(bool ok) override {
    int mine = ok ? 1 : 0;
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
  }

  [[noreturn]] void abort(const std::string& message) override {
    std::cout.flush();
    std::cerr << message << " (rank " << rank_ << " of " << size_ << ")" << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);  // MPI_Abort does not return; should it, this rank still ends
  }

  std::uint64_t bytesCommunicated() const override { return bytes_; }

 private:
  void send(const std::string& bytes, int to, int sizeTag = kSizeTag, int bytesTag = kBytesTag) {
    std::uint64_t length = bytes.size();
    MPI_Send(&length, 1, MPI_UINT64_T, to, sizeTag, MPI_COMM_WORLD);
    for (std::size_t at = 0; at < length; at += kPiece) {
      const std::size_t n = std::min<std::size_t>(kPiece, length - at);
      MPI_Send(bytes.data() + at, static_cast<int>(n), MPI_CHAR, to, bytesTag, MPI_COMM_WORLD);
    }
    bytes_ += length;
  }
  std::string receive(int from, int sizeTag = kSizeTag, int bytesTag = kBytesTag) {
    std::uint64_t length = 0;
    MPI_Recv(&length, 1, MPI_UINT64_T, from, sizeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::string bytes(static_cast<std::size_t>(length), '\0');
    for (std::size_t at = 0; at < length; at += kPiece) {
      const std::size_t n = std::min<std::size_t>(kPiece, length - at);
      MPI_Recv(bytes.data() + at, static_cast<int>(n), MPI_CHAR, from, bytesTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
    bytes_ += length;
    return bytes;
  }

  int rank_ = 0;
  int size_ = 1;
  std::uint64_t bytes_ = 0;
};

}  // namespace

bool launchedByMpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

std::unique_ptr<Distribution> startMpi(int& argc, char**& argv) {
  int provided = 0;
  // Only the main thread calls MPI; worker threads compute between the collective calls.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // An error in MPI itself ends the job with MPI's message rather than returning codes that
  // every call site would have to check.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  return std::make_unique<MpiWorld>();
}

}  // namespace gwb::mpi
