// The plain-text readers share their line and field handling (core/src/text_lines.h): every
// reader must number lines the same way with LF and CRLF endings, split fields on any blank
// (spaces, tabs, \f, \v), ignore a final newline, and report an unreadable file as one error
// naming the path. Each case is checked through the reader's public API against diagnostics
// written out by hand.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "gwb/grammar_io.h"
#include "gwb/grounded_metrics.h"
#include "gwb/social_corpus.h"
#include "gwb/topic_annotation.h"

namespace gwb {
namespace {

std::string firstDiagnostic(const Diagnostics& diagnostics) {
  return diagnostics.empty() ? std::string() : toString(diagnostics.items().front());
}

std::string withCrlf(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

struct ReaderCase {
  const char* reader;
  // Three lines, the third one wrong; LF endings (the test adds CRLF).
  const char* text;
  std::function<Diagnostics(const std::string& text)> read;
  const char* expected;  // the first diagnostic
};

std::vector<ReaderCase> readerCases() {
  return {
      {"grammar", "S->[A] : 1\nA->[_a] : 1\nA->[_b :\n",
       [](const std::string& t) { return readGrammar(t, "in").diagnostics; }, "in:3:"},
      {"corpus", ".a # ## x\n## y\n.b .c # ## z\n",
       [](const std::string& t) { return readSocialCorpus(t, "in").diagnostics; },
       "in:3:4: error: expected '#' to close object '.b' before '.c'"},
      {"gold", ".a ## x.a\n## y\nb ## z\n",
       [](const std::string& t) { return readGoldAnnotation(t, "in").diagnostics; },
       "in:3:1: error: expected a topic '.object' or '##', found 'b'"},
      {"recordings", "recording first_line utterances tokens\nA\t1\t2\t7\nB\tone\t1\t2\n",
       [](const std::string& t) { return readRecordings(t, "in").diagnostics; },
       "in:3:3: error: first_line must be a line number (1 or more)"},
      {"annotations", "car\tdog\n##\t\fcar\ncar\n",
       [](const std::string& t) { return readTopicAnnotations(t, "in").diagnostics; },
       "in:3: error: expected 2 label(s), one per annotator, found 1"},
      {"lexicon", "doggy dog\npiggy\v.pig\nvroom car truck\n",
       [](const std::string& t) { return readLexicon(t, "in").diagnostics; },
       "in:3: error: expected 'word topic', found 3 field(s)"},
  };
}

TEST(TextReadersTest, EveryReaderNumbersLinesAlikeWithLfAndCrlf) {
  for (const ReaderCase& c : readerCases()) {
    const std::string lf = c.text;
    const std::string lfDiagnostic = firstDiagnostic(c.read(lf));
    EXPECT_EQ(lfDiagnostic.substr(0, std::string(c.expected).size()), c.expected) << c.reader;
    EXPECT_EQ(firstDiagnostic(c.read(withCrlf(lf))), lfDiagnostic) << c.reader << " (CRLF)";
    // Without the final newline nothing changes; one more newline would be an empty line 4.
    EXPECT_EQ(firstDiagnostic(c.read(lf.substr(0, lf.size() - 1))), lfDiagnostic)
        << c.reader << " (no final newline)";
  }
}

TEST(TextReadersTest, BlanksOtherThanSpaceSeparateFields) {
  const TopicAnnotationsLoad annotations = readTopicAnnotations("car\t \fdog\n##\vnone\n", "in");
  ASSERT_TRUE(annotations.ok()) << firstDiagnostic(annotations.diagnostics);
  ASSERT_EQ(annotations.annotations.labels.size(), 2u);
  EXPECT_EQ(annotations.annotations.lines, (std::vector<int>{1, 2}));
  const LexiconLoad lexicon = readLexicon("doggy\t.dog\r\n# a comment\r\npiggy \v pig\r\n", "in");
  ASSERT_TRUE(lexicon.ok()) << firstDiagnostic(lexicon.diagnostics);
  EXPECT_EQ(lexicon.lexicon, (Lexicon{{"doggy", "dog"}, {"piggy", "pig"}}));
}

TEST(TextReadersTest, AnUnreadableFileIsOneErrorNamingThePath) {
  const std::string path = "/nonexistent-gwb-dir/input.txt";
  const std::vector<std::pair<const char*, Diagnostics>> loads = {
      {"grammar", loadGrammarFile(path).diagnostics},
      {"corpus", loadSocialCorpusFile(path).diagnostics},
      {"gold", loadGoldAnnotationFile(path).diagnostics},
      {"recordings", loadRecordingsFile(path).diagnostics},
      {"annotations", loadTopicAnnotationsFile(path).diagnostics},
      {"lexicon", loadLexiconFile(path).diagnostics},
  };
  for (const auto& [reader, diagnostics] : loads) {
    ASSERT_EQ(diagnostics.items().size(), 1u) << reader;
    const Diagnostic& d = diagnostics.items().front();
    EXPECT_EQ(d.severity, Severity::Error) << reader;
    EXPECT_EQ(d.file, path) << reader;
    EXPECT_EQ(d.line, 0) << reader;
    EXPECT_NE(d.message.find(path), std::string::npos) << reader << ": " << d.message;
  }
  // The loads that carry a source name keep the path even when nothing could be read.
  EXPECT_EQ(loadSocialCorpusFile(path).corpus.source, path);
  EXPECT_EQ(loadGoldAnnotationFile(path).gold.source, path);
  EXPECT_EQ(loadTopicAnnotationsFile(path).annotations.source, path);
}

}  // namespace
}  // namespace gwb
