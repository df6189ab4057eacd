// Saving without losing data.
//
// One file: write everything to a temporary file beside the target, flush it to disk, then
// rename it over the target. A crash or a full disk leaves the old file whole.
//
// A set of files (`gwb parse --out P` writes P.surprisal, P.prefix, P.viterbi; `gwb induce`
// four files): each file is replaced atomically, but a crash between two renames would leave a
// mix of new and old files. AtomicOutputSet therefore keeps a manifest, written last: commit()
// writes every file to a temporary beside its target, removes the old manifest, renames the
// files into place, and only then writes the new manifest (atomically) with each file's size
// and FNV-1a hash. A reader that finds the manifest and files that match it (verifyOutputSet)
// has a whole set from one run; a missing manifest or a file that does not match it means the
// set is being written or its writer died (docs/formats.md, "Output sets").
//
// Targets that are not regular files are written through, never replaced: "-" is standard
// output; a FIFO, a character device (/dev/null) or a socket, and any path under /dev or /proc
// (/dev/stdout, even when redirected to a file), is opened and written in place. A symbolic
// link is followed: the file it names is replaced and the link kept.
//
// Temporary files are named TARGET.tmp-PID-XXXXXX. They are removed on every exit path the
// process controls: an error, an exception (the destructor), SIGINT, SIGTERM and SIGHUP while
// a commit runs (when those signals have their default action). Those of a writer that was
// killed outright (SIGKILL) are removed by the next write beside the same target once that
// process no longer exists.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace gwb {

// Calls `write` with a stream on a temporary file; if it returns true and the stream is good,
// renames the temporary file to `path`. Returns false and fills *error otherwise (the temporary
// file is removed, the target untouched). Non-regular targets and "-" are written through.
bool writeFileAtomically(const std::string& path, const std::function<bool(std::ostream&)>& write,
                         std::string* error = nullptr);

// Reads a whole file into *text. False and *error ("cannot open FILE: reason") on failure.
bool readWholeFile(const std::string& path, std::string* text, std::string* error = nullptr);

class AtomicOutputSet {
 public:
  // `manifestPath` is written last, listing the set's regular files; "" for no manifest (each
  // file is then still replaced atomically, the set is not).
  explicit AtomicOutputSet(std::string manifestPath);
  ~AtomicOutputSet();  // removes temporary files of a commit that did not finish
  AtomicOutputSet(const AtomicOutputSet&) = delete;
  AtomicOutputSet& operator=(const AtomicOutputSet&) = delete;

  // Adds a file to the set (nothing is written before commit()).
  void add(std::string path, std::string content);
  // Writes the set as described above. False and *error ("cannot write PATH: reason") when a
  // file cannot be written; then no target has been replaced unless the failure came during
  // the renames, and no manifest is written either way.
  bool commit(std::string* error = nullptr);

  const std::string& manifestPath() const { return manifestPath_; }

 private:
  struct Entry {
    std::string path;    // as given
    std::string target;  // after following symbolic links
    std::string temp;    // temporary file beside the target ("" if none)
    bool writeThrough = false;
    std::string content;
    int slot = -1;  // in the signal handler's list of temporary files
  };
  void removeTemps();

  std::string manifestPath_;
  std::vector<Entry> entries_;
};

// True when `manifestPath` exists and every file it lists has the size and hash it records.
// Otherwise false and *error says which file is missing or differs.
bool verifyOutputSet(const std::string& manifestPath, std::string* error = nullptr);

// Test hook (fault injection): called after each file of a set is renamed into place, with the
// number renamed so far. A test makes it kill the process to leave a set half-committed.
void setOutputSetRenameHook(std::function<void(std::size_t renamed)> hook);

}  // namespace gwb
