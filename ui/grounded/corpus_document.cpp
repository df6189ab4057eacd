#include "ui/grounded/corpus_document.h"

#include <string>

#include <QDir>
#include <QFileInfo>

#include "gwb/grounded/corpus_file.h"
#include "gwb/grounded/social_corpus.h"
#include "ui/common/qt_conversions.h"

// Reading is core's (gwb/grounded/corpus_file.h, social_corpus.h): lines, byte-order marks, CR
// line ends and the three formats are read as the CLI reads them; this file converts the result.
namespace gwb::ui {

namespace {
QStringList toQStringList(const std::vector<std::string>& strings) {
  QStringList list;
  list.reserve(static_cast<qsizetype>(strings.size()));
  for (const std::string& s : strings) list << toQString(s);
  return list;
}

Utterance fromSentence(const gwb::CorpusSentence& sentence) {
  Utterance u;
  u.line = sentence.line;
  u.words = toQStringList(sentence.words);
  u.text = u.words.join(QLatin1Char(' '));
  return u;
}

Utterance fromSocial(const gwb::SocialUtterance& social) {
  Utterance u;
  u.line = social.line;
  for (const gwb::SocialObject& object : social.objects)
    u.objects.push_back({QLatin1Char('.') + toQString(object.name), toQStringList(object.cues)});
  u.words = toQStringList(social.words);
  u.text = toQStringList(gwb::writtenTokens(social)).join(QLatin1Char(' '));
  return u;
}

Utterance fromGold(const gwb::GoldUtterance& gold) {
  Utterance u;
  u.line = gold.line;
  QStringList topics;
  for (const std::string& topic : gold.topics) topics << QLatin1Char('.') + toQString(topic);
  u.goldTopic = topics.isEmpty() ? QStringLiteral("none") : topics.join(QLatin1Char(' '));
  u.words = toQStringList(gold.words);
  for (std::size_t k = 0; k < gold.words.size() && k < gold.wordTopics.size(); ++k)
    if (gold.wordTopics[k] != gwb::kNullTopic) u.topicalWords << toQString(gold.words[k]);
  u.text = u.words.join(QLatin1Char(' '));
  return u;
}

CorpusDocument::Kind toUi(gwb::CorpusKind kind) {
  switch (kind) {
    case gwb::CorpusKind::SocialCues: return CorpusDocument::Kind::SocialCues;
    case gwb::CorpusKind::GoldTopics: return CorpusDocument::Kind::GoldTopics;
    case gwb::CorpusKind::Sentences: break;
  }
  return CorpusDocument::Kind::Sentences;
}
}  // namespace

CorpusDocument::Kind CorpusDocument::detectKind(const QString& text) {
  return toUi(gwb::detectCorpusKind(text.toStdString()));
}

std::vector<Utterance> CorpusDocument::parseSocialCueLine(const QString& line, int lineNumber) {
  gwb::SocialCorpusReadOptions options;
  options.utterancesOnOneLine = true;
  const gwb::SocialCorpusLoad load = gwb::readSocialCorpus(line.toStdString(), {}, options);
  std::vector<Utterance> utterances;
  for (const gwb::SocialUtterance& social : load.corpus.utterances) {
    utterances.push_back(fromSocial(social));
    utterances.back().line = lineNumber;
  }
  return utterances;
}

Utterance CorpusDocument::parseGoldLine(const QString& line, int lineNumber) {
  const gwb::GoldAnnotationLoad load = gwb::readGoldAnnotation(line.toStdString(), {});
  Utterance u =
      load.gold.utterances.empty() ? fromGold({}) : fromGold(load.gold.utterances.front());
  u.line = lineNumber;
  return u;
}

std::unique_ptr<CorpusDocument> CorpusDocument::fromLoad(const QString& path,
                                                         const gwb::CorpusFileLoad& load) {
  std::unique_ptr<CorpusDocument> document(new CorpusDocument());
  document->filePath_ = path;
  document->kind_ = toUi(load.kind);
  document->diagnostics_ = load.diagnostics;
  switch (load.kind) {
    case gwb::CorpusKind::Sentences:
      for (const gwb::CorpusSentence& s : load.sentences)
        document->utterances_.push_back(fromSentence(s));
      break;
    case gwb::CorpusKind::SocialCues:
      for (const gwb::SocialUtterance& u : load.social.utterances)
        document->utterances_.push_back(fromSocial(u));
      break;
    case gwb::CorpusKind::GoldTopics:
      for (const gwb::GoldUtterance& u : load.gold.utterances)
        document->utterances_.push_back(fromGold(u));
      break;
  }
  document->hasGold_ = document->kind_ == Kind::GoldTopics;
  return document;
}

std::unique_ptr<CorpusDocument> CorpusDocument::fromText(const QString& path, const QString& text) {
  return fromLoad(path, gwb::readCorpusText(text.toStdString(), path.toStdString()));
}

std::unique_ptr<CorpusDocument> CorpusDocument::load(const QString& path, QString* error) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  const gwb::CorpusFileLoad read = gwb::loadCorpusFile(toNativePath(absolute));
  if (!read.opened) {
    if (error != nullptr && !read.diagnostics.empty())
      *error = toQString(read.diagnostics.items().front().message);
    return nullptr;
  }
  std::unique_ptr<CorpusDocument> document = fromLoad(absolute, read);
  if (document->kind_ == Kind::SocialCues) {
    // Gold annotation beside it, aligned utterance by utterance.
    const QFileInfo info(absolute);
    const QStringList candidates =
        info.dir().entryList({QStringLiteral("gold*.yld")}, QDir::Files, QDir::Name);
    for (const QString& name : candidates) {
      const QString goldPath = info.dir().filePath(name);
      if (goldPath == absolute) continue;
      const gwb::CorpusFileLoad goldRead = gwb::loadCorpusFile(toNativePath(goldPath));
      if (!goldRead.opened || goldRead.kind != gwb::CorpusKind::GoldTopics) continue;
      if (document->attachGold(*fromLoad(goldPath, goldRead))) break;
    }
  }
  return document;
}

bool CorpusDocument::attachGold(const CorpusDocument& gold) {
  if (gold.utterances_.size() != utterances_.size()) return false;
  for (std::size_t i = 0; i < utterances_.size(); ++i) {
    utterances_[i].goldTopic = gold.utterances_[i].goldTopic;
    utterances_[i].topicalWords = gold.utterances_[i].topicalWords;
  }
  hasGold_ = true;
  goldPath_ = gold.filePath_;
  return true;
}

QString CorpusDocument::displayName() const { return QFileInfo(filePath_).fileName(); }

QString CorpusDocument::allText() const {
  QStringList parts;
  for (const Utterance& u : utterances_) parts << u.text;
  return parts.join(QLatin1Char(' '));
}

int CorpusDocument::wordCount() const {
  int count = 0;
  for (const Utterance& u : utterances_) count += static_cast<int>(u.words.size());
  return count;
}

}  // namespace gwb::ui
