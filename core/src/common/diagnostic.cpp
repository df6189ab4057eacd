#include "gwb/common/diagnostic.h"

namespace gwb {

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string toString(const Diagnostic& diagnostic) {
  std::string out;
  if (!diagnostic.file.empty()) {
    out += diagnostic.file;
    out += ':';
  }
  if (diagnostic.line > 0) {
    out += std::to_string(diagnostic.line);
    out += ':';
    if (diagnostic.column > 0) {
      out += std::to_string(diagnostic.column);
      out += ':';
    }
  }
  if (!out.empty()) out += ' ';
  out += severityName(diagnostic.severity);
  out += ": ";
  out += diagnostic.message;
  return out;
}

void Diagnostics::add(Severity severity, std::string file, int line, int column,
                      std::string message) {
  if (severity == Severity::Error) ++errorCount_;
  if (severity == Severity::Warning) ++warningCount_;
  items_.push_back(Diagnostic{severity, std::move(file), line, column, std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
  for (const Diagnostic& d : other) add(d.severity, d.file, d.line, d.column, d.message);
}

}  // namespace gwb
