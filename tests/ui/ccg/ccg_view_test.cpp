// The CCG tab end to end, offscreen, on the sample lexicon (samples/ccg/geography.*): what the
// chart triangle shows is the core's chart cell by cell; clicking a cell lists its entries; the
// proof of a parse has one line per derivation step, each under its words and labelled with its
// combinator; the stepper replays the core's fill forward and back; exports write files that
// read back; cancelling a parse is deterministic (the cancel lands before the fill starts), from
// the view or the shared progress bar's Cancel; what a workspace keeps of the tab comes back in
// another view, or says what no longer fits; and the main window opens lexicons through
// File > Open and the --view ccg options.
#include "ui/ccg/ccg_view.h"

#include <functional>
#include <future>
#include <map>
#include <string>

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/derivation_proof.h"
#include "qt_printers.h"
#include "shared_data.h"
#include "ui/ccg/ccg_chart_view.h"
#include "ui/ccg/ccg_proof_view.h"
#include "ui/common/job_progress_bar.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/gui_options.h"
#include "ui/frame/main_window.h"
#include "ui/frame/workbench_startup.h"

namespace gwb::ui {
namespace {

namespace ccg = gwb::ccg;

QString sample(const char* name) {
  return QString::fromStdString(gwb::testing::sourceDir() + "/samples/ccg/") +
         QString::fromLatin1(name);
}

const QString kSentence = QStringLiteral("what are the major cities in ohio");

std::vector<std::string> words(const QString& sentence) {
  std::vector<std::string> out;
  for (const QString& w : sentence.split(QLatin1Char(' '))) out.push_back(w.toStdString());
  return out;
}

int countNodes(const ccg::DerivationNode& node) {
  int count = 1;
  for (const ccg::DerivationNode& child : node.children) count += countNodes(child);
  return count;
}

class CcgViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.resize(1400, 900);
    view_.show();
    ASSERT_TRUE(view_.openLexicon(sample("geography.flex"))) << view_.statusText().toStdString();
  }

  void parse(const QString& sentence) {
    view_.setSentence(sentence);
    ASSERT_TRUE(view_.parse());
    ASSERT_TRUE(view_.waitForParse());
    ASSERT_NE(view_.chart(), nullptr) << view_.statusText().toStdString();
  }

  CcgView view_;
};

TEST_F(CcgViewTest, SampleLexiconIsTypeCheckedAndBringsItsSentences) {
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("type-checked with geography.types")))
      << view_.statusText().toStdString();
  EXPECT_EQ(view_.lexicon()->lexemes().size(), 24U);
  EXPECT_EQ(view_.sentences().size(), 6);
  EXPECT_TRUE(view_.sentences().contains(kSentence));
}

TEST_F(CcgViewTest, ChartCellsShowTheCoreChart) {
  parse(kSentence);
  // The same parse, done here by the core.
  const ccg::CkyChart core(*view_.lexicon(), words(kSentence));
  const ccg::CkyChart& shown = *view_.chart();
  ASSERT_EQ(shown.length(), 7);
  int nonEmpty = 0;
  for (int b = 0; b < 7; ++b) {
    for (int e = b + 1; e <= 7; ++e) {
      const int expected = static_cast<int>(core.cell(b, e).entries.size());
      EXPECT_EQ(view_.chartView()->displayedEntries(b, e), expected) << b << "-" << e;
      // Only the whole sentence's S|NP is pruned: no root category, so in no parse (cky_parser.h).
      EXPECT_EQ(view_.chartView()->displayedPruned(b, e), b == 0 && e == 7 ? 1 : 0);
      EXPECT_FALSE(view_.chartView()->cellRect(b, e).isEmpty());
      nonEmpty += expected > 0 ? 1 : 0;
      // Span × category counts (the cell's tooltip): the core's cell, category by category.
      std::map<std::string, int> categories;
      for (const ccg::ChartEntry& entry : core.cell(b, e).entries)
        ++categories[toString(entry.category)];
      std::map<std::string, int> shownCategories;
      for (const auto& [category, count] : view_.chartView()->displayedCategories(b, e))
        shownCategories[category] = count;
      EXPECT_EQ(shownCategories, categories) << b << "-" << e;
    }
  }
  EXPECT_GT(nonEmpty, 20);
  EXPECT_EQ(view_.chartView()->cellToolTip(0, 7),
            QStringLiteral("Cell 0\u20137 \u201cwhat are the major cities in ohio\u201d\nS "
                           "\u00d7 1\nS|NP \u00d7 1\n(1 of them pruned)"));
  // Cells are where the triangle puts them: a longer span higher, the whole sentence on top.
  EXPECT_LT(view_.chartView()->cellRect(0, 7).top(), view_.chartView()->cellRect(0, 6).top());
  EXPECT_DOUBLE_EQ(view_.chartView()->cellRect(0, 2).top(),
                   view_.chartView()->cellRect(5, 7).top());
  // The k best parses are the core's.
  const std::vector<ccg::Derivation> best = core.kBest(5);
  ASSERT_EQ(view_.derivationTable()->rowCount(), static_cast<int>(best.size()));
  for (int r = 0; r < view_.derivationTable()->rowCount(); ++r) {
    EXPECT_EQ(view_.derivationTable()->item(r, 5)->text().toStdString(),
              toString(best[r].logicalForm));
  }
  // The sample's annotation matches the best parse.
  EXPECT_EQ(view_.derivationTable()->item(0, 4)->text(), QStringLiteral("\u2713"));
  // Shading by best score instead of count.
  auto* shading = view_.findChild<QComboBox*>(QStringLiteral("ccgShading"));
  ASSERT_NE(shading, nullptr);
  shading->setCurrentIndex(1);
  EXPECT_EQ(view_.chartView()->shading(), CcgChartView::Shading::BestScore);
  shading->setCurrentIndex(0);
  EXPECT_EQ(view_.chartView()->shading(), CcgChartView::Shading::EntryCount);
}

TEST_F(CcgViewTest, ClickingACellListsItsEntries) {
  parse(kSentence);
  const ccg::CkyChart& chart = *view_.chart();
  struct Case {
    int begin, end;
  };
  for (const Case c : {Case{4, 7}, Case{0, 1}, Case{3, 5}}) {
    const QPoint center = view_.chartView()->cellRect(c.begin, c.end).center().toPoint();
    QTest::mouseClick(view_.chartView(), Qt::LeftButton, {}, center);
    EXPECT_EQ(view_.chartView()->selectedCell(), std::make_pair(c.begin, c.end));
    const ccg::ChartCell& cell = chart.cell(c.begin, c.end);
    ASSERT_EQ(view_.entryTable()->rowCount(), static_cast<int>(cell.entries.size()));
    for (int r = 0; r < view_.entryTable()->rowCount(); ++r) {
      EXPECT_EQ(view_.entryTable()->item(r, 1)->text().toStdString(),
                toString(cell.entries[r].category));
      EXPECT_EQ(view_.entryTable()->item(r, 2)->text().toStdString(),
                toString(cell.entries[r].semantics));
    }
  }
  // Picking an entry shows its Viterbi derivation over the cell's words.
  view_.selectCell(4, 7);
  view_.selectEntry(0);
  const ccg::ProofLayout& layout = view_.proofView()->layout();
  EXPECT_EQ(layout.words, (std::vector<std::string>{"cities", "in", "ohio"}));
  EXPECT_EQ(layout.lines.back().logicalForm, toString(chart.cell(4, 7).entries[0].semantics));
}

TEST_F(CcgViewTest, ProofLinesFollowTheDerivation) {
  parse(kSentence);
  for (int rank = 0; rank < static_cast<int>(view_.derivations().size()); ++rank) {
    view_.selectDerivation(rank);
    const ccg::Derivation& d = view_.derivations()[rank];
    const CcgProofView* proof = view_.proofView();
    const ccg::ProofLayout& layout = proof->layout();
    ASSERT_EQ(static_cast<int>(layout.lines.size()), countNodes(d.root)) << rank;
    ASSERT_EQ(proof->lineGeometry().size(), layout.lines.size());
    ASSERT_EQ(proof->wordRects().size(), 7U);
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
      const ccg::ProofLine& line = layout.lines[i];
      const CcgProofView::LineGeometry& g = proof->lineGeometry()[i];
      // The rule runs under exactly its words, below them.
      EXPECT_GE(g.rule.x1(), proof->wordRects()[line.begin].left());
      EXPECT_LE(g.labelRect.right(), proof->wordRects()[line.end - 1].right() + 1);
      if (line.begin > 0) {
        EXPECT_GT(g.rule.x1(), proof->wordRects()[line.begin - 1].right());
      }
      EXPECT_GT(g.rule.y1(), proof->wordRects()[line.begin].bottom());
      const QString symbol = QString::fromLatin1(ccg::combinatorSymbol(line.combinator));
      EXPECT_EQ(g.label, line.combinator == ccg::Combinator::Lexical ? QString() : symbol);
    }
    // Every line lies below the lines of its children (children come first, post-order).
    const auto below = [&](std::size_t parent, std::size_t child) {
      return proof->lineGeometry()[parent].rule.y1() > proof->lineGeometry()[child].rule.y1();
    };
    const std::size_t root = layout.lines.size() - 1;
    for (std::size_t i = 0; i < root; ++i) EXPECT_TRUE(below(root, i)) << i;
    EXPECT_EQ(layout.lines.back().logicalForm, toString(d.logicalForm));
    EXPECT_EQ(layout.lines.back().category, "S");
  }
}

TEST_F(CcgViewTest, StepperReplaysTheCoreFillForwardAndBack) {
  parse(kSentence);
  const ccg::CkyChart& chart = *view_.chart();
  const std::vector<ccg::CkyReplayStep> steps = ccg::ckyReplay(chart);
  ASSERT_EQ(view_.stepCount(), static_cast<int>(steps.size()));
  EXPECT_EQ(view_.stepPosition(), view_.stepCount());  // a parse shows the finished chart
  const auto expectShown = [&](int position) {
    const ccg::CkyReplayState state = ccg::replayState(chart, steps, position);
    for (int b = 0; b < 7; ++b) {
      for (int e = b + 1; e <= 7; ++e) {
        ASSERT_EQ(view_.chartView()->displayedEntries(b, e), state.entries[chart.cellIndex(b, e)])
            << "step " << position << " cell " << b << "-" << e;
      }
    }
  };
  view_.goToStep(0);
  expectShown(0);
  for (int p = 1; p <= 40; ++p) {
    view_.stepForward();
    ASSERT_EQ(view_.stepPosition(), p);
    expectShown(p);
    EXPECT_EQ(view_.stepText().toStdString(),
              ccg::describeReplayStep(chart, *view_.lexicon(), steps[p - 1]));
  }
  for (int p = 39; p >= 30; --p) {
    view_.stepBack();
    expectShown(p);
  }
  // A step that made an entry shows that entry's derivation by that step's edge.
  int made = 0;
  while (steps[made].kind != ccg::CkyReplayStep::Kind::NewEntry || steps[made].split < 0) ++made;
  view_.goToStep(made + 1);
  const ccg::ProofLayout& layout = view_.proofView()->layout();
  EXPECT_EQ(layout.lines.back().combinator, steps[made].combinator);
  EXPECT_EQ(static_cast<int>(layout.words.size()), steps[made].end - steps[made].begin);
  // Cell by cell: each stop is just after a cell's last step; and back.
  view_.goToStep(0);
  view_.nextCell();
  EXPECT_EQ(steps[view_.stepPosition() - 1].kind, ccg::CkyReplayStep::Kind::CellFinished);
  EXPECT_EQ(steps[view_.stepPosition() - 1].begin, 0);
  EXPECT_EQ(steps[view_.stepPosition() - 1].end, 1);
  view_.nextCell();
  EXPECT_EQ(steps[view_.stepPosition() - 1].begin, 1);
  view_.previousCell();
  EXPECT_EQ(steps[view_.stepPosition() - 1].end, 1);
  view_.previousCell();
  EXPECT_EQ(view_.stepPosition(), 0);
  // --ccg-step forms.
  EXPECT_TRUE(view_.goToStep(QStringLiteral("cell:2-4")));
  EXPECT_EQ(steps[view_.stepPosition() - 1].begin, 2);
  EXPECT_EQ(steps[view_.stepPosition() - 1].end, 4);
  EXPECT_FALSE(view_.goToStep(QStringLiteral("cell:3-3")));
  EXPECT_FALSE(view_.goToStep(QStringLiteral("soon")));
  EXPECT_TRUE(view_.goToStep(QStringLiteral("end")));
  expectShown(view_.stepCount());
  EXPECT_FALSE(view_.chartView()->isReplaying());
}

TEST_F(CcgViewTest, ExportsWriteFilesThatReadBack) {
  parse(QStringLiteral("what states border texas"));
  view_.selectDerivation(0);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto exported = [&](const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    QString error;
    EXPECT_TRUE(view_.exportDerivation(path, &error)) << error.toStdString();
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << name;
    return file.readAll();
  };
  QImage png;
  ASSERT_TRUE(png.loadFromData(exported("proof.png"), "PNG"));
  EXPECT_GT(png.width(), 200);
  EXPECT_GT(png.height(), 100);
  // Not blank: the proof's ink is there.
  int dark = 0;
  for (int y = 0; y < png.height(); y += 2) {
    for (int x = 0; x < png.width(); x += 2) dark += qGray(png.pixel(x, y)) < 128 ? 1 : 0;
  }
  EXPECT_GT(dark, 100);
  const QByteArray svg = exported("proof.svg");
  QSvgRenderer renderer(svg);
  EXPECT_TRUE(renderer.isValid());
  EXPECT_TRUE(svg.contains("S|NP"));
  EXPECT_TRUE(exported("proof.pdf").startsWith("%PDF"));
  const QByteArray tex = exported("proof.tex");
  EXPECT_EQ(tex, view_.proofView()->latexText().toUtf8());
  EXPECT_EQ(view_.proofView()->latexText().toStdString(),
            "% Parse 1 of \"what states border texas\": score 1.950 (Grammar Workbench)\n" +
                ccg::proofToLatex(view_.proofView()->layout()));
  EXPECT_TRUE(tex.contains("\\begin{tabular}{*{4}{c}}"));
  QString error;
  EXPECT_FALSE(view_.exportDerivation(dir.filePath(QStringLiteral("proof.doc")), &error));
  EXPECT_TRUE(error.contains(QStringLiteral(".tex")));
}

TEST_F(CcgViewTest, CancelBeforeTheFillLeavesNoChart) {
  parse(kSentence);
  // The hook holds the worker until the test has cancelled: the cancel flag is set before the
  // chart's first cell whatever the machine's speed.
  std::promise<void> cancelled;
  std::shared_future<void> gate = cancelled.get_future().share();
  view_.setParseHookForTesting([gate] { gate.wait(); });
  view_.setSentence(QStringLiteral("what states border texas"));
  ASSERT_TRUE(view_.parse());
  EXPECT_TRUE(view_.isParsing());
  EXPECT_FALSE(view_.parse());  // one at a time
  view_.cancelParse();
  cancelled.set_value();
  ASSERT_TRUE(view_.waitForParse());
  EXPECT_TRUE(view_.lastParseCancelled());
  EXPECT_EQ(view_.chart(), nullptr);
  EXPECT_EQ(view_.chartView()->chart(), nullptr);
  EXPECT_EQ(view_.derivationTable()->rowCount(), 0);
  // The chart's own cancel flag stopped the fill before its first cell.
  EXPECT_EQ(view_.statusText(), QStringLiteral("Parse cancelled after 0 of 10 chart cells."));
  // The next parse runs to the end.
  view_.setParseHookForTesting({});
  parse(QStringLiteral("what states border texas"));
  EXPECT_FALSE(view_.lastParseCancelled());
  EXPECT_FALSE(view_.derivations().empty());
}

TEST_F(CcgViewTest, BadLexiconNamesFileLineAndColumnAndKeepsTheOldOne) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("bad.flex"));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("lexeme 0.5 texas :- texas:s\nlexeme x states :- state:t\n");
  file.close();
  QString error;
  EXPECT_FALSE(view_.openLexicon(path, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("bad.flex:2:8: error:"))) << error.toStdString();
  EXPECT_EQ(view_.lexiconPath(), sample("geography.flex"));
  EXPECT_FALSE(view_.openLexicon(dir.filePath(QStringLiteral("missing.flex")), &error));
  parse(QStringLiteral("what states border texas"));
}

TEST_F(CcgViewTest, GeoQueryTestSentencesLoadAndUnknownWordsGiveNoParse) {
  GWB_REQUIRE_SHARED(test, "data/geoquery/geosents280-typed.ccg.test");
  ASSERT_TRUE(view_.loadSentences(QString::fromStdString(test)));
  ASSERT_EQ(view_.sentences().size(), 280);
  EXPECT_EQ(view_.sentences().front(), QStringLiteral("which state is the smallest"));
  // The sample lexicon knows "which", "state" and "is" but not "smallest": an empty top cell.
  parse(view_.sentences().front());
  EXPECT_FALSE(view_.chart()->hasParse());
  EXPECT_EQ(view_.derivationTable()->rowCount(), 0);
  EXPECT_TRUE(view_.statusText().contains(QStringLiteral("no parse: no S spans the sentence")))
      << view_.statusText().toStdString();
  EXPECT_EQ(view_.chartView()->displayedEntries(4, 5), 0);
  EXPECT_GT(view_.chartView()->displayedEntries(1, 2), 0);
  // The annotation is shown; nothing matches it.
  const auto* gold = view_.findChild<QLabel*>(QStringLiteral("ccgGold"));
  ASSERT_NE(gold, nullptr);
  EXPECT_TRUE(gold->text().contains(QStringLiteral("(argmin $0 (state:t $0) (size:i $0))")));
  EXPECT_TRUE(gold->text().contains(QStringLiteral("no parse shown matches it")));
  // The replay works on a chart without a parse.
  view_.goToStep(0);
  view_.nextCell();
  EXPECT_GT(view_.stepPosition(), 0);
}

// What a workspace keeps of the tab comes back in another view: the options, the parse, and the
// place — a cell and an entry, a parse, or a replay step — each as the core's chart has it.
TEST_F(CcgViewTest, StateRestoresOptionsParseAndPlaceInAnotherView) {
  struct Case {
    const char* what;
    std::function<void(CcgView&)> place;
  };
  const Case cases[] = {
      {"an entry of a cell",
       [](CcgView& v) {
         v.selectCell(4, 7);
         v.selectEntry(0);
       }},
      {"an entry, then another cell selected",
       [](CcgView& v) {
         v.selectCell(3, 5);
         v.selectEntry(0);
         v.selectCell(0, 2);
       }},
      {"the second parse", [](CcgView& v) { v.selectDerivation(1); }},
      {"a replay step", [](CcgView& v) { v.goToStep(17); }},
      {"the finished chart as parsed", [](CcgView&) {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    view_.setKBest(3);
    view_.setBeam(40);
    view_.setComposition(false);
    view_.setSkipWords(true);
    parse(kSentence);
    c.place(view_);
    const QJsonObject state = view_.state();
    EXPECT_EQ(state.value(QStringLiteral("sentences")).toString(), sample("geography.ccg"));
    EXPECT_EQ(state.value(QStringLiteral("beam")).toInt(), 40);
    EXPECT_TRUE(state.value(QStringLiteral("parsed")).toBool());

    CcgView other;
    other.resize(1400, 900);
    ASSERT_TRUE(other.openLexicon(sample("geography.flex")));
    other.restoreState(state);
    ASSERT_TRUE(other.waitForParse());
    ASSERT_NE(other.chart(), nullptr) << other.statusText().toStdString();
    EXPECT_FALSE(other.statusText().contains(QStringLiteral("Workspace")))
        << other.statusText().toStdString();
    EXPECT_EQ(other.sentencesPath(), sample("geography.ccg"));
    EXPECT_EQ(other.sentences(), view_.sentences());
    EXPECT_EQ(other.sentence(), kSentence);
    EXPECT_EQ(other.kBest(), 3);
    EXPECT_EQ(other.beam(), 40);
    EXPECT_FALSE(other.composition());
    EXPECT_TRUE(other.skipWords());
    EXPECT_EQ(other.chart()->entryCount(), view_.chart()->entryCount());
    EXPECT_EQ(other.derivations().size(), view_.derivations().size());
    EXPECT_EQ(other.stepPosition(), view_.stepPosition());
    EXPECT_EQ(other.selectedCell(), view_.selectedCell());
    EXPECT_EQ(other.chartView()->selectedCell(), view_.chartView()->selectedCell());
    EXPECT_EQ(other.shownEntry(), view_.shownEntry());
    EXPECT_EQ(other.shownDerivation(), view_.shownDerivation());
    EXPECT_EQ(other.proofView()->hasProof(), view_.proofView()->hasProof());
    if (view_.proofView()->hasProof()) {
      EXPECT_EQ(other.proofView()->layout().lines.size(), view_.proofView()->layout().lines.size());
      EXPECT_EQ(other.proofView()->layout().lines.back().logicalForm,
                view_.proofView()->layout().lines.back().logicalForm);
    }
    EXPECT_EQ(other.state(), state);
  }
}

// A workspace whose sentence file is gone, or whose place the new chart does not have: the tab
// shows what it can and says in its status line what it could not restore.
TEST_F(CcgViewTest, StateThatNoLongerFitsIsExplained) {
  const auto stateWith = [](const QString& key, const QJsonValue& value) {
    QJsonObject state{{QStringLiteral("sentence"), kSentence},
                      {QStringLiteral("parsed"), true},
                      {QStringLiteral("cell"), QJsonArray{0, 7}}};
    state.insert(key, value);
    return state;
  };
  struct Case {
    QJsonObject state;
    const char* status;
  };
  const Case cases[] = {
      {stateWith(QStringLiteral("sentences"), QStringLiteral("/no/such/sentences.ccg")),
       "Workspace: Could not read /no/such/sentences.ccg"},
      {stateWith(QStringLiteral("position"), 100000), "the saved step 100000 is beyond the end"},
      {stateWith(QStringLiteral("cell"), QJsonArray{2, 99}), "the saved cell 2\u201399 is not"},
      {stateWith(QStringLiteral("entry"), QJsonArray{0, 7, 999}),
       "the saved entry #999 of cell 0\u20137 is not in this chart"},
      {stateWith(QStringLiteral("derivation"), 99), "the saved parse 100 is not among the"},
  };
  for (const Case& c : cases) {
    CcgView other;
    ASSERT_TRUE(other.openLexicon(sample("geography.flex")));
    other.restoreState(c.state);
    ASSERT_TRUE(other.waitForParse());
    ASSERT_NE(other.chart(), nullptr) << c.status;
    EXPECT_TRUE(other.statusText().contains(QString::fromUtf8(c.status)))
        << other.statusText().toStdString();
    // The rest is restored: the sentence parsed, the whole-sentence cell shown.
    EXPECT_EQ(other.sentence(), kSentence);
    EXPECT_EQ(other.stepPosition(), other.stepCount());
    // A new parse is a new start: the notice goes.
    ASSERT_TRUE(other.parse());
    ASSERT_TRUE(other.waitForParse());
    EXPECT_FALSE(other.statusText().contains(QStringLiteral("Workspace")))
        << other.statusText().toStdString();
  }
  // Without a lexicon the saved parse cannot be made, and the tab says so.
  CcgView empty;
  empty.restoreState(stateWith(QStringLiteral("kbest"), 2));
  EXPECT_FALSE(empty.isParsing());
  EXPECT_EQ(empty.kBest(), 2);
  EXPECT_TRUE(empty.statusText().contains(QStringLiteral("the saved parse was not restored")))
      << empty.statusText().toStdString();
}

// The parse runs with the shared progress bar and its Cancel button, as the other views' jobs.
TEST_F(CcgViewTest, ParsesShowTheSharedProgressBarWithCancel) {
  JobProgressBar* bar = view_.progressBar();
  ASSERT_NE(bar, nullptr);
  EXPECT_FALSE(bar->isVisible());
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  view_.setParseHookForTesting([gate] { gate.wait(); });
  view_.setSentence(kSentence);
  ASSERT_TRUE(view_.parse());
  EXPECT_TRUE(bar->isRunning());
  EXPECT_TRUE(bar->isVisible());
  EXPECT_TRUE(bar->cancelButton()->isEnabled());
  bar->cancelButton()->click();  // the bar's Cancel cancels the parse
  release.set_value();
  ASSERT_TRUE(view_.waitForParse());
  EXPECT_TRUE(view_.lastParseCancelled());
  EXPECT_FALSE(bar->isRunning());
  EXPECT_FALSE(bar->isVisible());
  view_.setParseHookForTesting({});
}

TEST(CcgLexiconFileTest, RecognisesLexiconsAndModels) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  struct Case {
    const char* name;
    const char* text;
    bool lexicon;
  };
  const Case cases[] = {
      {"a.flex", "anything", true},
      {"model.txt", "# gwb-ccg-model 1\n# beam 200\nlexeme 1 a :- b:e\n", true},
      {"lexicon.lex", "# comment\n\ntemplate 0 NP : #0\n", true},
      {"corpus.txt", "what states border texas\n", false},
      {"grammar.cfg", "S -> NP VP\n", false},
  };
  for (const Case& c : cases) {
    const QString path = dir.filePath(QString::fromLatin1(c.name));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(c.text);
    file.close();
    EXPECT_EQ(CcgView::isCcgLexiconFile(path), c.lexicon) << c.name;
  }
}

TEST(CcgMainWindowTest, FileOpenAndStartupOptionsOpenTheCcgTab) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  window.resize(1600, 1000);
  window.show();
  ASSERT_TRUE(window.openFile(sample("geography.flex")));
  auto* view = qobject_cast<CcgView*>(window.documentTabs()->currentWidget());
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(window.documentTabs()->tabText(window.documentTabs()->currentIndex()),
            QStringLiteral("CCG: geography.flex"));
  // --view ccg with a sentence, a step and a cell.
  const GuiCommandLine line = parseGuiOptions(
      {QStringLiteral("grammar-workbench"), QStringLiteral("--view"), QStringLiteral("ccg"),
       QStringLiteral("--ccg-lexicon"), sample("geography.flex"), QStringLiteral("--ccg-sentence"),
       QStringLiteral("what states border texas"), QStringLiteral("--ccg-step"),
       QStringLiteral("cell:1-3"), QStringLiteral("--ccg-cell"), QStringLiteral("2-4")});
  ASSERT_EQ(line.action, GuiCommandLine::Action::Run) << line.text.toStdString();
  applyCcgOptions(window, line.options);
  auto* second = qobject_cast<CcgView*>(window.documentTabs()->currentWidget());
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, view);
  ASSERT_NE(second->chart(), nullptr);
  EXPECT_LT(second->stepPosition(), second->stepCount());
  EXPECT_EQ(second->chartView()->selectedCell(), std::make_pair(2, 4));
  // A file that is not a lexicon opens no CCG tab.
  const int tabs = window.documentTabs()->count();
  EXPECT_EQ(window.openCcgView(dir.filePath(QStringLiteral("none.flex"))), nullptr);
  EXPECT_EQ(window.documentTabs()->count(), tabs);
}

}  // namespace
}  // namespace gwb::ui
