// CorpusDocument: a file of sentences to parse, opened in the workbench.
//
// Three kinds of file are recognised from their content:
//   * plain sentences, one a line (`#` starts a comment line): samples/pp-attachment.txt;
//   * social-cue utterances (the .yld format of Luong, Frank & Johnson 2013, see
//     ../shared/data/README.md): for every object present `.object` and its social cues
//     (kid.eyes kid.hands mom.eyes mom.hands mom.point) then `#`; then `##`; then the words:
//         .dog kid.eyes mom.eyes # .pig kid.hands # ## and whats that is this a puppy dog
//     A file may hold one utterance a line, or a whole recording on one line (`.concat`);
//     utterances are split where a new object list or `##` follows the words;
//   * gold topic annotation (gold.topic.ortho.yld): the topic (`.pig`, or nothing before
//     `##` for none) and the topical words marked `word.topic`.
// A social-cue file finds its gold annotation by itself when a `gold*.yld` file with the same
// number of utterances lies in the same folder (as in the shared data).
//
// Each utterance keeps its text as written: social-cue grammars parse the objects, cues and
// words together, so that is what is sent to the stepper. Reading is core's
// (gwb/grounded/corpus_file.h): a byte-order mark, CRLF and CR-only line ends read as in the CLI,
// and what the core reader reports about the content is kept in diagnostics() (the document
// holds what could be read). Gold topics: several topics of one utterance are joined by spaces.
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "gwb/common/diagnostic.h"

namespace gwb {
struct CorpusFileLoad;
}

namespace gwb::ui {

struct SocialObject {
  QString name;      // ".dog"
  QStringList cues;  // "kid.eyes", "mom.point", ...
};

struct Utterance {
  int line = 0;                       // 1-based line of the file it starts on
  QString text;                       // what a parser reads: the raw tokens
  std::vector<SocialObject> objects;  // empty for plain sentences
  QStringList words;                  // without the objects and cues
  QString goldTopic;                  // ".pig" (".dog .pig"); empty when unknown; "none" for none
  QStringList topicalWords;           // words the gold annotation marks with the topic
};

class CorpusDocument : public QObject {
  Q_OBJECT

 public:
  enum class Kind { Sentences, SocialCues, GoldTopics };

  // Reads the file at `path`; on failure returns null and says why in *error.
  static std::unique_ptr<CorpusDocument> load(const QString& path, QString* error = nullptr);
  // Reads `text` as if it came from `path` (for tests and built-in samples).
  static std::unique_ptr<CorpusDocument> fromText(const QString& path, const QString& text);

  // Splits one line of tokens into utterances (a .concat line holds many).
  static std::vector<Utterance> parseSocialCueLine(const QString& line, int lineNumber);
  // Reads a gold annotation line: the topic and the marked words.
  static Utterance parseGoldLine(const QString& line, int lineNumber);
  static Kind detectKind(const QString& text);

  const QString& filePath() const { return filePath_; }
  QString displayName() const;
  Kind kind() const { return kind_; }
  const std::vector<Utterance>& utterances() const { return utterances_; }
  // The whole file as one string to parse (a recording for the discourse grammar).
  QString allText() const;
  int wordCount() const;
  bool hasGold() const { return hasGold_; }
  QString goldPath() const { return goldPath_; }
  // Takes gold topics from `gold` (aligned utterance by utterance); false if they do not align.
  bool attachGold(const CorpusDocument& gold);
  // What the reader reported about the file's content (errors and warnings, with lines).
  const gwb::Diagnostics& diagnostics() const { return diagnostics_; }

 private:
  CorpusDocument() = default;
  static std::unique_ptr<CorpusDocument> fromLoad(const QString& path,
                                                  const gwb::CorpusFileLoad& load);

  QString filePath_;
  Kind kind_ = Kind::Sentences;
  std::vector<Utterance> utterances_;
  bool hasGold_ = false;
  QString goldPath_;
  gwb::Diagnostics diagnostics_;
};

}  // namespace gwb::ui
