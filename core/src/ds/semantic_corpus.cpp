#include "gwb/ds/semantic_corpus.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "common/text_lines.h"

namespace gwb::ds {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// "Key : value" -> value, if the line starts with `key` and a colon.
bool field(std::string_view line, std::string_view key, std::string_view* value) {
  if (line.substr(0, key.size()) != key) return false;
  std::string_view rest = trim(line.substr(key.size()));
  if (rest.empty() || rest.front() != ':') return false;
  *value = trim(rest.substr(1));
  return true;
}

}  // namespace

std::vector<SemanticExample> parseSemanticCorpus(std::string_view text, const std::string& file,
                                                 Diagnostics& diagnostics) {
  std::vector<SemanticExample> out;
  SemanticExample current;
  bool haveSentence = false;
  bool haveSemantics = false;
  auto flush = [&](int line) {
    if (haveSentence && haveSemantics)
      out.push_back(std::move(current));
    else if (haveSentence)
      diagnostics.error(file, current.line, 0, "expected a 'Sem : [...]' line after 'Sent'");
    else if (haveSemantics)
      diagnostics.error(file, line, 0, "expected a 'Sent : ...' line before 'Sem'");
    current = SemanticExample();
    haveSentence = haveSemantics = false;
  };
  int number = 0;
  for (const text::Line& numbered : text::splitLines(text)) {
    std::string_view line = trim(numbered.text);
    number = numbered.number;
    std::string_view value;
    if (line == "END_OF_CORPUS") break;  // statistics follow
    if (line.empty()) {
      flush(number);
    } else if (field(line, "Sent", &value)) {
      if (haveSentence || haveSemantics) flush(number);
      current.sentence = std::string(value);
      current.line = number;
      haveSentence = true;
    } else if (field(line, "Sem", &value)) {
      FormulaParseError error;
      auto record = RecordType::parse(value, &error);
      if (!record) {
        const auto column = static_cast<int>(line.find('[')) + 1 + static_cast<int>(error.offset);
        diagnostics.error(file, number, column, error.message);
        haveSentence = false;  // drop the item
        continue;
      }
      current.semantics = std::move(*record);
      haveSemantics = true;
    } else if (field(line, "File", &value)) {
      try {
        current.transcript = std::stoi(std::string(value));
      } catch (const std::exception&) {
        diagnostics.error(file, number, 0, "expected a transcript number after 'File :'");
      }
    } else {
      diagnostics.error(file, number, 1, "expected 'Sent :', 'Sem :' or 'File :'");
    }
  }
  flush(number);
  return out;
}

std::vector<SemanticExample> loadSemanticCorpus(const std::string& path, Diagnostics& diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics.error(path, 0, 0, "cannot open the corpus");
    return {};
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parseSemanticCorpus(buffer.str(), path, diagnostics);
}

}  // namespace gwb::ds
