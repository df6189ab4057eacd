// What every fuzz target in fuzz/ shares: the libFuzzer entry point's declaration and the input
// as text. A target is one reader of the core fed arbitrary bytes; it must return normally (the
// reader reports bad input as diagnostics) and never crash, hang, leak or hit undefined
// behaviour. The same sources build two ways: with Clang and libFuzzer (GWB_BUILD_FUZZ, for
// fuzzing) and, with any compiler, against replay_main.cpp, which runs the committed inputs of
// fuzz/regressions/<target>/ once each as a CTest test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace gwb::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data),
          size};  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast): bytes as chars
}

// Stops the fuzzer on a broken invariant that is not a crash (a round trip that changes its
// text): an abort is what libFuzzer records as a finding.
void requireInvariant(bool holds, const char* what);

}  // namespace gwb::fuzz
