// Reading corpora for the workbench: plain sentences, social-cue utterances (one a line or a
// whole recording on one line) with their cues, and gold topics; the corpus view's table.
#include "ui/grounded/corpus_document.h"

#include <QFile>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "model_tester.h"
#include "qt_printers.h"
#include "shared_data.h"
#include "ui/grounded/corpus_view.h"

namespace gwb::ui {
namespace {

struct SocialLineCase {
  const char* line;
  // Utterances as "objects|words": objects as ".dog:kid.eyes,mom.eyes;.pig:kid.hands".
  std::vector<const char*> expected;
};

QString describe(const Utterance& u) {
  QStringList objects;
  for (const SocialObject& o : u.objects)
    objects << o.name % QLatin1Char(':') % o.cues.join(QLatin1Char(','));
  return objects.join(QLatin1Char(';')) % QLatin1Char('|') % u.words.join(QLatin1Char(' '));
}

TEST(CorpusDocumentTest, SplitsSocialCueLinesIntoUtterances) {
  const SocialLineCase cases[] = {
      {".dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that is this a puppy dog",
       {".dog:kid.eyes,mom.eyes;.pig:kid.hands|and whats that is this a puppy dog"}},
      {"## woof woof woof", {"|woof woof woof"}},
      {".dog # ## look", {".dog:|look"}},
      // A recording on one line: a new object list or `##` after the words starts the next.
      {".dog mom.hands # ## woof woof .dog kid.eyes mom.hands # ## thats nice ## come here you",
       {".dog:mom.hands|woof woof", ".dog:kid.eyes,mom.hands|thats nice", "|come here you"}},
      {"", {}},
  };
  for (const SocialLineCase& c : cases) {
    const std::vector<Utterance> utterances =
        CorpusDocument::parseSocialCueLine(QString::fromUtf8(c.line), 7);
    ASSERT_EQ(utterances.size(), c.expected.size()) << c.line;
    for (std::size_t i = 0; i < utterances.size(); ++i) {
      EXPECT_EQ(describe(utterances[i]), QString::fromUtf8(c.expected[i])) << c.line;
      EXPECT_EQ(utterances[i].line, 7);
    }
    // The raw texts together are the line: nothing is lost for the parser.
    QStringList texts;
    for (const Utterance& u : utterances) texts << u.text;
    EXPECT_EQ(texts.join(QLatin1Char(' ')), QString::fromUtf8(c.line).simplified());
  }
}

TEST(CorpusDocumentTest, ReadsGoldTopicLines) {
  const Utterance u = CorpusDocument::parseGoldLine(
      QStringLiteral(".dog ## and whats that is this a puppy.dog dog.dog"), 1);
  EXPECT_EQ(u.goldTopic, QStringLiteral(".dog"));
  EXPECT_EQ(u.topicalWords, (QStringList{QStringLiteral("puppy"), QStringLiteral("dog")}));
  EXPECT_EQ(u.text, QStringLiteral("and whats that is this a puppy dog"));
  EXPECT_EQ(CorpusDocument::parseGoldLine(QStringLiteral("## woof woof"), 2).goldTopic,
            QStringLiteral("none"));
}

TEST(CorpusDocumentTest, DetectsTheKindOfFile) {
  EXPECT_EQ(CorpusDocument::detectKind(QStringLiteral("# comment\ni saw john\n")),
            CorpusDocument::Kind::Sentences);
  EXPECT_EQ(CorpusDocument::detectKind(QStringLiteral(".dog # ## hi\r\n## yes\r\n")),
            CorpusDocument::Kind::SocialCues);
  EXPECT_EQ(CorpusDocument::detectKind(QStringLiteral(".dog ## a dog.dog\n## b\n")),
            CorpusDocument::Kind::GoldTopics);
}

TEST(CorpusDocumentTest, SentenceFilesSkipCommentsAndBlankLines) {
  const auto document = CorpusDocument::fromText(
      QStringLiteral("/x/s.txt"), QStringLiteral("# sentences\ni saw john\n\n  the man walked \n"));
  ASSERT_EQ(document->utterances().size(), 2u);
  EXPECT_EQ(document->utterances()[1].text, QStringLiteral("the man walked"));
  EXPECT_EQ(document->utterances()[1].line, 4);
  EXPECT_EQ(document->wordCount(), 6);
  EXPECT_EQ(document->allText(), QStringLiteral("i saw john the man walked"));
}

TEST(CorpusDocumentTest, FindsGoldTopicsBesideASocialCueFile) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto write = [&](const char* name, const char* text) {
    QFile file(dir.filePath(QString::fromLatin1(name)));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
  };
  write("cues.yld", ".dog kid.eyes # .pig # ## a puppy\r\n## woof\r\n");
  write("gold.topic.yld", ".dog ## a puppy.dog\r\n## woof\r\n");
  const auto document = CorpusDocument::load(dir.filePath(QStringLiteral("cues.yld")));
  ASSERT_TRUE(document);
  EXPECT_TRUE(document->hasGold());
  EXPECT_EQ(document->utterances()[0].goldTopic, QStringLiteral(".dog"));
  EXPECT_EQ(document->utterances()[1].goldTopic, QStringLiteral("none"));
  EXPECT_EQ(document->utterances()[0].topicalWords, QStringList{QStringLiteral("puppy")});

  CorpusView view(CorpusDocument::load(dir.filePath(QStringLiteral("cues.yld"))));
  testing::CheckedModelTester tester(view.model());
  const QModelIndex objects = view.model()->index(0, CorpusTableModel::Objects);
  EXPECT_EQ(objects.data().toString(), QStringLiteral(".dog (kid.eyes); .pig"));
  EXPECT_EQ(objects.data(CorpusTableModel::ObjectsRole).toList().size(), 2);
  EXPECT_FALSE(view.tableView()->isColumnHidden(CorpusTableModel::Topic));
  view.selectRows({0, 1});
  EXPECT_EQ(view.selectedText(), QStringLiteral(".dog kid.eyes # .pig # ## a puppy ## woof"));
  view.filterEdit()->setText(QStringLiteral("woof"));
  EXPECT_EQ(view.proxyModel()->rowCount(), 1);
  const QJsonObject state = view.state();
  view.filterEdit()->clear();
  view.restoreState(state);
  EXPECT_EQ(view.proxyModel()->rowCount(), 1);
  // A file that is not there.
  QString error;
  EXPECT_EQ(CorpusDocument::load(dir.filePath(QStringLiteral("missing.yld")), &error), nullptr);
  EXPECT_FALSE(error.isEmpty());
}

TEST(CorpusDocumentSharedTest, TheSocialCueCorpusWithItsGoldTopics) {
  GWB_REQUIRE_SHARED(path, "data/earleyx/data/socialall.ortho.yld");
  const auto document = CorpusDocument::load(QString::fromStdString(path));
  ASSERT_TRUE(document);
  EXPECT_EQ(document->kind(), CorpusDocument::Kind::SocialCues);
  EXPECT_EQ(document->utterances().size(), 4763u);
  EXPECT_TRUE(document->hasGold());
  const Utterance& first = document->utterances().front();
  EXPECT_EQ(describe(first),
            QStringLiteral(".dog:kid.eyes,mom.eyes;.pig:kid.hands|and whats that is this "
                           "a puppy dog"));
  EXPECT_EQ(first.goldTopic, QStringLiteral(".dog"));
}

TEST(CorpusDocumentSharedTest, ARecordingOnOneLine) {
  GWB_REQUIRE_SHARED(path, "data/social-cues/recordings/A12.concat");
  const auto document = CorpusDocument::load(QString::fromStdString(path));
  ASSERT_TRUE(document);
  EXPECT_EQ(document->kind(), CorpusDocument::Kind::SocialCues);
  // recordings.tsv: A12 has 238 utterances and 2,038 tokens.
  EXPECT_EQ(document->utterances().size(), 238u);
  EXPECT_EQ(document->allText().split(QLatin1Char(' ')).size(), 2038);
}

}  // namespace
}  // namespace gwb::ui
