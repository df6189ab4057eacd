#include "gwb/ccg/ibm_model1.h"

#include <algorithm>
#include <cstdio>

namespace gwb::ccg {

namespace {

void collectTokens(const Term& term, std::vector<std::string>* out) {
  if (term->kind == TermKind::Constant) {
    out->push_back(term->name);
    return;
  }
  if (term->kind != TermKind::Variable && term->kind != TermKind::Application &&
      term->kind != TermKind::Lambda) {
    out->emplace_back(termKeyword(term->kind));
  }
  for (const Term& child : term->children) collectTokens(child, out);
}

int intern(const std::string& name, std::vector<std::string>* names,
           std::unordered_map<std::string, int>* ids) {
  auto [it, added] = ids->emplace(name, static_cast<int>(names->size()));
  if (added) names->push_back(name);
  return it->second;
}

}  // namespace

std::vector<std::string> logicalFormTokens(const Term& term) {
  std::vector<std::string> out;
  collectTokens(term, &out);
  return out;
}

void WordConstantModel::train(const std::vector<AlignmentPair>& pairs, int iterations) {
  words_.clear();
  constants_.clear();
  wordIds_.clear();
  constantIds_.clear();
  intern(kNullWord, &words_, &wordIds_);
  std::vector<std::pair<std::vector<int>, std::vector<int>>> encoded;
  for (const AlignmentPair& pair : pairs) {
    std::vector<int> source = {0};
    for (const std::string& word : pair.words) source.push_back(intern(word, &words_, &wordIds_));
    std::vector<int> target;
    for (const std::string& constant : pair.constants) {
      target.push_back(intern(constant, &constants_, &constantIds_));
    }
    encoded.emplace_back(std::move(source), std::move(target));
  }
  const std::size_t wordCount = words_.size();
  const std::size_t constantCount = constants_.size();
  table_.assign(wordCount,
                std::vector<double>(constantCount, constantCount ? 1.0 / constantCount : 0.0));
  std::vector<std::vector<double>> counts(wordCount, std::vector<double>(constantCount));
  std::vector<double> totals(wordCount);
  for (int iteration = 0; iteration < iterations; ++iteration) {
    for (auto& row : counts) std::fill(row.begin(), row.end(), 0.0);
    std::fill(totals.begin(), totals.end(), 0.0);
    for (const auto& [source, target] : encoded) {
      for (int c : target) {
        double denominator = 0;
        for (int w : source) denominator += table_[w][c];
        if (denominator <= 0) continue;
        for (int w : source) {
          const double share = table_[w][c] / denominator;
          counts[w][c] += share;
          totals[w] += share;
        }
      }
    }
    for (std::size_t w = 0; w < wordCount; ++w) {
      if (totals[w] <= 0) continue;
      for (std::size_t c = 0; c < constantCount; ++c) table_[w][c] = counts[w][c] / totals[w];
    }
  }
}

double WordConstantModel::probability(const std::string& constant, const std::string& word) const {
  auto w = wordIds_.find(word);
  auto c = constantIds_.find(constant);
  if (w == wordIds_.end() || c == constantIds_.end()) return 0.0;
  return table_[w->second][c->second];
}

double WordConstantModel::lexemeScore(const std::vector<std::string>& words,
                                      const std::vector<std::string>& constants) const {
  if (constants.empty() || words.empty()) return 0.0;
  double sum = 0;
  for (const std::string& constant : constants) {
    for (const std::string& word : words) sum += probability(constant, word);
  }
  return sum / static_cast<double>((constants.size() + 1) * words.size());
}

std::string WordConstantModel::toTable(double threshold) const {
  std::vector<std::pair<std::string, std::string>> keys;
  for (const std::string& constant : constants_) {
    for (const std::string& word : words_) {
      if (probability(constant, word) > threshold) keys.emplace_back(constant, word);
    }
  }
  std::sort(keys.begin(), keys.end());
  std::string out;
  for (const auto& [constant, word] : keys) {
    char number[32];
    std::snprintf(number, sizeof number, "%g", probability(constant, word));
    out += constant + "  ::  " + word + "  ::  " + number + "\n";
  }
  return out;
}

}  // namespace gwb::ccg
