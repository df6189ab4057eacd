#include "gwb/grounded/corpus_file.h"

#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"

namespace gwb {

namespace {
// Lines looked at to tell the kind of a file.
constexpr int kLinesToDetect = 50;

// A comment line of a sentence file ("# ..."): social-cue and gold lines start with an object
// or "##".
bool isComment(const std::vector<std::string_view>& fields) {
  return !fields.empty() && fields.front().front() == '#' && fields.front() != "##";
}
}  // namespace

const char* corpusKindName(CorpusKind kind) {
  switch (kind) {
    case CorpusKind::SocialCues: return "social cues";
    case CorpusKind::GoldTopics: return "gold topics";
    case CorpusKind::Sentences: break;
  }
  return "sentences";
}

CorpusKind detectCorpusKind(std::string_view text) {
  bool hasDoubleHash = false;
  int seen = 0;
  for (const text::Line& line : text::splitLines(text)) {
    const std::vector<std::string_view> fields = text::splitFields(line.text);
    if (fields.empty() || isComment(fields)) continue;
    if (++seen > kLinesToDetect) break;
    for (const std::string_view field : fields) {
      if (field == "#") return CorpusKind::SocialCues;
      if (field == "##") hasDoubleHash = true;
    }
  }
  return hasDoubleHash ? CorpusKind::GoldTopics : CorpusKind::Sentences;
}

SentenceCorpusLoad readSentenceCorpus(std::string_view text, const std::string& /*sourceName*/) {
  SentenceCorpusLoad load;
  for (const text::Line& line : text::splitLines(text)) {
    const std::vector<std::string_view> fields = text::splitFields(line.text);
    if (fields.empty() || isComment(fields)) continue;
    load.sentences.push_back({{fields.begin(), fields.end()}, line.number});
  }
  return load;
}

CorpusFileLoad readCorpusText(std::string_view text, const std::string& sourceName) {
  CorpusFileLoad load;
  load.opened = true;
  load.kind = detectCorpusKind(text);
  switch (load.kind) {
    case CorpusKind::Sentences: {
      SentenceCorpusLoad sentences = readSentenceCorpus(text, sourceName);
      load.sentences = std::move(sentences.sentences);
      load.diagnostics = std::move(sentences.diagnostics);
      break;
    }
    case CorpusKind::SocialCues: {
      SocialCorpusReadOptions options;
      options.utterancesOnOneLine = true;
      SocialCorpusLoad social = readSocialCorpus(text, sourceName, options);
      load.social = std::move(social.corpus);
      load.diagnostics = std::move(social.diagnostics);
      break;
    }
    case CorpusKind::GoldTopics: {
      GoldAnnotationLoad gold = readGoldAnnotation(text, sourceName);
      load.gold = std::move(gold.gold);
      load.diagnostics = std::move(gold.diagnostics);
      break;
    }
  }
  return load;
}

CorpusFileLoad loadCorpusFile(const std::string& path) {
  return text::loadTextFile<CorpusFileLoad>(path, readCorpusText);
}

}  // namespace gwb
