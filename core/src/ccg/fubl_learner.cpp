#include "gwb/ccg/fubl_learner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <system_error>
#include <utility>

#include "common/parallel.h"

namespace gwb::ccg {

namespace {

constexpr double kLikelihoodTolerance = 1e-9;

bool holdsOwnConstants(const Term& term) {
  const std::vector<std::string> constants = constantsInOrder(term);
  return std::any_of(constants.begin(), constants.end(), [](const std::string& constant) {
    return constant.empty() || constant[0] != '#';
  });
}

void collectNodes(const DerivationNode& node, std::vector<const DerivationNode*>* leaves,
                  std::vector<const DerivationNode*>* internal) {
  if (node.children.empty()) {
    leaves->push_back(&node);
    return;
  }
  internal->push_back(&node);
  for (const DerivationNode& child : node.children) collectNodes(child, leaves, internal);
}

void collectPreorder(const DerivationNode& node, std::vector<const DerivationNode*>* nodes) {
  nodes->push_back(&node);
  for (const DerivationNode& child : node.children) collectPreorder(child, nodes);
}

// A node's Viterbi score: the local scores of its subtree (y* is a Viterbi derivation, so each
// node's subtree is its entry's best).
double subtreeScore(const DerivationNode& node) {
  double score = node.localScore;
  for (const DerivationNode& child : node.children) score += subtreeScore(child);
  return score;
}

// The kept entry of `chart` over words begin..end-1 with the category and meaning (up to exact
// match) of `item`, or null.
const ChartEntry* findChartEntry(const CkyChart& chart, int begin, int end,
                                 const LexicalItem& item) {
  const Term key = exactMatchKey(item.semantics);
  for (const ChartEntry& entry : chart.cell(begin, end).entries) {
    if (entry.pruned || !entry.key) continue;
    if (sameCategory(entry.category, item.category) && structurallyEqual(entry.key, key)) {
      return &entry;
    }
  }
  return nullptr;
}

std::vector<std::string> slice(const std::vector<std::string>& words, int begin, int end) {
  return {words.begin() + begin, words.begin() + end};
}

}  // namespace

std::vector<TypePtr> trainingRootTypes(const std::vector<SemanticExample>& examples,
                                       const TypeSystem& types) {
  std::map<std::string, TypePtr> byName;
  for (const SemanticExample& example : examples) {
    const TypePtr type = typeCheck(example.logicalForm, types, "", 0, 0, nullptr);
    if (type != nullptr) byName.emplace(toString(type), type);
  }
  std::vector<TypePtr> out;
  out.reserve(byName.size());
  for (const auto& [name, type] : byName) out.push_back(type);
  return out;
}

FublLearner::FublLearner(const TypeSystem& types, FublOptions options)
    : types_(types), options_(std::move(options)) {
  // Training never shows pruned entries: drop what they hold (the numbers are the same).
  options_.parser.keepPrunedEntries = false;
  options_.parser.types = &types_;
  options_.parser.recordEvents = false;  // nothing replays a training fill
}

double FublLearner::initialLexemeWeight(const Lexeme& lexeme) const {
  return options_.lexemeInitScale * model1_.lexemeScore(lexeme.words, lexeme.constants);
}

double FublLearner::initialTemplateWeight(const LexicalTemplate& lexicalTemplate) {
  return 0.0 - 0.1 * slashCount(lexicalTemplate.category) -
         (holdsOwnConstants(lexicalTemplate.semantics) ? 2.0 : 0.0);
}

void FublLearner::addFactoring(const Factoring& factoring) {
  bool added = false;
  const double lexemeWeight = initialLexemeWeight(factoring.lexeme);
  const std::string lexemeName = lexemeFeature(factoring.lexeme);
  lexicon_.addLexeme(factoring.lexeme, &added);
  if (added) lexicon_.setWeight(lexemeName, lexemeWeight);
  usedLexemes_.insert(lexemeKey(factoring.lexeme));
  const std::string templateName = templateFeature(factoring.lexicalTemplate);
  lexicon_.addTemplate(factoring.lexicalTemplate, &added);
  if (added) lexicon_.setWeight(templateName, initialTemplateWeight(factoring.lexicalTemplate));
  usedTemplates_.insert(templateKey(factoring.lexicalTemplate));
}

void FublLearner::initialise(const std::vector<SemanticExample>& training,
                             const FactoredLexicon& fixedLexicon) {
  training_ = training;
  lexicon_ = FactoredLexicon();
  passesDone_ = 0;
  resetRunState();
  std::vector<AlignmentPair> pairs;
  pairs.reserve(training.size());
  for (const SemanticExample& example : training) {
    pairs.push_back({example.words, logicalFormTokens(example.logicalForm)});
  }
  model1_.train(pairs, options_.model1Iterations);
  options_.parser.rootTypes = nullptr;
  if (options_.restrictRootTypes) {
    std::vector<TypePtr> rootTypes = trainingRootTypes(training, types_);
    // No training form type-checks: nothing to restrict roots to (empty would mean any anyway).
    if (!rootTypes.empty()) {
      options_.parser.rootTypes =
          std::make_shared<const std::vector<TypePtr>>(std::move(rootTypes));
    }
  }
  const Category sentence = makeAtomicCategory("S");
  for (const SemanticExample& example : training) {
    addFactoring(maximalFactoringOf({example.words, sentence, example.logicalForm},
                                    options_.lexicalOperators));
  }
  for (const Lexeme& lexeme : fixedLexicon.lexemes()) {
    lexicon_.addLexeme(lexeme);
    const double words =
        options_.fixedWeightPerWord ? static_cast<double>(lexeme.words.size()) : 1.0;
    lexicon_.setWeight(lexemeFeature(lexeme), options_.fixedLexemeWeight * words);
    fixedLexemes_.insert(lexemeKey(lexeme));
  }
  for (const LexicalTemplate& lexicalTemplate : fixedLexicon.templates()) {
    fixedTemplates_.insert(templateKey(lexicalTemplate));
    bool added = false;
    lexicon_.addTemplate(lexicalTemplate, &added);
    if (added) {
      lexicon_.setWeight(templateFeature(lexicalTemplate), initialTemplateWeight(lexicalTemplate));
    }
  }
  lexicon_.buildEntries(&types_);
}

double FublLearner::itemScore(const LexicalItem& item) const {
  return factoringScore(maximalFactoringOf(item, options_.lexicalOperators));
}

double FublLearner::factoringScore(const Factoring& factoring) const {
  const std::string lexemeName = lexemeFeature(factoring.lexeme);
  const std::string templateName = templateFeature(factoring.lexicalTemplate);
  const double lexemeWeight = lexicon_.hasWeight(lexemeName)
                                  ? lexicon_.weight(lexemeName)
                                  : initialLexemeWeight(factoring.lexeme);
  const double templateWeight = lexicon_.hasWeight(templateName)
                                    ? lexicon_.weight(templateName)
                                    : initialTemplateWeight(factoring.lexicalTemplate);
  return lexemeWeight + kTemplateFeatureValue * templateWeight +
         lexicon_.weight(pairFeature(factoring.lexeme, factoring.lexicalTemplate));
}

CkyOptions FublLearner::correctParseOptions(const SemanticExample& example) const {
  CkyOptions options = fullParseOptions();
  if (options_.constrainCorrectParse) {
    const std::vector<std::string> constants = constantsInOrder(example.logicalForm);
    options.allowedConstants =
        std::make_shared<const std::unordered_set<std::string>>(constants.begin(), constants.end());
  }
  return options;
}

CkyOptions FublLearner::fullParseOptions() const {
  CkyOptions options = options_.parser;
  if (options_.trainBeam > 0) options.beam = options_.trainBeam;
  return options;
}

bool FublLearner::mergeCandidate(const SemanticExample& example, const DerivationNode& node,
                                 LexicalItem* item, double* delta) const {
  *item = LexicalItem{slice(example.words, node.begin, node.end), node.category, node.semantics};
  const Factoring factoring = maximalFactoringOf(*item, options_.lexicalOperators);
  if (lexicon_.hasWeight(lexemeFeature(factoring.lexeme)) &&
      lexicon_.hasWeight(templateFeature(factoring.lexicalTemplate))) {
    return false;
  }
  *delta = factoringScore(factoring) - subtreeScore(node);
  return true;
}

std::vector<LexicalItem> FublLearner::newLexLeaves(const SemanticExample& example,
                                                   const Derivation& best, double* bestDelta,
                                                   bool* merged) const {
  std::vector<const DerivationNode*> leaves;
  std::vector<const DerivationNode*> internal;
  collectNodes(best.root, &leaves, &internal);
  std::vector<LexicalItem> chosen;
  *merged = false;
  const auto better = [&](double delta) { return chosen.empty() || delta > *bestDelta; };
  for (const DerivationNode* leaf : leaves) {
    if (leaf->end - leaf->begin < 2) continue;
    const LexicalItem item{slice(example.words, leaf->begin, leaf->end), leaf->category,
                           leaf->semantics};
    for (LexicalSplit& split : splitLexicalItem(item, types_, options_.splitting)) {
      const double delta = itemScore(split.left) + itemScore(split.right) - leaf->localScore;
      if (!better(delta)) continue;
      *bestDelta = delta;
      chosen = {std::move(split.left), std::move(split.right)};
    }
  }
  if (!options_.merge) return chosen;
  for (const DerivationNode* node : internal) {
    LexicalItem item;
    double delta = 0;
    if (!mergeCandidate(example, *node, &item, &delta) || !better(delta)) continue;
    *bestDelta = delta;
    chosen = {std::move(item)};
    *merged = true;
  }
  return chosen;
}

bool FublLearner::newLex(const SemanticExample& example, const Derivation& best,
                         const CkyChart& correct, CkyFillCache* cache) {
  std::vector<LexicalItem> added;
  bool merged = false;
  if (options_.newLexNodes == FublOptions::NewLexNodes::AllNodes) {
    added = newLexAllNodes(example, best, correct, &merged);
    if (added.empty()) {
      ++splitsRejected_;
      return false;
    }
  } else {
    double bestDelta = 0;
    added = newLexLeaves(example, best, &bestDelta, &merged);
    if (added.empty()) return false;
    // UBL's test (Kwiatkowski et al. 2010, section 6; Chart.splitAndMergeLex keeps the best split
    // when its improvement is >= a running maximum that starts at 0). Ties at 0 are kept, as UBL
    // and SPF (UnificationGenlex) do: a split whose items start at the weight of the item they
    // replace. SplitTest::Reparse also re-parses below.
    if (bestDelta < -kLikelihoodTolerance && options_.splitTest != FublOptions::SplitTest::Always) {
      ++splitsRejected_;
      return false;
    }
  }
  const int lexemes = static_cast<int>(lexicon_.lexemes().size());
  const int templates = static_cast<int>(lexicon_.templates().size());
  for (const LexicalItem& item : added) {
    addFactoring(maximalFactoringOf(item, options_.lexicalOperators));
  }
  if (lexicon_.addEntries(&types_, lexemes, templates) > 0) {
    // The re-parse test: the best correct parse with the new items, y', scores at least y*'s.
    const auto reparseKeeps = [&] {
      CkyChart chart(lexicon_, example.words, correctParseOptions(example), cache);
      Derivation after;
      return chart.bestDerivation(example.logicalForm, &after) &&
             after.score >= best.score - kLikelihoodTolerance;
    };
    if (options_.splitTest != FublOptions::SplitTest::Reparse || reparseKeeps()) {
      ++splitsAdded_;
      if (merged) ++mergesAdded_;
      return true;
    }
  }
  lexicon_.truncate(lexemes, templates);
  ++splitsRejected_;
  return false;
}

FublLearner::SplitHalves FublLearner::scoreHalves(const CkyChart& correct,
                                                  const DerivationNode& node,
                                                  const LexicalSplit& split) const {
  const int middle = node.begin + static_cast<int>(split.left.words.size());
  SplitHalves out;
  for (int side = 0; side < 2; ++side) {
    const LexicalItem& half = side == 0 ? split.left : split.right;
    const double newScore = itemScore(half);
    const ChartEntry* existing = side == 0 ? findChartEntry(correct, node.begin, middle, half)
                                           : findChartEntry(correct, middle, node.end, half);
    const bool reuse = existing != nullptr && existing->viterbi >= newScore;
    out.score += reuse ? existing->viterbi : newScore;
    (side == 0 ? out.leftNew : out.rightNew) = !reuse;
  }
  return out;
}

std::vector<LexicalItem> FublLearner::newLexAllNodes(const SemanticExample& example,
                                                     const Derivation& best,
                                                     const CkyChart& correct, bool* merged) const {
  std::vector<const DerivationNode*> nodes;
  collectPreorder(best.root, &nodes);
  // One running maximum over the whole tree, from 0 (UBL: `mostImproved`; from -infinity when
  // every best split is kept); a candidate that beats it clears the list, one that ties it joins
  // it.
  double bestDelta = options_.splitTest == FublOptions::SplitTest::Always
                         ? -std::numeric_limits<double>::infinity()
                         : 0.0;
  std::vector<LexicalItem> chosen;
  *merged = false;
  // Whether `delta` makes a candidate: it clears the list when it beats the best so far.
  const auto admit = [&](double delta) {
    if (delta > bestDelta + kLikelihoodTolerance) {
      bestDelta = delta;
      chosen.clear();
      *merged = false;
      return true;
    }
    return delta >= bestDelta - kLikelihoodTolerance;
  };
  for (const DerivationNode* node : nodes) {
    if (node->end - node->begin < 2) continue;
    const double nodeScore = subtreeScore(*node);
    const LexicalItem item{slice(example.words, node->begin, node->end), node->category,
                           node->semantics};
    for (LexicalSplit& split : splitLexicalItem(item, types_, options_.splitting)) {
      // Each half: the chart's constituent when it scores at least as well as a new item.
      const SplitHalves halves = scoreHalves(correct, *node, split);
      if (!halves.leftNew && !halves.rightNew) continue;
      if (!admit(halves.score - nodeScore)) continue;
      if (halves.leftNew) chosen.push_back(std::move(split.left));
      if (halves.rightNew) chosen.push_back(std::move(split.right));
    }
    LexicalItem mergedItem;
    double delta = 0;
    if (options_.merge && !node->children.empty() &&
        mergeCandidate(example, *node, &mergedItem, &delta) && admit(delta)) {
      chosen.push_back(std::move(mergedItem));
      *merged = true;
    }
  }
  return chosen;
}

int FublLearner::partFac(const DerivationNode& node, const std::vector<std::string>& words,
                         int example) {
  if (node.children.empty()) return 0;
  int added = 0;
  if (node.end - node.begin == 2) {
    const LexicalItem item{slice(words, node.begin, node.end), node.category, node.semantics};
    for (const Factoring& factoring : partialFactorings(item, 3)) {
      if (factoring.lexeme.constants.size() != 1) continue;
      const std::string key = templateKey(factoring.lexicalTemplate);
      std::unordered_set<int>& seen = partFacSeen_[key];
      seen.insert(example);
      if (static_cast<int>(seen.size()) < options_.partFacMinCount) continue;
      bool isNew = false;
      lexicon_.addTemplate(factoring.lexicalTemplate, &isNew);
      usedTemplates_.insert(key);
      if (isNew) {
        ++added;
        lexicon_.setWeight(templateFeature(factoring.lexicalTemplate),
                           initialTemplateWeight(factoring.lexicalTemplate));
      }
    }
  }
  for (const DerivationNode& child : node.children) added += partFac(child, words, example);
  return added;
}

void FublLearner::noteUsed(const DerivationNode& node) {
  if (node.children.empty()) {
    if (node.lexeme >= 0) usedLexemes_.insert(lexemeKey(lexicon_.lexemes()[node.lexeme]));
    if (node.lexicalTemplate >= 0) {
      usedTemplates_.insert(templateKey(lexicon_.templates()[node.lexicalTemplate]));
    }
    return;
  }
  for (const DerivationNode& child : node.children) noteUsed(child);
}

void FublLearner::pruneUnused(PassSummary* summary) {
  FactoredLexicon kept;
  std::unordered_set<std::string> droppedLexemes;
  std::unordered_set<std::string> droppedTemplates;
  for (const Lexeme& lexeme : lexicon_.lexemes()) {
    const std::string key = lexemeKey(lexeme);
    if (usedLexemes_.count(key) > 0 || fixedLexemes_.count(key) > 0) {
      kept.addLexeme(lexeme);
    } else {
      droppedLexemes.insert(key);
    }
  }
  for (const LexicalTemplate& lexicalTemplate : lexicon_.templates()) {
    const std::string key = templateKey(lexicalTemplate);
    if (usedTemplates_.count(key) > 0 || fixedTemplates_.count(key) > 0) {
      kept.addTemplate(lexicalTemplate);
    } else {
      droppedTemplates.insert(key);
    }
  }
  summary->lexemesPruned = static_cast<int>(droppedLexemes.size());
  summary->templatesPruned = static_cast<int>(droppedTemplates.size());
  if (droppedLexemes.empty() && droppedTemplates.empty()) return;
  static const std::string kLexeme = "lexeme:";
  static const std::string kTemplate = "template:";
  static const std::string kPair = "pair:";
  static const std::string kPairSeparator = " || ";
  // Weights in name order, so that the rebuilt lexicon does not depend on hash order.
  std::map<std::string, double> weights(lexicon_.weights().begin(), lexicon_.weights().end());
  for (const auto& [feature, value] : weights) {
    if (feature.compare(0, kLexeme.size(), kLexeme) == 0) {
      if (droppedLexemes.count(feature.substr(kLexeme.size())) > 0) continue;
    } else if (feature.compare(0, kTemplate.size(), kTemplate) == 0) {
      if (droppedTemplates.count(feature.substr(kTemplate.size())) > 0) continue;
    } else if (feature.compare(0, kPair.size(), kPair) == 0) {
      const std::size_t separator = feature.find(kPairSeparator);
      if (separator != std::string::npos &&
          (droppedLexemes.count(feature.substr(kPair.size(), separator - kPair.size())) > 0 ||
           droppedTemplates.count(feature.substr(separator + kPairSeparator.size())) > 0)) {
        continue;
      }
    }
    kept.setWeight(feature, value);
  }
  kept.buildEntries(&types_);
  lexicon_ = std::move(kept);
}

void FublLearner::fillBothCharts(const SemanticExample& example, CkyFillCache* cache,
                                 CkyFillCache* correctCache, std::unique_ptr<CkyChart>* chart,
                                 std::unique_ptr<CkyChart>* correct) const {
  const CkyOptions full = fullParseOptions();
  const CkyOptions ofZ = correctParseOptions(example);
  chart->reset();
  correct->reset();
  if (options_.threads > 1) {
    std::future<std::unique_ptr<CkyChart>> filling;
    try {
      filling = std::async(std::launch::async, [&] {
        return std::make_unique<CkyChart>(lexicon_, example.words, ofZ, correctCache);
      });
    } catch (const std::system_error&) {
      // No thread to be had: one after the other, as with one thread.
    }
    if (filling.valid()) {
      // The future's destructor waits for the chart of z if the full chart throws.
      *chart = std::make_unique<CkyChart>(lexicon_, example.words, full, cache);
      *correct = filling.get();
      return;
    }
  }
  *chart = std::make_unique<CkyChart>(lexicon_, example.words, full, cache);
  *correct = std::make_unique<CkyChart>(lexicon_, example.words, ofZ, cache);
}

void FublLearner::updateWeight(const std::string& feature, double value) {
  if (options_.averageWeights) {
    // The old value held from example `since` to the one before this (updates_).
    WeightHistory& history = history_[feature];
    history.sum += lexicon_.weight(feature) * static_cast<double>(updates_ - history.since);
    history.since = updates_;
  }
  lexicon_.setWeight(feature, value);
}

std::unordered_map<std::string, double> FublLearner::averagedWeights() const {
  std::unordered_map<std::string, double> averages;
  if (updates_ <= 0) return averages;
  const auto examples = static_cast<double>(updates_);
  for (const auto& [feature, history] : history_) {
    if (!lexicon_.hasWeight(feature)) continue;  // dropped by pruneUnused
    const auto held = static_cast<double>(updates_ - history.since + 1);
    averages[feature] = (history.sum + lexicon_.weight(feature) * held) / examples;
  }
  return averages;
}

void FublLearner::refreshAveraged() {
  averaged_ = lexicon_;
  for (const auto& [feature, value] : averagedWeights()) averaged_.setWeight(feature, value);
  averagedReady_ = true;
}

namespace {

// FublOptions::keepPosterior: the lexemes and templates (keys) that the parses of `logicalForm`
// in `correct` use at least `threshold` times in expectation. Expected counts are sums of
// posteriors: a count of exactly the threshold may come out a rounding error below it.
void collectLikelyItems(const CkyChart& correct, const Term& logicalForm, double threshold,
                        std::vector<std::string>* lexemes, std::vector<std::string>* templates) {
  static const std::string kLexemePrefix = "lexeme:";
  static const std::string kTemplatePrefix = "template:";
  const double atLeast = threshold * (1.0 - 1e-9);
  for (const auto& [feature, value] : correct.expectations(&logicalForm)) {
    if (feature.compare(0, kLexemePrefix.size(), kLexemePrefix) == 0) {
      if (value >= atLeast) lexemes->push_back(feature.substr(kLexemePrefix.size()));
    } else if (feature.compare(0, kTemplatePrefix.size(), kTemplatePrefix) == 0) {
      if (value / kTemplateFeatureValue >= atLeast) {
        templates->push_back(feature.substr(kTemplatePrefix.size()));
      }
    }
  }
}

}  // namespace

FinalPruning FublLearner::pruneToBestCorrectParses(const FublControl& control) {
  FinalPruning out;
  out.examples = static_cast<int>(training_.size());
  out.lexemesBefore = lexicon_.lexemes().size();
  out.templatesBefore = lexicon_.templates().size();
  out.entriesBefore = lexicon_.entryCount();
  usedLexemes_.clear();
  usedTemplates_.clear();
  FublProgress progress;
  progress.pass = passesDone_;
  progress.examples = out.examples;
  // The examples in batches: a batch's best correct parses are found on the threads, then taken
  // in example order on this one (progress reported and the cancel flag polled between examples).
  const std::size_t n = training_.size();
  const std::size_t batch =
      options_.threads > 1 ? 4 * static_cast<std::size_t>(options_.threads) : 1;
  std::vector<Derivation> bests(batch);
  std::vector<char> found(batch, 0);
  // FublOptions::keepPosterior: the lexemes and templates with enough expected uses, per example.
  std::vector<std::vector<std::string>> likelyLexemes(batch);
  std::vector<std::vector<std::string>> likelyTemplates(batch);
  for (std::size_t first = 0; first < n; first += batch) {
    const std::size_t count = std::min(batch, n - first);
    if (control.cancel != nullptr && control.cancel->load()) {
      usedLexemes_.clear();
      usedTemplates_.clear();
      out.cancelled = true;
      out.lexemes = out.lexemesBefore;
      out.templates = out.templatesBefore;
      out.entries = out.entriesBefore;
      return out;
    }
    parallel::forEachRange(count, options_.threads, 1, [&](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k) {
        const SemanticExample& example = training_[first + k];
        // With averaged weights the model's, not θ's: training is over.
        const CkyChart correct(model(), example.words, correctParseOptions(example));
        bests[k] = Derivation();
        found[k] = correct.bestDerivation(example.logicalForm, &bests[k]) ? 1 : 0;
        likelyLexemes[k].clear();
        likelyTemplates[k].clear();
        if (found[k] == 0 || options_.keepPosterior <= 0.0) continue;
        collectLikelyItems(correct, example.logicalForm, options_.keepPosterior, &likelyLexemes[k],
                           &likelyTemplates[k]);
      }
    });
    for (std::size_t k = 0; k < count; ++k) {
      if (found[k] != 0) {
        ++out.parsable;
        noteUsed(bests[k].root);
        const std::size_t lexemesBefore = usedLexemes_.size();
        const std::size_t templatesBefore = usedTemplates_.size();
        usedLexemes_.insert(likelyLexemes[k].begin(), likelyLexemes[k].end());
        usedTemplates_.insert(likelyTemplates[k].begin(), likelyTemplates[k].end());
        if (usedLexemes_.size() != lexemesBefore || usedTemplates_.size() != templatesBefore) {
          ++out.widenedByPosterior;
        }
      }
      ++progress.example;
      if (control.observer != nullptr) control.observer->onPruningExample(progress);
    }
  }
  if (options_.averageWeights && averagedReady_) {
    // The averaged weights become θ: what is pruned and kept is the model.
    lexicon_ = std::move(averaged_);
    averaged_ = FactoredLexicon();
    averagedReady_ = false;
    history_.clear();
  }
  PassSummary ignored;
  pruneUnused(&ignored);
  usedLexemes_.clear();
  usedTemplates_.clear();
  out.lexemes = lexicon_.lexemes().size();
  out.templates = lexicon_.templates().size();
  out.entries = lexicon_.entryCount();
  return out;
}

void FublLearner::resetRunState() {
  updates_ = 0;
  history_.clear();
  averaged_ = FactoredLexicon();
  averagedReady_ = false;
  partFacSeen_.clear();
  fixedLexemes_.clear();
  fixedTemplates_.clear();
}

void FublLearner::adoptModel(const FactoredLexicon& model, const CkyOptions& parser,
                             const std::vector<SemanticExample>& training,
                             const FactoredLexicon& fixedLexicon) {
  training_ = training;
  lexicon_ = model;
  options_.parser = parser;
  // As the constructor: type-checked with the learner's types, nothing kept for display.
  options_.parser.keepPrunedEntries = false;
  options_.parser.types = &types_;
  options_.parser.recordEvents = false;
  options_.averageWeights = false;  // the model's weights are final
  passesDone_ = options_.passes;
  resetRunState();
  splitsAdded_ = 0;
  mergesAdded_ = 0;
  splitsRejected_ = 0;
  model1_ = WordConstantModel();
  for (const Lexeme& lexeme : fixedLexicon.lexemes()) fixedLexemes_.insert(lexemeKey(lexeme));
  for (const LexicalTemplate& lexicalTemplate : fixedLexicon.templates()) {
    fixedTemplates_.insert(templateKey(lexicalTemplate));
  }
  lexicon_.buildEntries(&types_);
}

FeatureCounts FublLearner::gradient(const SemanticExample& example) const {
  CkyFillCache cache;
  const CkyChart chart(lexicon_, example.words, fullParseOptions(), &cache);
  const CkyChart correct(lexicon_, example.words, correctParseOptions(example), &cache);
  FeatureCounts delta = correct.expectations(&example.logicalForm);
  if (delta.empty()) return delta;
  const FeatureCounts all = chart.hasParse() ? chart.expectations() : correct.expectations();
  for (const auto& [feature, value] : all) delta[feature] -= value;
  return delta;
}

double FublLearner::logLikelihood(const SemanticExample& example) const {
  CkyChart chart(lexicon_, example.words, fullParseOptions());
  return chart.logProbability(example.logicalForm);
}

namespace {

// The progress callback of the older interface as an observer.
class ProgressFunctionObserver : public FublObserver {
 public:
  explicit ProgressFunctionObserver(const std::function<void(const FublProgress&)>& progress)
      : progress_(progress) {}
  void onExample(const FublProgress& progress) override {
    if (progress_) progress_(progress);
  }

 private:
  const std::function<void(const FublProgress&)>& progress_;
};

}  // namespace

PassSummary FublLearner::runPass(const std::function<void(const FublProgress&)>& progress) {
  ProgressFunctionObserver observer(progress);
  return runPass(FublControl{&observer, nullptr});
}

PassSummary FublLearner::runPass(const FublControl& control) {
  const auto start = std::chrono::steady_clock::now();
  PassSummary summary;
  summary.pass = passesDone_ + 1;
  const int n = static_cast<int>(training_.size());
  summary.examples = n;
  std::vector<int> order(training_.size());
  std::iota(order.begin(), order.end(), 0);
  if (options_.seed != 0) {
    std::mt19937_64 generator(options_.seed * 1000003ULL + static_cast<std::uint64_t>(passesDone_));
    for (int i = n - 1; i > 0; --i) {
      const auto j = static_cast<int>(generator() % static_cast<std::uint64_t>(i + 1));
      std::swap(order[i], order[j]);
    }
  }
  splitsAdded_ = 0;
  mergesAdded_ = 0;
  splitsRejected_ = 0;
  usedLexemes_.clear();
  usedTemplates_.clear();
  for (int position = 0; position < n; ++position) {
    if (control.cancel != nullptr && control.cancel->load()) {
      summary.cancelled = true;
      break;
    }
    const int index = order[position];
    const SemanticExample& example = training_[index];
    const auto exampleStart = std::chrono::steady_clock::now();
    ++updates_;
    // The example's charts share what their fills compute from meanings alone (CkyFillCache);
    // filled at once (FublOptions::threads), the chart of z keeps a cache of its own.
    CkyFillCache cache;
    CkyFillCache correctCache;
    std::unique_ptr<CkyChart> chart;
    std::unique_ptr<CkyChart> correct;
    const auto fillCharts = [&] {
      fillBothCharts(example, &cache, &correctCache, &chart, &correct);
    };
    fillCharts();
    if (chart->hasParse()) {
      const std::vector<Derivation> top = chart->kBest(1);
      if (!top.empty() && exactMatch(top.front().logicalForm, example.logicalForm)) {
        ++summary.correctBeforeUpdate;
        if (top.front().root.children.empty()) ++summary.wholeSentenceBest;
      }
    }
    // The derivations of z_i: in the chart of the entries with z_i's constants.
    Derivation best;
    bool parsable = correct->bestDerivation(example.logicalForm, &best);
    if (!parsable && options_.pruneUnused) {
      // Pruning may have taken the lexemes this example needs (it had no y* in an earlier pass,
      // or its items were split into ones since dropped): give it back its whole-sentence item,
      // as at the start, so that no example is lost for good.
      const int lexemes = static_cast<int>(lexicon_.lexemes().size());
      const int templates = static_cast<int>(lexicon_.templates().size());
      addFactoring(maximalFactoringOf({example.words, makeAtomicCategory("S"), example.logicalForm},
                                      options_.lexicalOperators));
      if (lexicon_.addEntries(&types_, lexemes, templates) > 0) {
        ++summary.restored;
        fillCharts();
        parsable = correct->bestDerivation(example.logicalForm, &best);
      }
    }
    if (parsable) {
      ++summary.parsable;
      const double fullLogProbability = chart->logProbability(example.logicalForm);
      if (!std::isfinite(fullLogProbability)) ++summary.zOutsideFullChart;
      summary.logLikelihood += std::isfinite(fullLogProbability)
                                   ? fullLogProbability
                                   : correct->logProbability(example.logicalForm);
      noteUsed(best.root);
      bool changed = false;
      if (options_.newLex) changed = newLex(example, best, *correct, &cache);
      if (options_.partFac) {
        const int lexemes = static_cast<int>(lexicon_.lexemes().size());
        const int templates = static_cast<int>(lexicon_.templates().size());
        const int added = partFac(best.root, example.words, index);
        summary.partFacTemplates += added;
        if (added > 0 && lexicon_.addEntries(&types_, lexemes, templates) > 0) changed = true;
      }
      if (changed) fillCharts();
      // Step 2: θ += γ (E[φ | x, z] − E[φ | x]).
      FeatureCounts delta = correct->expectations(&example.logicalForm);
      if (!delta.empty()) {
        const FeatureCounts all =
            chart->hasParse() ? chart->expectations() : correct->expectations();
        for (const auto& [feature, value] : all) delta[feature] -= value;
        const double rate =
            options_.learningRate / (1.0 + options_.coolingRate * static_cast<double>(updates_));
        for (const auto& [feature, value] : delta) {
          if (value != 0.0) updateWeight(feature, lexicon_.weight(feature) + rate * value);
          summary.updateL1 += std::abs(rate * value);
        }
      }
    }
    const double exampleSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - exampleStart).count();
    if (exampleSeconds > summary.slowestSeconds) {
      summary.slowestSeconds = exampleSeconds;
      summary.slowestLine = example.sentenceLine;
    }
    if (control.observer != nullptr) control.observer->onExample({summary.pass, position + 1, n});
  }
  if (!summary.cancelled) {
    ++passesDone_;
    if (options_.pruneUnused) pruneUnused(&summary);
    if (options_.averageWeights) refreshAveraged();
  }
  summary.splitsAdded = splitsAdded_;
  summary.mergesAdded = mergesAdded_;
  summary.splitsRejected = splitsRejected_;
  summary.lexemes = lexicon_.lexemes().size();
  summary.templates = lexicon_.templates().size();
  summary.entries = lexicon_.entryCount();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!summary.cancelled && control.observer != nullptr) control.observer->onPass(summary, model());
  return summary;
}

void FublLearner::train(const std::vector<SemanticExample>& training,
                        const FactoredLexicon& fixedLexicon,
                        const std::function<void(const FublProgress&)>& progress,
                        const std::function<void(const PassSummary&)>& onPass) {
  initialise(training, fixedLexicon);
  for (int pass = 0; pass < options_.passes; ++pass) {
    const PassSummary summary = runPass(progress);
    if (onPass) onPass(summary);
  }
  if (options_.pruneAfterLastPass && options_.passes > 0) pruneToBestCorrectParses();
}

int FublLearner::train(const std::vector<SemanticExample>& training,
                       const FactoredLexicon& fixedLexicon, const FublControl& control) {
  initialise(training, fixedLexicon);
  for (int pass = 0; pass < options_.passes; ++pass) {
    if (runPass(control).cancelled) return passesDone_;
  }
  if (options_.pruneAfterLastPass && options_.passes > 0) pruneToBestCorrectParses(control);
  return passesDone_;
}

}  // namespace gwb::ccg
