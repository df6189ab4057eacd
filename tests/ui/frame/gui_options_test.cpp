// The GUI's command line, read without a window: every option lands in its field, defaults
// hold when an option is absent, and a value that cannot be read is an error naming the option
// (never a silent default).
#include "ui/frame/gui_options.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gwb::ui {
namespace {

GuiCommandLine parse(QStringList arguments) {
  arguments.prepend(QStringLiteral("grammar-workbench"));
  return parseGuiOptions(arguments);
}

TEST(GuiOptionsTest, NoArgumentsRunWithTheDefaults) {
  const GuiCommandLine command = parse({});
  ASSERT_EQ(command.action, GuiCommandLine::Action::Run) << command.text.toStdString();
  const GuiOptions& o = command.options;
  EXPECT_TRUE(o.files.isEmpty());
  EXPECT_FALSE(o.noSession);
  EXPECT_FALSE(o.takeScreenshot());
  EXPECT_EQ(o.screenshotSize, QSize(1280, 800));
  EXPECT_TRUE(o.view.isEmpty());
  EXPECT_EQ(o.agendaStrategy, QStringLiteral("earley"));
  EXPECT_FALSE(o.step || o.select || o.agenda || o.utterance || o.window || o.zoom);
  EXPECT_FALSE(o.run || o.difference || o.dsBestFirst);
}

TEST(GuiOptionsTest, EveryOptionLandsInItsField) {
  const GuiCommandLine command = parse({QStringLiteral("a.cfg"),
                                        QStringLiteral("b.txt"),
                                        QStringLiteral("--root"),
                                        QStringLiteral("S"),
                                        QStringLiteral("--no-session"),
                                        QStringLiteral("--screenshot"),
                                        QStringLiteral("out.png"),
                                        QStringLiteral("--screenshot-size"),
                                        QStringLiteral("1600x1000"),
                                        QStringLiteral("--view"),
                                        QStringLiteral("stepper"),
                                        QStringLiteral("--sentence"),
                                        QStringLiteral("the dog"),
                                        QStringLiteral("--step"),
                                        QStringLiteral("word:2"),
                                        QStringLiteral("--select"),
                                        QStringLiteral("7:4"),
                                        QStringLiteral("--agenda"),
                                        QStringLiteral("30"),
                                        QStringLiteral("--agenda-strategy"),
                                        QStringLiteral("complete-first"),
                                        QStringLiteral("--corpus"),
                                        QStringLiteral("c.yld"),
                                        QStringLiteral("--gold"),
                                        QStringLiteral("g.yld"),
                                        QStringLiteral("--recordings"),
                                        QStringLiteral("r.tsv"),
                                        QStringLiteral("--annotations"),
                                        QStringLiteral("x.yld"),
                                        QStringLiteral("--annotations"),
                                        QStringLiteral("y.yld"),
                                        QStringLiteral("--decode"),
                                        QStringLiteral("d.grammar"),
                                        QStringLiteral("--recording"),
                                        QStringLiteral("me03"),
                                        QStringLiteral("--utterance"),
                                        QStringLiteral("12"),
                                        QStringLiteral("--window"),
                                        QStringLiteral("5"),
                                        QStringLiteral("--zoom"),
                                        QStringLiteral("2.5"),
                                        QStringLiteral("--compare"),
                                        QStringLiteral("e.grammar"),
                                        QStringLiteral("--difference"),
                                        QStringLiteral("--counts-corpus"),
                                        QStringLiteral("k.yld"),
                                        QStringLiteral("--values"),
                                        QStringLiteral("counts"),
                                        QStringLiteral("--order"),
                                        QStringLiteral("cluster"),
                                        QStringLiteral("--induce-grammar"),
                                        QStringLiteral("i.cfg"),
                                        QStringLiteral("--induce-corpus"),
                                        QStringLiteral("i.txt"),
                                        QStringLiteral("--induce"),
                                        QStringLiteral("method=em"),
                                        QStringLiteral("--experiment"),
                                        QStringLiteral("model=vb;seeds=1-2"),
                                        QStringLiteral("--run"),
                                        QStringLiteral("--help-topic"),
                                        QStringLiteral("docs/formats.md"),
                                        QStringLiteral("--ds-grammar"),
                                        QStringLiteral("dylan"),
                                        QStringLiteral("--ds-sentence"),
                                        QStringLiteral("john likes mary"),
                                        QStringLiteral("--ds-step"),
                                        QStringLiteral("end"),
                                        QStringLiteral("--ds-select"),
                                        QStringLiteral("0"),
                                        QStringLiteral("--ds-best-first")});
  ASSERT_EQ(command.action, GuiCommandLine::Action::Run) << command.text.toStdString();
  const GuiOptions& o = command.options;
  EXPECT_EQ(o.files, (QStringList{QStringLiteral("a.cfg"), QStringLiteral("b.txt")}));
  EXPECT_EQ(o.root, QStringLiteral("S"));
  EXPECT_TRUE(o.noSession);
  EXPECT_EQ(o.screenshotPath, QStringLiteral("out.png"));
  EXPECT_EQ(o.screenshotSize, QSize(1600, 1000));
  EXPECT_EQ(o.view, QStringLiteral("stepper"));
  EXPECT_EQ(o.sentence, QStringLiteral("the dog"));
  EXPECT_EQ(o.step, QStringLiteral("word:2"));
  EXPECT_EQ(o.select, std::make_pair(7, 4));
  EXPECT_EQ(o.agenda, QStringLiteral("30"));
  EXPECT_EQ(o.agendaStrategy, QStringLiteral("complete-first"));
  EXPECT_EQ(o.corpus, QStringLiteral("c.yld"));
  EXPECT_EQ(o.gold, QStringLiteral("g.yld"));
  EXPECT_EQ(o.recordings, QStringLiteral("r.tsv"));
  EXPECT_EQ(o.annotations, (QStringList{QStringLiteral("x.yld"), QStringLiteral("y.yld")}));
  EXPECT_EQ(o.decode, QStringList{QStringLiteral("d.grammar")});
  EXPECT_EQ(o.recording, QStringLiteral("me03"));
  EXPECT_EQ(o.utterance, 12);
  EXPECT_EQ(o.window, 5);
  EXPECT_EQ(o.zoom, 2.5);
  EXPECT_EQ(o.compare, QStringLiteral("e.grammar"));
  EXPECT_TRUE(o.difference);
  EXPECT_EQ(o.countsCorpus, QStringLiteral("k.yld"));
  EXPECT_EQ(o.values, QStringLiteral("counts"));
  EXPECT_EQ(o.order, QStringLiteral("cluster"));
  EXPECT_EQ(o.induceGrammar, QStringLiteral("i.cfg"));
  EXPECT_EQ(o.induceCorpus, QStringLiteral("i.txt"));
  EXPECT_EQ(o.induce, QStringList{QStringLiteral("method=em")});
  EXPECT_EQ(o.experiments, QStringList{QStringLiteral("model=vb;seeds=1-2")});
  EXPECT_TRUE(o.run);
  EXPECT_EQ(o.helpTopic, QStringLiteral("docs/formats.md"));
  EXPECT_EQ(o.dsGrammar, QStringLiteral("dylan"));
  EXPECT_EQ(o.dsSentence, QStringLiteral("john likes mary"));
  EXPECT_EQ(o.dsStep, QStringLiteral("end"));
  EXPECT_EQ(o.dsSelect, 0);
  EXPECT_TRUE(o.dsBestFirst);
}

TEST(GuiOptionsTest, EveryViewNameIsAccepted) {
  for (const QString& view : kGuiViews) {
    const GuiCommandLine command = parse({QStringLiteral("--view"), view});
    EXPECT_EQ(command.action, GuiCommandLine::Action::Run) << view.toStdString();
    EXPECT_EQ(command.options.view, view);
  }
}

TEST(GuiOptionsTest, HelpAndVersionAreActionsNotExits) {
  const GuiCommandLine help = parse({QStringLiteral("--help")});
  EXPECT_EQ(help.action, GuiCommandLine::Action::ShowHelp);
  for (const char* option : {"--view", "--ds-select", "--screenshot-size", "--no-session"})
    EXPECT_TRUE(help.text.contains(QString::fromLatin1(option))) << option;
  EXPECT_EQ(parse({QStringLiteral("--version")}).action, GuiCommandLine::Action::ShowVersion);
}

TEST(GuiOptionsTest, FublLearnerOptionsLandInTheirFields) {
  const GuiCommandLine command = parse({QStringLiteral("--view"),
                                        QStringLiteral("fubl"),
                                        QStringLiteral("--fubl-train"),
                                        QStringLiteral("train.ccg"),
                                        QStringLiteral("--fubl-fixed"),
                                        QStringLiteral("np.geo"),
                                        QStringLiteral("--fubl-test"),
                                        QStringLiteral("test.ccg"),
                                        QStringLiteral("--fubl-model"),
                                        QStringLiteral("m.ccgmodel"),
                                        QStringLiteral("--fubl-passes"),
                                        QStringLiteral("4"),
                                        QStringLiteral("--fubl-seed"),
                                        QStringLiteral("7"),
                                        QStringLiteral("--fubl-page"),
                                        QStringLiteral("lexicon"),
                                        QStringLiteral("--fubl-filter"),
                                        QStringLiteral("texas"),
                                        QStringLiteral("--fubl-open"),
                                        QStringLiteral("2"),
                                        QStringLiteral("--fubl-open-model"),
                                        QStringLiteral("old.ccgmodel"),
                                        QStringLiteral("--run")});
  ASSERT_EQ(command.action, GuiCommandLine::Action::Run) << command.text.toStdString();
  const GuiOptions& o = command.options;
  EXPECT_EQ(o.view, QStringLiteral("fubl"));
  EXPECT_EQ(o.fublTrain, QStringLiteral("train.ccg"));
  EXPECT_EQ(o.fublFixed, QStringLiteral("np.geo"));
  EXPECT_EQ(o.fublTest, QStringLiteral("test.ccg"));
  EXPECT_EQ(o.fublModel, QStringLiteral("m.ccgmodel"));
  EXPECT_EQ(o.fublPasses, 4);
  EXPECT_EQ(o.fublSeed, 7);
  EXPECT_EQ(o.fublPage, QStringLiteral("lexicon"));
  EXPECT_EQ(o.fublFilter, QStringLiteral("texas"));
  EXPECT_EQ(o.fublOpen, 2);
  EXPECT_EQ(o.fublOpenModel, QStringLiteral("old.ccgmodel"));
  EXPECT_TRUE(o.run);
  const GuiOptions defaults = parse({}).options;
  EXPECT_TRUE(defaults.fublTrain.isEmpty() && defaults.fublPage.isEmpty());
  EXPECT_FALSE(defaults.fublPasses || defaults.fublSeed || defaults.fublOpen);
}

TEST(GuiOptionsTest, UnreadableValuesAreErrorsNamingTheOption) {
  struct Case {
    QStringList arguments;
    std::string expected;  // a part of the error
  };
  const std::vector<Case> cases = {
      {{QStringLiteral("--frobnicate")}, "frobnicate"},
      {{QStringLiteral("--view"), QStringLiteral("stepr")}, "--view: expected one of grammar,"},
      {{QStringLiteral("--step"), QStringLiteral("half")}, "--step: expected a number, end"},
      {{QStringLiteral("--step"), QStringLiteral("word:x")}, "--step:"},
      {{QStringLiteral("--select"), QStringLiteral("7")}, "--select: expected SET:INDEX"},
      {{QStringLiteral("--select"), QStringLiteral("a:b")}, "--select:"},
      {{QStringLiteral("--agenda"), QStringLiteral("word:2")}, "--agenda: expected N or end"},
      {{QStringLiteral("--agenda-strategy"), QStringLiteral("fastest")}, "--agenda-strategy:"},
      {{QStringLiteral("--utterance"), QStringLiteral("0")}, "--utterance: expected a whole"},
      {{QStringLiteral("--window"), QStringLiteral("wide")}, "--window:"},
      {{QStringLiteral("--zoom"), QStringLiteral("-1")}, "--zoom: expected a number greater"},
      {{QStringLiteral("--values"), QStringLiteral("odds")}, "--values: expected one of prob"},
      {{QStringLiteral("--order"), QStringLiteral("random")}, "--order:"},
      {{QStringLiteral("--ds-select"), QStringLiteral("-2")}, "--ds-select:"},
      {{QStringLiteral("--ds-step"), QStringLiteral("last")}, "--ds-step:"},
      {{QStringLiteral("--screenshot-size"), QStringLiteral("1280")}, "--screenshot-size:"},
      {{QStringLiteral("--screenshot-size"), QStringLiteral("0x800")}, "--screenshot-size:"},
      {{QStringLiteral("--fubl-passes"), QStringLiteral("0")}, "--fubl-passes: expected a whole"},
      {{QStringLiteral("--fubl-seed"), QStringLiteral("-1")}, "--fubl-seed:"},
      {{QStringLiteral("--fubl-page"), QStringLiteral("curve")},
       "--fubl-page: expected one of training, lexicon, evaluation"},
      {{QStringLiteral("--fubl-open"), QStringLiteral("first")}, "--fubl-open:"},
      {{QStringLiteral("--root")}, "root"},  // a value is missing
  };
  for (const Case& c : cases) {
    const GuiCommandLine command = parse(c.arguments);
    EXPECT_EQ(command.action, GuiCommandLine::Action::Error)
        << c.arguments.join(QLatin1Char(' ')).toStdString();
    EXPECT_NE(command.text.toStdString().find(c.expected), std::string::npos)
        << c.arguments.join(QLatin1Char(' ')).toStdString() << ": " << command.text.toStdString();
  }
}

}  // namespace
}  // namespace gwb::ui
