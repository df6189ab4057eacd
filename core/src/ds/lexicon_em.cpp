#include "gwb/ds/lexicon_em.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "gwb/ds/formula.h"

namespace gwb::ds {

std::string canonicalHypothesisKey(const std::string& actionText) {
  std::map<std::string, std::string> renamed;
  std::map<char, int> counters;
  std::string out;
  std::size_t i = 0;
  auto identifierChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  while (i < actionText.size()) {
    if (!identifierChar(actionText[i])) {
      out += actionText[i++];
      continue;
    }
    std::size_t end = i;
    while (end < actionText.size() && identifierChar(actionText[end])) ++end;
    const std::string word = actionText.substr(i, end - i);
    const bool afterIdentifier = i > 0 && identifierChar(actionText[i - 1]);
    // `e` and `t` are the basic DS types (`?ty(e>t)`, `: e`) far more often than labels.
    const bool typeName = word == "e" || word == "t";
    if (!afterIdentifier && !typeName && word != "head" && word != "reftime" &&
        isVariableName(word)) {
      auto it = renamed.find(word);
      if (it == renamed.end()) {
        const char letter = word[0];
        it =
            renamed.emplace(word, std::string(1, letter) + "'" + std::to_string(++counters[letter]))
                .first;
      }
      out += it->second;
    } else {
      out += word;
    }
    i = end;
  }
  return out;
}

EmUpdate IncrementalEm::observe(const ExampleHypotheses& example, int item) {
  EmUpdate update;
  update.tuples = example.tuples.size();
  if (example.tuples.empty()) {
    update.skipped = true;
    return update;
  }
  ++observed_;
  const std::size_t n = example.words.size();

  // Global ids of the example's hypotheses, per word position; new ones are interned in order.
  std::vector<std::vector<int>> globalId(n, std::vector<int>(example.hypotheses.size(), -1));
  auto idFor = [&](std::size_t position, std::size_t local) {
    int& cached = globalId[position][local];
    if (cached >= 0) return cached;
    const std::string& word = example.words[position];
    const WordHypothesis& h = example.hypotheses[local];
    auto [it, inserted] = ids_.emplace(std::make_pair(word, h.key), 0);
    if (inserted) {
      it->second = static_cast<int>(hypotheses_.size());
      LearnedHypothesis learned;
      learned.id = it->second;
      learned.word = word;
      learned.key = h.key;
      learned.action = h.action;
      hypotheses_.push_back(std::move(learned));
      byWord_[word].push_back(it->second);
      ++update.newHypotheses;
    }
    cached = it->second;
    return cached;
  };
  std::vector<std::vector<int>> tuples;
  tuples.reserve(example.tuples.size());
  for (const std::vector<std::size_t>& t : example.tuples) {
    std::vector<int> ids(n);
    for (std::size_t i = 0; i < n; ++i) ids[i] = idFor(i, t[i]);
    tuples.push_back(std::move(ids));
  }
  for (const std::vector<int>& t : tuples)
    for (int id : t) {
      std::vector<int>& items = hypotheses_[static_cast<std::size_t>(id)].items;
      if (items.empty() || items.back() != item) items.push_back(item);
    }

  // θ'_w: the prior of each word's hypotheses in this example.
  std::map<std::string, std::set<int>> present;  // word -> its hypotheses in the example
  for (const std::vector<int>& t : tuples)
    for (std::size_t i = 0; i < n; ++i) present[example.words[i]].insert(t[i]);
  std::map<int, double> prior;
  for (const auto& [word, ids] : present) {
    const bool firstTime = examplesWith_[word] == 0;
    std::vector<int> unseen;
    for (int id : ids)
      if (firstTime || hypotheses_[static_cast<std::size_t>(id)].probability <= 0.0)
        unseen.push_back(id);
    if (firstTime) {
      for (int id : ids) prior[id] = 1.0 / static_cast<double>(ids.size());
      continue;
    }
    const double keep = unseen.empty() ? 1.0 : 1.0 - heldOutMass_;
    for (int id : ids) {
      const double p = hypotheses_[static_cast<std::size_t>(id)].probability;
      prior[id] = p > 0.0 ? keep * p : heldOutMass_ / static_cast<double>(unseen.size());
    }
  }

  // (2) tuple probabilities, (3) re-estimation per word.
  std::map<std::string, std::map<int, double>> mass;
  for (const std::vector<int>& t : tuples) {
    double p = 1.0;
    for (int id : t) p *= prior[id];
    std::set<std::pair<std::string, int>> counted;
    for (std::size_t i = 0; i < n; ++i)
      if (counted.emplace(example.words[i], t[i]).second) mass[example.words[i]][t[i]] += p;
  }

  // (4) the running average, per word, over the examples it occurs in.
  for (const auto& [word, masses] : mass) {
    double z = 0.0;
    for (const auto& [id, m] : masses) z += m;
    const int nw = ++examplesWith_[word];
    const double old = static_cast<double>(nw - 1) / nw;
    for (int id : byWord_[word]) {
      LearnedHypothesis& h = hypotheses_[static_cast<std::size_t>(id)];
      const auto it = masses.find(id);
      const double fresh = it == masses.end() || z <= 0.0 ? 0.0 : it->second / z;
      h.probability = old * h.probability + fresh / nw;
    }
  }
  return update;
}

std::vector<int> IncrementalEm::ranked(const std::string& word) const {
  const auto it = byWord_.find(word);
  if (it == byWord_.end()) return {};
  std::vector<int> ids = it->second;
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
    return hypotheses_[static_cast<std::size_t>(a)].probability >
           hypotheses_[static_cast<std::size_t>(b)].probability;
  });
  return ids;
}

std::vector<std::string> IncrementalEm::words() const {
  std::vector<std::string> out;
  for (const auto& [word, ids] : byWord_) out.push_back(word);
  return out;
}

int IncrementalEm::examplesWith(const std::string& word) const {
  const auto it = examplesWith_.find(word);
  return it == examplesWith_.end() ? 0 : it->second;
}

}  // namespace gwb::ds
