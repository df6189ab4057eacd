// Diagnostics: errors and warnings about user input, as values.
//
// Every reader in core reports problems with the input it was given through a list of
// Diagnostic values, never through exceptions or aborts: a diagnostic names the file, the
// 1-based line and column, how bad it is, and what was expected. Callers decide what to do:
// the CLI prints them as `file:line:col: error: message`, the workbench lists them and
// underlines the line in its editor.
#pragma once

#include <string>
#include <vector>

namespace gwb {

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;  // the name the reader was given (a path, or "<string>")
  int line = 0;      // 1-based; 0 when the problem is not tied to a line
  int column = 0;    // 1-based; 0 when the whole line is meant
  std::string message;
};

// "file:line:col: error: message" (parts that are unknown are left out).
std::string toString(const Diagnostic& diagnostic);
const char* severityName(Severity severity);

// An ordered list of diagnostics with a few conveniences for readers.
class Diagnostics {
 public:
  void add(Severity severity, std::string file, int line, int column, std::string message);
  void error(const std::string& file, int line, int column, std::string message) {
    add(Severity::Error, file, line, column, std::move(message));
  }
  void warning(const std::string& file, int line, int column, std::string message) {
    add(Severity::Warning, file, line, column, std::move(message));
  }
  void note(const std::string& file, int line, int column, std::string message) {
    add(Severity::Note, file, line, column, std::move(message));
  }
  void append(const Diagnostics& other);

  bool hasErrors() const { return errorCount_ > 0; }
  int errorCount() const { return errorCount_; }
  int warningCount() const { return warningCount_; }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Diagnostic> items_;
  int errorCount_ = 0;
  int warningCount_ = 0;
};

}  // namespace gwb
