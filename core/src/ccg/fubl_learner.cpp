#include "gwb/ccg/fubl_learner.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <utility>

namespace gwb::ccg {

namespace {

constexpr double kLikelihoodTolerance = 1e-9;

bool holdsOwnConstants(const Term& term) {
  for (const std::string& constant : constantsInOrder(term)) {
    if (constant.empty() || constant[0] != '#') return true;
  }
  return false;
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

std::vector<std::string> slice(const std::vector<std::string>& words, int begin, int end) {
  return {words.begin() + begin, words.begin() + end};
}

}  // namespace

FublLearner::FublLearner(const TypeSystem& types, FublOptions options)
    : types_(types), options_(std::move(options)) {
  // Training never shows pruned entries: drop what they hold (the numbers are the same).
  options_.parser.keepPrunedEntries = false;
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
  const std::string templateName = templateFeature(factoring.lexicalTemplate);
  lexicon_.addTemplate(factoring.lexicalTemplate, &added);
  if (added) lexicon_.setWeight(templateName, initialTemplateWeight(factoring.lexicalTemplate));
}

void FublLearner::initialise(const std::vector<SemanticExample>& training,
                             const FactoredLexicon& fixedLexicon) {
  training_ = training;
  lexicon_ = FactoredLexicon();
  passesDone_ = 0;
  updates_ = 0;
  std::vector<AlignmentPair> pairs;
  pairs.reserve(training.size());
  for (const SemanticExample& example : training) {
    pairs.push_back({example.words, logicalFormTokens(example.logicalForm)});
  }
  model1_.train(pairs, options_.model1Iterations);
  const Category sentence = makeAtomicCategory("S");
  for (const SemanticExample& example : training) {
    addFactoring(maximalFactoringOf({example.words, sentence, example.logicalForm}));
  }
  for (const Lexeme& lexeme : fixedLexicon.lexemes()) {
    lexicon_.addLexeme(lexeme);
    lexicon_.setWeight(lexemeFeature(lexeme), options_.fixedLexemeWeight);
  }
  for (const LexicalTemplate& lexicalTemplate : fixedLexicon.templates()) {
    bool added = false;
    lexicon_.addTemplate(lexicalTemplate, &added);
    if (added) {
      lexicon_.setWeight(templateFeature(lexicalTemplate), initialTemplateWeight(lexicalTemplate));
    }
  }
  lexicon_.buildEntries(&types_);
}

double FublLearner::itemScore(const LexicalItem& item) const {
  const Factoring factoring = maximalFactoringOf(item);
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

bool FublLearner::newLex(const SemanticExample& example, const Derivation& best,
                         double logProbability) {
  std::vector<const DerivationNode*> leaves;
  std::vector<const DerivationNode*> internal;
  collectNodes(best.root, &leaves, &internal);
  bool found = false;
  double bestDelta = 0;
  LexicalSplit chosen;
  for (const DerivationNode* leaf : leaves) {
    if (leaf->end - leaf->begin < 2) continue;
    const LexicalItem item{slice(example.words, leaf->begin, leaf->end), leaf->category,
                           leaf->semantics};
    for (LexicalSplit& split : splitLexicalItem(item, types_, options_.splitting)) {
      const double delta = itemScore(split.left) + itemScore(split.right) - leaf->localScore;
      if (!found || delta > bestDelta) {
        found = true;
        bestDelta = delta;
        chosen = std::move(split);
      }
    }
  }
  if (!found) return false;
  const int lexemes = static_cast<int>(lexicon_.lexemes().size());
  const int templates = static_cast<int>(lexicon_.templates().size());
  addFactoring(maximalFactoringOf(chosen.left));
  addFactoring(maximalFactoringOf(chosen.right));
  if (lexicon_.addEntries(&types_, lexemes, templates) > 0) {
    CkyChart chart(lexicon_, example.words, options_.parser);
    // Kept unless it lowers P(z | x): with a single derivation P is already 1, and UBL's
    // splitting must be able to start from there.
    if (chart.logProbability(example.logicalForm) >= logProbability - kLikelihoodTolerance) {
      ++splitsAdded_;
      return true;
    }
  }
  lexicon_.truncate(lexemes, templates);
  ++splitsRejected_;
  return false;
}

void FublLearner::partFac(const DerivationNode& node, const std::vector<std::string>& words) {
  if (node.children.empty()) return;
  if (node.end - node.begin == 2) {
    const LexicalItem item{slice(words, node.begin, node.end), node.category, node.semantics};
    for (const Factoring& factoring : partialFactorings(item, 3)) {
      if (factoring.lexeme.constants.size() != 1) continue;
      bool added = false;
      lexicon_.addTemplate(factoring.lexicalTemplate, &added);
      if (added) {
        lexicon_.setWeight(templateFeature(factoring.lexicalTemplate),
                           initialTemplateWeight(factoring.lexicalTemplate));
      }
    }
  }
  for (const DerivationNode& child : node.children) partFac(child, words);
}

FeatureCounts FublLearner::gradient(const SemanticExample& example) const {
  CkyChart chart(lexicon_, example.words, options_.parser);
  FeatureCounts correct = chart.expectations(&example.logicalForm);
  if (correct.empty()) return correct;
  for (const auto& [feature, value] : chart.expectations()) correct[feature] -= value;
  return correct;
}

double FublLearner::logLikelihood(const SemanticExample& example) const {
  CkyChart chart(lexicon_, example.words, options_.parser);
  return chart.logProbability(example.logicalForm);
}

PassSummary FublLearner::runPass(const std::function<void(const FublProgress&)>& progress) {
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
  splitsRejected_ = 0;
  for (int position = 0; position < n; ++position) {
    const SemanticExample& example = training_[order[position]];
    const auto exampleStart = std::chrono::steady_clock::now();
    ++updates_;
    auto chart = std::make_unique<CkyChart>(lexicon_, example.words, options_.parser);
    if (chart->hasParse()) {
      const std::vector<Derivation> top = chart->kBest(1);
      if (!top.empty() && exactMatch(top.front().logicalForm, example.logicalForm)) {
        ++summary.correctBeforeUpdate;
      }
    }
    Derivation best;
    if (chart->bestDerivation(example.logicalForm, &best)) {
      ++summary.parsable;
      const double before = chart->logProbability(example.logicalForm);
      summary.logLikelihood += before;
      bool changed = false;
      if (options_.newLex) changed = newLex(example, best, before);
      if (options_.partFac) {
        const int lexemes = static_cast<int>(lexicon_.lexemes().size());
        const int templates = static_cast<int>(lexicon_.templates().size());
        partFac(best.root, example.words);
        if (lexicon_.addEntries(&types_, lexemes, templates) > 0) changed = true;
      }
      if (changed) {
        chart = std::make_unique<CkyChart>(lexicon_, example.words, options_.parser);
      }
      // Step 2: θ += γ (E[φ | x, z] − E[φ | x]).
      FeatureCounts delta = chart->expectations(&example.logicalForm);
      if (!delta.empty()) {
        for (const auto& [feature, value] : chart->expectations()) delta[feature] -= value;
        const double rate =
            options_.learningRate / (1.0 + options_.coolingRate * static_cast<double>(updates_));
        for (const auto& [feature, value] : delta) {
          if (value != 0.0) lexicon_.setWeight(feature, lexicon_.weight(feature) + rate * value);
        }
      }
    }
    const double exampleSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - exampleStart).count();
    if (exampleSeconds > summary.slowestSeconds) {
      summary.slowestSeconds = exampleSeconds;
      summary.slowestLine = example.sentenceLine;
    }
    if (progress) progress({summary.pass, position + 1, n});
  }
  ++passesDone_;
  summary.splitsAdded = splitsAdded_;
  summary.splitsRejected = splitsRejected_;
  summary.lexemes = lexicon_.lexemes().size();
  summary.templates = lexicon_.templates().size();
  summary.entries = lexicon_.entryCount();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
}

}  // namespace gwb::ccg
