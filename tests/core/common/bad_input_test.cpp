// The bad-input corpus, tests/data/bad-input/<reader>/<case>.<ext>: one broken input per class of
// robustness problem and per error message of the readers, each beside a <case>.<ext>.expected
// holding the first error the reader must give for it, as the CLI prints it
// (`<case>.<ext>:LINE:COLUMN: error: MESSAGE`). The reader is chosen by the folder's name
// (readers() below): a reader that takes several files (a DyLan grammar, a CCG type system) reads
// the case as one of them beside small valid others, and one that reports a plain error string
// (induction checkpoints, prior overrides) has it made a Diagnostic on the case's file. Every
// input must give an error; a missing .expected file fails its case.
// Set GWB_BLESS_BAD_INPUT=1 to write the .expected files that are missing from what the readers
// say now (then read every one of them before committing it).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/ccg_model.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/common/diagnostic.h"
#include "gwb/common/workspace_file.h"
#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/semantic_corpus.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/induction_checkpoint.h"
#include "gwb/grounded/corpus_file.h"
#include "gwb/grounded/grounded_metrics.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_annotation.h"
#include "shared_data.h"

namespace gwb {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

GrammarReadOptions formatOnly(GrammarFormat format) {
  GrammarReadOptions options;
  options.format = format;
  return options;
}

// A DyLan grammar with the case's text as one of its files and small valid others.
Diagnostics readDylan(const fs::path& path, std::string ds::DsGrammarText::*file) {
  ds::DsGrammarText text;
  text.directory = path.stem().stem().string();
  text.computationalActions = "thin\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
  text.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n";
  text.lexicon = "bob name bob\n";
  text.*file = readText(path);
  return ds::parseDsGrammar(text).diagnostics;
}

// A CCG type system with the case's text as its .types file (`asTypes`) or its .lang file, and a
// small valid other file; the error names the case's file.
Diagnostics readCcgTypes(const fs::path& path, bool asTypes) {
  const std::string types = "(\n(s e)\n(c e)\n)\n";
  const std::string lang = "(\n(state:t s t)\n(loc:t e e t)\n)\n";
  const std::string text = readText(path);
  if (asTypes) return ccg::readTypeSystem(text, path.string(), lang, "small.lang").diagnostics;
  return ccg::readTypeSystem(types, "small.types", text, path.string()).diagnostics;
}

// An induction checkpoint, whose reader says "line N: expected ..." without the file: as a
// Diagnostic on that line of the case's file.
Diagnostics readInductionCheckpoint(const fs::path& path) {
  Diagnostics diagnostics;
  std::string error;
  if (parseInductionCheckpoint(readText(path), &error)) return diagnostics;
  int line = 0;
  std::string message = error;
  if (error.rfind("line ", 0) == 0) {
    const std::size_t colon = error.find(": ");
    line = std::stoi(error.substr(5, colon - 5));
    message = error.substr(colon + 2);
  }
  diagnostics.error(path.string(), line, 0, message);
  return diagnostics;
}

using Reader = std::function<Diagnostics(const fs::path& path)>;

const std::map<std::string, Reader>& readers() {
  static const std::map<std::string, Reader> table = {
      {"earleyx",
       [](const fs::path& p) {
         return loadGrammarFile(p.string(), formatOnly(GrammarFormat::Earleyx)).diagnostics;
       }},
      {"nltk",
       [](const fs::path& p) {
         return loadGrammarFile(p.string(), formatOnly(GrammarFormat::Nltk)).diagnostics;
       }},
      {"social-corpus",
       [](const fs::path& p) { return loadSocialCorpusFile(p.string()).diagnostics; }},
      {"gold", [](const fs::path& p) { return loadGoldAnnotationFile(p.string()).diagnostics; }},
      {"recordings", [](const fs::path& p) { return loadRecordingsFile(p.string()).diagnostics; }},
      {"topic-annotations",
       [](const fs::path& p) { return loadTopicAnnotationsFile(p.string()).diagnostics; }},
      {"lexicon", [](const fs::path& p) { return loadLexiconFile(p.string()).diagnostics; }},
      {"dylan-computational-actions",
       [](const fs::path& p) { return readDylan(p, &ds::DsGrammarText::computationalActions); }},
      {"dylan-lexical-actions",
       [](const fs::path& p) { return readDylan(p, &ds::DsGrammarText::lexicalActions); }},
      {"dylan-lexical-macros",
       [](const fs::path& p) { return readDylan(p, &ds::DsGrammarText::lexicalMacros); }},
      {"dylan-lexicon",
       [](const fs::path& p) { return readDylan(p, &ds::DsGrammarText::lexicon); }},
      {"dylan-learned-lexicon",
       [](const fs::path& p) {
         Diagnostics diagnostics;
         ds::loadLearnedLexicon(p.string(), diagnostics);
         return diagnostics;
       }},
      {"semantic-corpus",
       [](const fs::path& p) {
         Diagnostics diagnostics;
         ds::loadSemanticCorpus(p.string(), diagnostics);
         return diagnostics;
       }},
      {"ccg-lexicon",
       [](const fs::path& p) { return ccg::loadFactoredLexicon(p.string()).diagnostics; }},
      {"ccg-fixed-lexicon",
       [](const fs::path& p) { return ccg::loadFixedLexicon(p.string()).diagnostics; }},
      {"ccg-model", [](const fs::path& p) { return ccg::loadCcgModel(p.string()).diagnostics; }},
      {"ccg-examples",
       [](const fs::path& p) { return ccg::loadSemanticExamples(p.string()).diagnostics; }},
      {"ccg-types", [](const fs::path& p) { return readCcgTypes(p, true); }},
      {"ccg-lang", [](const fs::path& p) { return readCcgTypes(p, false); }},
      {"induction-checkpoint", readInductionCheckpoint},
      {"corpus-file", [](const fs::path& p) { return loadCorpusFile(p.string()).diagnostics; }},
      {"workspace", [](const fs::path& p) { return loadWorkspaceFile(p.string()).diagnostics; }},
      // One `--prior PATTERN=VALUE` value a file, on its first line.
      {"prior-override",
       [](const fs::path& p) {
         Diagnostics diagnostics;
         std::string text = readText(p);
         text = text.substr(0, text.find('\n'));
         std::string error;
         if (!parsePriorOverride(text, &error)) diagnostics.error(p.string(), 1, 0, error);
         return diagnostics;
       }},
  };
  return table;
}

// The first error as the CLI prints it, with the folder part of the file name dropped.
std::string firstError(const Diagnostics& diagnostics, const fs::path& folder) {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Severity::Error) continue;
    Diagnostic shown = d;
    const std::string prefix = folder.string() + "/";
    if (shown.file.compare(0, prefix.size(), prefix) == 0) shown.file.erase(0, prefix.size());
    return toString(shown);
  }
  return "(no error)";
}

TEST(BadInputTest, EachInputGivesItsExpectedFirstError) {
  const fs::path root = fs::path(testing::sourceDir()) / "tests/data/bad-input";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  const bool bless = std::getenv("GWB_BLESS_BAD_INPUT") != nullptr;
  std::map<std::string, int> casesPerReader;
  for (const auto& folder : fs::directory_iterator(root)) {
    if (!folder.is_directory()) continue;
    const std::string reader = folder.path().filename().string();
    const auto found = readers().find(reader);
    ASSERT_NE(found, readers().end()) << "no reader for folder " << folder.path();
    for (const auto& entry : fs::directory_iterator(folder.path())) {
      const fs::path input = entry.path();
      if (input.extension() == ".expected") continue;
      SCOPED_TRACE(reader + "/" + input.filename().string());
      const std::string actual = firstError(found->second(input), folder.path());
      fs::path expectedPath = input;
      expectedPath += ".expected";
      if (!fs::exists(expectedPath) && bless) std::ofstream(expectedPath) << actual << '\n';
      ASSERT_TRUE(fs::exists(expectedPath)) << "missing " << expectedPath;
      std::string expected = readText(expectedPath);
      while (!expected.empty() && (expected.back() == '\n' || expected.back() == '\r'))
        expected.pop_back();
      EXPECT_EQ(actual, expected);
      ++casesPerReader[reader];
    }
  }
  // Every reader has its folder, with cases in it.
  for (const auto& [reader, read] : readers()) EXPECT_GT(casesPerReader[reader], 0) << reader;
}

}  // namespace
}  // namespace gwb
