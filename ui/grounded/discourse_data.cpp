#include "ui/grounded/discourse_data.h"

#include <algorithm>
#include <map>

#include "gwb/grounded/topic_annotation.h"

namespace gwb::ui {

namespace {

std::string fileName(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void addError(Diagnostics& diagnostics, const std::string& file, int line, std::string message) {
  diagnostics.error(file, line, 0, std::move(message));
}

}  // namespace

bool DiscourseData::load(const std::string& corpusPath, const std::string& goldPath,
                         const std::string& recordingsPath, Diagnostics& diagnostics) {
  SocialCorpusLoad corpus = loadSocialCorpusFile(corpusPath);
  diagnostics.append(corpus.diagnostics);
  if (!corpus.ok()) return false;
  std::optional<GoldAnnotation> gold;
  if (!goldPath.empty()) {
    GoldAnnotationLoad load = loadGoldAnnotationFile(goldPath);
    diagnostics.append(load.diagnostics);
    if (!load.ok()) return false;
    gold = std::move(load.gold);
  }
  std::vector<Recording> recordings;
  if (!recordingsPath.empty()) {
    RecordingsLoad load = loadRecordingsFile(recordingsPath);
    diagnostics.append(load.diagnostics);
    if (!load.ok()) return false;
    recordings = std::move(load.recordings);
    const int before = diagnostics.errorCount();
    checkRecordings(recordings, corpus.corpus, recordingsPath, diagnostics);
    if (diagnostics.errorCount() > before) return false;
  }
  return set(std::move(corpus.corpus), std::move(gold), std::move(recordings), diagnostics);
}

bool DiscourseData::set(SocialCorpus corpus, std::optional<GoldAnnotation> gold,
                        std::vector<Recording> recordings, Diagnostics& diagnostics) {
  if (gold) {
    const int before = diagnostics.errorCount();
    alignGoldWithCorpus(*gold, corpus, diagnostics);
    if (diagnostics.errorCount() > before) return false;
  }
  if (recordings.empty()) recordings = wholeCorpusRecording(corpus);
  int covered = 0;
  for (const Recording& r : recordings) {
    if (r.firstUtterance != covered || r.utterances < 0) {
      addError(diagnostics, "recordings", r.line,
               "recording '" + r.id + "' does not start where the previous one ended");
      return false;
    }
    covered += r.utterances;
  }
  if (covered != static_cast<int>(corpus.utterances.size())) {
    addError(diagnostics, "recordings", 0,
             "the recordings cover " + std::to_string(covered) + " utterances, the corpus has " +
                 std::to_string(corpus.utterances.size()));
    return false;
  }
  corpus_ = std::move(corpus);
  gold_ = std::move(gold);
  recordings_ = std::move(recordings);
  // The palette's order: the most frequent gold topics first (they get the most distinct
  // colours), then by name.
  topics_ = corpus_.topics();
  if (gold_) {
    std::map<std::string, std::size_t> frequency;
    for (const GoldUtterance& u : gold_->utterances) {
      for (const std::string& t : u.topics) {
        // A gold topic need not be among the corpus's objects (bunny, cookie, microphone in
        // the Providence annotation): it is a topic all the same.
        if (++frequency[t] == 1 && t != kNullTopic &&
            std::find(topics_.begin(), topics_.end(), t) == topics_.end())
          topics_.push_back(t);
      }
    }
    std::stable_sort(
        topics_.begin(), topics_.end(),
        [&](const std::string& a, const std::string& b) { return frequency[a] > frequency[b]; });
  }
  rows_.clear();
  if (gold_) {
    DiscourseRow row;
    row.kind = DiscourseRow::Kind::Gold;
    row.name = "gold";
    row.source = gold_->source;
    row.labels = goldTopicLabels(*gold_);
    rows_.push_back(std::move(row));
  }
  return true;
}

bool DiscourseData::addRow(DiscourseRow row, Diagnostics& diagnostics) {
  if (row.labels.size() != utteranceCount()) {
    addError(diagnostics, row.source, 0,
             "has " + std::to_string(row.labels.size()) + " labels, expected one for each of the " +
                 std::to_string(utteranceCount()) + " utterances of " + corpus_.source);
    return false;
  }
  rows_.push_back(std::move(row));
  return true;
}

void DiscourseData::removeRow(std::size_t index) {
  if (index < rows_.size()) rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(index));
}

std::size_t DiscourseData::addAnnotationFile(const std::string& path, Diagnostics& diagnostics) {
  TopicAnnotationsLoad load = loadTopicAnnotationsFile(path);
  diagnostics.append(load.diagnostics);
  if (!load.ok()) return 0;
  const TopicAnnotations& a = load.annotations;
  if (a.utteranceCount() != utteranceCount()) {
    addError(diagnostics, path, 0,
             "has " + std::to_string(a.utteranceCount()) + " utterance lines, expected " +
                 std::to_string(utteranceCount()) + " (one for each utterance of " +
                 corpus_.source + ")");
    return 0;
  }
  std::size_t added = 0;
  for (std::size_t column = 0; column < a.labels.size(); ++column) {
    DiscourseRow row;
    row.kind = DiscourseRow::Kind::Annotation;
    const std::string annotator =
        column < a.annotators.size() ? a.annotators[column] : std::to_string(column + 1);
    row.name = a.labels.size() == 1 && annotator == "1" ? fileName(path)
                                                        : annotator + " (" + fileName(path) + ")";
    row.source = path;
    row.labels = a.labels[column];
    if (addRow(std::move(row), diagnostics)) ++added;
  }
  return added;
}

void DiscourseData::addModel(std::shared_ptr<const ModelDecoding> model) {
  DiscourseRow row;
  row.kind = DiscourseRow::Kind::Model;
  row.name = "model: " + model->grammarName;
  row.source = model->grammarPath;
  row.labels.reserve(model->utterances.size());
  for (const DecodedUtterance& u : model->utterances) row.labels.emplace_back(u.topic);
  row.model = std::move(model);
  rows_.push_back(std::move(row));
}

ParseTree DiscourseData::utteranceTree(std::size_t row, std::size_t utterance) const {
  if (row >= rows_.size() || !rows_[row].model) return {};
  const ModelDecoding& m = *rows_[row].model;
  if (utterance >= m.treeOfUtterance.size() || m.treeOfUtterance[utterance] < 0) return {};
  return subtree(m.trees[static_cast<std::size_t>(m.treeOfUtterance[utterance])],
                 m.nodeOfUtterance[utterance]);
}

std::string DiscourseData::utteranceText(std::size_t utterance,
                                         const std::vector<std::string>& cues) const {
  std::string text;
  if (utterance >= corpus_.utterances.size()) return text;
  for (const std::string& token : socialTokens(corpus_.utterances[utterance], cues))
    text += (text.empty() ? "" : " ") + token;
  return text;
}

std::size_t DiscourseData::recordingOf(std::size_t utterance) const {
  for (std::size_t r = 0; r < recordings_.size(); ++r) {
    const auto first = static_cast<std::size_t>(recordings_[r].firstUtterance);
    if (utterance >= first &&
        utterance < first + static_cast<std::size_t>(recordings_[r].utterances))
      return r;
  }
  return 0;
}

ModelDecoding decodeWithTrees(const CompiledGrammar& grammar, const SocialCorpus& corpus,
                              const std::vector<Recording>& recordings, bool discourse,
                              const std::vector<std::string>& cues, const BatchControl& control) {
  SocialDecodeOptions options;
  options.keepTrees = true;
  options.control = control;
  CorpusDecoding decoded =
      decodeSocialCorpus(grammar, corpus, recordings, discourse, cues, options);
  ModelDecoding out;
  out.discourse = discourse;
  out.cues = cues;
  out.utterances = std::move(decoded.utterances);
  out.trees = std::move(decoded.trees);
  out.treeOfUtterance = std::move(decoded.treeOfUtterance);
  out.nodeOfUtterance = std::move(decoded.nodeOfUtterance);
  out.failures = decoded.failures;
  out.cancelled = decoded.cancelled;
  return out;
}

}  // namespace gwb::ui
