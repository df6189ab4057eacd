// Memory budgets for Dynamic Syntax parsing: how much physical memory the machine has, and byte
// sizes as a person writes them (`512M`, `3G`, `1.5GiB`, `800000000`).
//
// The DS parser's DAG keeps every partial tree, so a long sentence can take more memory than the
// machine has; DsParseOptions::maxBytes bounds it, and `gwb ds parse --max-memory` and the DS
// stepper set that bound from these helpers (by default a fraction of physical memory).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gwb::ds {

// The machine's physical memory in bytes; 0 when it cannot be told.
std::size_t physicalMemoryBytes();

// The default budget of one parse: a quarter of physical memory (1 GiB when that is unknown).
std::size_t defaultParseMemoryBudget();

// `123` (bytes), `64K`, `512M`, `3G`, `1T`, with an optional `B`/`iB` (`3GB`, `3GiB`; all
// binary: K = 1024) and a decimal fraction (`1.5G`); nullopt (and *error) for anything else,
// zero, or a size past 2^63.
std::optional<std::size_t> parseByteSize(std::string_view text, std::string* error = nullptr);

// `1.5 GiB`, `512 MiB`, `812 KiB`, `77 B`.
std::string formatBytes(std::size_t bytes);

}  // namespace gwb::ds
