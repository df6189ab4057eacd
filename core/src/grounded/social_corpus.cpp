#include "gwb/grounded/social_corpus.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/text_lines.h"

namespace gwb {

namespace {

using text::isBlank;
using text::Line;
using text::splitLines;
using text::splitTokens;
using text::Token;

// Orders cues so that every order seen on an object is respected (Kahn's algorithm, the
// earliest-seen ready cue first). Cues caught in a cycle follow in order of first appearance.
std::vector<std::string> orderCues(const std::vector<std::string>& firstSeen,
                                   const std::vector<std::pair<int, int>>& before) {
  const std::size_t n = firstSeen.size();
  std::vector<int> indegree(n, 0);
  std::vector<std::vector<int>> next(n);
  for (const auto& [a, b] : before) {
    next[static_cast<std::size_t>(a)].push_back(b);
    ++indegree[static_cast<std::size_t>(b)];
  }
  std::set<int> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.insert(static_cast<int>(i));
  std::vector<bool> placed(n, false);
  std::vector<std::string> order;
  while (!ready.empty()) {
    const int c = *ready.begin();
    ready.erase(ready.begin());
    placed[static_cast<std::size_t>(c)] = true;
    order.push_back(firstSeen[static_cast<std::size_t>(c)]);
    for (int d : next[static_cast<std::size_t>(c)])
      if (--indegree[static_cast<std::size_t>(d)] == 0) ready.insert(d);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!placed[i]) order.push_back(firstSeen[i]);
  return order;
}

std::optional<int> parseInt(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

// ---- SocialCorpus ----

namespace {

// The distinct strings of `views`, sorted: views sorted in place, then one string each (no
// set of copies, one node and one string per insertion).
std::vector<std::string> sortedDistinct(std::vector<std::string_view> views) {
  std::sort(views.begin(), views.end());
  views.erase(std::unique(views.begin(), views.end()), views.end());
  return {views.begin(), views.end()};
}

}  // namespace

std::vector<std::string> SocialCorpus::topics() const {
  std::vector<std::string_view> names;
  for (const SocialUtterance& u : utterances)
    for (const SocialObject& o : u.objects) names.emplace_back(o.name);
  return sortedDistinct(std::move(names));
}

std::vector<std::string> SocialCorpus::vocabulary() const {
  std::size_t count = 0;
  for (const SocialUtterance& u : utterances) count += u.words.size();
  std::vector<std::string_view> words;
  words.reserve(count);
  for (const SocialUtterance& u : utterances)
    words.insert(words.end(), u.words.begin(), u.words.end());
  return sortedDistinct(std::move(words));
}

std::size_t SocialCorpus::wordCount() const {
  std::size_t count = 0;
  for (const SocialUtterance& u : utterances) count += u.words.size();
  return count;
}

namespace {

// Reads corpus lines one by one into a SocialCorpusLoad, collecting the cue orders seen.
class CorpusReader {
 public:
  CorpusReader(SocialCorpusLoad& load, const std::string& sourceName)
      : load_(load), diag_(load.diagnostics), source_(sourceName) {
    load_.corpus.source = sourceName;
  }

  void readLine(const Line& line, bool utterancesMayFollow) {
    const std::vector<Token> tokens = splitTokens(line.text);
    if (tokens.empty()) {
      diag_.error(source_, line.number, 0,
                  "empty line: expected the objects present, '##' and the words");
      return;
    }
    if (!utterancesMayFollow) {
      readUtterance(tokens, line.number);
      return;
    }
    // A recording on one line: after the words, an object or '##' starts the next utterance.
    std::vector<Token> utterance;
    bool inWords = false;
    for (const Token& token : tokens) {
      const bool starts = token.text == "##" || token.text.front() == '.';
      if (inWords && starts) {
        readUtterance(utterance, line.number);
        utterance.clear();
        inWords = false;
      }
      if (token.text == "##") inWords = true;
      utterance.push_back(token);
    }
    readUtterance(utterance, line.number);
  }

  void readUtterance(const std::vector<Token>& tokens, int lineNumber) {
    const Line line{{}, lineNumber};
    SocialUtterance utterance;
    utterance.line = line.number;
    // The words are the tokens after the first '##'.
    const auto separator = std::find_if(tokens.begin(), tokens.end(),
                                        [](const Token& token) { return token.text == "##"; });
    if (separator != tokens.end())
      utterance.words.reserve(static_cast<std::size_t>(tokens.end() - separator - 1));
    bool inObject = false;  // an object has been opened and not yet closed by '#'
    bool sawSeparator = false;
    for (const Token& token : tokens) {
      const std::string_view t = token.text;
      if (sawSeparator) {
        utterance.words.emplace_back(t);
      } else if (t == "##") {
        if (inObject) {
          diag_.error(
              source_, line.number, token.column,
              "expected '#' to close object '." + utterance.objects.back().name + "' before '##'");
        }
        sawSeparator = true;
      } else if (t == "#") {
        if (!inObject) {
          diag_.error(source_, line.number, token.column,
                      "'#' closes no object: expected '.object' first");
        }
        inObject = false;
      } else if (t.front() == '.') {
        openObject(utterance, line.number, token, inObject);
        inObject = true;
      } else if (!inObject) {
        diag_.error(source_, line.number, token.column,
                    "social cue '" + std::string(t) +
                        "' outside an object: expected '.object' before its cues");
      } else {
        addCue(utterance.objects.back(), line.number, token);
      }
    }
    finishUtterance(utterance, sawSeparator);
    load_.corpus.utterances.push_back(std::move(utterance));
  }

  // Orders the cues and notes an inconsistent order.
  void finish() {
    std::sort(cueBefore_.begin(), cueBefore_.end());
    cueBefore_.erase(std::unique(cueBefore_.begin(), cueBefore_.end()), cueBefore_.end());
    std::vector<std::string>& order = load_.corpus.cueOrder;
    order = orderCues(cuesSeen_, cueBefore_);
    // Each cue's place in the order, found once: a search of the order per pair was cubic in
    // the cues of one object (600 cues on one object took 2 s under ASan).
    std::vector<std::size_t> position(cuesSeen_.size());
    for (std::size_t place = 0; place < order.size(); ++place)
      position[static_cast<std::size_t>(cueIndex_.at(order[place]))] = place;
    for (const auto& [a, b] : cueBefore_) {
      if (position[static_cast<std::size_t>(a)] > position[static_cast<std::size_t>(b)]) {
        diag_.note(source_, 0, 0,
                   "cues are not always written in the same order (e.g. '" +
                       cuesSeen_[static_cast<std::size_t>(b)] + "' before '" +
                       cuesSeen_[static_cast<std::size_t>(a)] +
                       "'); grammars use the order of first appearance for them");
        return;
      }
    }
  }

 private:
  void openObject(SocialUtterance& utterance, int line, const Token& token, bool inObject) {
    const std::string_view t = token.text;
    if (inObject) {
      diag_.error(source_, line, token.column,
                  "expected '#' to close object '." + utterance.objects.back().name + "' before '" +
                      std::string(t) + "'");
    }
    if (t.size() == 1) {
      diag_.error(source_, line, token.column, "an object needs a name after '.'");
    } else if (t.substr(1) == kNullTopic) {
      diag_.error(source_, line, token.column,
                  "object name '" + kNullTopic + "' is reserved for the null topic");
    }
    utterance.objects.push_back(SocialObject{std::string(t.substr(1)), {}});
    objectCueIds_.clear();
  }

  void addCue(SocialObject& object, int line, const Token& token) {
    const std::string cue(token.text);
    if (std::find(object.cues.begin(), object.cues.end(), cue) != object.cues.end()) {
      diag_.warning(source_, line, token.column,
                    "cue '" + cue + "' repeated on one object; read once");
      return;
    }
    const auto [it, inserted] = cueIndex_.emplace(cue, static_cast<int>(cuesSeen_.size()));
    if (inserted) cuesSeen_.push_back(cue);
    for (int earlier : objectCueIds_) cueBefore_.emplace_back(earlier, it->second);
    objectCueIds_.push_back(it->second);
    object.cues.push_back(cue);
  }

  void finishUtterance(const SocialUtterance& utterance, bool sawSeparator) {
    if (!sawSeparator) {
      diag_.error(source_, utterance.line, 0, "missing '##' between the objects and the words");
    } else if (utterance.words.empty()) {
      diag_.warning(source_, utterance.line, 0,
                    "utterance without words: no social-cue grammar can parse it");
    }
    for (const std::string& w : utterance.words) {
      if (w == "#" || w == "##" || w.front() == '.') {
        diag_.warning(
            source_, utterance.line, 0,
            "word '" + w + "' looks like a marker or an object; the grammar will be ambiguous");
      }
    }
  }

  SocialCorpusLoad& load_;
  Diagnostics& diag_;
  const std::string& source_;
  std::vector<std::string> cuesSeen_;
  std::unordered_map<std::string, int> cueIndex_;
  // (a, b): cue a came before cue b on an object; sorted and made unique by finish(). A vector,
  // not a set: one object with k cues gives k(k-1)/2 pairs, a node each in a set.
  std::vector<std::pair<int, int>> cueBefore_;
  std::vector<int> objectCueIds_;  // the cues of the object being read, as cueIndex_ values
};

}  // namespace

SocialCorpusLoad readSocialCorpus(std::string_view text, const std::string& sourceName) {
  return readSocialCorpus(text, sourceName, SocialCorpusReadOptions{});
}

SocialCorpusLoad readSocialCorpus(std::string_view text, const std::string& sourceName,
                                  const SocialCorpusReadOptions& options) {
  SocialCorpusLoad load;
  CorpusReader reader(load, sourceName);
  for (const Line& line : splitLines(text)) reader.readLine(line, options.utterancesOnOneLine);
  reader.finish();
  return load;
}

SocialCorpusLoad loadSocialCorpusFile(const std::string& path) {
  auto load = text::loadTextFile<SocialCorpusLoad>(
      path,
      [](std::string_view text, const std::string& name) { return readSocialCorpus(text, name); });
  load.corpus.source = path;  // also when the file could not be read
  return load;
}

std::vector<std::string> writtenTokens(const SocialUtterance& utterance) {
  std::vector<std::string> tokens;
  for (const SocialObject& object : utterance.objects) {
    tokens.push_back("." + object.name);
    tokens.insert(tokens.end(), object.cues.begin(), object.cues.end());
    tokens.emplace_back("#");
  }
  tokens.emplace_back("##");
  tokens.insert(tokens.end(), utterance.words.begin(), utterance.words.end());
  return tokens;
}

std::vector<std::string> socialTokens(const SocialUtterance& utterance,
                                      const std::vector<std::string>& cues) {
  std::vector<std::string> tokens;
  for (const SocialObject& object : utterance.objects) {
    tokens.push_back("." + object.name);
    for (const std::string& cue : cues) {
      if (std::find(object.cues.begin(), object.cues.end(), cue) != object.cues.end())
        tokens.push_back(cue);
    }
    tokens.emplace_back("#");
  }
  tokens.emplace_back("##");
  tokens.insert(tokens.end(), utterance.words.begin(), utterance.words.end());
  return tokens;
}

// ---- Gold annotation ----

std::size_t GoldAnnotation::topicLabelCount() const {
  std::size_t count = 0;
  for (const GoldUtterance& u : utterances) count += u.topics.size();
  return count;
}

std::size_t GoldAnnotation::topicalWordCount() const {
  std::size_t count = 0;
  for (const GoldUtterance& u : utterances) {
    count += static_cast<std::size_t>(
        std::count_if(u.wordTopics.begin(), u.wordTopics.end(),
                      [](const std::string& t) { return t != kNullTopic; }));
  }
  return count;
}

GoldAnnotationLoad readGoldAnnotation(std::string_view text, const std::string& sourceName) {
  GoldAnnotationLoad load;
  load.gold.source = sourceName;
  Diagnostics& diag = load.diagnostics;
  for (const Line& line : splitLines(text)) {
    GoldUtterance utterance;
    utterance.line = line.number;
    const std::vector<Token> tokens = splitTokens(line.text);
    bool sawSeparator = false;
    for (const Token& token : tokens) {
      const std::string_view t = token.text;
      if (!sawSeparator) {
        if (t == "##") {
          sawSeparator = true;
        } else if (t.size() > 1 && t.front() == '.') {
          utterance.topics.emplace_back(t.substr(1));
        } else {
          diag.error(sourceName, line.number, token.column,
                     "expected a topic '.object' or '##', found '" + std::string(t) + "'");
        }
        continue;
      }
      const std::size_t dot = t.rfind('.');
      if (dot != std::string_view::npos && dot > 0 && dot + 1 < t.size()) {
        utterance.words.emplace_back(t.substr(0, dot));
        utterance.wordTopics.emplace_back(t.substr(dot + 1));
      } else {
        utterance.words.emplace_back(t);
        utterance.wordTopics.push_back(kNullTopic);
      }
    }
    if (!sawSeparator)
      diag.error(sourceName, line.number, 0, "missing '##' between the topics and the words");
    load.gold.utterances.push_back(std::move(utterance));
  }
  return load;
}

GoldAnnotationLoad loadGoldAnnotationFile(const std::string& path) {
  auto load = text::loadTextFile<GoldAnnotationLoad>(path, readGoldAnnotation);
  load.gold.source = path;  // also when the file could not be read
  return load;
}

void alignGoldWithCorpus(GoldAnnotation& gold, const SocialCorpus& corpus,
                         Diagnostics& diagnostics) {
  if (gold.utterances.size() != corpus.utterances.size()) {
    diagnostics.error(gold.source, 0, 0,
                      "the gold annotation has " + std::to_string(gold.utterances.size()) +
                          " lines but the corpus " + corpus.source + " has " +
                          std::to_string(corpus.utterances.size()) + " utterances");
  }
  const std::size_t n = std::min(gold.utterances.size(), corpus.utterances.size());
  for (std::size_t i = 0; i < n; ++i) {
    GoldUtterance& g = gold.utterances[i];
    const SocialUtterance& c = corpus.utterances[i];
    if (g.words.size() != c.words.size()) {
      diagnostics.error(gold.source, g.line, 0,
                        std::to_string(g.words.size()) + " words, but line " +
                            std::to_string(c.line) + " of " + corpus.source + " has " +
                            std::to_string(c.words.size()));
      continue;
    }
    for (std::size_t k = 0; k < g.words.size(); ++k) {
      if (g.words[k] == c.words[k]) continue;
      if (g.wordTopics[k] != kNullTopic && g.words[k] + "." + g.wordTopics[k] == c.words[k]) {
        g.words[k] = c.words[k];  // a word with a dot in it, not a topic mark
        g.wordTopics[k] = kNullTopic;
        continue;
      }
      diagnostics.error(gold.source, g.line, 0,
                        "word " + std::to_string(k + 1) + " is '" + g.words[k] + "' but '" +
                            c.words[k] + "' in " + corpus.source + ":" + std::to_string(c.line));
    }
  }
}

// ---- Recordings ----

RecordingsLoad readRecordings(std::string_view text, const std::string& sourceName) {
  RecordingsLoad load;
  Diagnostics& diag = load.diagnostics;
  bool header = true;
  std::set<std::string> ids;
  for (const Line& line : splitLines(text)) {
    if (isBlank(line.text)) continue;
    const std::vector<Token> tokens = splitTokens(line.text);
    if (header) {
      header = false;
      const bool named = tokens.size() == 4 && tokens[0].text == "recording" &&
                         tokens[1].text == "first_line" && tokens[2].text == "utterances" &&
                         tokens[3].text == "tokens";
      if (!named) {
        diag.error(sourceName, line.number, 1,
                   "expected the header 'recording first_line utterances tokens'");
      }
      continue;
    }
    if (tokens.size() != 4) {
      diag.error(sourceName, line.number, 0,
                 "expected 4 columns (recording, first_line, utterances, tokens), found " +
                     std::to_string(tokens.size()));
      continue;
    }
    Recording r;
    r.id = std::string(tokens[0].text);
    r.line = line.number;
    const auto first = parseInt(tokens[1].text);
    const auto utterances = parseInt(tokens[2].text);
    const auto count = parseInt(tokens[3].text);
    if (!first || *first < 1) {
      diag.error(sourceName, line.number, tokens[1].column,
                 "first_line must be a line number (1 or more)");
      continue;
    }
    if (!utterances || *utterances < 1) {
      diag.error(sourceName, line.number, tokens[2].column, "utterances must be a positive count");
      continue;
    }
    if (!count || *count < 0) {
      diag.error(sourceName, line.number, tokens[3].column, "tokens must be a count");
      continue;
    }
    if (!ids.insert(r.id).second)
      diag.error(sourceName, line.number, 1, "recording '" + r.id + "' listed twice");
    r.firstUtterance = *first - 1;
    r.utterances = *utterances;
    r.tokens = *count;
    load.recordings.push_back(r);
  }
  if (header) diag.error(sourceName, 0, 0, "empty recordings table");
  return load;
}

RecordingsLoad loadRecordingsFile(const std::string& path) {
  return text::loadTextFile<RecordingsLoad>(path, readRecordings);
}

void checkRecordings(const std::vector<Recording>& recordings, const SocialCorpus& corpus,
                     const std::string& sourceName, Diagnostics& diagnostics) {
  int expectedFirst = 0;
  const int total = static_cast<int>(corpus.utterances.size());
  for (const Recording& r : recordings) {
    if (r.firstUtterance != expectedFirst) {
      diagnostics.error(sourceName, r.line, 0,
                        "recording '" + r.id + "' starts at line " +
                            std::to_string(r.firstUtterance + 1) + ", expected line " +
                            std::to_string(expectedFirst + 1) +
                            " (recordings must tile the corpus)");
    }
    expectedFirst = r.firstUtterance + r.utterances;
    if (expectedFirst > total) {
      diagnostics.error(sourceName, r.line, 0,
                        "recording '" + r.id + "' ends at line " + std::to_string(expectedFirst) +
                            ", past the corpus's " + std::to_string(total) + " utterances");
      return;
    }
    std::size_t tokens = 0;
    for (int i = r.firstUtterance; i < expectedFirst; ++i) {
      tokens +=
          socialTokens(corpus.utterances[static_cast<std::size_t>(i)], corpus.cueOrder).size();
    }
    if (static_cast<int>(tokens) != r.tokens) {
      diagnostics.error(sourceName, r.line, 0,
                        "recording '" + r.id + "' has " + std::to_string(tokens) +
                            " tokens in the corpus, the table says " + std::to_string(r.tokens));
    }
  }
  if (expectedFirst != total) {
    diagnostics.error(sourceName, 0, 0,
                      "the recordings cover " + std::to_string(expectedFirst) + " of the " +
                          std::to_string(total) + " utterances");
  }
}

std::vector<std::string> recordingTokens(const SocialCorpus& corpus, const Recording& recording,
                                         const std::vector<std::string>& cues) {
  std::vector<std::string> tokens;
  for (int i = recording.firstUtterance; i < recording.firstUtterance + recording.utterances; ++i) {
    const std::vector<std::string> one =
        socialTokens(corpus.utterances.at(static_cast<std::size_t>(i)), cues);
    tokens.insert(tokens.end(), one.begin(), one.end());
  }
  return tokens;
}

std::vector<Recording> wholeCorpusRecording(const SocialCorpus& corpus) {
  Recording r;
  r.id = "all";
  r.firstUtterance = 0;
  r.utterances = static_cast<int>(corpus.utterances.size());
  for (const SocialUtterance& u : corpus.utterances)
    r.tokens += static_cast<int>(socialTokens(u, corpus.cueOrder).size());
  return {r};
}

}  // namespace gwb
