// The CKY replay (cky_replay.h), the proof layout and its LaTeX (derivation_proof.h), and the
// chart's cancel flag.
#include <algorithm>
#include <atomic>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/derivation_proof.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/ccg/lexicon.h"

namespace gwb::ccg {
namespace {

const char* kLexicon =
    "lexeme 0 what :-\n"
    "lexeme 0 states :- state:t\n"
    "lexeme 0 border :- next_to:t\n"
    "lexeme 1 texas :- texas:s\n"
    "template 0 S/(S|NP) : (lambda $0 <e,t> $0)\n"
    "template 0 S|NP : (lambda $0 e (#0 $0))\n"
    "template 0 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))\n"
    "template 0 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))\n"
    "template 0 NP : #0\n";

struct Fixture {
  FactoredLexicon lexicon;
  TypeSystem types;
  Fixture() {
    types = readTypeSystem("(lo (s lo))", "t", "((state:t s t) (next_to:t s s t))", "l").types;
    lexicon = readFactoredLexicon(kLexicon, "test.flex").lexicon;
    lexicon.buildEntries(&types);
  }
};

const std::vector<std::string> kWords = {"what", "states", "border", "texas"};

TEST(CcgReplayTest, StepsFollowTheEventsAndRebuildTheChart) {
  Fixture f;
  const CkyChart chart(f.lexicon, kWords);
  const std::vector<CkyReplayStep> steps = ckyReplay(chart);
  ASSERT_EQ(steps.size(), chart.events().size());
  // Cells by increasing span; each opens and closes once.
  int started = 0;
  int lastSpan = 0;
  for (const CkyReplayStep& step : steps) {
    if (step.kind != CkyReplayStep::Kind::CellStarted) continue;
    ++started;
    EXPECT_GE(step.end - step.begin, lastSpan);
    lastSpan = step.end - step.begin;
  }
  EXPECT_EQ(started, 10);  // 4 words: 4 + 3 + 2 + 1 cells
  // After all steps, the replayed counts are the chart's cells.
  const CkyReplayState end = replayState(chart, steps, steps.size());
  for (int b = 0; b < chart.length(); ++b) {
    for (int e = b + 1; e <= chart.length(); ++e) {
      const auto index = static_cast<std::size_t>(chart.cellIndex(b, e));
      EXPECT_EQ(end.entries[index], static_cast<int>(chart.cell(b, e).entries.size()))
          << b << "-" << e;
    }
  }
  // Before any step nothing is shown; binary steps name children that exist by then.
  const CkyReplayState start = replayState(chart, steps, 0);
  for (int count : start.entries) EXPECT_EQ(count, 0);
  EXPECT_EQ(start.currentCell, -1);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const CkyReplayStep& step = steps[i];
    if (step.split < 0) continue;
    EXPECT_TRUE(step.kind == CkyReplayStep::Kind::NewEntry ||
                step.kind == CkyReplayStep::Kind::AnotherDerivation);
    const CkyReplayState before = replayState(chart, steps, i);
    EXPECT_LT(step.leftEntry,
              before.entries[static_cast<std::size_t>(chart.cellIndex(step.begin, step.split))]);
    EXPECT_LT(step.rightEntry,
              before.entries[static_cast<std::size_t>(chart.cellIndex(step.split, step.end))]);
  }
}

TEST(CcgReplayTest, DescriptionsNameCombinatorAndResult) {
  Fixture f;
  const CkyChart chart(f.lexicon, kWords);
  const std::vector<CkyReplayStep> steps = ckyReplay(chart);
  std::vector<std::string> lines;
  for (const CkyReplayStep& step : steps)
    lines.push_back(describeReplayStep(chart, f.lexicon, step));
  EXPECT_EQ(lines.front(), "0-1 start cell \"what\"");
  const std::string texas =
      "3-4 [lex] \"texas\" texas :- texas:s | NP : #0 => NP : texas:s  (new entry #0)";
  EXPECT_NE(std::find(lines.begin(), lines.end(), texas), lines.end());
  const std::string borderTexas =
      "2-4 [>] (S|NP)/NP 2-3 #0 + NP 3-4 #0 => S|NP : (lambda $0 e (next_to:t $0 texas:s))  (new "
      "entry #0)";
  EXPECT_NE(std::find(lines.begin(), lines.end(), borderTexas), lines.end());
  const std::size_t top = chart.cell(0, 4).entries.size();
  EXPECT_EQ(lines.back(),
            "0-4 cell finished: " + std::to_string(top) + (top == 1 ? " entry" : " entries"));
  // A one-entry cell says so in the singular.
  const auto finished = std::find_if(steps.begin(), steps.end(), [](const CkyReplayStep& s) {
    return s.kind == CkyReplayStep::Kind::CellFinished && s.entriesInCell == 1;
  });
  ASSERT_NE(finished, steps.end());
  EXPECT_EQ(describeReplayStep(chart, f.lexicon, *finished).substr(4), "cell finished: 1 entry");
}

TEST(CcgReplayTest, EntryDerivationOfTheRootIsTheViterbiDerivation) {
  Fixture f;
  const CkyChart chart(f.lexicon, kWords);
  const std::vector<Derivation> best = chart.kBest(1);
  ASSERT_EQ(best.size(), 1U);
  const int root = chart.roots().front().first;
  const DerivationNode node = entryDerivation(chart, 0, 4, root);
  EXPECT_EQ(derivationToString(node, f.lexicon, kWords),
            derivationToString(best[0].root, f.lexicon, kWords));
}

TEST(CcgReplayTest, ProofLayoutPlacesEveryNodeBelowItsChildren) {
  Fixture f;
  const CkyChart chart(f.lexicon, kWords);
  const Derivation best = chart.kBest(1).at(0);
  const ProofLayout layout = layoutProof(best.root, kWords);
  EXPECT_EQ(layout.words, kWords);
  // what states border texas: 4 lexical lines, 3 combinations (applications, one per row).
  ASSERT_EQ(layout.lines.size(), 7U);
  EXPECT_EQ(layout.rows, 4);
  struct Expected {
    int begin, end, row;
    std::string label, category;
  };
  const std::vector<Expected> expected = {{0, 1, 0, "lex", "S/(S|NP)"},
                                          {1, 2, 0, "lex", "(S|NP)/(S|NP)"},
                                          {2, 3, 0, "lex", "(S|NP)/NP"},
                                          {3, 4, 0, "lex", "NP"},
                                          {2, 4, 1, ">", "S|NP"},
                                          {1, 4, 2, ">", "S|NP"},
                                          {0, 4, 3, ">", "S"}};
  std::vector<Expected> got;
  for (const ProofLine& line : layout.lines) {
    got.push_back(
        {line.begin, line.end, line.row, combinatorSymbol(line.combinator), line.category});
  }
  std::sort(got.begin(), got.end(), [](const Expected& a, const Expected& b) {
    return std::tie(a.row, a.begin) < std::tie(b.row, b.begin);
  });
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(got[i].begin, expected[i].begin) << i;
    EXPECT_EQ(got[i].end, expected[i].end) << i;
    EXPECT_EQ(got[i].row, expected[i].row) << i;
    EXPECT_EQ(got[i].label, expected[i].label) << i;
    EXPECT_EQ(got[i].category, expected[i].category) << i;
  }
  EXPECT_EQ(layout.lines.back().logicalForm, toString(best.logicalForm));
  // An inner entry's derivation is laid out from its own first word.
  const DerivationNode inner = entryDerivation(chart, 2, 4, 0);
  const ProofLayout innerLayout = layoutProof(inner, kWords);
  EXPECT_EQ(innerLayout.words, (std::vector<std::string>{"border", "texas"}));
  EXPECT_EQ(innerLayout.lines.back().begin, 0);
  EXPECT_EQ(innerLayout.lines.back().end, 2);
}

TEST(CcgReplayTest, LatexIsABalancedTabularWithEscapedText) {
  Fixture f;
  const CkyChart chart(f.lexicon, kWords);
  const ProofLayout layout = layoutProof(chart.kBest(1).at(0).root, kWords);
  const std::string latex = proofToLatex(layout, "what states border texas");
  EXPECT_EQ(latex.rfind("% what states border texas\n", 0), 0U);
  EXPECT_NE(latex.find("\\begin{tabular}{*{4}{c}}"), std::string::npos);
  EXPECT_NE(latex.find("\\end{tabular}"), std::string::npos);
  EXPECT_NE(latex.find("\\hrulefill\\,$>$"), std::string::npos);
  EXPECT_NE(latex.find("next\\_to:t \\$0"), std::string::npos);
  EXPECT_NE(latex.find("$(\\mathrm{S}|\\mathrm{NP})/\\mathrm{NP}$"), std::string::npos);
  // Braces balance; every row has the four columns (3 separators, counting multicolumn spans).
  int depth = 0;
  for (std::size_t i = 0; i < latex.size(); ++i) {
    if (latex[i] == '\\' && i + 1 < latex.size() && (latex[i + 1] == '{' || latex[i + 1] == '}')) {
      ++i;
      continue;
    }
    if (latex[i] == '{') ++depth;
    if (latex[i] == '}') --depth;
    ASSERT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(latexEscapeText("a_b $0 #1 {x} 50% &"), "a\\_b \\$0 \\#1 \\{x\\} 50\\% \\&");
}

TEST(CcgReplayTest, CancelFlagStopsTheFillBeforeTheFirstCell) {
  Fixture f;
  std::atomic<bool> cancel{true};
  CkyOptions options;
  options.cancel = &cancel;
  const CkyChart chart(f.lexicon, kWords, options);
  EXPECT_TRUE(chart.cancelled());
  EXPECT_FALSE(chart.hasParse());
  EXPECT_TRUE(chart.events().empty());
  EXPECT_TRUE(chart.kBest(3).empty());
  cancel = false;
  const CkyChart whole(f.lexicon, kWords, options);
  EXPECT_FALSE(whole.cancelled());
  EXPECT_TRUE(whole.hasParse());
}

}  // namespace
}  // namespace gwb::ccg
