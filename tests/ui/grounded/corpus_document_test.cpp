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

// A byte-order mark and CR-only line ends (classic Mac OS files) read as the CLI reads them: the
// mark is not part of the first token, and each CR ends a line.
TEST(CorpusDocumentTest, AByteOrderMarkAndCrOnlyLineEndsReadAsInTheCli) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto write = [&](const char* name, const char* text) {
    QFile file(dir.filePath(QString::fromLatin1(name)));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
  };
  write("s.txt", "\xEF\xBB\xBF# two sentences\ri saw john\r\rthe man walked\r");
  write("cues.yld", "\xEF\xBB\xBF.dog kid.eyes # .pig # ## a puppy\r## woof woof .pig # ## oink\r");
  write("gold.topic.yld", "\xEF\xBB\xBF.dog ## a puppy.dog\r## woof woof\r.pig ## oink.pig\r");

  const auto sentences = CorpusDocument::load(dir.filePath(QStringLiteral("s.txt")));
  ASSERT_TRUE(sentences);
  EXPECT_EQ(sentences->kind(), CorpusDocument::Kind::Sentences);
  ASSERT_EQ(sentences->utterances().size(), 2u);
  EXPECT_EQ(sentences->utterances()[0].text, QStringLiteral("i saw john"));
  EXPECT_EQ(sentences->utterances()[0].line, 2);
  EXPECT_EQ(sentences->utterances()[1].text, QStringLiteral("the man walked"));
  EXPECT_EQ(sentences->utterances()[1].line, 4);

  const auto cues = CorpusDocument::load(dir.filePath(QStringLiteral("cues.yld")));
  ASSERT_TRUE(cues);
  EXPECT_EQ(cues->kind(), CorpusDocument::Kind::SocialCues);
  EXPECT_TRUE(cues->diagnostics().empty());
  ASSERT_EQ(cues->utterances().size(), 3u);
  EXPECT_EQ(describe(cues->utterances()[0]), QStringLiteral(".dog:kid.eyes;.pig:|a puppy"));
  EXPECT_EQ(cues->utterances()[0].text, QStringLiteral(".dog kid.eyes # .pig # ## a puppy"));
  EXPECT_EQ(cues->utterances()[1].line, 2);
  EXPECT_EQ(describe(cues->utterances()[2]), QStringLiteral(".pig:|oink"));
  ASSERT_TRUE(cues->hasGold());
  EXPECT_EQ(cues->utterances()[0].goldTopic, QStringLiteral(".dog"));
  EXPECT_EQ(cues->utterances()[0].topicalWords, QStringList{QStringLiteral("puppy")});
  EXPECT_EQ(cues->utterances()[1].goldTopic, QStringLiteral("none"));
  EXPECT_EQ(cues->utterances()[2].goldTopic, QStringLiteral(".pig"));

  // The repository's own BOM + CR-only sentence file, which `gwb parse` reads as 3 sentences.
  const auto cli = CorpusDocument::load(QString::fromStdString(gwb::testing::sourceDir()) +
                                        QStringLiteral("/tests/data/pp-cr-only-with-bom.txt"));
  ASSERT_TRUE(cli);
  ASSERT_EQ(cli->utterances().size(), 3u);
  EXPECT_EQ(cli->utterances()[0].text, QStringLiteral("i saw john"));
  EXPECT_EQ(cli->utterances()[2].line, 3);
}

// What the core reader says about a malformed line is kept; the rest of the file opens.
TEST(CorpusDocumentTest, ReaderDiagnosticsAreKept) {
  const auto document = CorpusDocument::fromText(
      QStringLiteral("/x/c.yld"), QStringLiteral(".dog # ## hi\n\n.pig kid.eyes ## oink\n"));
  EXPECT_EQ(document->kind(), CorpusDocument::Kind::SocialCues);
  EXPECT_EQ(document->utterances().size(), 2u);
  ASSERT_EQ(document->diagnostics().errorCount(), 2);
  EXPECT_EQ(toString(document->diagnostics().items()[0]),
            "/x/c.yld:2: error: empty line: "
            "expected the objects present, '##' and "
            "the words");
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
