#include "gwb/ccg/cky_parser.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "ccg/term_arena.h"

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

std::uint64_t pairKey(std::int32_t a, std::int32_t b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

struct PairKeyHash {
  std::size_t operator()(std::uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key);
  }
};

// A hash map from 64-bit pair keys (never all ones) to small values: open addressing, linear
// probing, no node per entry (the fill looks one up per combination).
template <class Value>
class PairMap {
 public:
  PairMap() : keys_(256, kEmpty), values_(256) {}
  // The value of `key`, or null.
  const Value* find(std::uint64_t key) const {
    for (std::size_t slot = PairKeyHash()(key) & (keys_.size() - 1);;
         slot = (slot + 1) & (keys_.size() - 1)) {
      if (keys_[slot] == key) return &values_[slot];
      if (keys_[slot] == kEmpty) return nullptr;
    }
  }
  // Inserts (key, value) unless the key is there; returns the stored value and whether it was
  // inserted.
  std::pair<Value*, bool> emplace(std::uint64_t key, const Value& value) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    std::size_t slot = PairKeyHash()(key) & (keys_.size() - 1);
    for (; keys_[slot] != kEmpty; slot = (slot + 1) & (keys_.size() - 1)) {
      if (keys_[slot] == key) return {&values_[slot], false};
    }
    keys_[slot] = key;
    values_[slot] = value;
    ++size_;
    return {&values_[slot], true};
  }
  void clear() {
    if (size_ == 0) return;
    std::fill(keys_.begin(), keys_.end(), kEmpty);
    size_ = 0;
  }
  // Empties the map and gives its memory back.
  void release() {
    std::vector<std::uint64_t>(256, kEmpty).swap(keys_);
    std::vector<Value>(256).swap(values_);
    size_ = 0;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~0ULL;
  void grow() {
    std::vector<std::uint64_t> keys(keys_.size() * 2, kEmpty);
    std::vector<Value> values(keys.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == kEmpty) continue;
      std::size_t slot = PairKeyHash()(keys_[i]) & (keys.size() - 1);
      while (keys[slot] != kEmpty) slot = (slot + 1) & (keys.size() - 1);
      keys[slot] = keys_[i];
      values[slot] = values_[i];
    }
    keys_.swap(keys);
    values_.swap(values);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<Value> values_;
  std::size_t size_ = 0;
};

}  // namespace

// Everything here is a function of structure (meanings as ids of a hash-consed arena,
// term_arena.h; interned categories), so memoising changes no result: a combination of two
// meanings is computed once per chart, not once per pair of entries that carry them, and the
// meanings of entries become Terms only when the cell is finished, for the entries the beam
// keeps.
struct CkyChart::FillState {
  using Id = detail::TermArena::Id;
  explicit FillState(const CombinatorOptions& combinatorOptions) : options(combinatorOptions) {}

  const CombinatorOptions options;
  detail::TermArena terms;

  // Interned categories: the representative of each id, and the id of every pointer met (the
  // pointers are kept alive in `aliases`, so that an address is never reused).
  std::vector<Category> categories;
  std::vector<Category> aliases;
  std::unordered_map<const CategoryNode*, int> categoryIdOf;
  std::unordered_multimap<std::size_t, int> categoriesByHash;

  struct Rule {
    Combinator combinator;
    int category;
  };
  std::vector<std::vector<Rule>> ruleSets;
  // ruleRows[left category][right category]: index into ruleSets, -1 unknown yet.
  std::vector<std::vector<int>> ruleRows;

  struct Combined {
    Id semantics = detail::TermArena::kNone;  // kNone: no normal form within the budget
    Id key = detail::TermArena::kNone;
  };
  // By (function, argument) meaning ids, one table for application and one for composition.
  PairMap<Combined> applied;
  PairMap<Combined> composed;

  // The chart's own (reset by each fill; the rest is shared through a CkyFillCache).
  // Per cell, per entry: the category id (-1 once pruned) and the meaning id.
  std::vector<std::vector<int>> entryCategories;
  std::vector<std::vector<Id>> entryMeanings;
  // The open cell's entries by (category id, key id).
  PairMap<int> cellEntries;
  // With CkyOptions::types: whether (category id, meaning id) is well typed (1) or not (0).
  PairMap<int> wellTyped;
  // With CkyOptions::rootTypes: whether (category id, meaning id) may be a root (1) or not (0).
  PairMap<int> rootTyped;

  // Terms in the arena above which the fill compacts it after a cell (compactTerms); raised
  // to twice what a compaction keeps, so that it never runs once a cell.
  std::size_t nextCompaction = 0;

  // Keeps only the meanings of the entries still in play (in a finished cell, not pruned): the
  // arena's other terms are the combinations the beam dropped and the steps of their
  // reductions. The memo tables are keyed by meaning ids, so they go too; every result is a
  // function of structure, so the fill goes on exactly as it would have.
  void compactTerms() {
    std::vector<Id> live;
    for (std::size_t cell = 0; cell < entryMeanings.size(); ++cell) {
      for (std::size_t e = 0; e < entryMeanings[cell].size(); ++e) {
        if (entryCategories[cell][e] < 0) entryMeanings[cell][e] = detail::TermArena::kNone;
        live.push_back(entryMeanings[cell][e]);
      }
    }
    terms.compact(&live);
    std::size_t next = 0;
    for (std::vector<Id>& meanings : entryMeanings) {
      for (Id& meaning : meanings) meaning = live[next++];
    }
    applied.release();
    composed.release();
    wellTyped.release();
    rootTyped.release();
    cellEntries.release();
  }

  int categoryId(const Category& category) {
    auto found = categoryIdOf.find(category.get());
    if (found != categoryIdOf.end()) return found->second;
    int id = -1;
    auto range = categoriesByHash.equal_range(category->hash);
    for (auto it = range.first; it != range.second && id < 0; ++it) {
      if (sameCategory(categories[it->second], category)) id = it->second;
    }
    if (id < 0) {
      id = static_cast<int>(categories.size());
      categories.push_back(category);
      categoriesByHash.emplace(category->hash, id);
    }
    aliases.push_back(category);
    categoryIdOf.emplace(category.get(), id);
    return id;
  }

  // The index in ruleSets of the rules of (left, right), computed on first use.
  int ruleSet(int left, int right) {
    if (ruleRows.size() <= static_cast<std::size_t>(left)) ruleRows.resize(left + 1);
    if (ruleRows[left].size() <= static_cast<std::size_t>(right)) {
      ruleRows[left].resize(categories.size(), -1);
    }
    int set = ruleRows[left][right];
    if (set < 0) {
      std::vector<Rule> made;
      for (const CombinationRule& rule :
           combinationRules(categories[left], categories[right], options)) {
        made.push_back({rule.combinator, categoryId(rule.category)});
      }
      set = static_cast<int>(ruleSets.size());
      ruleSets.push_back(std::move(made));
      ruleRows[left][right] = set;
    }
    return set;
  }

  // combineSemantics (category.h) on meaning ids.
  Combined combine(Combinator combinator, Id left, Id right) {
    const bool backward = combinator == Combinator::BackwardApplication ||
                          combinator == Combinator::BackwardComposition;
    const bool composition = combinator == Combinator::ForwardComposition ||
                             combinator == Combinator::BackwardComposition;
    const Id function = backward ? right : left;
    const Id argument = backward ? left : right;
    auto& memo = composition ? composed : applied;
    const std::uint64_t pair = pairKey(function, argument);
    if (const Combined* found = memo.find(pair)) return *found;
    Combined made;
    made.semantics = composition ? terms.compose(function, argument, options.maxBetaSteps)
                                 : terms.apply(function, argument, options.maxBetaSteps);
    if (made.semantics != detail::TermArena::kNone) made.key = terms.exactMatchKey(made.semantics);
    memo.emplace(pair, made);
    return made;
  }
};

struct CkyFillCache::Slot {
  std::unique_ptr<CkyChart::FillState> state;
  // What the memo tables depend on besides meanings and categories (see the class comment).
  CombinatorOptions combinators;
  const TypeSystem* types = nullptr;  // by address (CkyOptions::types must outlive the charts)
  // Held, so that its address is not reused by other root types while the cache lives.
  std::shared_ptr<const std::vector<TypePtr>> rootTypes;
  std::vector<std::string> rootCategories;
};

CkyFillCache::CkyFillCache() : slot_(std::make_unique<Slot>()) {}
CkyFillCache::~CkyFillCache() = default;

std::size_t CkyFillCache::meanings() const { return slot_->state ? slot_->state->terms.size() : 0; }

FeatureCounts logicalFormFeatures(const Term& term) {
  std::set<std::string> names;
  collectLogicalFormFeatures(term, &names);
  FeatureCounts out;
  for (const std::string& name : names) out[name] = 1.0;
  return out;
}

CkyChart::CkyChart(const FactoredLexicon& lexicon, std::vector<std::string> words,
                   CkyOptions options, CkyFillCache* cache)
    : lexicon_(lexicon), words_(std::move(words)), options_(std::move(options)) {
  const int n = length();
  cells_.resize(static_cast<std::size_t>((n + 1) * (n + 1)));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      cells_[cellIndex(i, j)].begin = i;
      cells_[cellIndex(i, j)].end = j;
    }
  }
  fill(cache);
}

void CkyChart::recordEvent(const ChartEvent& event) {
  if (options_.recordEvents) events_.push_back(event);
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

void CkyChart::addEdge(int cellIdx, int category, int meaning, int key, ChartEdge edge,
                       FillState* state) {
  ChartCell& cell = cells_[cellIdx];
  ++edgesMade_;
  if (edge.leftCell >= 0 && options_.types != nullptr) {
    auto [typed, unseen] = state->wellTyped.emplace(pairKey(category, meaning), 0);
    if (unseen) {
      *typed = wellTyped(state->categories[category], state->terms.typeOf(meaning, *options_.types))
                   ? 1
                   : 0;
    }
    if (*typed == 0) return;
  }
  if (options_.rootTypes != nullptr && !options_.rootTypes->empty() && options_.types != nullptr &&
      cellIdx == cellIndex(0, length())) {
    auto [allowed, unseen] = state->rootTyped.emplace(pairKey(category, meaning), 0);
    if (unseen) {
      *allowed = rootTypeAllowed(state->categories[category],
                                 state->terms.typeOf(meaning, *options_.types))
                     ? 1
                     : 0;
    }
    if (*allowed == 0) return;
  }
  const auto [found, added] =
      state->cellEntries.emplace(pairKey(category, key), static_cast<int>(cell.entries.size()));
  if (!added) {
    ChartEntry& entry = cell.entries[*found];
    entry.edges.push_back(std::move(edge));
    recordEvent(
        {ChartEvent::Kind::EdgeAdded, cellIdx, *found, static_cast<int>(entry.edges.size()) - 1});
    return;
  }
  ChartEntry entry;
  entry.category = state->categories[category];
  entry.edges.push_back(std::move(edge));
  cell.entries.push_back(std::move(entry));
  state->entryCategories[cellIdx].push_back(category);
  state->entryMeanings[cellIdx].push_back(meaning);
  recordEvent(
      {ChartEvent::Kind::EntryAdded, cellIdx, static_cast<int>(cell.entries.size()) - 1, 0});
}

void CkyChart::addLexicalEntries(int begin, int end, FillState* state) {
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
        if (options_.allowedConstants && !constantsAllowed(lexical.semantics)) continue;
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
        const int meaning = state->terms.fromTerm(lexical.semantics);
        addEdge(cellIdx, state->categoryId(lexical.category), meaning,
                state->terms.exactMatchKey(meaning), std::move(edge), state);
      }
    }
  }
}

bool CkyChart::constantsAllowed(const Term& semantics) const {
  for (const std::string& constant : constantsInOrder(semantics)) {
    if (options_.allowedConstants->count(constant) == 0) return false;
  }
  return true;
}

bool CkyChart::wellTyped(const Category& category, const TypePtr& type) const {
  return type != nullptr && typeFitsCategory(type, category, *options_.types);
}

bool CkyChart::rootTypeAllowed(const Category& category, const TypePtr& type) const {
  if (!isRootCategory(category)) return true;  // in no parse anyway (finishCell)
  if (type == nullptr) return false;
  return std::any_of(
      options_.rootTypes->begin(), options_.rootTypes->end(),
      [&](const TypePtr& rootType) { return options_.types->compatible(type, rootType); });
}

double CkyChart::edgeInside(const ChartEdge& edge) const {
  double inside = edge.score;
  if (edge.leftCell >= 0) {
    inside += cells_[edge.leftCell].entries[edge.leftEntry].inside;
    inside += cells_[edge.rightCell].entries[edge.rightEntry].inside;
  }
  return inside;
}

bool CkyChart::isRootCategory(const Category& category) const {
  bool isRoot = options_.rootCategories.empty();
  for (const std::string& root : options_.rootCategories) {
    isRoot = isRoot || (category->isAtomic() && category->atom == root);
  }
  return isRoot;
}

// Which entries of `cell` the beam keeps (`dead`: sorted indices of entries in no parse). With
// keepLexicalEntries, an entry the lexicon gives (a Lexical edge) is never pruned and the others
// compete for the places the lexical ones leave (UBL's Chart.addNew); the others are ranked by
// inside or Viterbi score (beamRanking), ties in index order.
std::vector<bool> CkyChart::beamSurvivors(const ChartCell& cell,
                                          const std::vector<int>& dead) const {
  const auto isLexical = [&](const ChartEntry& entry) {
    return options_.keepLexicalEntries &&
           std::any_of(entry.edges.begin(), entry.edges.end(), [](const ChartEdge& edge) {
             return edge.combinator == Combinator::Lexical;
           });
  };
  std::vector<bool> keep(cell.entries.size(), false);
  std::vector<int> order;
  order.reserve(cell.entries.size());
  std::size_t lexicalKept = 0;
  for (std::size_t i = 0; i < cell.entries.size(); ++i) {
    if (std::binary_search(dead.begin(), dead.end(), static_cast<int>(i))) continue;
    if (isLexical(cell.entries[i])) {
      keep[i] = true;
      ++lexicalKept;
    } else {
      order.push_back(static_cast<int>(i));
    }
  }
  const bool byViterbi = options_.beamRanking == BeamRanking::Viterbi;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return byViterbi ? cell.entries[a].viterbi > cell.entries[b].viterbi
                     : cell.entries[a].inside > cell.entries[b].inside;
  });
  const auto beam = static_cast<std::size_t>(std::max(0, options_.beam));
  const std::size_t kept = options_.beam > 0
                               ? std::min(order.size(), beam > lexicalKept ? beam - lexicalKept : 0)
                               : order.size();
  for (std::size_t rank = 0; rank < kept; ++rank) keep[order[rank]] = true;
  return keep;
}

void CkyChart::finishCell(int cellIdx, FillState* state) {
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
  // The whole sentence's cell: an entry of another category than the roots' is in no parse
  // (nothing is left to combine it with), so it takes no place in the beam: pruned first.
  std::vector<int> dead;
  if (cellIdx == cellIndex(0, length()) && !options_.rootCategories.empty()) {
    for (std::size_t e = 0; e < cell.entries.size(); ++e) {
      if (!isRootCategory(cell.entries[e].category)) dead.push_back(static_cast<int>(e));
    }
  }
  if (!dead.empty() ||
      (options_.beam > 0 && static_cast<int>(cell.entries.size()) > options_.beam)) {
    const std::vector<bool> keep = beamSurvivors(cell, dead);
    std::vector<int> pruned;
    for (std::size_t i = 0; i < cell.entries.size(); ++i) {
      if (!keep[i]) pruned.push_back(static_cast<int>(i));
    }
    for (int index : pruned) {
      ChartEntry& entry = cell.entries[index];
      entry.pruned = true;
      state->entryCategories[cellIdx][index] = -1;
      if (!options_.keepPrunedEntries) {
        std::vector<ChartEdge>().swap(entry.edges);
        entry.bestEdge = -1;
      }
      recordEvent({ChartEvent::Kind::EntryPruned, cellIdx, index, -1});
    }
  }
  // Meanings as Terms, for the entries that keep them.
  for (std::size_t e = 0; e < cell.entries.size(); ++e) {
    ChartEntry& entry = cell.entries[e];
    if (entry.pruned && !options_.keepPrunedEntries) continue;
    entry.semantics = state->terms.toTerm(state->entryMeanings[cellIdx][e]);
    entry.key = exactMatchKey(entry.semantics);
  }
  recordEvent({ChartEvent::Kind::CellFinished, cellIdx, -1, -1});
}

void CkyChart::combineCells(int cellIdx, int leftIdx, int rightIdx, FillState* state) {
  // References stay valid: adding entries grows this cell's lists, not the outer vectors.
  const std::vector<int>& leftCategories = state->entryCategories[leftIdx];
  const std::vector<int>& rightCategories = state->entryCategories[rightIdx];
  const std::vector<FillState::Id>& leftMeanings = state->entryMeanings[leftIdx];
  const std::vector<FillState::Id>& rightMeanings = state->entryMeanings[rightIdx];
  // The largest category id on the right, so that a row of the rule table covers it.
  int rightMax = -1;
  for (int category : rightCategories) rightMax = std::max(rightMax, category);
  for (std::size_t l = 0; l < leftCategories.size(); ++l) {
    const int leftCategory = leftCategories[l];
    if (leftCategory < 0) continue;
    if (rightMax >= 0) state->ruleSet(leftCategory, rightMax);  // sizes the row
    for (std::size_t r = 0; r < rightCategories.size(); ++r) {
      const int rightCategory = rightCategories[r];
      if (rightCategory < 0) continue;
      int set = state->ruleRows[leftCategory][rightCategory];
      if (set < 0) set = state->ruleSet(leftCategory, rightCategory);
      const std::size_t ruleCount = state->ruleSets[set].size();
      for (std::size_t k = 0; k < ruleCount; ++k) {
        // Copied: adding an edge may add rule sets (never to this one) and move the vector.
        const FillState::Rule rule = state->ruleSets[set][k];
        const FillState::Combined combined =
            state->combine(rule.combinator, leftMeanings[l], rightMeanings[r]);
        if (combined.semantics == detail::TermArena::kNone) continue;
        ChartEdge edge;
        edge.combinator = rule.combinator;
        edge.leftCell = leftIdx;
        edge.leftEntry = static_cast<int>(l);
        edge.rightCell = rightIdx;
        edge.rightEntry = static_cast<int>(r);
        addEdge(cellIdx, rule.category, combined.semantics, combined.key, std::move(edge), state);
      }
    }
  }
}

void CkyChart::fill(CkyFillCache* cache) {
  const int n = length();
  std::unique_ptr<FillState> own;
  FillState* shared = nullptr;
  if (cache != nullptr) {
    CkyFillCache::Slot& slot = *cache->slot_;
    if (!slot.state || slot.combinators.composition != options_.combinators.composition ||
        slot.combinators.maxBetaSteps != options_.combinators.maxBetaSteps ||
        slot.types != options_.types || slot.rootTypes != options_.rootTypes ||
        slot.rootCategories != options_.rootCategories) {
      slot.state = std::make_unique<FillState>(options_.combinators);
      slot.combinators = options_.combinators;
      slot.types = options_.types;
      slot.rootTypes = options_.rootTypes;
      slot.rootCategories = options_.rootCategories;
    }
    shared = slot.state.get();
  } else {
    own = std::make_unique<FillState>(options_.combinators);
    shared = own.get();
  }
  FillState& state = *shared;
  state.entryCategories.assign(cells_.size(), {});
  state.entryMeanings.assign(cells_.size(), {});
  for (int span = 1; span <= n; ++span) {
    for (int begin = 0; begin + span <= n; ++begin) {
      const int end = begin + span;
      if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
        cancelled_ = true;
        logZ_ = kNegativeInfinity;
        return;
      }
      const int cellIdx = cellIndex(begin, end);
      recordEvent({ChartEvent::Kind::CellStarted, cellIdx, -1, -1});
      state.cellEntries.clear();
      addLexicalEntries(begin, end, &state);
      for (int split = begin + 1; split < end; ++split) {
        combineCells(cellIdx, cellIndex(begin, split), cellIndex(split, end), &state);
      }
      finishCell(cellIdx, &state);
      if (options_.compactTermsAbove > 0 &&
          state.terms.size() > std::max(options_.compactTermsAbove, state.nextCompaction)) {
        state.compactTerms();
        state.nextCompaction = 2 * state.terms.size();
      }
    }
  }
  // Roots.
  logZ_ = kNegativeInfinity;
  if (n == 0) return;
  const ChartCell& top = cells_[cellIndex(0, n)];
  for (std::size_t e = 0; e < top.entries.size(); ++e) {
    const ChartEntry& entry = top.entries[e];
    if (entry.pruned) continue;
    if (!isRootCategory(entry.category)) continue;
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

int CkyChart::bestLogicalFormCount() const {
  if (roots_.empty()) return 0;
  const int topIdx = cellIndex(0, length());
  std::vector<double> scores(roots_.size());
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    const ChartEntry& entry = cells_[topIdx].entries[roots_[r].first];
    scores[r] = entry.viterbi + (roots_[r].second - entry.inside);
    best = std::max(best, scores[r]);
  }
  const double tolerance = kTieTolerance * std::max(1.0, std::fabs(best));
  std::vector<const Term*> keys;
  for (std::size_t r = 0; r < roots_.size(); ++r) {
    if (scores[r] < best - tolerance) continue;
    const Term& key = cells_[topIdx].entries[roots_[r].first].key;
    const bool seen = std::any_of(keys.begin(), keys.end(), [&](const Term* other) {
      return structurallyEqual(*other, key);
    });
    if (!seen) keys.push_back(&key);
  }
  return static_cast<int>(keys.size());
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
