#include "gwb/common/workspace_file.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <utility>

#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"

namespace gwb {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr std::array<WorkspaceDocumentKind, 10> kAllKinds = {
    WorkspaceDocumentKind::Grammar,     WorkspaceDocumentKind::Corpus,
    WorkspaceDocumentKind::DsStepper,   WorkspaceDocumentKind::DsLearn,
    WorkspaceDocumentKind::Ccg,         WorkspaceDocumentKind::Fubl,
    WorkspaceDocumentKind::Induction,   WorkspaceDocumentKind::Discourse,
    WorkspaceDocumentKind::Transitions, WorkspaceDocumentKind::Experiments,
};

// The fields of a view that hold paths, stored and resolved like the document's own: a "ccg"
// view's sentence file; a "ds-learn" view's seed grammar folder and test file; a "fubl" view's
// training, fixed-lexicon, test and model files and the model file shown.
struct ViewPathField {
  const char* name;
  const char* what;  // for messages: "the path of ..."
};

std::vector<ViewPathField> viewPathFields(WorkspaceDocumentKind kind) {
  switch (kind) {
    case WorkspaceDocumentKind::Ccg: return {{"sentences", "a sentence file"}};
    case WorkspaceDocumentKind::DsLearn:
      return {{"seed", "a seed grammar folder"}, {"test", "a test file"}};
    case WorkspaceDocumentKind::Fubl:
      return {{"training", "a training file"},
              {"fixed", "a fixed lexicon"},
              {"test", "a test file"},
              {"model", "a model file"},
              {"shownModel", "a model file"}};
    default: return {};
  }
}

std::string kindList() {
  std::string out;
  for (std::size_t i = 0; i < kAllKinds.size(); ++i) {
    if (i > 0) out += i + 1 == kAllKinds.size() ? " or " : ", ";
    out += '"';
    out += workspaceDocumentKindName(kAllKinds[i]);
    out += '"';
  }
  return out;
}

// "a string", "a number", ... for messages.
std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "the string \"" + value.get_ref<const std::string&>() + "\"";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "the number " + indentedJsonText(value);
    case Json::value_t::binary:
    case Json::value_t::discarded: break;
  }
  return "a value of another kind";
}

// A whole number that fits an int (Qt's toInt accepted 1.0 as 1, so do we).
std::optional<int> wholeNumber(const Json& value) {
  if (value.is_number_integer()) {  // also unsigned
    if (value.is_number_unsigned()) {
      const auto u = value.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        return static_cast<int>(u);
      return std::nullopt;
    }
    const auto i = value.get<std::int64_t>();
    if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max())
      return static_cast<int>(i);
    return std::nullopt;
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= std::numeric_limits<int>::min() &&
        d <= std::numeric_limits<int>::max())
      return static_cast<int>(d);
  }
  return std::nullopt;
}

// ---- Paths ----

bool keepsItsPath(const std::string& path) {
  return path.empty() || path.front() == ':';  // none, or a built-in sample (":/samples/...")
}

// Lexically normal, without a trailing separator (except the root itself).
std::string normalPath(const fs::path& path) {
  std::string text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  if (text.empty()) text = ".";
  return text;
}

std::string storedPath(const std::string& path, const std::string& base) {
  if (base.empty() || keepsItsPath(path)) return path;
  const fs::path absolute(path);
  if (!absolute.is_absolute()) return path;
  const fs::path relative =
      fs::path(normalPath(absolute)).lexically_relative(fs::path(normalPath(base)));
  const std::string text = relative.string();
  // Only paths inside the base folder, or close beside it, travel well as relative paths.
  if (text.empty() || text.rfind("../../../", 0) == 0 || text == "../../..") return path;
  // A folder named ":..." must not read back as a built-in sample.
  if (text.front() == ':') return "./" + text;
  return text;
}

std::string resolvedPath(const std::string& stored, const std::string& base) {
  if (keepsItsPath(stored)) return stored;
  const fs::path path(stored);
  if (path.is_absolute()) return normalPath(path);
  if (base.empty()) return stored;
  return normalPath(fs::path(base) / path);
}

// ---- Reading ----

class WorkspaceValidator {
 public:
  WorkspaceValidator(std::string base, std::string source, Diagnostics& diagnostics)
      : base_(std::move(base)), source_(std::move(source)), diag_(diagnostics) {}

  std::optional<WorkspaceFile> read(const Json& json) {
    if (!json.is_object()) {
      error("not a Grammar Workbench workspace: expected a JSON object with \"format\": \"" +
            std::string(WorkspaceFile::kFormat) + "\", found " + describe(json));
      return std::nullopt;
    }
    const auto format = json.find("format");
    if (format == json.end() || !format->is_string() ||
        format->get_ref<const std::string&>() != WorkspaceFile::kFormat) {
      error("not a Grammar Workbench workspace: expected \"format\": \"" +
            std::string(WorkspaceFile::kFormat) + "\", found " +
            (format == json.end() ? std::string("no \"format\"") : describe(*format)));
      return std::nullopt;
    }
    const auto version = json.find("version");
    if (version == json.end()) {
      error("no \"version\": expected the format's version, " +
            std::to_string(WorkspaceFile::kVersion));
      return std::nullopt;
    }
    const std::optional<int> number = wholeNumber(*version);
    if (!number) {
      error("\"version\": expected a whole number, found " + describe(*version));
      return std::nullopt;
    }
    if (*number < 1 || *number > WorkspaceFile::kVersion) {
      const std::string readable = WorkspaceFile::kVersion == 1
                                       ? std::string("version 1")
                                       : "versions 1 to " + std::to_string(WorkspaceFile::kVersion);
      error("workspace version " + std::to_string(*number) +
            " is not supported: this program reads " + readable + " (a newer program wrote it?)");
      return std::nullopt;
    }
    warnAboutUnknownFields(json, "the workspace",
                           {"format", "version", "current", "documents", "window"});

    WorkspaceFile workspace;
    if (const auto documents = json.find("documents"); documents != json.end()) {
      if (!documents->is_array()) {
        error("\"documents\": expected an array of documents, found " + describe(*documents));
      } else {
        for (std::size_t i = 0; i < documents->size(); ++i)
          readDocument((*documents)[i], i + 1, workspace);
      }
    }
    if (const auto current = json.find("current"); current != json.end()) {
      const std::optional<int> index = wholeNumber(*current);
      if (!index) {
        error("\"current\": expected the index of the current tab (a whole number), found " +
              describe(*current));
      } else if (*index < -1 || *index >= static_cast<int>(workspace.documents.size())) {
        warning("\"current\": tab " + std::to_string(*index) + " is not one of the " +
                std::to_string(workspace.documents.size()) + " documents; no tab is made current");
      } else {
        workspace.current = *index;
      }
    }
    if (const auto window = json.find("window"); window != json.end())
      readWindow(*window, workspace);
    if (diag_.hasErrors()) return std::nullopt;
    return workspace;
  }

 private:
  void error(const std::string& message) { diag_.error(source_, 0, 0, message); }
  void warning(const std::string& message) { diag_.warning(source_, 0, 0, message); }

  void warnAboutUnknownFields(const Json& object, const std::string& where,
                              std::initializer_list<const char*> known) {
    for (const auto& item : object.items()) {
      if (std::find_if(known.begin(), known.end(),
                       [&](const char* k) { return item.key() == k; }) != known.end())
        continue;
      std::string expected;
      for (const char* k : known)
        expected += std::string(expected.empty() ? "" : ", ") + '"' + k + '"';
      warning("unknown field \"" + item.key() + "\" in " + where + " ignored (expected " +
              expected + ")");
    }
  }

  // A string field of a document; nullopt (and an error) when it has another type.
  std::optional<std::string> stringField(const Json& entry, const char* name,
                                         const std::string& where) {
    const auto found = entry.find(name);
    if (found == entry.end()) return std::string();
    if (!found->is_string()) {
      error(where + ": expected \"" + name + "\" to be a string, found " + describe(*found));
      return std::nullopt;
    }
    return found->get<std::string>();
  }

  void readDocument(const Json& entry, std::size_t number, WorkspaceFile& workspace) {
    const std::string where = "document " + std::to_string(number);
    if (!entry.is_object()) {
      error(where + ": expected an object with \"kind\", \"path\" and \"view\", found " +
            describe(entry));
      return;
    }
    warnAboutUnknownFields(entry, where, {"kind", "path", "root", "view"});
    const auto kindField = entry.find("kind");
    if (kindField == entry.end()) {
      error(where + " has no \"kind\": expected one of " + kindList());
      return;
    }
    if (!kindField->is_string()) {
      error(where + ": expected \"kind\" to be one of " + kindList() + ", found " +
            describe(*kindField));
      return;
    }
    const std::string& kindName = kindField->get_ref<const std::string&>();
    const std::optional<WorkspaceDocumentKind> kind = parseWorkspaceDocumentKind(kindName);
    if (!kind) {
      error(where + " has an unknown kind \"" + kindName + "\": expected one of " + kindList());
      return;
    }
    const std::optional<std::string> path = stringField(entry, "path", where);
    const std::optional<std::string> root = stringField(entry, "root", where);
    if (!path || !root) return;
    // A DS stepper with no folder uses its default one, a CCG tab may have no lexicon yet, a DS
    // learning tab no training file, research windows have none; every file needs a path.
    if (path->empty() && *kind != WorkspaceDocumentKind::DsStepper &&
        *kind != WorkspaceDocumentKind::Ccg && *kind != WorkspaceDocumentKind::DsLearn &&
        *kind != WorkspaceDocumentKind::Fubl && !isResearchWindowKind(*kind)) {
      error(where + " (" + kindName + ") has no path: expected \"path\": the file it shows");
      return;
    }
    WorkspaceFileDocument document;
    document.kind = *kind;
    document.path = resolvedPath(*path, base_);
    document.root = *root;
    if (const auto view = entry.find("view"); view != entry.end()) {
      if (!view->is_object()) {
        error(where + ": expected \"view\" to be an object (the view's settings), found " +
              describe(*view));
        return;
      }
      document.view = *view;
    }
    for (const ViewPathField& field : viewPathFields(*kind)) {
      const auto value = document.view.find(field.name);
      if (value == document.view.end()) continue;
      if (!value->is_string()) {
        error(where + " (" + kindName + "): expected \"view\" field \"" + field.name +
              "\" to be the path of " + field.what + ", found " + describe(*value));
        return;
      }
      *value = resolvedPath(value->get<std::string>(), base_);
    }
    workspace.documents.push_back(std::move(document));
  }

  void readWindow(const Json& window, WorkspaceFile& workspace) {
    if (!window.is_object()) {
      error("\"window\": expected an object with \"geometry\" and \"state\", found " +
            describe(window));
      return;
    }
    warnAboutUnknownFields(window, "\"window\"", {"geometry", "state"});
    for (const auto& [name, bytes] :
         {std::pair<const char*, std::string*>{"geometry", &workspace.windowGeometry},
          {"state", &workspace.windowState}}) {
      const auto field = window.find(name);
      if (field == window.end()) continue;
      if (!field->is_string()) {
        error(std::string("\"window\": expected \"") + name + "\" to be base64 text, found " +
              describe(*field));
        continue;
      }
      std::optional<std::string> decoded = fromBase64(field->get_ref<const std::string&>());
      if (!decoded) {
        warning(std::string("\"window\": \"") + name +
                "\" is not base64 text; the window keeps its own " + name);
        continue;
      }
      *bytes = std::move(*decoded);
    }
  }

  std::string base_;
  std::string source_;
  Diagnostics& diag_;
};

// Builds the JSON value from nlohmann-json's SAX events, keeping the position of a syntax error
// (json::parse would throw it as an exception).
class DomBuilder : public nlohmann::json_sax<Json> {
 public:
  Json root;
  std::size_t errorPosition = 0;
  std::string errorMessage;

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  bool number_integer(number_integer_t value) override { return put(value); }
  bool number_unsigned(number_unsigned_t value) override {
    // Beyond qint64 Qt reads a number as a double, and so do we (it is written as one).
    if (value > static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max()))
      return put(static_cast<double>(value));
    return put(value);
  }
  bool number_float(number_float_t value, const string_t& /*text*/) override { return put(value); }
  bool string(string_t& value) override { return put(std::move(value)); }
  bool binary(binary_t& value) override {  // never from JSON text
    return put(Json::binary(std::vector<std::uint8_t>(value.begin(), value.end())));
  }
  bool start_object(std::size_t /*elements*/) override {
    stack_.push_back(place(Json::object()));
    return true;
  }
  bool key(string_t& value) override {
    pending_ = &(*stack_.back())[value];
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*elements*/) override {
    stack_.push_back(place(Json::array()));
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& /*lastToken*/,
                   const Json::exception& ex) override {
    errorPosition = position;
    errorMessage = ex.what();
    return false;
  }

 private:
  bool put(Json value) {
    place(std::move(value));
    return true;
  }
  Json* place(Json value) {
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json* top = stack_.back();
    if (top->is_array()) {
      top->push_back(std::move(value));
      return &top->back();
    }
    *pending_ = std::move(value);
    return pending_;
  }

  std::vector<Json*> stack_;
  Json* pending_ = nullptr;
};

// nlohmann-json's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (the diagnostic has the position).
std::string plainMessage(const std::string& what) {
  std::string message = what;
  if (const std::size_t bracket = message.find("] ");
      message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
    message.erase(0, bracket + 2);
  if (message.rfind("parse error", 0) == 0) {
    if (const std::size_t colon = message.find(": "); colon != std::string::npos)
      message.erase(0, colon + 2);
  }
  return message;
}

// Line and column (1-based, bytes; lines end at LF, CRLF or CR as in every reader of the core;
// a byte-order mark is not part of line 1) of the byte at `offset`.
std::pair<int, int> lineAndColumn(std::string_view text, std::size_t offset) {
  std::size_t start = 0;
  if (text.rfind(text::kByteOrderMark, 0) == 0) start = text::kByteOrderMark.size();
  offset = std::max(std::min(offset, text.size()), start);
  int line = 1;
  std::size_t lineStart = start;
  for (std::size_t i = start; i < offset; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      lineStart = i + 1;
    }
  }
  return {line, static_cast<int>(offset - lineStart) + 1};
}

// The offset of the first '[' or '{' nested deeper than `maxDepth` (strings skipped), if any.
std::optional<std::size_t> tooDeep(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth) return i;
    } else if (c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return std::nullopt;
}

// ---- Writing (Qt's layout) ----

// The key in UTF-16 code units: QJsonObject keeps its keys in that order.
std::u16string utf16(const std::string& utf8) {
  std::u16string out;
  std::size_t i = 0;
  while (i < utf8.size()) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    std::size_t length = 1;
    std::uint32_t code = lead;
    if (lead >= 0xF0) {
      length = 4;
      code = lead & 0x07U;
    } else if (lead >= 0xE0) {
      length = 3;
      code = lead & 0x0FU;
    } else if (lead >= 0xC0) {
      length = 2;
      code = lead & 0x1FU;
    }
    if (i + length > utf8.size()) {  // cut short (not from the reader, which checks UTF-8)
      length = 1;
      code = lead;
    }
    for (std::size_t k = 1; k < length; ++k)
      code = (code << 6U) | (static_cast<unsigned char>(utf8[i + k]) & 0x3FU);
    if (code >= 0x10000) {
      code -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (code >> 10U)));
      out.push_back(static_cast<char16_t>(0xDC00 + (code & 0x3FFU)));
    } else {
      out.push_back(static_cast<char16_t>(code));
    }
    i += length;
  }
  return out;
}

void writeString(const std::string& text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4U];
          out += kHex[c & 0xFU];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

// QByteArray::number(d, 'g', QLocale::FloatingPointShortest): the shortest digits that read
// back as `d`, in decimal form unless the exponent form is shorter (ties: decimal), the
// exponent with a sign and at least two digits.
std::string shortestNumber(double d) {
  std::array<char, 64> buffer{};
  const auto [end, ec] =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), d, std::chars_format::scientific);
  std::string scientific(buffer.data(), ec == std::errc() ? end : buffer.data());
  std::string out;
  if (!scientific.empty() && scientific.front() == '-') {
    out += '-';
    scientific.erase(0, 1);
  }
  const std::size_t e = scientific.find('e');
  std::string digits;
  for (std::size_t i = 0; i < e; ++i)
    if (scientific[i] != '.') digits += scientific[i];
  const int exponent = std::stoi(scientific.substr(e + 1));
  const int decpt = exponent + 1;
  const int count = static_cast<int>(digits.size());
  const std::string exponentDigits = std::to_string(std::abs(exponent));
  const int exponentLength =
      count + (count > 1 ? 1 : 0) + 2 + std::max(2, static_cast<int>(exponentDigits.size()));
  const int decimalLength = decpt <= 0 ? 2 - decpt + count : decpt < count ? count + 1 : decpt;
  if (decimalLength <= exponentLength) {
    if (decpt <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-decpt), '0');
      out += digits;
    } else if (decpt < count) {
      out += digits.substr(0, static_cast<std::size_t>(decpt));
      out += '.';
      out += digits.substr(static_cast<std::size_t>(decpt));
    } else {
      out += digits;
      out.append(static_cast<std::size_t>(decpt - count), '0');
    }
    return out;
  }
  out += digits.front();
  if (count > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += exponent < 0 ? "e-" : "e+";
  if (exponentDigits.size() < 2) out += '0';
  out += exponentDigits;
  return out;
}

void writeNumber(const Json& value, std::string& out) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    // Qt reads integers beyond qint64 as doubles.
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      out += shortestNumber(static_cast<double>(u));
    } else {
      out += std::to_string(u);
    }
    return;
  }
  if (value.is_number_integer()) {
    out += std::to_string(value.get<std::int64_t>());
    return;
  }
  const double d = value.get<double>();
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  // QJsonValue(double) keeps a whole number within ±2^53 as an integer.
  constexpr double kMaxExactInteger = 9007199254740992.0;
  if (d == std::floor(d) && std::abs(d) <= kMaxExactInteger) {
    out += std::to_string(static_cast<std::int64_t>(d));
    return;
  }
  out += shortestNumber(d);
}

void writeValue(const Json& value, int indent, std::string& out);

void writeContainer(const Json& value, int indent, std::string& out) {
  const std::string inner(static_cast<std::size_t>(4 * (indent + 1)), ' ');
  if (value.is_array()) {
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += inner;
      writeValue(value[i], indent + 1, out);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out.append(static_cast<std::size_t>(4 * indent), ' ');
    out += ']';
    return;
  }
  std::vector<std::pair<std::u16string, const std::string*>> keys;
  keys.reserve(value.size());
  for (const auto& item : value.items()) keys.emplace_back(utf16(item.key()), &item.key());
  std::sort(keys.begin(), keys.end());
  out += "{\n";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out += inner;
    writeString(*keys[i].second, out);
    out += ": ";
    writeValue(value.at(*keys[i].second), indent + 1, out);
    out += i + 1 < keys.size() ? ",\n" : "\n";
  }
  out.append(static_cast<std::size_t>(4 * indent), ' ');
  out += '}';
}

void writeValue(const Json& value, int indent, std::string& out) {
  switch (value.type()) {
    case Json::value_t::object:
    case Json::value_t::array: writeContainer(value, indent, out); return;
    case Json::value_t::string: writeString(value.get_ref<const std::string&>(), out); return;
    case Json::value_t::boolean: out += value.get<bool>() ? "true" : "false"; return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: writeNumber(value, out); return;
    case Json::value_t::null:
    case Json::value_t::binary:
    case Json::value_t::discarded: out += "null"; return;
  }
}

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

const char* workspaceDocumentKindName(WorkspaceDocumentKind kind) {
  switch (kind) {
    case WorkspaceDocumentKind::Corpus: return "corpus";
    case WorkspaceDocumentKind::DsStepper: return "ds-stepper";
    case WorkspaceDocumentKind::DsLearn: return "ds-learn";
    case WorkspaceDocumentKind::Ccg: return "ccg";
    case WorkspaceDocumentKind::Fubl: return "fubl";
    case WorkspaceDocumentKind::Induction: return "induction";
    case WorkspaceDocumentKind::Discourse: return "discourse";
    case WorkspaceDocumentKind::Transitions: return "transitions";
    case WorkspaceDocumentKind::Experiments: return "experiments";
    case WorkspaceDocumentKind::Grammar: break;
  }
  return "grammar";
}

std::optional<WorkspaceDocumentKind> parseWorkspaceDocumentKind(std::string_view name) {
  for (const WorkspaceDocumentKind kind : kAllKinds)
    if (name == workspaceDocumentKindName(kind)) return kind;
  return std::nullopt;
}

bool isResearchWindowKind(WorkspaceDocumentKind kind) {
  return kind == WorkspaceDocumentKind::Induction || kind == WorkspaceDocumentKind::Discourse ||
         kind == WorkspaceDocumentKind::Transitions || kind == WorkspaceDocumentKind::Experiments;
}

WorkspaceFileLoad workspaceFromJson(const Json& json, const std::string& baseDirectory,
                                    const std::string& sourceName) {
  WorkspaceFileLoad load;
  WorkspaceValidator validator(baseDirectory, sourceName, load.diagnostics);
  if (std::optional<WorkspaceFile> workspace = validator.read(json))
    load.workspace = std::move(*workspace);
  return load;
}

Json workspaceToJson(const WorkspaceFile& workspace, const std::string& baseDirectory) {
  Json documents = Json::array();
  for (const WorkspaceFileDocument& d : workspace.documents) {
    Json view = d.view.is_object() ? d.view : Json::object();
    for (const ViewPathField& field : viewPathFields(d.kind)) {
      const auto value = view.find(field.name);
      if (value != view.end() && value->is_string())
        *value = storedPath(value->get<std::string>(), baseDirectory);
    }
    Json entry = {{"kind", workspaceDocumentKindName(d.kind)},
                  {"path", storedPath(d.path, baseDirectory)},
                  {"view", std::move(view)}};
    if (!d.root.empty()) entry["root"] = d.root;
    documents.push_back(std::move(entry));
  }
  Json json = {{"format", WorkspaceFile::kFormat},
               {"version", WorkspaceFile::kVersion},
               {"current", workspace.current},
               {"documents", std::move(documents)}};
  if (!workspace.windowGeometry.empty() || !workspace.windowState.empty()) {
    json["window"] = {{"geometry", toBase64(workspace.windowGeometry)},
                      {"state", toBase64(workspace.windowState)}};
  }
  return json;
}

WorkspaceFileLoad readWorkspaceText(std::string_view text, const std::string& sourceName,
                                    const std::string& baseDirectory,
                                    const WorkspaceReadLimits& limits) {
  WorkspaceFileLoad load;
  if (text.size() > limits.maxBytes) {
    load.diagnostics.error(sourceName, 0, 0,
                           "the file is " + std::to_string(text.size()) +
                               " bytes: expected a workspace of at most " +
                               std::to_string(limits.maxBytes) + " bytes");
    return load;
  }
  if (text::isUtf16(text)) {
    load.diagnostics.error(sourceName, 1, 1, text::kUtf16Message);
    return load;
  }
  if (const std::optional<std::size_t> deep = tooDeep(text, limits.maxDepth)) {
    const auto [line, column] = lineAndColumn(text, *deep);
    load.diagnostics.error(sourceName, line, column,
                           "arrays and objects nested more than " +
                               std::to_string(limits.maxDepth) +
                               " deep: expected a workspace nested at most that deep");
    return load;
  }
  DomBuilder builder;
  const bool parsed = Json::sax_parse(text, &builder, nlohmann::json::input_format_t::json, true);
  if (!parsed) {
    // The position counts the byte that was read when the error was seen.
    const auto [line, column] =
        lineAndColumn(text, builder.errorPosition > 0 ? builder.errorPosition - 1 : 0);
    load.diagnostics.error(sourceName, line, column,
                           "not valid JSON: " + plainMessage(builder.errorMessage));
    return load;
  }
  return workspaceFromJson(builder.root, baseDirectory, sourceName);
}

WorkspaceFileLoad loadWorkspaceFile(const std::string& path, const WorkspaceReadLimits& limits) {
  std::error_code ignored;
  const std::uintmax_t size = fs::file_size(path, ignored);
  if (!ignored && size > limits.maxBytes) {
    WorkspaceFileLoad load;
    load.diagnostics.error(path, 0, 0,
                           "the file is " + std::to_string(size) +
                               " bytes: expected a workspace of at most " +
                               std::to_string(limits.maxBytes) + " bytes");
    return load;
  }
  std::string text;
  std::string error;
  if (!readWholeFile(path, &text, &error)) {
    WorkspaceFileLoad load;
    load.diagnostics.error(path, 0, 0, error);
    return load;
  }
  const std::string base = normalPath(fs::absolute(fs::path(path)).parent_path());
  return readWorkspaceText(text, path, base, limits);
}

std::string workspaceText(const WorkspaceFile& workspace, const std::string& baseDirectory) {
  return indentedJsonText(workspaceToJson(workspace, baseDirectory));
}

bool saveWorkspaceFile(const WorkspaceFile& workspace, const std::string& path,
                       std::string* error) {
  const std::string base = normalPath(fs::absolute(fs::path(path)).parent_path());
  const std::string text = workspaceText(workspace, base);
  return writeFileAtomically(
      path,
      [&text](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return static_cast<bool>(out);
      },
      error);
}

std::string indentedJsonText(const Json& value) {
  std::string out;
  writeValue(value, 0, out);
  if (value.is_object() || value.is_array()) out += '\n';
  return out;
}

std::string toBase64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t group = static_cast<unsigned char>(bytes[i]) << 16U;
    if (i + 1 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 1]) << 8U;
    if (i + 2 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 2]);
    out += kBase64Alphabet[(group >> 18U) & 0x3FU];
    out += kBase64Alphabet[(group >> 12U) & 0x3FU];
    out += i + 1 < bytes.size() ? kBase64Alphabet[(group >> 6U) & 0x3FU] : '=';
    out += i + 2 < bytes.size() ? kBase64Alphabet[group & 0x3FU] : '=';
  }
  return out;
}

std::optional<std::string> fromBase64(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t group = 0;
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      std::uint32_t sextet = 0;
      if (c == '=') {
        // Padding: only the last one or two characters of the last group.
        if (i + 4 != text.size() || k < 2) return std::nullopt;
        ++padding;
      } else {
        if (padding > 0) return std::nullopt;
        const std::size_t at = kBase64Alphabet.find(c);
        if (at == std::string_view::npos) return std::nullopt;
        sextet = static_cast<std::uint32_t>(at);
      }
      group = (group << 6U) | sextet;
    }
    out += static_cast<char>((group >> 16U) & 0xFFU);
    if (padding < 2) out += static_cast<char>((group >> 8U) & 0xFFU);
    if (padding < 1) out += static_cast<char>(group & 0xFFU);
  }
  return out;
}

}  // namespace gwb
