// The agenda-driven Earley engine against EarleyParser and the brute-force oracle: whatever order
// the tasks run in (every strategy, and seeded random picks), the final chart has the same items
// with the same forward, inner and Viterbi values as EarleyParser's, and the sentence
// probability is the oracle's, on the teaching samples and on tiny grammars with ε-rules, unit
// cycles, left recursion and multi-terminal rules, with and without look-ahead.
#include "gwb/earley/agenda_earley.h"

#include <cmath>
#include <map>
#include <tuple>

#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/tokenize.h"
#include "shared_data.h"

namespace gwb {
namespace {

struct AgendaCase {
  const char* name;
  const char* sample;   // a file under samples/, or nullptr
  const char* grammar;  // grammarFromText syntax when sample is nullptr
  std::vector<const char*> sentences;
  // Some order uses a value before it is final (a constituent built two ways, a preterminal
  // predicted from two items), so the test sees corrections being pushed.
  bool needsCorrections = false;
};

const AgendaCase kCases[] = {
    {"pp_attachment_sample",
     "pp-attachment.cfg",
     nullptr,
     {"i saw the man with the telescope", "john saw a man in the park", "i walked",
      "the man saw john with a telescope", "i saw the man with a telescope in the park"},
     true},
    {"optional_words_sample",
     "optional-words.cfg",
     nullptr,
     {"the dog barks", "a big dog barks loudly", "the small cat sleeps"}},
    {"unit_cycle_sample", "unit-cycle.cfg", nullptr, {"a", "b", "x x x"}},
    {"arithmetic_sample", "arithmetic.grammar", nullptr, {"x + 1 * 2", "( x )"}},
    {"catalan_left_recursion", nullptr, "R -> R R 0.3 | 'x' 0.7\n", {"x x x", "x x x x"}, true},
    {"epsilon_rules",
     nullptr,
     "S -> NP VP 1.0\n"
     "NP -> Det Adj N 1.0\n"
     "VP -> V Adv 1.0\n"
     "Det -> 'the' 0.6 | 'a' 0.4\n"
     "Adj -> 0.6 | 'big' 0.25 | Adj Adj 0.15\n"
     "N -> 'dog' 0.5 | 'cat' 0.5\n"
     "V -> 'barks' 0.5 | 'sleeps' 0.5\n"
     "Adv -> 0.7 | 'loudly' 0.3\n",
     {"the dog barks", "the big big cat barks"}},
    {"nullable_unit_and_left_corner",
     nullptr,
     "S -> A S 0.3 | B 0.5 | 0.2\n"
     "A -> 0.4 | 'a' 0.6\n"
     "B -> A 'b' 0.5 | S 'c' 0.5\n",
     {"", "b", "a b", "a c b", "b c"}},
    {"multi_terminal_and_fragment",
     nullptr,
     "S -> 'a' 'b' 0.2 | X 'c' Y 0.5 | 'a' X 0.3\n"
     "X -> 'a' 0.5 | 'a' 'b' 0.3 | X 'b' 0.2\n"
     "Y -> 'd' 1.0\n",
     {"a b", "a b c d", "a a b", "a b b c d"},
     true},
};

Grammar loadCase(const AgendaCase& c) {
  if (c.sample == nullptr) return testing::grammarFromText(c.grammar);
  const std::string path = testing::sourceDir() + "/samples/" + c.sample;
  GrammarReadOptions options;
  options.runChecks = false;
  GrammarLoad load = loadGrammarFile(path, options);
  EXPECT_TRUE(load.ok()) << path;
  return std::move(load.grammar);
}

void expectClose(double actual, double expected, const std::string& what) {
  if (expected == 0.0) {
    EXPECT_EQ(actual, 0.0) << what;
  } else {
    EXPECT_NEAR(actual / expected, 1.0, 1e-12) << what << ": " << actual << " vs " << expected;
  }
}

using Key = std::tuple<int, int, int, int>;  // set, rule, dot, origin

// The finished agenda chart equals EarleyParser's: same items, same values.
void expectSameChart(const AgendaEarley& agenda, const EarleyChart& chart,
                     const ParseResult& result) {
  std::map<Key, ItemRef> core;
  for (std::size_t r = 0; r < chart.setCount(); ++r) {
    const ConstSpan<EarleyItem> items = chart.set(r);
    for (std::size_t k = 0; k < items.size(); ++k)
      core[{static_cast<int>(r), items[k].rule, items[k].dot, items[k].origin}] = {
          static_cast<std::int32_t>(r), static_cast<std::int32_t>(k)};
  }
  std::map<Key, std::int32_t> mine;
  for (std::size_t i = 0; i < agenda.items().size(); ++i) {
    const AgendaItem& it = agenda.items()[i];
    mine[{it.set, it.rule, it.dot, it.origin}] = static_cast<std::int32_t>(i);
  }
  ASSERT_EQ(mine.size(), core.size()) << "item counts differ";
  for (const auto& [key, ref] : core) {
    const auto found = mine.find(key);
    ASSERT_NE(found, mine.end()) << "missing " << chart.itemText(ref);
    const AgendaItem& it = agenda.items()[static_cast<std::size_t>(found->second)];
    const std::string what = chart.itemText(ref);
    expectClose(it.forward, std::exp(chart.logForward(ref)), what + " forward");
    expectClose(it.inner, std::exp(chart.logInner(ref)), what + " inner");
    EXPECT_NEAR(it.viterbi, chart.logViterbi(ref), 1e-9) << what << " viterbi";
  }
  for (std::size_t r = 1; r < chart.setCount(); ++r)
    expectClose(agenda.prefixProbability(r), std::exp(result.logPrefixProbability[r]),
                "prefix " + std::to_string(r));
}

class AgendaEarleyOracleTest : public ::testing::TestWithParam<AgendaCase> {};

TEST_P(AgendaEarleyOracleTest, AnyOrderGivesEarleyParsersChartAndTheOraclesProbability) {
  const AgendaCase& c = GetParam();
  const Grammar grammar = loadCase(c);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled) << (diagnostics.empty() ? "" : toString(diagnostics.items()[0]));
  EarleyParser parser(*compiled);
  int corrections = 0;
  for (const char* sentence : c.sentences) {
    const std::vector<std::string> words = tokenize(sentence);
    const testing::OracleResult oracle = testing::bruteForceParse(grammar, words);
    ASSERT_TRUE(oracle.converged) << sentence;
    for (bool lookahead : {true, false}) {
      ParseOptions parseOptions;
      parseOptions.mode = NumericMode::Log;
      parseOptions.lookahead = lookahead;
      EarleyChart chart;
      const ParseResult result = parser.parse(words, parseOptions, chart);
      // Every strategy once, then random picks with several seeds.
      std::vector<std::pair<AgendaStrategy, std::uint64_t>> orders;
      for (AgendaStrategy s : agendaStrategies()) orders.emplace_back(s, 1);
      for (std::uint64_t seed = 2; seed <= 6; ++seed)
        orders.emplace_back(AgendaStrategy::Random, seed);
      for (const auto& [strategy, seed] : orders) {
        SCOPED_TRACE(std::string(sentence) + " [" + agendaStrategyName(strategy) + ", seed " +
                     std::to_string(seed) + (lookahead ? ", look-ahead" : "") + "]");
        AgendaOptions options;
        options.lookahead = lookahead;
        options.seed = seed;
        AgendaEarley agenda(*compiled, words, options);
        int increments = 0;
        while (!agenda.finished()) {
          const AgendaStepReport report = agenda.process(agenda.choose(strategy));
          increments += report.increments;
          corrections += static_cast<int>(report.corrected.size());
        }
        // Earley's own order never uses a value before it is final.
        if (strategy == AgendaStrategy::Earley) {
          EXPECT_EQ(increments, 0);
        }
        EXPECT_EQ(agenda.failed(), result.failedAt >= 0);
        EXPECT_EQ(agenda.failedAt(), result.failedAt);
        const double expected = oracle.stringProbability[words.size()];
        expectClose(agenda.sentenceProbability(), expected, "sentence probability (oracle)");
        if (result.success) {
          expectClose(agenda.sentenceProbability(), std::exp(result.logProbability),
                      "sentence probability (EarleyParser)");
          EXPECT_NEAR(agenda.viterbiLogProbability(), result.viterbiLogProbability, 1e-9);
        }
        if (!words.empty() && result.failedAt < 0) expectSameChart(agenda, chart, result);
      }
    }
  }
  // Some orders did use values before they were final: the test exercises the corrections.
  if (c.needsCorrections) {
    EXPECT_GT(corrections, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, AgendaEarleyOracleTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<AgendaCase>& param) {
                           return std::string(param.param.name);
                         });

// A grammar from text and its compiled form (which points into the grammar: keep both here).
struct TinyGrammar {
  explicit TinyGrammar(const char* text) : grammar(testing::grammarFromText(text)) {
    Diagnostics diagnostics;
    compiled = CompiledGrammar::compile(grammar, diagnostics);
    EXPECT_TRUE(compiled);
  }
  Grammar grammar;
  std::optional<CompiledGrammar> compiled;
};

TEST(AgendaEarleyTest, StartsWithTheAxiomsPredictionOnTheAgenda) {
  const Grammar grammar = testing::grammarFromText("S -> 'a' S 0.5 | 'a' 0.5\n");
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics);
  ASSERT_TRUE(compiled);
  AgendaEarley agenda(*compiled, {"a", "a"});
  ASSERT_EQ(agenda.agenda().size(), 1u);
  EXPECT_EQ(agenda.taskText(agenda.agenda()[0]), "predict from [0, 0] GOAL -> . S");
  const AgendaStepReport report = agenda.process(0);
  EXPECT_EQ(report.position, 0);
  // S -> . 'a' S is predicted; S -> 'a' is a lexical rule, scanned from S's prediction mass.
  EXPECT_EQ(report.created.size(), 1u);
  EXPECT_EQ(agenda.agenda().size(), 2u);
  for (const AgendaTask& task : agenda.agenda()) EXPECT_EQ(task.kind, AgendaTaskKind::Scan);
  EXPECT_EQ(agenda.taskText(agenda.agenda()[0]), "scan 'a' over [0, 0] S -> . 'a' S");
  EXPECT_EQ(agenda.taskText(agenda.agenda()[1]), "scan 'a' as S -> 'a'");
  // A task's text stays right after the run has moved on (the explanation shows it then).
  const AgendaTask lexical = agenda.agenda()[1];
  agenda.runToEnd(AgendaStrategy::Earley);
  EXPECT_EQ(agenda.taskText(lexical), "scan 'a' as S -> 'a'");
}

TEST(AgendaEarleyTest, StrategiesHaveShortNamesForCommandLines) {
  for (AgendaStrategy s : agendaStrategies()) {
    EXPECT_EQ(parseAgendaStrategy(agendaStrategyKey(s)), s);
  }
  EXPECT_EQ(parseAgendaStrategy("complete-first"), AgendaStrategy::CompleteFirst);
  EXPECT_FALSE(parseAgendaStrategy("depth-first").has_value());
}

TEST(AgendaEarleyTest, EarleysOrderCompletesTheLatestOriginFirst) {
  const TinyGrammar tiny(
      "S -> NP VP 1.0\nNP -> 'i' 0.5 | NP PP 0.5\nVP -> 'v' NP 1.0\nPP -> 'p' NP 1.0\n");
  AgendaEarley agenda(*tiny.compiled, tokenize("i v i p i"));
  while (!agenda.finished()) {
    const std::size_t pick = agenda.choose(AgendaStrategy::Earley);
    const AgendaTask& task = agenda.agenda()[pick];
    for (const AgendaTask& other : agenda.agenda()) {
      if (task.kind == AgendaTaskKind::Complete && other.kind == AgendaTaskKind::Complete) {
        EXPECT_GE(agenda.items()[static_cast<std::size_t>(task.item)].origin,
                  agenda.items()[static_cast<std::size_t>(other.item)].origin);
      }
      if (task.kind != AgendaTaskKind::Complete) {
        EXPECT_NE(other.kind, AgendaTaskKind::Complete);
      }
      if (task.kind == AgendaTaskKind::Scan) {
        EXPECT_EQ(other.kind, AgendaTaskKind::Scan);
      }
    }
    agenda.process(pick);
  }
  EXPECT_GT(agenda.sentenceProbability(), 0.0);
}

TEST(AgendaEarleyTest, ACompletionBeforeItsChildIsFinalIsCorrectedLater) {
  // "a a a" with S -> S S: [0, 3] S is built from [0, 1] S + [1, 3] S and [0, 2] S + [2, 3] S.
  // Completing [1, 3] S (origin 1) last means [0, 3] S has been completed with too little mass
  // and must be corrected.
  const TinyGrammar tiny("S -> S S 0.4 | 'a' 0.6\n");
  AgendaEarley agenda(*tiny.compiled, tokenize("a a a"));
  while (agenda.position() < 3) agenda.process(agenda.choose(AgendaStrategy::Earley));
  int corrected = 0;
  while (!agenda.finished()) {
    // Complete the earliest origin first: the reverse of Earley's order.
    std::size_t pick = agenda.choose(AgendaStrategy::CompleteFirst);
    for (std::size_t k = 0; k < agenda.agenda().size(); ++k) {
      const AgendaTask& t = agenda.agenda()[k];
      if (t.kind == AgendaTaskKind::Complete &&
          agenda.items()[static_cast<std::size_t>(t.item)].origin <
              agenda.items()[static_cast<std::size_t>(agenda.agenda()[pick].item)].origin)
        pick = k;
    }
    corrected += static_cast<int>(agenda.process(pick).corrected.size());
  }
  EXPECT_GT(corrected, 0);
  // P(a a a) = 2 · 0.4² · 0.6³ (two bracketings).
  EXPECT_NEAR(agenda.sentenceProbability(), 2 * 0.4 * 0.4 * 0.6 * 0.6 * 0.6, 1e-15);
}

TEST(AgendaEarleyTest, AWordNoItemCanScanEndsTheRunWithAMessage) {
  const TinyGrammar tiny("S -> 'a' S 0.5 | 'a' 0.5\n");
  struct Case {
    std::vector<std::string> words;
    int failedAt;
    const char* message;
  };
  const Case cases[] = {
      {{"a", "b", "a"}, 1, "no item of set 1 can scan word 2 'b'"},
      {{"b"}, 0, "(the grammar has no word 'b')"},
  };
  for (const Case& c : cases) {
    AgendaEarley agenda(*tiny.compiled, c.words);
    agenda.runToEnd(AgendaStrategy::Random);
    EXPECT_TRUE(agenda.finished());
    EXPECT_TRUE(agenda.failed());
    EXPECT_EQ(agenda.failedAt(), c.failedAt);
    EXPECT_NE(agenda.failureText().find(c.message), std::string::npos) << agenda.failureText();
    EXPECT_EQ(agenda.sentenceProbability(), 0.0);
  }
}

TEST(AgendaEarleyTest, TheEmptySentenceHasTheNullProbabilityOfTheStartSymbol) {
  const TinyGrammar tiny("S -> 'a' S 0.5 | 0.5\n");
  AgendaEarley agenda(*tiny.compiled, {});
  agenda.runToEnd(AgendaStrategy::Earley);
  EXPECT_TRUE(agenda.finished());
  EXPECT_FALSE(agenda.failed());
  EXPECT_DOUBLE_EQ(agenda.sentenceProbability(), 0.5);
}

}  // namespace
}  // namespace gwb
