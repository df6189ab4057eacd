#include "gwb/ccg/semantic_examples.h"

#include "common/text_lines.h"

namespace gwb::ccg {

namespace {

bool isComment(std::string_view line) {
  const std::string_view trimmed = text::trim(line);
  return trimmed.size() >= 2 && trimmed[0] == '/' && trimmed[1] == '/';
}

}  // namespace

SemanticExamplesLoad readSemanticExamples(std::string_view text, const std::string& file) {
  SemanticExamplesLoad load;
  const auto lines = text::splitLines(text);
  const text::Line* sentence = nullptr;
  for (const text::Line& line : lines) {
    if (text::isBlank(line.text) || isComment(line.text)) {
      if (sentence != nullptr && text::isBlank(line.text)) {
        load.diagnostics.error(file, line.number, 0,
                               "expected the logical form of the sentence on line " +
                                   std::to_string(sentence->number) + ", found a blank line");
        sentence = nullptr;
      }
      continue;
    }
    if (sentence == nullptr) {
      if (text::trim(line.text).front() == '(') {
        load.diagnostics.error(file, line.number, 1,
                               "expected a sentence, found a logical form (a sentence line is "
                               "missing before it, or a blank line is missing after a pair)");
        continue;
      }
      sentence = &line;
      continue;
    }
    // The logical form of `sentence`.
    const std::string_view trimmed = text::trim(line.text);
    const int column = static_cast<int>(trimmed.data() - line.text.data()) + 1;
    if (trimmed.front() != '(' && text::splitFields(trimmed).size() > 1) {
      // Words where the form should be: the sentence lacks its form, and this line is the next
      // sentence (reading it as a form said "unexpected 'states' after the end of the logical
      // form" and lost the pair that follows).
      load.diagnostics.error(file, line.number, column,
                             "expected the logical form of the sentence on line " +
                                 std::to_string(sentence->number) +
                                 " (a constant or '(...)'), found another sentence");
      sentence = &line;
      continue;
    }
    SemanticExample example;
    example.logicalForm =
        readTerm(trimmed, file, line.number, column, &load.diagnostics, &example.positions);
    if (example.logicalForm) {
      for (std::string_view word : text::splitFields(sentence->text)) {
        example.words.emplace_back(word);
      }
      example.logicalFormText = std::string(trimmed);
      example.sentenceLine = sentence->number;
      example.logicalFormLine = line.number;
      load.examples.push_back(std::move(example));
    }
    sentence = nullptr;
  }
  if (sentence != nullptr) {
    load.diagnostics.error(file, sentence->number, 0,
                           "the sentence has no logical form (the file ends after it)");
  }
  return load;
}

SemanticExamplesLoad loadSemanticExamples(const std::string& path) {
  return text::loadTextFile<SemanticExamplesLoad>(
      path, [](std::string_view text, const std::string& file) {
        return readSemanticExamples(text, file);
      });
}

int typeCheckExamples(const SemanticExamplesLoad& load, const TypeSystem& types,
                      const std::string& file, Diagnostics* diagnostics) {
  int good = 0;
  for (const SemanticExample& example : load.examples) {
    if (typeCheck(example.logicalForm, types, file, example.logicalFormLine, 1, diagnostics,
                  &example.positions)) {
      ++good;
    }
  }
  return good;
}

}  // namespace gwb::ccg
