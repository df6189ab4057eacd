// The discourse view: its agreement table against `gwb segment-eval` and the segeval/NLTK
// reference vectors, the timeline's rows, colours and boundaries, and decoding against core's
// decodeSocialCorpus.
#include "ui/grounded/discourse_view.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/social_grammar.h"
#include "gwb/grounded/topic_annotation.h"
#include "gwb/grounded/topic_decoding.h"
#include "shared_data.h"
#include "ui/earley/parse_tree_view.h"
#include "ui/frame/app_settings.h"
#include "ui/frame/main_window.h"
#include "ui/grounded/discourse_data.h"
#include "ui/grounded/discourse_timeline.h"
#include "ui/grounded/segmentation_table.h"
#include "ui/grounded/topic_palette.h"
#include "ui/grounded/transition_view.h"

namespace gwb::ui {
namespace {

std::string grounded(const std::string& name) {
  return gwb::testing::sourceDir() + "/tests/data/grounded/" + name;
}

// A corpus of `n` one-word utterances, each with one object ("obj<i % 3>") and a cue.
gwb::SocialCorpus makeCorpus(int n) {
  std::string text;
  for (int i = 0; i < n; ++i)
    text += ".obj" + std::to_string(i % 3) + " kid.eyes # ## word" + std::to_string(i) + "\n";
  gwb::SocialCorpusLoad load = gwb::readSocialCorpus(text, "generated.yld");
  EXPECT_TRUE(load.ok());
  return load.corpus;
}

std::vector<gwb::Recording> makeRecordings(const gwb::SocialCorpus& corpus,
                                           const std::vector<int>& sizes) {
  std::vector<gwb::Recording> recordings;
  int first = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    gwb::Recording r;
    r.id = std::string(1, static_cast<char>('A' + i));
    r.firstUtterance = first;
    r.utterances = sizes[i];
    r.tokens = static_cast<int>(gwb::recordingTokens(corpus, r, corpus.cueOrder).size());
    recordings.push_back(r);
    first += sizes[i];
  }
  return recordings;
}

DiscourseRow labelRow(const std::string& name, const std::vector<std::string>& labels) {
  DiscourseRow row;
  row.name = name;
  for (const std::string& l : labels) row.labels.emplace_back(l);
  return row;
}

// Alternating labels a, b, a, ... for segments of the given sizes.
std::vector<std::string> labelsFromMasses(const std::vector<int>& masses) {
  std::vector<std::string> labels;
  for (std::size_t s = 0; s < masses.size(); ++s)
    for (int i = 0; i < masses[s]; ++i) labels.push_back(s % 2 == 0 ? "a" : "b");
  return labels;
}

std::vector<int> parseMasses(const std::string& text) {
  std::vector<int> masses;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) masses.push_back(std::stoi(part));
  return masses;
}

QString cliPath() {
#ifdef GWB_CLI_PATH
  return QStringLiteral(GWB_CLI_PATH);
#else
  return {};
#endif
}

// Runs `gwb segment-eval` and returns its stdout lines after the header.
QStringList runSegmentEval(const QStringList& arguments) {
  QProcess process;
  process.start(cliPath(), QStringList{QStringLiteral("segment-eval")} + arguments);
  EXPECT_TRUE(process.waitForFinished(600000));
  EXPECT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
  QStringList lines = QString::fromUtf8(process.readAllStandardOutput())
                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  if (!lines.isEmpty()) lines.removeFirst();  // the header
  return lines;
}

TEST(SegmentationTable, PerRecordingAndPooledLinesAreTheClis) {
  // The CLI's own test (tests/cli): reference.txt vs hypothesis.txt, --k 2, recordings A and B.
  DiscourseData data;
  gwb::Diagnostics diagnostics;
  const gwb::SocialCorpus corpus = makeCorpus(10);
  ASSERT_TRUE(data.set(corpus, std::nullopt, makeRecordings(corpus, {6, 4}), diagnostics));
  EXPECT_EQ(data.addAnnotationFile(grounded("reference.txt"), diagnostics), 1u);
  EXPECT_EQ(data.addAnnotationFile(grounded("hypothesis.txt"), diagnostics), 1u);
  ASSERT_EQ(data.rows().size(), 2u);
  EXPECT_EQ(data.rows()[1].name, "model (hypothesis.txt)");

  SegmentationMetricsModel model;
  model.setData(data.rows(), data.recordings(), 2);
  model.setRecording(SegmentationMetricsModel::kAllRecordings);
  ASSERT_EQ(model.rowCount(), 4);
  // The numbers tests/cli/CMakeLists.txt expects of `gwb segment-eval`.
  EXPECT_EQ(model.cliLine(0), QStringLiteral("A\t6\t2\t83.3\t50.0\t50.0\t0.5000\t0.5000"));
  EXPECT_EQ(model.cliLine(1), QStringLiteral("B\t4\t2\t50.0\t0.0\t0.0\t1.0000\t1.0000"));
  EXPECT_TRUE(model.cliLine(2).startsWith(QStringLiteral("pooled\t10\t2\t70.0\t33.3\t33.3")))
      << model.cliLine(2).toStdString();
  EXPECT_EQ(model.index(0, SegmentationMetricsModel::Reference).data().toString(),
            QStringLiteral("reference.txt"));
  const QStringList csv = model.csvText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  ASSERT_EQ(csv.size(), 5);
  EXPECT_EQ(csv[0], QStringLiteral("Reference,Hypothesis,Recording,Units,k,a=b %,"
                                   "Pk agreement %,WindowDiff agreement %"));
  EXPECT_EQ(csv[1], QStringLiteral("reference.txt,model (hypothesis.txt),A,6,2,83.3,50.0,50.0"));
  model.setConvention(SegmentationMetricsModel::Convention::Error);
  const QStringList errors = model.csvText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  ASSERT_EQ(errors.size(), 5);
  EXPECT_EQ(errors[0], QStringLiteral("Reference,Hypothesis,Recording,Units,k,a\u2260b rate,"
                                      "Pk error rate,WindowDiff error rate"));
  EXPECT_EQ(errors[1],
            QStringLiteral("reference.txt,model (hypothesis.txt),A,6,2,0.1667,0.5000,0.5000"));
  model.setConvention(SegmentationMetricsModel::Convention::Agreement);

  // A single recording shows its line and the pooled one.
  model.setRecording(1);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.cliLine(0), QStringLiteral("B\t4\t2\t50.0\t0.0\t0.0\t1.0000\t1.0000"));
  EXPECT_TRUE(model.cliLine(1).startsWith(QStringLiteral("pooled")));

  // And the CLI itself, with the default window too.
  if (cliPath().isEmpty() || !QFile::exists(cliPath())) GTEST_SKIP() << "gwb CLI not built";
  for (const std::optional<int> k : {std::optional<int>(2), std::optional<int>()}) {
    QStringList arguments{QString::fromStdString(grounded("reference.txt")),
                          QString::fromStdString(grounded("hypothesis.txt")),
                          QStringLiteral("--recordings"),
                          QString::fromStdString(grounded("recordings.tsv"))};
    if (k) arguments << QStringLiteral("--k") << QString::number(*k);
    const QStringList cli = runSegmentEval(arguments);
    model.setData(data.rows(), data.recordings(), k);
    model.setRecording(SegmentationMetricsModel::kAllRecordings);
    ASSERT_EQ(cli.size(), model.rowCount());
    for (int i = 0; i < model.rowCount(); ++i) EXPECT_EQ(model.cliLine(i), cli[i]);
  }
}

// One convention per table: the columns shown are either all agreements (%, higher is better) or
// all error rates (lower is better), each header saying which; the view hides the others.
TEST(SegmentationTable, OneConventionPerTableLabelled) {
  using Convention = SegmentationMetricsModel::Convention;
  SegmentationMetricsModel model;
  DiscourseView view;
  for (const Convention convention : {Convention::Agreement, Convention::Error}) {
    view.setConvention(convention);
    int metrics = 0;
    for (int column = SegmentationMetricsModel::AEqualsB;
         column < SegmentationMetricsModel::ColumnCount; ++column) {
      const bool shown = SegmentationMetricsModel::isColumnShown(column, convention);
      EXPECT_EQ(view.metricsTable()->isColumnHidden(column), !shown) << column;
      if (!shown) continue;
      ++metrics;
      const QString header = model.headerData(column, Qt::Horizontal).toString();
      const QString tip = model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
      if (convention == Convention::Agreement) {
        EXPECT_TRUE(header.endsWith(QLatin1Char('%'))) << header.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("higher is better")));
      } else {
        EXPECT_TRUE(header.endsWith(QStringLiteral(" rate"))) << header.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("lower is better")));
      }
    }
    EXPECT_EQ(metrics, 3);  // a=b, Pk, WindowDiff in the one convention
    for (int column = SegmentationMetricsModel::Reference;
         column < SegmentationMetricsModel::AEqualsB; ++column)
      EXPECT_FALSE(view.metricsTable()->isColumnHidden(column));
  }
}

// The topic colours are far apart: at least 20 CIEDE2000 units between any two of the first 20
// (the topics of a recording), and from white (a missing label), the null topic's grey and black.
TEST(TopicPalette, ColoursArePerceptuallyDistinct) {
  // CIEDE2000 against Sharma, Wu & Dalal's published test pairs.
  struct Pair {
    TopicPalette::Lab first;
    TopicPalette::Lab second;
    double expected;
  };
  const Pair pairs[] = {
      {{50.0, 2.6772, -79.7751}, {50.0, 0.0, -82.7485}, 2.0425},
      {{50.0, 3.1571, -77.2803}, {50.0, 0.0, -82.7485}, 2.8615},
      {{50.0, 0.0, 0.0}, {50.0, -1.0, 2.0}, 2.3669},
      {{50.0, 2.5, 0.0}, {73.0, 25.0, -18.0}, 27.1492},
      {{50.0, 2.5, 0.0}, {61.0, -5.0, 29.0}, 22.8977},
      {{60.2574, -34.0099, 36.2677}, {60.4626, -34.1751, 39.4387}, 1.2644},
  };
  for (const Pair& p : pairs) {
    EXPECT_NEAR(TopicPalette::ciede2000(p.first, p.second), p.expected, 5e-5);
    EXPECT_NEAR(TopicPalette::ciede2000(p.second, p.first), p.expected, 5e-5);
  }
  const TopicPalette::Lab white = TopicPalette::toLab(Qt::white);
  EXPECT_NEAR(white.l, 100.0, 1e-3);
  EXPECT_NEAR(white.a, 0.0, 1e-3);
  EXPECT_NEAR(white.b, 0.0, 1e-3);

  const std::vector<QColor>& colors = TopicPalette::baseColors();
  ASSERT_GE(colors.size(), 20u);
  const auto smallest = [&](std::size_t count) {
    double least = 1e9;
    for (std::size_t i = 0; i < count; ++i)
      for (std::size_t j = i + 1; j < count; ++j)
        least = std::min(least, TopicPalette::colorDifference(colors[i], colors[j]));
    return least;
  };
  EXPECT_GE(smallest(20), 20.0);
  EXPECT_GE(smallest(colors.size()), 15.0);
  for (std::size_t i = 0; i < 20; ++i) {
    for (const QColor& other :
         {TopicPalette::missingLabelColor(), TopicPalette::nullTopicColor(), QColor(Qt::black)})
      EXPECT_GE(TopicPalette::colorDifference(colors[i], other), 20.0)
          << colors[i].name().toStdString();
  }
}

// Topics shown together (a recording's) have their colours kept apart.
TEST(TopicPalette, TopicsShownTogetherAreKeptApart) {
  const std::vector<QColor>& base = TopicPalette::baseColors();
  const TopicPalette plain({"a", "b", "c"});
  EXPECT_EQ(plain.color("c"), base[2]);
  // a and c shown together: c's colour is at least as far from a's as any other colour is.
  const TopicPalette apart({"a", "b", "c"}, {{"a", "c"}, {"b"}});
  double farthest = 0.0;
  for (const QColor& colour : base)
    farthest = std::max(farthest, TopicPalette::colorDifference(colour, apart.color("a")));
  EXPECT_NEAR(TopicPalette::colorDifference(apart.color("a"), apart.color("c")), farthest, 1e-9);
  EXPECT_NE(apart.color("b"), apart.color("a"));
  EXPECT_NE(apart.color("b"), apart.color("c"));

  // The real corpus: within every recording the gold topics are at least 20 ΔE00 apart.
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(goldPath, "data/earleyx/data/gold.topic.ortho.yld");
  GWB_REQUIRE_SHARED(recordingsPath, "data/social-cues/recordings.tsv");
  DiscourseView view;
  QString error;
  ASSERT_TRUE(view.loadCorpus(QString::fromStdString(corpusPath), QString::fromStdString(goldPath),
                              QString::fromStdString(recordingsPath), &error))
      << error.toStdString();
  const DiscourseData& data = view.data();
  double least = 1e9;
  std::string pair;
  for (const gwb::Recording& r : data.recordings()) {
    std::set<std::string> topics;
    for (int u = r.firstUtterance; u < r.firstUtterance + r.utterances; ++u) {
      const auto& label = data.rows()[0].labels[static_cast<std::size_t>(u)];
      if (!label) continue;
      for (const std::string& t : TopicPalette::topicsOfLabel(*label))
        if (t != gwb::kNullTopic) topics.insert(t);
    }
    for (const std::string& a : topics) {
      for (const std::string& b : topics) {
        if (a >= b) continue;
        const double d =
            TopicPalette::colorDifference(view.palette().color(a), view.palette().color(b));
        if (d < least) {
          least = d;
          pair = r.id + ": " + a + "/" + b;
        }
      }
    }
  }
  EXPECT_GE(least, 20.0) << pair;
}

TEST(SegmentationTable, ReferenceVectorsOfSegevalAndNltk) {
  GWB_REQUIRE_SHARED(path, "reference/segmentation/vectors.tsv");
  std::ifstream in(path);
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("metric", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) f.push_back(field);
    ASSERT_GE(f.size(), 6u) << line;
    if (f[1] != "mass") continue;  // label sequences have masses, not NLTK strings
    const std::vector<int> ref = parseMasses(f[2]);
    const std::vector<int> hyp = parseMasses(f[3]);
    const std::optional<int> k =
        f[4].rfind("default", 0) == 0 ? std::nullopt : std::optional<int>(std::stoi(f[4]));
    const std::vector<std::string> refLabels = labelsFromMasses(ref);
    const std::vector<std::string> hypLabels = labelsFromMasses(hyp);
    ASSERT_EQ(refLabels.size(), hypLabels.size());

    DiscourseData data;
    gwb::Diagnostics diagnostics;
    const gwb::SocialCorpus corpus = makeCorpus(static_cast<int>(refLabels.size()));
    ASSERT_TRUE(data.set(corpus, std::nullopt, {}, diagnostics));
    ASSERT_TRUE(data.addRow(labelRow("ref", refLabels), diagnostics));
    ASSERT_TRUE(data.addRow(labelRow("hyp", hypLabels), diagnostics));
    SegmentationMetricsModel model;
    model.setData(data.rows(), data.recordings(), k);
    ASSERT_EQ(model.rowCount(), 1);  // one recording: no pooled line
    const int column = f[0] == "pk" ? SegmentationMetricsModel::PkError
                                    : SegmentationMetricsModel::WindowDiffError;
    const double expected = std::stod(f[5]);
    EXPECT_EQ(model.index(0, column).data().toString(), QString::number(expected, 'f', 4)) << line;
    EXPECT_NEAR(model.pairs()[0].recordings[0].comparison->pk.error() * (f[0] == "pk") +
                    model.pairs()[0].recordings[0].comparison->windowDiff.error() * (f[0] != "pk"),
                expected, 1e-12)
        << line;
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(SegmentationTable, RealCorpusGoldAgainstABaselineIsTheClis) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(goldPath, "data/earleyx/data/gold.topic.ortho.yld");
  GWB_REQUIRE_SHARED(recordingsPath, "data/social-cues/recordings.tsv");
  if (cliPath().isEmpty() || !QFile::exists(cliPath())) GTEST_SKIP() << "gwb CLI not built";
  DiscourseData data;
  gwb::Diagnostics diagnostics;
  ASSERT_TRUE(data.load(corpusPath, goldPath, recordingsPath, diagnostics));
  ASSERT_EQ(data.recordings().size(), 24u);
  ASSERT_EQ(data.utteranceCount(), 4763u);
  // A baseline written as an annotation file: the first object present (none without one),
  // with every 7th utterance left out ('?').
  QTemporaryDir dir;
  const QString baseline = dir.filePath(QStringLiteral("first-object.txt"));
  {
    std::ofstream out(baseline.toStdString());
    out << "# annotators: first-object\n";
    for (std::size_t i = 0; i < data.utteranceCount(); ++i) {
      const auto& u = data.corpus().utterances[i];
      out << (i % 7 == 3 ? "?" : u.objects.empty() ? "none" : u.objects.front().name) << '\n';
    }
  }
  ASSERT_EQ(data.addAnnotationFile(baseline.toStdString(), diagnostics), 1u);
  SegmentationMetricsModel model;
  for (const std::optional<int> k : {std::optional<int>(), std::optional<int>(5)}) {
    model.setData(data.rows(), data.recordings(), k);
    model.setRecording(SegmentationMetricsModel::kAllRecordings);
    QStringList arguments{QString::fromStdString(goldPath), baseline,
                          QStringLiteral("--recordings"), QString::fromStdString(recordingsPath)};
    if (k) arguments << QStringLiteral("--k") << QString::number(*k);
    const QStringList cli = runSegmentEval(arguments);
    ASSERT_EQ(cli.size(), 26);  // 24 recordings, pooled, mean
    ASSERT_EQ(model.rowCount(), cli.size());
    for (int i = 0; i < model.rowCount(); ++i) EXPECT_EQ(model.cliLine(i), cli[i]) << i;
  }
}

TEST(DiscourseTimeline, RowsColoursAndBoundaries) {
  DiscourseData data;
  gwb::Diagnostics diagnostics;
  const gwb::SocialCorpus corpus = makeCorpus(8);
  ASSERT_TRUE(data.set(corpus, std::nullopt, makeRecordings(corpus, {5, 3}), diagnostics));
  ASSERT_TRUE(
      data.addRow(labelRow("one", {"obj0", "obj0", "None", "obj1", "obj1", "obj2", "obj2", "obj2"}),
                  diagnostics));
  DiscourseRow withGaps =
      labelRow("two", {"obj0", "obj1", "obj1", "obj1", "obj0+obj1", "None", "obj2", "obj0"});
  withGaps.labels[2].reset();  // left out
  ASSERT_TRUE(data.addRow(withGaps, diagnostics));
  EXPECT_FALSE(data.addRow(labelRow("short", {"obj0"}), diagnostics));  // wrong length
  EXPECT_TRUE(diagnostics.hasErrors());

  const TopicPalette palette(data.topics());
  DiscourseTimeline timeline;
  timeline.resize(800, 200);
  timeline.setData(&data, &palette);
  ASSERT_EQ(timeline.rowCount(), 2);
  EXPECT_EQ(timeline.rowName(0), QStringLiteral("one"));
  EXPECT_EQ(timeline.utteranceCount(), 5);

  // Colours: one per topic, the null topic grey, a missing label white; distinct topics differ.
  EXPECT_EQ(timeline.color(0, 0), palette.color("obj0"));
  EXPECT_EQ(timeline.color(0, 2), TopicPalette::nullTopicColor());
  EXPECT_EQ(timeline.color(1, 2), TopicPalette::missingLabelColor());
  EXPECT_EQ(timeline.color(1, 4), palette.color("obj0"));  // obj0+obj1: the first topic
  EXPECT_NE(palette.color("obj0"), palette.color("obj1"));
  EXPECT_NE(palette.color("obj1"), palette.color("obj2"));
  EXPECT_NE(palette.color("obj0"), TopicPalette::nullTopicColor());
  EXPECT_EQ(palette.color("obj0"), TopicPalette::baseColors()[0]);  // sorted topic order

  // Boundaries where the label changes (by hand): row one: after 1 (obj0|None), after 2
  // (None|obj1); row two: after 0 (obj0|obj1), after 3 (obj1|obj0+obj1); none next to the gap.
  const std::vector<bool> one = {false, true, true, false};
  const std::vector<bool> two = {true, false, false, true};
  for (int u = 0; u < 4; ++u) {
    EXPECT_EQ(timeline.boundaryAfter(0, u), one[static_cast<std::size_t>(u)]) << u;
    EXPECT_EQ(timeline.boundaryAfter(1, u), two[static_cast<std::size_t>(u)]) << u;
  }
  EXPECT_FALSE(timeline.boundaryAfter(0, 4));  // the recording's end
  EXPECT_EQ(timeline.boundaryCount(0), 2);

  // The second recording: utterances 5..7 of the corpus.
  timeline.setRecording(1);
  EXPECT_EQ(timeline.utteranceCount(), 3);
  EXPECT_EQ(timeline.label(1, 2), std::optional<std::string>("obj0"));
  EXPECT_TRUE(timeline.boundaryAfter(1, 0));   // None | obj2
  EXPECT_FALSE(timeline.boundaryAfter(0, 0));  // obj2 | obj2

  // Hit testing is the inverse of the cell geometry, at any zoom.
  for (const double width : {3.0, 14.0, 60.0}) {
    timeline.setCellWidth(width);
    for (int row = 0; row < 2; ++row) {
      for (int u = 0; u < 3; ++u) {
        const QRect r = timeline.cellRect(row, u);
        if (r.right() >= timeline.viewport()->width()) continue;
        const auto hit = timeline.hitTest(r.center());
        EXPECT_EQ(hit.row, row);
        EXPECT_EQ(hit.utterance, u);
      }
    }
  }
  // Scrolling to an utterance brings it into view and makes it current.
  DiscourseData longer;
  const gwb::SocialCorpus many = makeCorpus(300);
  ASSERT_TRUE(longer.set(many, std::nullopt, {}, diagnostics));
  std::vector<std::string> labels(300, "obj1");
  ASSERT_TRUE(longer.addRow(labelRow("long", labels), diagnostics));
  DiscourseTimeline scrolled;
  scrolled.resize(600, 150);
  scrolled.setData(&longer, &palette);
  scrolled.setCellWidth(20.0);
  scrolled.scrollToUtterance(250);
  EXPECT_EQ(scrolled.currentUtterance(), 250);
  const QRect visible = scrolled.cellRect(0, 250);
  EXPECT_GE(visible.left(), scrolled.nameWidth());
  EXPECT_LE(visible.right(), scrolled.viewport()->width());
  EXPECT_LT(scrolled.cellRect(0, 0).right(), scrolled.nameWidth());  // scrolled out of view

  // The description names the words, the cues and every row's label.
  const QString text = timeline.utteranceDescription(0);
  EXPECT_TRUE(text.contains(QStringLiteral("word5")));
  EXPECT_TRUE(text.contains(QStringLiteral("kid.eyes")));
  EXPECT_TRUE(text.contains(QStringLiteral("obj2")));
}

// The tiny corpus of tests/data/grounded, its gold, and a generated discourse grammar.
struct TinySetup {
  QTemporaryDir dir;
  QString grammarPath;
  gwb::Grammar grammar;
  DiscourseData data;
};

std::unique_ptr<TinySetup> tinySetup() {
  auto setup = std::make_unique<TinySetup>();
  gwb::Diagnostics diagnostics;
  EXPECT_TRUE(setup->data.load(grounded("tiny.yld"), grounded("tiny.gold.yld"),
                               grounded("tiny.recordings.tsv"), diagnostics));
  gwb::SocialGrammarOptions options;
  options.kind = gwb::SocialGrammarKind::Discourse;
  options.cues = setup->data.corpus().cueOrder;
  gwb::SocialGrammarBuild build = gwb::generateSocialGrammar(setup->data.corpus(), options);
  EXPECT_TRUE(build.ok());
  setup->grammar = build.grammar;
  setup->grammarPath = setup->dir.filePath(QStringLiteral("tiny-discourse.grammar"));
  std::string error;
  EXPECT_TRUE(gwb::saveGrammarFile(build.grammar, setup->grammarPath.toStdString(),
                                   gwb::GrammarFormat::Earleyx, &error))
      << error;
  return setup;
}

TEST(DiscourseData, DecodingKeepsCoresLabelsAndTheTrees) {
  const auto setup = tinySetup();
  const DiscourseData& data = setup->data;
  gwb::Diagnostics diagnostics;
  const auto compiled = gwb::CompiledGrammar::compile(setup->grammar, diagnostics);
  ASSERT_TRUE(compiled);
  const auto cues = grammarCues(setup->grammar, data.corpus().cueOrder);
  EXPECT_EQ(cues, data.corpus().cueOrder);
  ASSERT_TRUE(isDiscourseGrammar(setup->grammar));
  for (const bool discourse : {true, false}) {
    const gwb::CorpusDecoding core =
        gwb::decodeSocialCorpus(*compiled, data.corpus(), data.recordings(), discourse, cues);
    gwb::BatchControl control;
    control.threads = 2;
    const ModelDecoding ours =
        decodeWithTrees(*compiled, data.corpus(), data.recordings(), discourse, cues, control);
    ASSERT_EQ(ours.utterances.size(), core.utterances.size());
    EXPECT_EQ(ours.failures, core.failures);
    for (std::size_t i = 0; i < core.utterances.size(); ++i) {
      EXPECT_EQ(ours.utterances[i].topic, core.utterances[i].topic) << i;
      EXPECT_EQ(ours.utterances[i].wordTopics, core.utterances[i].wordTopics) << i;
    }
  }
}

TEST(DiscourseView, DecodesShowsRowsAndOpensParses) {
  const auto setup = tinySetup();
  DiscourseView view;
  view.resize(1200, 700);
  QString error;
  ASSERT_TRUE(view.loadCorpus(QString::fromStdString(grounded("tiny.yld")),
                              QString::fromStdString(grounded("tiny.gold.yld")),
                              QString::fromStdString(grounded("tiny.recordings.tsv")), &error))
      << error.toStdString();
  EXPECT_EQ(view.recordingBox()->count(), 2);
  EXPECT_EQ(view.timeline()->rowCount(), 1);  // gold
  EXPECT_EQ(view.timeline()->label(0, 0), std::optional<std::string>("dog"));
  EXPECT_FALSE(view.openParse(0, 0));  // no model yet

  ASSERT_TRUE(view.decodeGrammar(setup->grammarPath));
  ASSERT_TRUE(view.waitForDecoding(600000));
  ASSERT_EQ(view.timeline()->rowCount(), 2) << view.statusText().toStdString();
  EXPECT_EQ(view.timeline()->rowName(1), QStringLiteral("model: tiny-discourse.grammar"));

  gwb::Diagnostics diagnostics;
  const auto compiled = gwb::CompiledGrammar::compile(setup->grammar, diagnostics);
  const gwb::CorpusDecoding core =
      gwb::decodeSocialCorpus(*compiled, setup->data.corpus(), setup->data.recordings(), true,
                              setup->data.corpus().cueOrder);
  const auto& labels = view.data().rows()[1].labels;
  ASSERT_EQ(labels.size(), core.utterances.size());
  for (std::size_t i = 0; i < labels.size(); ++i) EXPECT_EQ(*labels[i], core.utterances[i].topic);
  // One pair (gold, model) per recording view: this recording and pooled.
  EXPECT_EQ(view.metricsModel()->rowCount(), 2);

  // Clicking an utterance opens its Sentence subtree from the recording's parse.
  ASSERT_TRUE(view.openParse(1, 1));
  ASSERT_NE(view.parseTreeView(), nullptr);
  const gwb::ParseTree& tree = view.parseTreeView()->tree();
  ASSERT_FALSE(tree.empty());
  EXPECT_EQ(tree.node(tree.root()).label.rfind("Sentence", 0), 0u);
  const std::vector<std::string> leaves = tree.leaves();
  EXPECT_NE(std::find(leaves.begin(), leaves.end(), "piggie"), leaves.end());
  EXPECT_EQ(view.parseDialog()->property("text").toString(),
            QStringLiteral(".pig kid.eyes mom.eyes # ## a piggie"));

  // The arrow keys move the current utterance.
  view.showUtterance(0);
  QTest::keyClick(view.timeline(), Qt::Key_Right);
  EXPECT_EQ(view.timeline()->currentUtterance(), 1);
  QTest::keyClick(view.timeline(), Qt::Key_Left);
  QTest::keyClick(view.timeline(), Qt::Key_Left);
  EXPECT_EQ(view.timeline()->currentUtterance(), 0);

  // The second recording; the details name the hovered utterance.
  view.setRecording(1);
  EXPECT_EQ(view.timeline()->utteranceCount(), 1);
  view.showUtterance(0);
  EXPECT_TRUE(view.detailsLabel()->text().contains(QStringLiteral("hi")));
  EXPECT_TRUE(view.legendLabel()->text().contains(QStringLiteral("None")));

  // Removing the gold row leaves the model alone: no pair to score.
  view.removeRow(0);
  EXPECT_EQ(view.timeline()->rowCount(), 1);
  EXPECT_EQ(view.metricsModel()->rowCount(), 0);
}

TEST(ResearchMenu, OpensTheDiscourseAndTransitionWindows) {
  QTemporaryDir dir;
  QSettings store(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  AppSettings settings(store);
  MainWindow window(settings);
  ASSERT_NE(window.researchMenu(), nullptr);
  QStringList texts;
  for (QAction* action : window.researchMenu()->actions()) texts << action->text();
  EXPECT_TRUE(texts.contains(QStringLiteral("&Discourse segmentation\u2026")));
  EXPECT_TRUE(texts.contains(QStringLiteral("&Topic transitions\u2026")));
  DiscourseView* discourse = window.showDiscourseView();
  ASSERT_NE(discourse, nullptr);
  EXPECT_EQ(window.showDiscourseView(), discourse);  // one window
  EXPECT_TRUE(discourse->isWindow());
  TransitionView* transitions = window.showTransitionView();
  ASSERT_NE(transitions, nullptr);
  EXPECT_TRUE(transitions->topics().empty());  // no grammar open
}

}  // namespace
}  // namespace gwb::ui
