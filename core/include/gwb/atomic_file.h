// Saving without losing data: write everything to a temporary file beside the target, flush
// it to disk, then rename it over the target. A crash or a full disk leaves the old file whole.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace gwb {

// Calls `write` with a stream on a temporary file; if it returns true and the stream is good,
// renames the temporary file to `path`. Returns false and fills *error otherwise (the temporary
// file is removed, the target untouched).
bool writeFileAtomically(const std::string& path, const std::function<bool(std::ostream&)>& write,
                         std::string* error = nullptr);

// Reads a whole file into *text. False and *error ("cannot open FILE: reason") on failure.
bool readWholeFile(const std::string& path, std::string* text, std::string* error = nullptr);

}  // namespace gwb
