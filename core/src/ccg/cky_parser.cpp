#include "gwb/ccg/cky_parser.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace gwb::ccg {

namespace {

constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();

double logAdd(double a, double b) {
  if (a == kNegativeInfinity) return b;
  if (b == kNegativeInfinity) return a;
  const double high = std::max(a, b);
  return high + std::log1p(std::exp(std::min(a, b) - high));
}

std::string suffixType(const std::string& constant) {
  const auto colon = constant.rfind(':');
  return colon == std::string::npos ? "e" : constant.substr(colon + 1);
}

// A short name and a type for an argument of a predicate (the lf-arg / lf-type features).
std::pair<std::string, std::string> describeArgument(const Term& argument) {
  switch (argument->kind) {
    case TermKind::Constant: return {argument->name, suffixType(argument->name)};
    case TermKind::Variable: return {"var", "e"};
    case TermKind::Application: {
      const Term& head = argument->children.front();
      if (head->kind == TermKind::Constant) return {head->name, suffixType(head->name)};
      return {"apply", "e"};
    }
    case TermKind::Lambda: return {"lambda", "fn"};
    case TermKind::Count:
    case TermKind::Sum: return {termKeyword(argument->kind), "i"};
    case TermKind::The:
    case TermKind::Argmax:
    case TermKind::Argmin: return {termKeyword(argument->kind), "e"};
    default: return {termKeyword(argument->kind), "t"};
  }
}

void collectLogicalFormFeatures(const Term& term, std::set<std::string>* out) {
  if (term->kind == TermKind::Application && term->children.front()->kind == TermKind::Constant) {
    const std::string& predicate = term->children.front()->name;
    for (std::size_t i = 1; i < term->children.size(); ++i) {
      const auto [name, type] = describeArgument(term->children[i]);
      out->insert("lf-arg:" + predicate + "," + name + "," + std::to_string(i));
      out->insert("lf-type:" + predicate + "," + type + "," + std::to_string(i));
    }
  }
  if (term->kind == TermKind::And || term->kind == TermKind::Or) {
    const char* prefix = term->kind == TermKind::And ? "conj:" : "disj:";
    const auto& parts = term->children;
    for (std::size_t a = 0; a < parts.size(); ++a) {
      for (std::size_t b = a + 1; b < parts.size(); ++b) {
        const Term& p = parts[a];
        const Term& q = parts[b];
        if (p->kind != TermKind::Application || q->kind != TermKind::Application) continue;
        if (p->children.front()->kind != TermKind::Constant ||
            q->children.front()->kind != TermKind::Constant) {
          continue;
        }
        std::string first = p->children.front()->name;
        std::string second = q->children.front()->name;
        if (second < first) std::swap(first, second);
        const std::size_t slots = std::min(p->children.size(), q->children.size());
        for (std::size_t i = 1; i < slots; ++i) {
          const Term& x = p->children[i];
          const Term& y = q->children[i];
          if (x->kind == TermKind::Variable && y->kind == TermKind::Variable &&
              x->variable == y->variable) {
            out->insert(prefix + std::to_string(i) + "," + first + "," + second);
          }
        }
      }
    }
  }
  for (const Term& child : term->children) collectLogicalFormFeatures(child, out);
}

struct EntryKeyHash {
  std::size_t operator()(const Category& category, const Term& key) const {
    return category->hash * 1000003u ^ key->hash;
  }
};

}  // namespace

FeatureCounts logicalFormFeatures(const Term& term) {
  std::set<std::string> names;
  collectLogicalFormFeatures(term, &names);
  FeatureCounts out;
  for (const std::string& name : names) out[name] = 1.0;
  return out;
}

CkyChart::CkyChart(const FactoredLexicon& lexicon, std::vector<std::string> words,
                   CkyOptions options)
    : lexicon_(lexicon), words_(std::move(words)), options_(std::move(options)) {
  const int n = length();
  cells_.resize(static_cast<std::size_t>((n + 1) * (n + 1)));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      cells_[cellIndex(i, j)].begin = i;
      cells_[cellIndex(i, j)].end = j;
    }
  }
  fill();
}

int CkyChart::featureId(const std::string& name) {
  auto [it, inserted] = featureIds_.emplace(name, static_cast<int>(featureNames_.size()));
  if (inserted) {
    featureNames_.push_back(name);
    const bool skipDefault = name == "skip" && !lexicon_.hasWeight(name);
    featureWeights_.push_back(skipDefault ? options_.defaultSkipWeight : lexicon_.weight(name));
  }
  return it->second;
}

std::size_t CkyChart::entryCount() const {
  std::size_t count = 0;
  for (const ChartCell& cell : cells_) {
    for (const ChartEntry& entry : cell.entries) count += entry.pruned ? 0 : 1;
  }
  return count;
}

void CkyChart::addEdge(int cellIdx, const Category& category, const Term& semantics, ChartEdge edge,
                       std::unordered_map<std::size_t, std::vector<int>>* index) {
  ChartCell& cell = cells_[cellIdx];
  Term key = exactMatchKey(semantics);
  const std::size_t hash = EntryKeyHash()(category, key);
  std::vector<int>& bucket = (*index)[hash];
  for (int existing : bucket) {
    ChartEntry& entry = cell.entries[existing];
    if (sameCategory(entry.category, category) && structurallyEqual(entry.key, key)) {
      entry.edges.push_back(std::move(edge));
      events_.push_back({ChartEvent::Kind::EdgeAdded, cellIdx, existing,
                         static_cast<int>(entry.edges.size()) - 1});
      return;
    }
  }
  ChartEntry entry;
  entry.category = category;
  entry.semantics = semantics;
  entry.key = std::move(key);
  entry.edges.push_back(std::move(edge));
  cell.entries.push_back(std::move(entry));
  const int entryIdx = static_cast<int>(cell.entries.size()) - 1;
  bucket.push_back(entryIdx);
  events_.push_back({ChartEvent::Kind::EntryAdded, cellIdx, entryIdx, 0});
}

void CkyChart::addLexicalEntries(int begin, int end,
                                 std::unordered_map<std::size_t, std::vector<int>>* index) {
  const int cellIdx = cellIndex(begin, end);
  const int longest = lexicon_.longestLexeme();
  const int skipId = options_.skipWords ? featureId("skip") : -1;
  // Lexical entries over (a, b) inside (begin, end): (a, b) == (begin, end) without skipping;
  // with skipping, a == begin (words after b skipped) or begin == 0 (words before a skipped too).
  for (int a = begin; a < end; ++a) {
    if (a != begin && !(options_.skipWords && begin == 0)) break;
    for (int b = a + 1; b <= end && b - a <= longest; ++b) {
      if (b != end && !options_.skipWords) continue;
      const int skipped = (a - begin) + (end - b);
      std::string phrase;
      for (int w = a; w < b; ++w) {
        if (w > a) phrase += ' ';
        phrase += words_[w];
      }
      for (const LexicalEntry& lexical : lexicon_.entriesFor(phrase)) {
        const Lexeme& lexeme = lexicon_.lexemes()[lexical.lexeme];
        const LexicalTemplate& lexicalTemplate = lexicon_.templates()[lexical.lexicalTemplate];
        ChartEdge edge;
        edge.combinator = skipped > 0 ? Combinator::Skip : Combinator::Lexical;
        edge.lexeme = lexical.lexeme;
        edge.lexicalTemplate = lexical.lexicalTemplate;
        edge.lexicalBegin = a;
        edge.lexicalEnd = b;
        edge.features = {{featureId(lexemeFeature(lexeme)), 1.0},
                         {featureId(templateFeature(lexicalTemplate)), kTemplateFeatureValue},
                         {featureId(pairFeature(lexeme, lexicalTemplate)), 1.0}};
        if (skipped > 0) edge.features.emplace_back(skipId, static_cast<double>(skipped));
        for (const auto& [id, value] : edge.features) edge.score += featureWeights_[id] * value;
        addEdge(cellIdx, lexical.category, canonicalTerm(lexical.semantics), std::move(edge),
                index);
      }
    }
  }
}

double CkyChart::edgeInside(const ChartEdge& edge) const {
  double inside = edge.score;
  if (edge.leftCell >= 0) {
    inside += cells_[edge.leftCell].entries[edge.leftEntry].inside;
    inside += cells_[edge.rightCell].entries[edge.rightEntry].inside;
  }
  return inside;
}

void CkyChart::finishCell(int cellIdx) {
  ChartCell& cell = cells_[cellIdx];
  for (ChartEntry& entry : cell.entries) {
    entry.inside = kNegativeInfinity;
    entry.viterbi = kNegativeInfinity;
    for (std::size_t e = 0; e < entry.edges.size(); ++e) {
      const ChartEdge& edge = entry.edges[e];
      entry.inside = logAdd(entry.inside, edgeInside(edge));
      double viterbi = edge.score;
      if (edge.leftCell >= 0) {
        viterbi += cells_[edge.leftCell].entries[edge.leftEntry].viterbi +
                   cells_[edge.rightCell].entries[edge.rightEntry].viterbi;
      }
      if (viterbi > entry.viterbi) {
        entry.viterbi = viterbi;
        entry.bestEdge = static_cast<int>(e);
      }
    }
  }
  if (options_.beam > 0 && static_cast<int>(cell.entries.size()) > options_.beam) {
    std::vector<int> order(cell.entries.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return cell.entries[a].inside > cell.entries[b].inside; });
    for (std::size_t rank = options_.beam; rank < order.size(); ++rank) {
      ChartEntry& entry = cell.entries[order[rank]];
      entry.pruned = true;
      if (!options_.keepPrunedEntries) {
        std::vector<ChartEdge>().swap(entry.edges);
        entry.semantics = nullptr;
        entry.key = nullptr;
        entry.bestEdge = -1;
      }
      events_.push_back({ChartEvent::Kind::EntryPruned, cellIdx, order[rank], -1});
    }
  }
  events_.push_back({ChartEvent::Kind::CellFinished, cellIdx, -1, -1});
}

void CkyChart::fill() {
  const int n = length();
  for (int span = 1; span <= n; ++span) {
    for (int begin = 0; begin + span <= n; ++begin) {
      const int end = begin + span;
      if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
        cancelled_ = true;
        logZ_ = kNegativeInfinity;
        return;
      }
      const int cellIdx = cellIndex(begin, end);
      events_.push_back({ChartEvent::Kind::CellStarted, cellIdx, -1, -1});
      std::unordered_map<std::size_t, std::vector<int>> index;
      addLexicalEntries(begin, end, &index);
      for (int split = begin + 1; split < end; ++split) {
        const int leftIdx = cellIndex(begin, split);
        const int rightIdx = cellIndex(split, end);
        const ChartCell& left = cells_[leftIdx];
        const ChartCell& right = cells_[rightIdx];
        for (std::size_t l = 0; l < left.entries.size(); ++l) {
          if (left.entries[l].pruned) continue;
          for (std::size_t r = 0; r < right.entries.size(); ++r) {
            if (right.entries[r].pruned) continue;
            const ChartEntry& leftEntry = left.entries[l];
            const ChartEntry& rightEntry = right.entries[r];
            for (Combination& combination :
                 combine(leftEntry.category, leftEntry.semantics, rightEntry.category,
                         rightEntry.semantics, options_.combinators)) {
              ChartEdge edge;
              edge.combinator = combination.combinator;
              edge.leftCell = leftIdx;
              edge.leftEntry = static_cast<int>(l);
              edge.rightCell = rightIdx;
              edge.rightEntry = static_cast<int>(r);
              addEdge(cellIdx, combination.category, combination.semantics, std::move(edge),
                      &index);
            }
          }
        }
      }
      finishCell(cellIdx);
    }
  }
  // Roots.
  logZ_ = kNegativeInfinity;
  if (n == 0) return;
  const ChartCell& top = cells_[cellIndex(0, n)];
  for (std::size_t e = 0; e < top.entries.size(); ++e) {
    const ChartEntry& entry = top.entries[e];
    if (entry.pruned) continue;
    bool isRoot = options_.rootCategories.empty();
    for (const std::string& root : options_.rootCategories) {
      isRoot = isRoot || (entry.category->isAtomic() && entry.category->atom == root);
    }
    if (!isRoot) continue;
    FeatureCounts features;
    double score = entry.inside;
    if (options_.logicalFormFeatures) {
      features = logicalFormFeatures(entry.semantics);
      for (const auto& [name, value] : features) score += lexicon_.weight(name) * value;
    }
    roots_.emplace_back(static_cast<int>(e), score);
    rootFeatures_.push_back(std::move(features));
    logZ_ = logAdd(logZ_, score);
  }
}

double CkyChart::logProbability(const Term& logicalForm) const {
  const Term key = exactMatchKey(logicalForm);
  const ChartCell& top = cells_[cellIndex(0, length())];
  double sum = kNegativeInfinity;
  for (const auto& [entryIdx, score] : roots_) {
    if (structurallyEqual(top.entries[entryIdx].key, key)) sum = logAdd(sum, score);
  }
  return sum == kNegativeInfinity ? kNegativeInfinity : sum - logZ_;
}

void CkyChart::computeOutside(const Term* key, std::vector<std::vector<double>>* outside,
                              double* logZ) const {
  const int n = length();
  outside->assign(cells_.size(), {});
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    (*outside)[c].assign(cells_[c].entries.size(), kNegativeInfinity);
  }
  *logZ = kNegativeInfinity;
  const int topIdx = cellIndex(0, n);
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    const auto& [entryIdx, score] = roots_[r];
    const ChartEntry& entry = cells_[topIdx].entries[entryIdx];
    if (key && !structurallyEqual(entry.key, *key)) continue;
    (*outside)[topIdx][entryIdx] = logAdd((*outside)[topIdx][entryIdx], score - entry.inside);
    *logZ = logAdd(*logZ, score);
  }
  for (int span = n; span >= 1; --span) {
    for (int begin = 0; begin + span <= n; ++begin) {
      const int cellIdx = cellIndex(begin, begin + span);
      const ChartCell& cell = cells_[cellIdx];
      for (std::size_t e = 0; e < cell.entries.size(); ++e) {
        const double parentOutside = (*outside)[cellIdx][e];
        if (parentOutside == kNegativeInfinity || cell.entries[e].pruned) continue;
        for (const ChartEdge& edge : cell.entries[e].edges) {
          if (edge.leftCell < 0) continue;
          const double leftInside = cells_[edge.leftCell].entries[edge.leftEntry].inside;
          const double rightInside = cells_[edge.rightCell].entries[edge.rightEntry].inside;
          double& left = (*outside)[edge.leftCell][edge.leftEntry];
          double& right = (*outside)[edge.rightCell][edge.rightEntry];
          left = logAdd(left, parentOutside + edge.score + rightInside);
          right = logAdd(right, parentOutside + edge.score + leftInside);
        }
      }
    }
  }
}

FeatureCounts CkyChart::expectations(const Term* logicalForm) const {
  FeatureCounts out;
  if (roots_.empty()) return out;
  Term key;
  if (logicalForm) key = exactMatchKey(*logicalForm);
  std::vector<std::vector<double>> outside;
  double logZ = kNegativeInfinity;
  computeOutside(logicalForm ? &key : nullptr, &outside, &logZ);
  if (logZ == kNegativeInfinity) return out;
  std::vector<double> totals(featureNames_.size(), 0.0);
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const ChartCell& cell = cells_[c];
    for (std::size_t e = 0; e < cell.entries.size(); ++e) {
      if (outside[c][e] == kNegativeInfinity || cell.entries[e].pruned) continue;
      for (const ChartEdge& edge : cell.entries[e].edges) {
        if (edge.features.empty()) continue;
        const double posterior = std::exp(outside[c][e] + edgeInside(edge) - logZ);
        for (const auto& [id, value] : edge.features) totals[id] += posterior * value;
      }
    }
  }
  for (std::size_t id = 0; id < totals.size(); ++id) {
    if (totals[id] != 0.0) out[featureNames_[id]] += totals[id];
  }
  const int topIdx = cellIndex(0, length());
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    const ChartEntry& entry = cells_[topIdx].entries[roots_[r].first];
    if (logicalForm && !structurallyEqual(entry.key, key)) continue;
    const double posterior = std::exp(roots_[r].second - logZ);
    for (const auto& [name, value] : rootFeatures_[r]) out[name] += posterior * value;
  }
  return out;
}

const std::vector<CkyChart::Ranked>& CkyChart::kBestOf(int cellIdx, int entryIdx, int k) const {
  if (kBestMemoK_ != k) {
    kBestMemo_.clear();
    kBestMemoK_ = k;
  }
  auto found = kBestMemo_.find({cellIdx, entryIdx});
  if (found != kBestMemo_.end()) return found->second;
  const ChartEntry& entry = cells_[cellIdx].entries[entryIdx];
  std::vector<Ranked> candidates;
  for (std::size_t e = 0; e < entry.edges.size(); ++e) {
    const ChartEdge& edge = entry.edges[e];
    if (edge.leftCell < 0) {
      candidates.push_back({edge.score, static_cast<int>(e), -1, -1});
      continue;
    }
    const auto& left = kBestOf(edge.leftCell, edge.leftEntry, k);
    const auto& right = kBestOf(edge.rightCell, edge.rightEntry, k);
    for (std::size_t a = 0; a < left.size(); ++a) {
      for (std::size_t b = 0; b < right.size(); ++b) {
        candidates.push_back({edge.score + left[a].score + right[b].score, static_cast<int>(e),
                              static_cast<int>(a), static_cast<int>(b)});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  if (static_cast<int>(candidates.size()) > k) candidates.resize(k);
  return kBestMemo_.emplace(std::make_pair(cellIdx, entryIdx), std::move(candidates)).first->second;
}

DerivationNode CkyChart::unpack(int cellIdx, int entryIdx, int rank, int k) const {
  const ChartCell& cell = cells_[cellIdx];
  const ChartEntry& entry = cell.entries[entryIdx];
  const Ranked& ranked = kBestOf(cellIdx, entryIdx, k)[rank];
  const ChartEdge& edge = entry.edges[ranked.edge];
  DerivationNode node;
  node.begin = cell.begin;
  node.end = cell.end;
  node.category = entry.category;
  node.semantics = entry.semantics;
  node.combinator = edge.combinator;
  node.lexeme = edge.lexeme;
  node.lexicalTemplate = edge.lexicalTemplate;
  node.localScore = edge.score;
  if (edge.leftCell >= 0) {
    node.children.push_back(unpack(edge.leftCell, edge.leftEntry, ranked.leftRank, k));
    node.children.push_back(unpack(edge.rightCell, edge.rightEntry, ranked.rightRank, k));
  }
  return node;
}

std::vector<Derivation> CkyChart::kBest(int k) const {
  std::vector<Derivation> out;
  if (roots_.empty() || k <= 0) return out;
  const int topIdx = cellIndex(0, length());
  struct Candidate {
    double score;
    std::size_t root;
    int rank;
  };
  std::vector<Candidate> candidates;
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    const ChartEntry& entry = cells_[topIdx].entries[roots_[r].first];
    const double lfScore = roots_[r].second - entry.inside;
    const auto& ranked = kBestOf(topIdx, roots_[r].first, k);
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      candidates.push_back({ranked[i].score + lfScore, r, static_cast<int>(i)});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  for (const Candidate& candidate : candidates) {
    if (static_cast<int>(out.size()) >= k) break;
    Derivation derivation;
    derivation.root = unpack(topIdx, roots_[candidate.root].first, candidate.rank, k);
    derivation.logicalForm = derivation.root.semantics;
    derivation.score = candidate.score;
    derivation.logProbability = candidate.score - logZ_;
    out.push_back(std::move(derivation));
  }
  return out;
}

bool CkyChart::bestDerivation(const Term& logicalForm, Derivation* out) const {
  const Term key = exactMatchKey(logicalForm);
  const int topIdx = cellIndex(0, length());
  int best = -1;
  double bestScore = 0;
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    const ChartEntry& entry = cells_[topIdx].entries[roots_[r].first];
    if (!structurallyEqual(entry.key, key)) continue;
    const double score = entry.viterbi + (roots_[r].second - entry.inside);
    if (best < 0 || score > bestScore) {
      best = static_cast<int>(r);
      bestScore = score;
    }
  }
  if (best < 0) return false;
  out->root = unpack(topIdx, roots_[best].first, 0, std::max(kBestMemoK_, 1));
  out->logicalForm = out->root.semantics;
  out->score = bestScore;
  out->logProbability = bestScore - logZ_;
  return true;
}

std::vector<std::pair<Term, double>> CkyChart::logicalForms() const {
  std::vector<std::pair<Term, double>> out;
  const int topIdx = cellIndex(0, length());
  std::vector<std::pair<Term, double>> byKey;  // key, log score sum
  std::vector<Term> shown;
  for (const auto& [entryIdx, score] : roots_) {
    const ChartEntry& entry = cells_[topIdx].entries[entryIdx];
    bool found = false;
    for (std::size_t i = 0; i < byKey.size(); ++i) {
      if (structurallyEqual(byKey[i].first, entry.key)) {
        byKey[i].second = logAdd(byKey[i].second, score);
        found = true;
        break;
      }
    }
    if (!found) {
      byKey.emplace_back(entry.key, score);
      shown.push_back(entry.semantics);
    }
  }
  for (std::size_t i = 0; i < byKey.size(); ++i) {
    out.emplace_back(shown[i], std::exp(byKey[i].second - logZ_));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

namespace {

void printDerivation(const DerivationNode& node, const FactoredLexicon& lexicon,
                     const std::vector<std::string>& words, int depth, std::string* out) {
  out->append(static_cast<std::size_t>(depth) * 2, ' ');
  *out += std::to_string(node.begin) + "-" + std::to_string(node.end) + " " +
          toString(node.category) + " : " + toString(node.semantics) + "  [" +
          combinatorSymbol(node.combinator);
  if (node.lexeme >= 0) {
    std::string phrase;
    for (int w = node.begin; w < node.end; ++w) phrase += (w > node.begin ? " " : "") + words[w];
    *out += " \"" + phrase + "\" " + lexemeKey(lexicon.lexemes()[node.lexeme]) + " | " +
            templateKey(lexicon.templates()[node.lexicalTemplate]);
  }
  *out += "]\n";
  for (const DerivationNode& child : node.children) {
    printDerivation(child, lexicon, words, depth + 1, out);
  }
}

}  // namespace

std::string derivationToString(const DerivationNode& node, const FactoredLexicon& lexicon,
                               const std::vector<std::string>& words) {
  std::string out;
  printDerivation(node, lexicon, words, 0, &out);
  return out;
}

}  // namespace gwb::ccg
