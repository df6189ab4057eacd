// How much memory a run may use, and what it was building when it ran out.
//
// A long discourse parsed as one string can ask for more memory than the machine has; before
// this budget the run died with "std::bad_alloc" and status 134. The budget is process-wide: a
// limit in bytes (0: none) that the structures whose size grows with the input — the Earley
// chart's storage (chart_storage.h) above all — reserve from before they allocate. Going over
// it throws MemoryBudgetExceeded, a std::bad_alloc whose what() says what was being built and
// how big it was, so one `catch (const std::bad_alloc&)` at the command level handles both a
// budget that is spent and a real allocation failure.
//
// MemoryContext names the work in progress on the current thread ("parsing line 3 of in.txt
// (812 words)"). Contexts nest; a MemoryContext that unwinds because of an exception keeps its
// description for outOfMemoryMessage(), so the catch site can say what failed even after the
// stack has been unwound.
//
// Invariants: reserved bytes never go below zero; every reserveMemory() that succeeded is
// matched by one releaseMemory() of the same size.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>

namespace gwb {

// Installed memory in bytes (0 when the system does not say).
std::uint64_t physicalMemoryBytes();
// The share of physical memory (or of RLIMIT_AS, when that is lower) the default budget allows.
inline constexpr double kDefaultMemoryFraction = 0.75;
// kDefaultMemoryFraction of the smaller of physical memory and the address-space limit.
std::uint64_t defaultMemoryBudget();

// "512M", "4G", "1.5GiB", "1048576" (bytes), "0" (no limit): binary units K, M, G, T with an
// optional "B" or "iB". nullopt and *error ("expected ...") on anything else.
std::optional<std::uint64_t> parseByteSize(std::string_view text, std::string* error = nullptr);
// "512 MiB", "1.5 GiB", "312 bytes".
std::string formatBytes(std::uint64_t bytes);

// The process-wide budget in bytes; 0 (the default) means no limit.
void setMemoryBudget(std::uint64_t bytes);
std::uint64_t memoryBudget();
// Bytes currently reserved against the budget, by every thread.
std::uint64_t reservedMemory();

class MemoryBudgetExceeded : public std::bad_alloc {
 public:
  explicit MemoryBudgetExceeded(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// Reserves `bytes` for `what` ("the Earley chart"); throws MemoryBudgetExceeded, naming `what`,
// the request, the budget and the current context, when that would go over the budget.
void reserveMemory(std::uint64_t bytes, std::string_view what);
void releaseMemory(std::uint64_t bytes);
// For sizes known in advance: throws as reserveMemory() would if `bytes` more could not be
// reserved now, but reserves nothing.
void checkMemoryEstimate(std::uint64_t bytes, std::string_view what);

// Names the current thread's work for the messages above while it lives.
class MemoryContext {
 public:
  explicit MemoryContext(std::string description);
  ~MemoryContext();
  MemoryContext(const MemoryContext&) = delete;
  MemoryContext& operator=(const MemoryContext&) = delete;

 private:
  int uncaughtAtStart_;
};

// The current thread's contexts, outermost first, joined by ", " ("" when none).
std::string currentMemoryContext();
// The message for a caught allocation failure: what() of a MemoryBudgetExceeded, else "out of
// memory while CONTEXT" with the context that was live where it was thrown.
std::string outOfMemoryMessage(const std::bad_alloc& failure);

}  // namespace gwb
