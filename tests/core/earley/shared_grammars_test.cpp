// Every grammar in ../shared/data/earleyx/grammars loads, with the right rule counts and start
// symbol, and survives a write→read round trip in both formats bit for bit.
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/earley/grammar_io.h"
#include "shared_data.h"

namespace gwb {
namespace {

struct SharedGrammar {
  const char* file;
  const char* root;  // "" = inferred
  std::size_t rules;
  const char* expectedStart;
  bool priors;
};

std::ostream& operator<<(std::ostream& out, const SharedGrammar& g) { return out << g.file; }

class SharedGrammarTest : public ::testing::TestWithParam<SharedGrammar> {};

TEST_P(SharedGrammarTest, LoadsWithTheRightCountsAndRoundTrips) {
  const SharedGrammar& c = GetParam();
  GWB_REQUIRE_SHARED(path, std::string("data/earleyx/grammars/") + c.file);
  GrammarReadOptions options;
  options.root = c.root;
  const GrammarLoad load = loadGrammarFile(path, options);
  for (const Diagnostic& d : load.diagnostics)
    if (d.severity == Severity::Error) ADD_FAILURE() << toString(d);
  ASSERT_TRUE(load.ok());
  EXPECT_EQ(load.format, GrammarFormat::Earleyx);
  EXPECT_EQ(load.grammar.ruleCount(), c.rules);
  ASSERT_TRUE(load.grammar.start());
  EXPECT_EQ(load.grammar.symbols().name(*load.grammar.start()), c.expectedStart);
  EXPECT_EQ(load.grammar.hasPriors(), c.priors);

  for (GrammarFormat format : {GrammarFormat::Earleyx, GrammarFormat::Nltk}) {
    std::ostringstream written;
    if (format == GrammarFormat::Earleyx) {
      ASSERT_TRUE(writeEarleyx(load.grammar, written));
    } else {
      writeNltk(load.grammar, written);
    }
    GrammarReadOptions again;
    again.format = format;
    again.root = load.grammar.symbols().name(*load.grammar.start());
    again.runChecks = false;
    const GrammarLoad back = readGrammar(written.str(), "round-trip", again);
    ASSERT_TRUE(back.ok()) << grammarFormatName(format);
    ASSERT_EQ(back.grammar.ruleCount(), load.grammar.ruleCount());
    for (RuleId id = 0; id < static_cast<RuleId>(back.grammar.ruleCount()); ++id) {
      const Rule& a = load.grammar.rule(id);
      const Rule& b = back.grammar.rule(id);
      ASSERT_EQ(load.grammar.ruleText(id), back.grammar.ruleText(id));
      ASSERT_EQ(a.probability, b.probability);
      ASSERT_EQ(a.prior, b.prior);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryEarleyxGrammar, SharedGrammarTest,
    ::testing::Values(
        // clang-format off
        SharedGrammar{"WSJ.500.ag-map-new.rules", "", 12526, "ROOT", false},
        SharedGrammar{"WSJ.500.fg.rules", "", 6490, "ROOT", false},
        SharedGrammar{"WSJ.ag-map.22.rules", "", 36283, "ROOT", false},
        SharedGrammar{"basic.grammar", "", 4, "ROOT", false},
        SharedGrammar{"basicUnary.grammar", "", 5, "ROOT", false},
        SharedGrammar{"catalan.grammar", "", 3, "ROOT", false},
        SharedGrammar{"colloc.grammar", "Discourse", 6119, "Discourse", true},
        SharedGrammar{"complex1.grammar", "", 10, "ROOT", false},
        SharedGrammar{"complex2.grammar", "", 13, "ROOT", false},
        SharedGrammar{"leftInfinite.grammar", "", 3, "ROOT", false},
        SharedGrammar{"recursive.grammar", "", 11, "ROOT", false},
        SharedGrammar{"smooth.rules", "NNP", 825, "NNP", false},
        SharedGrammar{"social.iogrammar", "Sentence", 1462, "Sentence", false},
        SharedGrammar{"social.uniform", "Sentence", 1474, "Sentence", false},
        SharedGrammar{"socialDiscourse.grammar", "Discourse", 35764, "Discourse", true},
        SharedGrammar{"socialDiscourse.grammar", "", 35764, "Discourse", true},
        SharedGrammar{"testengger-bayes.grammar", "S", 29, "S", true},
        SharedGrammar{"testengger.grammar", "S", 29, "S", false},
        SharedGrammar{"unigram.discourse1.vb.iogrammar", "Discourse", 2857, "Discourse", true},
        SharedGrammar{"unigram.grammar", "Sentence", 34407, "Sentence", true},
        SharedGrammar{"unigram_non_pseudo.grammar", "Sentence", 1436, "Sentence", true},
        SharedGrammar{"unigram_pseudo.grammar", "Sentence", 1472, "Sentence", true},
        SharedGrammar{"wsj.5000.fg.grammar", "", 35016, "ROOT", false},
        SharedGrammar{"wsj5.grammar", "S", 191, "S", false},
        SharedGrammar{"wsj500unk.grammar", "", 4907, "ROOT", false},
        SharedGrammar{"wsj5unk.grammar", "", 257, "ROOT", false}  // clang-format on
        ),
    [](const ::testing::TestParamInfo<SharedGrammar>& param) {
      std::string name = std::string(param.param.file) + (param.param.root[0] ? "" : "_inferred");
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name + "_" + std::to_string(param.index);
    });

}  // namespace
}  // namespace gwb
