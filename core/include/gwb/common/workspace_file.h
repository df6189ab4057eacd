// The workbench's workspace file (`.gwb-workspace`): what is open and how it is shown, as JSON.
//
// A workspace lists documents in tab order, each with its kind, its path, the start symbol it
// was opened with and its view's settings (an opaque JSON object that belongs to the view that
// wrote it: see ui/frame/workspace.h for what each view keeps; the only fields core reads inside
// a view are paths, stored and resolved like the document's own: a "ccg" document's
// "sentences", a "ds-learn" document's "seed" and "test", a "fubl" document's "training",
// "fixed", "test", "model" and "shownModel"), then the research windows
// (kinds "induction", "discourse", "transitions", "experiments", no path), the current tab and
// the window's layout (base64 bytes):
//
//   {
//       "current": 0,
//       "documents": [
//           {
//               "kind": "grammar",
//               "path": "../samples/pp-attachment.cfg",
//               "root": "S",
//               "view": {"page": "stepper"}
//           }
//       ],
//       "format": "grammar-workbench-workspace",
//       "version": 1,
//       "window": {"geometry": "<base64>", "state": "<base64>"}
//   }
//
// This is plain C++ so that the format can be read, checked and fuzzed without Qt; the
// workbench converts WorkspaceFile to and from its Qt types and does no parsing of its own.
//
// Reading validates every field: a wrong type, an unknown kind, a missing path or a version
// this program does not read is an error naming the file, the document and the field and what
// was expected; text that is not JSON is an error at the line and column nlohmann-json stops
// at. Fields this version does not know are ignored with a warning (so a newer program's file
// still opens); a current tab out of range or window bytes that are not base64 are warnings and
// are dropped. The input is bounded (WorkspaceReadLimits: size and nesting depth, checked
// before anything is built), a UTF-8 byte-order mark is skipped, and nothing throws.
//
// Writing produces exactly the bytes Qt's QJsonDocument::toJson(Indented) writes for the same
// values (four-space indents, keys in UTF-16 order, Qt's number forms), so files written before
// this reader existed and files written now are the same format, byte for byte. Saving is
// atomic (writeFileAtomically).
//
// Paths: a document's path is absolute in memory (or ":/..." for a built-in sample, or empty).
// In the file, a path below the workspace file's folder, or close beside it (fewer than three
// "../"), is written relative to that folder (so are the view paths above), so a workspace can
// travel with its grammars; on reading, relative paths are resolved against the folder the file is
// read from. Paths are normalised lexically (no "." or ".." parts, no trailing '/'); symbolic links
// are not followed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gwb/common/diagnostic.h"

namespace gwb {

enum class WorkspaceDocumentKind {
  Grammar,
  Corpus,
  DsStepper,  // path: the DyLan grammar folder; may be empty (the stepper's default folder)
  DsLearn,    // path: the training file; may be empty; view "seed" (the seed grammar folder) and
              // "test" (the test file): paths like the document's
  Ccg,        // path: the factored lexicon or model; may be empty (a tab with no lexicon yet);
              // view "sentences": the sentence file, a path like the document's
  Fubl,       // the FUBL learner: path the training file, may be empty; view "training",
              // "fixed", "test", "model", "shownModel": paths like the document's
  Induction,  // research windows: top-level windows, listed after the tabs, no path
  Discourse,
  Transitions,
  Experiments,
};

// "grammar", "corpus", "ds-stepper", "ds-learn", "ccg", "fubl", "induction", "discourse",
// "transitions", "experiments".
const char* workspaceDocumentKindName(WorkspaceDocumentKind kind);
std::optional<WorkspaceDocumentKind> parseWorkspaceDocumentKind(std::string_view name);
bool isResearchWindowKind(WorkspaceDocumentKind kind);

struct WorkspaceFileDocument {
  WorkspaceDocumentKind kind = WorkspaceDocumentKind::Grammar;
  std::string path;  // absolute, ":/..." or empty (see above)
  std::string root;  // start symbol option; empty: the format's default
  nlohmann::json view = nlohmann::json::object();  // always an object
  bool operator==(const WorkspaceFileDocument& o) const {
    return kind == o.kind && path == o.path && root == o.root && view == o.view;
  }
};

struct WorkspaceFile {
  static constexpr int kVersion = 1;
  static constexpr const char* kFormat = "grammar-workbench-workspace";
  std::vector<WorkspaceFileDocument> documents;
  int current = -1;            // index into documents; -1: none
  std::string windowGeometry;  // bytes (base64 in the file); empty: none
  std::string windowState;
  bool operator==(const WorkspaceFile& o) const {
    return documents == o.documents && current == o.current && windowGeometry == o.windowGeometry &&
           windowState == o.windowState;
  }
};

struct WorkspaceReadLimits {
  std::size_t maxBytes = std::size_t{64} << 20;  // a workspace with many induction runs is ~1 MB
  int maxDepth = 128;  // nested arrays and objects (views nest a few levels)
};

struct WorkspaceFileLoad {
  WorkspaceFile workspace;  // empty when there are errors
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

// Validates a workspace already parsed as JSON. Relative paths are resolved against
// `baseDirectory` (kept as written when it is empty); diagnostics name `sourceName`.
WorkspaceFileLoad workspaceFromJson(const nlohmann::json& json, const std::string& baseDirectory,
                                    const std::string& sourceName);
// The JSON value of `workspace`, paths below (or near) `baseDirectory` made relative to it.
nlohmann::json workspaceToJson(const WorkspaceFile& workspace, const std::string& baseDirectory);

// Parses and validates the text of a workspace file.
WorkspaceFileLoad readWorkspaceText(std::string_view text, const std::string& sourceName,
                                    const std::string& baseDirectory,
                                    const WorkspaceReadLimits& limits = {});
// Reads `path`; relative paths in it resolve against the file's folder.
WorkspaceFileLoad loadWorkspaceFile(const std::string& path,
                                    const WorkspaceReadLimits& limits = {});

// The file's text for `workspace` (what saveWorkspaceFile writes).
std::string workspaceText(const WorkspaceFile& workspace, const std::string& baseDirectory);
// Writes `path` atomically, paths relative to its folder. False and *error on failure.
bool saveWorkspaceFile(const WorkspaceFile& workspace, const std::string& path,
                       std::string* error = nullptr);

// Qt's indented JSON layout for any value (QJsonDocument::toJson(Indented) byte for byte for
// an object or an array; a scalar is written as it would be inside one). Non-finite numbers
// are written as null, as Qt does.
std::string indentedJsonText(const nlohmann::json& value);

// Standard base64 with padding, as QByteArray::toBase64 writes it; decoding is strict (the
// alphabet, '=' padding only at the end, whitespace not allowed) and gives nullopt otherwise.
std::string toBase64(std::string_view bytes);
std::optional<std::string> fromBase64(std::string_view text);

}  // namespace gwb
