#include "ui/grounded/corpus_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace gwb::ui {

namespace {
// Lines looked at to tell the kind of a file.
constexpr int kLinesToDetect = 50;

QStringList tokensOf(const QString& line) {
  static const QRegularExpression space(QStringLiteral("\\s+"));
  return line.split(space, Qt::SkipEmptyParts);
}

QStringList linesOf(const QString& text) {
  QStringList lines = text.split(QLatin1Char('\n'));
  for (QString& line : lines)
    if (line.endsWith(QLatin1Char('\r'))) line.chop(1);  // CRLF files
  return lines;
}
}  // namespace

CorpusDocument::Kind CorpusDocument::detectKind(const QString& text) {
  bool hasDoubleHash = false;
  int seen = 0;
  for (const QString& line : linesOf(text)) {
    if (line.trimmed().isEmpty()) continue;
    if (++seen > kLinesToDetect) break;
    const QStringList tokens = tokensOf(line);
    // A comment line of a sentence file ("# ..."): social-cue lines start with an object or ##.
    if (tokens.front().startsWith(QLatin1Char('#')) && tokens.front() != QLatin1String("##"))
      continue;
    if (tokens.contains(QStringLiteral("#"))) return Kind::SocialCues;
    if (tokens.contains(QStringLiteral("##"))) hasDoubleHash = true;
  }
  return hasDoubleHash ? Kind::GoldTopics : Kind::Sentences;
}

std::vector<Utterance> CorpusDocument::parseSocialCueLine(const QString& line, int lineNumber) {
  enum class State { Start, Objects, Words };
  std::vector<Utterance> utterances;
  Utterance current;
  QStringList raw;
  State state = State::Start;
  const auto finish = [&] {
    if (raw.isEmpty()) return;
    current.line = lineNumber;
    current.text = raw.join(QLatin1Char(' '));
    utterances.push_back(std::move(current));
    current = Utterance();
    raw.clear();
  };
  for (const QString& token : tokensOf(line)) {
    // After the words, an object or `##` starts the next utterance (a .concat line).
    if (state == State::Words &&
        (token.startsWith(QLatin1Char('.')) || token == QLatin1String("##"))) {
      finish();
      state = State::Start;
    }
    raw << token;
    if (state != State::Words) {
      if (token == QLatin1String("##")) {
        state = State::Words;
      } else if (token == QLatin1String("#")) {
        state = State::Start;
      } else if (token.startsWith(QLatin1Char('.'))) {
        current.objects.push_back({token, {}});
        state = State::Objects;
      } else if (state == State::Objects) {
        current.objects.back().cues << token;
      } else {
        current.words << token;  // a stray word before `##`
      }
      continue;
    }
    current.words << token;
  }
  finish();
  return utterances;
}

Utterance CorpusDocument::parseGoldLine(const QString& line, int lineNumber) {
  Utterance u;
  u.line = lineNumber;
  u.goldTopic = QStringLiteral("none");
  bool words = false;
  QStringList plain;
  for (const QString& token : tokensOf(line)) {
    if (!words) {
      if (token == QLatin1String("##")) {
        words = true;
      } else if (token.startsWith(QLatin1Char('.'))) {
        u.goldTopic = token;
      }
      continue;
    }
    // "puppy.dog": the word puppy, marked with the topic .dog.
    const qsizetype dot = token.indexOf(QLatin1Char('.'), 1);
    if (dot > 0) {
      plain << token.left(dot);
      u.topicalWords << token.left(dot);
    } else {
      plain << token;
    }
  }
  u.words = plain;
  u.text = plain.join(QLatin1Char(' '));
  return u;
}

std::unique_ptr<CorpusDocument> CorpusDocument::fromText(const QString& path, const QString& text) {
  std::unique_ptr<CorpusDocument> document(new CorpusDocument());
  document->filePath_ = path;
  document->kind_ = detectKind(text);
  const QStringList lines = linesOf(text);
  for (int i = 0; i < lines.size(); ++i) {
    const QString line = lines[i].trimmed();
    if (line.isEmpty()) continue;
    switch (document->kind_) {
      case Kind::Sentences: {
        if (line.startsWith(QLatin1Char('#'))) continue;
        Utterance u;
        u.line = i + 1;
        u.words = tokensOf(line);
        u.text = u.words.join(QLatin1Char(' '));
        document->utterances_.push_back(std::move(u));
        break;
      }
      case Kind::SocialCues:
        for (Utterance& u : parseSocialCueLine(line, i + 1))
          document->utterances_.push_back(std::move(u));
        break;
      case Kind::GoldTopics: document->utterances_.push_back(parseGoldLine(line, i + 1)); break;
    }
  }
  document->hasGold_ = document->kind_ == Kind::GoldTopics;
  return document;
}

std::unique_ptr<CorpusDocument> CorpusDocument::load(const QString& path, QString* error) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QFile file(absolute);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = file.errorString();
    return nullptr;
  }
  std::unique_ptr<CorpusDocument> document = fromText(absolute, QString::fromUtf8(file.readAll()));
  if (document->kind_ == Kind::SocialCues) {
    // Gold annotation beside it, aligned utterance by utterance.
    const QFileInfo info(absolute);
    const QStringList candidates =
        info.dir().entryList({QStringLiteral("gold*.yld")}, QDir::Files, QDir::Name);
    for (const QString& name : candidates) {
      const QString goldPath = info.dir().filePath(name);
      if (goldPath == absolute) continue;
      QFile goldFile(goldPath);
      if (!goldFile.open(QIODevice::ReadOnly)) continue;
      const auto gold = fromText(goldPath, QString::fromUtf8(goldFile.readAll()));
      if (gold->kind_ == Kind::GoldTopics && document->attachGold(*gold)) break;
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
