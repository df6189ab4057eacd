// The plain-text readers share their line and field handling (core/src/common/text_lines.h): every
// reader must number lines the same way with LF and CRLF endings, split fields on any blank
// (spaces, tabs, \f, \v), ignore a final newline, and report an unreadable file as one error
// naming the path. Each case is checked through the reader's public API against diagnostics
// written out by hand. Every reader, the DyLan ones included, also skips a UTF-8 byte-order mark
// and reads CR-only line ends as it reads LF ones (issue 13, items 7 and 8).
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/semantic_corpus.h"
#include "gwb/earley/grammar.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/grounded/grounded_metrics.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_annotation.h"

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

GrammarReadOptions formatOnly(GrammarFormat format) {
  GrammarReadOptions options;
  options.format = format;
  return options;
}

std::string withLineEnd(const std::string& text, const std::string& lineEnd) {
  std::string out;
  for (char c : text) out += c == '\n' ? lineEnd : std::string(1, c);
  return out;
}

std::string diagnosticsText(const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += toString(d) + "\n";
  return out;
}

std::string grammarSummary(const GrammarLoad& load) {
  const Grammar& g = load.grammar;
  std::string out = diagnosticsText(load.diagnostics) +
                    "start=" + (g.start() ? g.symbols().name(*g.start()) : std::string("-")) +
                    " rules=" + std::to_string(g.ruleCount());
  for (RuleId r = 0; r < static_cast<RuleId>(g.ruleCount()); ++r)
    out += " " + g.symbols().name(g.rule(r).lhs);
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// A valid text for each reader and what the reader makes of it: diagnostics, then the first
// token(s) read, where a byte-order mark glued to the first token would show.
struct ValidCase {
  const char* reader;
  const char* text;  // LF line ends
  std::function<std::string(const std::string& text)> summary;
  const char* expected;
};

std::vector<ValidCase> validCases() {
  return {
      {"earleyx grammar", "ROOT->[A] : 1\nA->[_a] : 1\n",
       [](const std::string& t) { return grammarSummary(readGrammar(t, "in")); },
       "start=ROOT rules=2 ROOT A"},
      {"nltk grammar", "%start S\nS -> A [1.0]\nA -> 'a' [1.0]\n",
       [](const std::string& t) {
         return grammarSummary(readGrammar(t, "in", formatOnly(GrammarFormat::Nltk)));
       },
       "start=S rules=2 S A"},
      {"nltk grammar (rule first)", "S -> A [1.0]\nA -> 'a' [1.0]\n",
       [](const std::string& t) {
         return grammarSummary(readGrammar(t, "in", formatOnly(GrammarFormat::Nltk)));
       },
       "start=S rules=2 S A"},
      {"corpus", ".dog kid.eyes # ## the dog\n.pig # ## a pig\n",
       [](const std::string& t) {
         const SocialCorpusLoad load = readSocialCorpus(t, "in");
         const SocialUtterance& first = load.corpus.utterances.at(0);
         return diagnosticsText(load.diagnostics) + first.objects.at(0).name + " " +
                first.objects.at(0).cues.at(0) + " | " + joined(first.words) + " | " +
                std::to_string(load.corpus.utterances.size());
       },
       "dog kid.eyes | the dog | 2"},
      {"gold", ".dog ## the dog.dog\n## hi\n",
       [](const std::string& t) {
         const GoldAnnotationLoad load = readGoldAnnotation(t, "in");
         const GoldUtterance& first = load.gold.utterances.at(0);
         return diagnosticsText(load.diagnostics) + joined(first.topics) + " | " +
                joined(first.words) + " | " + std::to_string(load.gold.utterances.size());
       },
       "dog | the dog | 2"},
      {"recordings", "recording first_line utterances tokens\nA\t1\t2\t7\nB\t3\t1\t2\n",
       [](const std::string& t) {
         const RecordingsLoad load = readRecordings(t, "in");
         std::string ids;
         for (const Recording& r : load.recordings) ids += r.id;
         return diagnosticsText(load.diagnostics) + ids;
       },
       "AB"},
      {"annotations", "# annotators: mom dad\ncar\tdog\ncar\tcar\n",
       [](const std::string& t) {
         const TopicAnnotationsLoad load = readTopicAnnotations(t, "in");
         return diagnosticsText(load.diagnostics) + joined(load.annotations.annotators) + " | " +
                std::to_string(load.annotations.utteranceCount());
       },
       "mom dad | 2"},
      {"lexicon", "doggy dog\npiggy .pig\n",
       [](const std::string& t) {
         const LexiconLoad load = readLexicon(t, "in");
         std::string out = diagnosticsText(load.diagnostics);
         for (const auto& [word, topic] : load.lexicon) out += word + "=" + topic + " ";
         return out;
       },
       "doggy=dog piggy=pig "},
      {"sentences", "the dog\n\na pig\n",
       [](const std::string& t) {
         const SentenceFile file = readSentenceText(t);
         std::string out = std::to_string(file.blankLines) + " blank";
         for (const auto& sentence : file.sentences) out += " | " + joined(sentence);
         return out;
       },
       "1 blank | the dog | a pig"},
      {"dylan grammar",
       "*thin\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n\nsecond\nIF ?ty(e)\nTHEN "
       "do_nothing\nELSE abort\n",
       [](const std::string& t) {
         ds::DsGrammarText text;
         text.directory = "g";
         text.computationalActions = t;
         text.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n";
         text.lexicon = t.substr(0, t.find("*thin")) + "arrest name arrest\nbob name bob\n";
         const ds::DsGrammarLoad load = ds::parseDsGrammar(text);
         std::string out = diagnosticsText(load.diagnostics);
         for (const ds::DsAction& a : load.grammar.computational) out += a.name + " ";
         for (const auto& [word, entries] : load.grammar.lexicon()) out += word + " ";
         return out;
       },
       "thin second arrest bob "},
      {"dylan lexicon", "arrest name arrest\nbob name bob\n",
       [](const std::string& t) {
         ds::DsGrammarText text;
         text.directory = "g";
         text.computationalActions = "ok\nIF ?ty(t)\nTHEN do_nothing\nELSE abort\n";
         text.lexicalActions = "name(NAME)\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n";
         text.lexicon = t;
         const ds::DsGrammarLoad load = ds::parseDsGrammar(text);
         std::string out = diagnosticsText(load.diagnostics);
         for (const auto& [word, entries] : load.grammar.lexicon())
           out += word + ":" + std::to_string(entries.at(0).line) + " ";
         return out;
       },
       "arrest:1 bob:2 "},
      {"learned lexicon", "[0.75,0]\nmore\nIF ?ty(e)\nTHEN put(ty(e))\nELSE abort\n",
       [](const std::string& t) {
         Diagnostics diagnostics;
         const auto entries = ds::parseLearnedLexicon(t, "l.txt", diagnostics);
         std::string out = diagnosticsText(diagnostics);
         for (const ds::LexicalEntry& e : entries) out += e.word + " " + e.label();
         return out;
       },
       "more more [p=0.75]"},
      {"semantic corpus",
       "Sent : you go\nSem : [x==you : e|head==x : e]\nFile : 1\n\nSent : bob\nSem : "
       "[x==bob : e|head==x : e]\n",
       [](const std::string& t) {
         Diagnostics diagnostics;
         const auto examples = ds::parseSemanticCorpus(t, "c.txt", diagnostics);
         std::string out = diagnosticsText(diagnostics);
         for (const ds::SemanticExample& e : examples)
           out += e.sentence + "@" + std::to_string(e.line) + " ";
         return out;
       },
       "you go@1 bob@5 "},
  };
}

TEST(TextReadersTest, EveryReaderSkipsAByteOrderMark) {
  for (const ValidCase& c : validCases()) {
    ASSERT_EQ(c.summary(c.text), c.expected) << c.reader;
    EXPECT_EQ(c.summary(std::string("\xEF\xBB\xBF") + c.text), c.expected) << c.reader;
  }
}

TEST(TextReadersTest, EveryReaderReadsCrOnlyLineEndsAsLf) {
  for (const ValidCase& c : validCases()) {
    ASSERT_EQ(c.summary(c.text), c.expected) << c.reader;
    EXPECT_EQ(c.summary(withLineEnd(c.text, "\r")), c.expected) << c.reader << " (CR)";
    EXPECT_EQ(c.summary(withLineEnd(c.text, "\r\n")), c.expected) << c.reader << " (CRLF)";
  }
}

TEST(TextReadersTest, CrOnlyLinesAreNumberedAsLfLines) {
  for (const ReaderCase& c : readerCases()) {
    const std::string lf = c.text;
    EXPECT_EQ(firstDiagnostic(c.read(withLineEnd(lf, "\r"))), firstDiagnostic(c.read(lf)))
        << c.reader;
  }
  // A CR-only Earleyx grammar is three rules, not one long garbage rule that passes.
  const GrammarLoad load = readGrammar("S->[A] : 1\rA->[_a] : 0.5\rA->[_b] : 0.5\r", "in");
  EXPECT_TRUE(load.ok()) << diagnosticsText(load.diagnostics);
  EXPECT_EQ(load.grammar.ruleCount(), 3u);
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
