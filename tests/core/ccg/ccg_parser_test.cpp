#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "ccg_oracle.h"
#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lexicon.h"

namespace gwb::ccg {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double logSumExp(const std::vector<double>& values) {
  double high = kNegInf;
  for (double v : values) high = std::max(high, v);
  if (high == kNegInf) return kNegInf;
  double sum = 0;
  for (double v : values) sum += std::exp(v - high);
  return high + std::log(sum);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

const char* kGeoLexicon =
    "lexeme 0 what :-\n"
    "lexeme 0 states :- state:t\n"
    "lexeme 0 border :- next_to:t\n"
    "lexeme 1 texas :- texas:s\n"
    "template 0 S/(S|NP) : (lambda $0 <e,t> $0)\n"
    "template 0 S|NP : (lambda $0 e (#0 $0))\n"
    "template 0 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))\n"
    "template 0 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))\n"
    "template 0 NP : #0\n";

// Types for kGeoLexicon, so that only well-typed pairs make entries (texas is no S|NP).
const TypeSystem& geoTypes() {
  static const TypeSystem types =
      readTypeSystem("(lo (s lo))", "t", "((state:t s t) (next_to:t s s t))", "l").types;
  return types;
}

TEST(CcgParserTest, ParsesAGeoQueryQuestion) {
  LexiconLoad load = readFactoredLexicon(kGeoLexicon, "geo");
  ASSERT_TRUE(load.diagnostics.empty());
  EXPECT_EQ(load.lexicon.buildEntries(&geoTypes()), 5u);
  CkyChart chart(load.lexicon, split("what states border texas"));
  ASSERT_TRUE(chart.hasParse());
  const std::vector<Derivation> best = chart.kBest(1);
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(toString(best[0].logicalForm),
            "(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))");
  EXPECT_TRUE(exactMatch(best[0].logicalForm,
                         parseTerm("(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))")));
  EXPECT_NEAR(chart.logProbability(best[0].logicalForm), std::log(1.0), 1e-12)
      << "the only meaning";
  EXPECT_EQ(derivationToString(best[0].root, load.lexicon, chart.words()),
            "0-4 S : (lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))  [>]\n"
            "  0-1 S/(S|NP) : (lambda $0 <e,t> $0)  [lex \"what\" what :- | S/(S|NP) : (lambda $0 "
            "<e,t> $0)]\n"
            "  1-4 S|NP : (lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))  [>]\n"
            "    1-2 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (state:t $1) ($0 $1))))  "
            "[lex \"states\" states :- state:t | (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e "
            "(and (#0 $1) ($0 $1))))]\n"
            "    2-4 S|NP : (lambda $0 e (next_to:t $0 texas:s))  [>]\n"
            "      2-3 (S|NP)/NP : (lambda $0 e (lambda $1 e (next_to:t $1 $0)))  [lex \"border\" "
            "border :- next_to:t | (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))]\n"
            "      3-4 NP : texas:s  [lex \"texas\" texas :- texas:s | NP : #0]\n");
}

// In the whole sentence's cell, an entry that is no root (here the NP of a two-word lexeme) is
// in no parse: it must not take the beam's place from the S that is one.
TEST(CcgParserTest, NonRootEntriesOfTheSentenceCellDoNotFillTheBeam) {
  LexiconLoad load = readFactoredLexicon(
      "lexeme 0 states :- state:t\n"
      "lexeme 0 texas :- texas:s\n"
      "lexeme 5 states texas :- texas:s\n"
      "template 0 S/NP : (lambda $0 e (#0 $0))\n"
      "template 0 NP : #0\n",
      "roots");
  ASSERT_TRUE(load.diagnostics.empty());
  load.lexicon.buildEntries(&geoTypes());
  CkyOptions options;
  options.types = &geoTypes();
  options.beam = 1;
  CkyChart chart(load.lexicon, split("states texas"), options);
  ASSERT_TRUE(chart.hasParse());
  EXPECT_EQ(toString(chart.kBest(1).front().logicalForm), "(state:t texas:s)");
  EXPECT_NEAR(chart.logProbability(parseTerm("(state:t texas:s)")), 0.0, 1e-12);
  // The NP is still in the cell, pruned; with any root category it is a parse and wins the beam.
  const ChartCell& top = chart.cell(0, 2);
  ASSERT_EQ(top.entries.size(), 2u);
  for (const ChartEntry& entry : top.entries) {
    EXPECT_EQ(entry.pruned, toString(entry.category) == "NP");
  }
  options.rootCategories.clear();
  CkyChart any(load.lexicon, split("states texas"), options);
  ASSERT_TRUE(any.hasParse());
  EXPECT_EQ(toString(any.kBest(1).front().logicalForm), "texas:s");
}

// With a type system, combinations must type-check: categories alone let an <e,t> (a question's
// S) fill the t slot of `not`, giving the ill-formed (not (lambda $0 e ...)). Entries that keep
// only the constants of a given set (a learner's chart of one logical form) are the others.
TEST(CcgParserTest, TypedCombinationsAndAllowedConstants) {
  LexiconLoad load = readFactoredLexicon(
      "lexeme 0 states :- state:t\n"
      "lexeme 0 not :-\n"
      "lexeme 0 texas :- texas:s\n"
      "template 0 S : (lambda $0 e (#0 $0))\n"
      "template 0 S\\S : (lambda $0 t (not $0))\n"
      "template 0 S : (state:t #0)\n",
      "typed");
  ASSERT_TRUE(load.diagnostics.empty());
  load.lexicon.buildEntries(&geoTypes());
  CkyOptions untyped;
  CkyChart loose(load.lexicon, split("states not"), untyped);
  ASSERT_TRUE(loose.hasParse());
  EXPECT_EQ(toString(loose.kBest(1).front().logicalForm), "(not (lambda $0 e (state:t $0)))");
  CkyOptions typed;
  typed.types = &geoTypes();
  EXPECT_FALSE(CkyChart(load.lexicon, split("states not"), typed).hasParse());
  // A well-typed combination still goes through.
  CkyChart good(load.lexicon, split("texas not"), typed);
  ASSERT_TRUE(good.hasParse());
  EXPECT_EQ(toString(good.kBest(1).front().logicalForm), "(not (state:t texas:s))");
  typed.allowedConstants = std::make_shared<const std::unordered_set<std::string>>(
      std::unordered_set<std::string>{"state:t"});
  EXPECT_FALSE(CkyChart(load.lexicon, split("texas not"), typed).hasParse());
}

TEST(CcgParserTest, EventsReplayTheFill) {
  LexiconLoad load = readFactoredLexicon(kGeoLexicon, "geo");
  load.lexicon.buildEntries(&geoTypes());
  CkyOptions options;
  options.beam = 2;
  CkyChart chart(load.lexicon, split("what states border texas"), options);
  std::map<int, int> added;
  std::map<std::pair<int, int>, int> edges;
  std::map<int, int> pruned;
  std::vector<int> cellOrder;
  int open = -1;
  for (const ChartEvent& event : chart.events()) {
    switch (event.kind) {
      case ChartEvent::Kind::CellStarted:
        EXPECT_EQ(open, -1);
        open = event.cell;
        cellOrder.push_back(event.cell);
        break;
      case ChartEvent::Kind::EntryAdded:
        EXPECT_EQ(event.cell, open);
        EXPECT_EQ(event.entry, added[event.cell]++) << "entries are numbered as they come";
        edges[{event.cell, event.entry}]++;
        break;
      case ChartEvent::Kind::EdgeAdded:
        EXPECT_EQ(event.edge, (edges[{event.cell, event.entry}]++));
        break;
      case ChartEvent::Kind::EntryPruned: pruned[event.cell]++; break;
      case ChartEvent::Kind::CellFinished:
        EXPECT_EQ(event.cell, open);
        open = -1;
        break;
    }
  }
  EXPECT_EQ(cellOrder.size(), 10u);  // 4 + 3 + 2 + 1 cells, by increasing span
  for (int c : cellOrder) {
    const ChartCell& cell = chart.cellAt(c);
    EXPECT_EQ(added[c], static_cast<int>(cell.entries.size()));
    int prunedHere = 0;
    for (std::size_t e = 0; e < cell.entries.size(); ++e) {
      EXPECT_EQ((edges[{c, static_cast<int>(e)}]), static_cast<int>(cell.entries[e].edges.size()));
      prunedHere += cell.entries[e].pruned ? 1 : 0;
    }
    EXPECT_EQ(pruned[c], prunedHere);
    EXPECT_LE(static_cast<int>(cell.entries.size()) - prunedHere, 2);
  }
}

TEST(CcgParserTest, WordSkippingIsOffByDefaultAndCostsPerWord) {
  LexiconLoad load = readFactoredLexicon(std::string(kGeoLexicon) + "feature -2 skip\n", "geo");
  load.lexicon.buildEntries(&geoTypes());
  const std::vector<std::string> words = split("please what states border the texas");
  EXPECT_FALSE(CkyChart(load.lexicon, words).hasParse());
  CkyOptions options;
  options.skipWords = true;
  CkyChart chart(load.lexicon, words, options);
  ASSERT_TRUE(chart.hasParse());
  const auto best = chart.kBest(1);
  EXPECT_EQ(toString(best[0].logicalForm),
            "(lambda $0 e (and (state:t $0) (next_to:t $0 texas:s)))");
  // texas (1) + two skipped words (-2 each).
  EXPECT_DOUBLE_EQ(best[0].score, 1.0 - 4.0);
  // E[skip] over every derivation (fewer skips are likelier, but others remain).
  double expectedSkips = 0;
  double totalProbability = 0;
  for (const Derivation& d : chart.kBest(100000)) {
    int skipped = 0;
    std::vector<const DerivationNode*> stack = {&d.root};
    while (!stack.empty()) {
      const DerivationNode* node = stack.back();
      stack.pop_back();
      if (node->lexeme >= 0) {
        skipped += (node->end - node->begin) -
                   static_cast<int>(load.lexicon.lexemes()[node->lexeme].words.size());
        EXPECT_EQ(node->combinator == Combinator::Skip, node->end - node->begin > 1);
      }
      for (const auto& child : node->children) stack.push_back(&child);
    }
    expectedSkips += std::exp(d.logProbability) * skipped;
    totalProbability += std::exp(d.logProbability);
  }
  EXPECT_NEAR(totalProbability, 1.0, 1e-12);
  EXPECT_NEAR(chart.expectations().at("skip"), expectedSkips, 1e-12);
  EXPECT_GT(expectedSkips, 2.0);
  // Without a `skip` weight in the lexicon a skipped word costs CkyOptions::defaultSkipWeight.
  LexiconLoad plain = readFactoredLexicon(kGeoLexicon, "geo");
  plain.lexicon.buildEntries(&geoTypes());
  EXPECT_DOUBLE_EQ(CkyChart(plain.lexicon, words, options).kBest(1).at(0).score, 1.0 - 2.0);
  options.defaultSkipWeight = -3;
  EXPECT_DOUBLE_EQ(CkyChart(plain.lexicon, words, options).kBest(1).at(0).score, 1.0 - 6.0);
}

// ---------------------------------------------------------------------------------------------
// Against the brute-force oracle.

struct PoolItem {
  const char* category;
  const char* semantics;
};

const PoolItem kPool[] = {
    {"NP", "x1:e"},
    {"NP", "x2:e"},
    {"N", "(lambda $0 e (p:t $0))"},
    {"N", "(lambda $0 e (q:t $0))"},
    {"S\\NP", "(lambda $0 e (r:t $0))"},
    {"S|NP", "(lambda $0 e (u:t $0))"},
    {"(S\\NP)/NP", "(lambda $0 e (lambda $1 e (rel:t $1 $0)))"},
    {"NP/N", "(lambda $0 <e,t> (the $1 ($0 $1)))"},
    {"N/N", "(lambda $0 <e,t> (lambda $1 e (and (big:t $1) ($0 $1))))"},
    {"N\\N", "(lambda $0 <e,t> (lambda $1 e (and ($0 $1) (near:t $1))))"},
    {"S/S", "(lambda $0 t (not $0))"},
    {"S\\S", "(lambda $0 t (and $0 (w:t x1:e)))"},
    {"S/NP", "(lambda $0 e (v:t $0))"},
    {"S/(S|NP)", "(lambda $0 <e,t> (exists $1 ($0 $1)))"},
};

struct RandomCase {
  FactoredLexicon lexicon;
  std::vector<std::string> words;
  bool composition = true;
  std::vector<std::string> roots;
};

RandomCase makeRandomCase(unsigned seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::uniform_real_distribution<double> weight(-1.0, 1.0);
  RandomCase c;
  const std::vector<std::string> vocabulary = {"a", "b", "c"};
  const int poolSize = static_cast<int>(sizeof kPool / sizeof kPool[0]);
  auto addItem = [&](const std::vector<std::string>& words, const PoolItem& item) {
    Lexeme lexeme;
    LexicalTemplate lexicalTemplate;
    maximalFactoring(words, parseCategory(item.category), parseTerm(item.semantics), &lexeme,
                     &lexicalTemplate);
    const int l = c.lexicon.addLexeme(lexeme);
    const int t = c.lexicon.addTemplate(lexicalTemplate);
    c.lexicon.setWeight(lexemeFeature(c.lexicon.lexemes()[l]), weight(rng));
    c.lexicon.setWeight(templateFeature(c.lexicon.templates()[t]), weight(rng));
    c.lexicon.setWeight(pairFeature(c.lexicon.lexemes()[l], c.lexicon.templates()[t]), weight(rng));
  };
  for (const std::string& word : vocabulary) {
    const int items = 1 + uniform(3);
    for (int i = 0; i < items; ++i) addItem({word}, kPool[uniform(poolSize)]);
  }
  if (uniform(2) == 0) addItem({"a", "b"}, kPool[uniform(poolSize)]);
  // The same lexical item from a second (lexeme, template) pair: a template with content.
  if (uniform(2) == 0) {
    Lexeme empty;
    empty.words = {"b"};
    const int l = c.lexicon.addLexeme(empty);
    LexicalTemplate content;
    content.category = parseCategory("N");
    content.semantics = parseTerm("(lambda $0 e (p:t $0))");
    const int t = c.lexicon.addTemplate(content);
    c.lexicon.setWeight(lexemeFeature(c.lexicon.lexemes()[l]), weight(rng));
    c.lexicon.setWeight(templateFeature(c.lexicon.templates()[t]), weight(rng));
    addItem({"b"}, {"N", "(lambda $0 e (p:t $0))"});
  }
  const int length = 1 + uniform(5);
  for (int i = 0; i < length; ++i) c.words.push_back(vocabulary[uniform(3)]);
  c.composition = uniform(4) != 0;
  if (uniform(3) == 0) c.roots = {"S"};
  c.lexicon.buildEntries(nullptr);
  return c;
}

std::vector<testing::CcgOracleItem> oracleItems(const FactoredLexicon& lexicon,
                                                const std::vector<std::string>& words) {
  std::vector<testing::CcgOracleItem> items;
  std::vector<std::string> phrases;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string phrase;
    for (std::size_t j = i; j < words.size(); ++j) {
      phrase += (j > i ? " " : "") + words[j];
      if (std::find(phrases.begin(), phrases.end(), phrase) == phrases.end()) {
        phrases.push_back(phrase);
      }
    }
  }
  for (const std::string& phrase : phrases) {
    for (const LexicalEntry& entry : lexicon.entriesFor(phrase)) {
      testing::CcgOracleItem item;
      item.words = split(phrase);
      item.category = toString(entry.category);
      item.semantics = entry.semantics;
      const Lexeme& lexeme = lexicon.lexemes()[entry.lexeme];
      const LexicalTemplate& lexicalTemplate = lexicon.templates()[entry.lexicalTemplate];
      item.features[lexemeFeature(lexeme)] += 1.0;
      item.features[templateFeature(lexicalTemplate)] += 0.1;
      item.features[pairFeature(lexeme, lexicalTemplate)] += 1.0;
      items.push_back(std::move(item));
    }
  }
  return items;
}

TEST(CcgParserTest, AgreesWithBruteForceEnumeration) {
  int parsed = 0;
  int ambiguous = 0;
  int composed = 0;
  for (unsigned seed = 1; seed <= 150; ++seed) {
    RandomCase c = makeRandomCase(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    testing::CcgOracleOptions oracleOptions;
    oracleOptions.composition = c.composition;
    oracleOptions.roots = c.roots;
    oracleOptions.logicalFormFeatures = [](const Term& t) {
      const FeatureCounts f = logicalFormFeatures(t);
      return std::map<std::string, double>(f.begin(), f.end());
    };
    const auto items = oracleItems(c.lexicon, c.words);
    // Random weights for the logical-form features that can occur.
    std::mt19937 rng(seed * 7919u);
    std::uniform_real_distribution<double> weight(-1.0, 1.0);
    for (const auto& d : testing::enumerateCcgDerivations(c.words, items, oracleOptions)) {
      for (const auto& [name, value] : logicalFormFeatures(d.semantics)) {
        c.lexicon.setWeight(name, weight(rng));
      }
    }
    for (const auto& [name, value] : c.lexicon.weights()) oracleOptions.weights[name] = value;
    const auto derivations = testing::enumerateCcgDerivations(c.words, items, oracleOptions);

    CkyOptions options;
    options.beam = 0;  // no pruning: the chart must hold every derivation
    options.combinators.composition = c.composition;
    options.rootCategories = c.roots;
    CkyChart chart(c.lexicon, c.words, options);
    ASSERT_EQ(chart.hasParse(), !derivations.empty());
    if (derivations.empty()) continue;
    ++parsed;
    for (const auto& d : derivations) composed += d.tree.find("B ") != std::string::npos ? 1 : 0;

    // log Z.
    std::vector<double> scores;
    for (const auto& d : derivations) scores.push_back(d.score);
    const double logZ = logSumExp(scores);
    EXPECT_NEAR(chart.logPartition(), logZ, 1e-9);

    // Probabilities of logical forms, summed over derivations.
    std::vector<Term> forms;
    for (const auto& d : derivations) {
      bool seen = false;
      for (const Term& f : forms) seen = seen || exactMatch(f, d.semantics);
      if (!seen) forms.push_back(d.semantics);
    }
    ambiguous += derivations.size() > forms.size() ? 1 : 0;
    double total = 0;
    for (const Term& form : forms) {
      std::vector<double> mine;
      for (const auto& d : derivations) {
        if (exactMatch(d.semantics, form)) mine.push_back(d.score);
      }
      const double expected = logSumExp(mine) - logZ;
      EXPECT_NEAR(chart.logProbability(form), expected, 1e-9) << toString(form);
      total += std::exp(expected);

      // Conditional expectations E[φ | x, z].
      std::map<std::string, double> conditional;
      const double logZz = logSumExp(mine);
      for (const auto& d : derivations) {
        if (!exactMatch(d.semantics, form)) continue;
        for (const auto& [name, value] : d.features) {
          conditional[name] += std::exp(d.score - logZz) * value;
        }
      }
      const FeatureCounts got = chart.expectations(&form);
      for (const auto& [name, value] : conditional) {
        EXPECT_NEAR(got.count(name) ? got.at(name) : 0.0, value, 1e-9) << name;
      }
      for (const auto& [name, value] : got) {
        EXPECT_NEAR(conditional.count(name) ? conditional.at(name) : 0.0, value, 1e-9) << name;
      }
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_EQ(chart.logicalForms().size(), forms.size());

    // Unconditional expectations E[φ | x].
    std::map<std::string, double> expected;
    for (const auto& d : derivations) {
      for (const auto& [name, value] : d.features)
        expected[name] += std::exp(d.score - logZ) * value;
    }
    const FeatureCounts got = chart.expectations();
    for (const auto& [name, value] : expected) {
      EXPECT_NEAR(got.count(name) ? got.at(name) : 0.0, value, 1e-9) << name;
    }
    EXPECT_EQ(got.size(), expected.size());

    // k-best: the scores of the best derivations, in order, and the count of all.
    std::vector<double> sorted = scores;
    std::sort(sorted.rbegin(), sorted.rend());
    const int k = static_cast<int>(derivations.size()) + 3;
    const std::vector<Derivation> best = chart.kBest(k);
    ASSERT_EQ(best.size(), derivations.size());
    for (std::size_t i = 0; i < best.size(); ++i) {
      EXPECT_NEAR(best[i].score, sorted[i], 1e-9) << "rank " << i;
      // The derivation's own steps add up to its score (without the logical-form features).
      double sum = 0;
      std::vector<const DerivationNode*> stack = {&best[i].root};
      while (!stack.empty()) {
        const DerivationNode* node = stack.back();
        stack.pop_back();
        sum += node->localScore;
        for (const auto& child : node->children) stack.push_back(&child);
      }
      double lf = 0;
      for (const auto& [name, value] : logicalFormFeatures(best[i].logicalForm)) {
        lf += c.lexicon.weight(name) * value;
      }
      EXPECT_NEAR(sum + lf, best[i].score, 1e-9);
    }
    const std::vector<Derivation> top3 = chart.kBest(3);
    for (std::size_t i = 0; i < top3.size(); ++i) EXPECT_NEAR(top3[i].score, sorted[i], 1e-9);
  }
  // The random cases exercise what they should.
  EXPECT_GT(parsed, 50);
  EXPECT_GT(ambiguous, 10);
  EXPECT_GT(composed, 10);
  std::cout << parsed << " parsed, " << ambiguous << " ambiguous, " << composed
            << " composed derivations\n";
}

// d log Z / dθ_name by central finite differences (θ restored after).
double logPartitionSlope(RandomCase* c, const std::string& name, const CkyOptions& options) {
  const double h = 1e-6;
  const double original = c->lexicon.weight(name);
  c->lexicon.setWeight(name, original + h);
  const double up = CkyChart(c->lexicon, c->words, options).logPartition();
  c->lexicon.setWeight(name, original - h);
  const double down = CkyChart(c->lexicon, c->words, options).logPartition();
  c->lexicon.setWeight(name, original);
  return (up - down) / (2 * h);
}

// With a narrow beam the expectations are still the gradient of log Z over the pruned chart:
// checked by central finite differences.
TEST(CcgParserTest, PrunedExpectationsAreTheGradientOfLogZ) {
  int checked = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    RandomCase c = makeRandomCase(seed);
    CkyOptions options;
    options.beam = 2;
    options.rootCategories = c.roots;
    options.combinators.composition = c.composition;
    CkyChart chart(c.lexicon, c.words, options);
    if (!chart.hasParse()) continue;
    const FeatureCounts expected = chart.expectations();
    for (const auto& [name, value] : expected) {
      if (name.rfind("lexeme:", 0) != 0 && name.rfind("pair:", 0) != 0) continue;
      EXPECT_NEAR(logPartitionSlope(&c, name, options), value, 1e-5)
          << "seed " << seed << " " << name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

bool hasLexicalEdge(const ChartEntry& entry) {
  return std::any_of(entry.edges.begin(), entry.edges.end(),
                     [](const ChartEdge& edge) { return edge.combinator == Combinator::Lexical; });
}

struct BeamCellCounts {
  int cells = 0;
  int lexicalSaved = 0;       // lexical entries the plain beam prunes
  int rankedDifferently = 0;  // neighbouring entries that inside and Viterbi order differently
};

// Checks the beam discipline of `chart` (keepLexicalEntries on, `ranking`) cell by cell, and
// counts what `plain` (inside ranking, lexical entries ranked too) does differently.
void checkBeamCells(const CkyChart& chart, const CkyChart& plain, const RandomCase& c, int beam,
                    BeamRanking ranking, BeamCellCounts* counts) {
  const int n = chart.length();
  const auto rank = [&](const ChartEntry& entry) {
    return ranking == BeamRanking::Viterbi ? entry.viterbi : entry.inside;
  };
  for (int begin = 0; begin < n; ++begin) {
    for (int end = begin + 1; end <= n; ++end) {
      const auto isDead = [&](const ChartEntry& entry) {
        return begin == 0 && end == n && !c.roots.empty() &&
               std::find(c.roots.begin(), c.roots.end(), toString(entry.category)) == c.roots.end();
      };
      int lexical = 0;
      int others = 0;
      int othersKept = 0;
      double lowestKept = std::numeric_limits<double>::infinity();
      double highestPruned = kNegInf;
      for (const ChartEntry& entry : chart.cell(begin, end).entries) {
        if (isDead(entry)) {
          EXPECT_TRUE(entry.pruned);
        } else if (hasLexicalEdge(entry)) {
          EXPECT_FALSE(entry.pruned) << "cell " << begin << "-" << end;
          ++lexical;
        } else if (entry.pruned) {
          ++others;
          highestPruned = std::max(highestPruned, rank(entry));
        } else {
          ++others;
          ++othersKept;
          lowestKept = std::min(lowestKept, rank(entry));
        }
      }
      EXPECT_EQ(othersKept, std::min(others, std::max(0, beam - lexical)))
          << "cell " << begin << "-" << end;
      EXPECT_GE(lowestKept, highestPruned) << "cell " << begin << "-" << end;
      ++counts->cells;
      for (const ChartEntry& entry : plain.cell(begin, end).entries) {
        if (hasLexicalEdge(entry) && entry.pruned && !isDead(entry)) ++counts->lexicalSaved;
      }
      const std::vector<ChartEntry>& entries = chart.cell(begin, end).entries;
      for (std::size_t e = 0; e + 1 < entries.size(); ++e) {
        const double byViterbi = entries[e].viterbi - entries[e + 1].viterbi;
        if (byViterbi * (entries[e].inside - entries[e + 1].inside) < 0)
          ++counts->rankedDifferently;
      }
    }
  }
}

// UBL's beam discipline (CkyOptions::beamRanking, keepLexicalEntries): in every cell of random
// grammars, every entry the lexicon gives is kept, the others keep the places the lexical ones
// leave, and each kept one ranks (by Viterbi or inside score) at least as high as each pruned
// one; the expectations stay the gradient of log Z over the chart so pruned.
TEST(CcgParserTest, BeamByViterbiKeepingLexicalEntries) {
  BeamCellCounts counts;
  for (unsigned seed = 1; seed <= 80; ++seed) {
    RandomCase c = makeRandomCase(seed);
    for (int beam : {1, 2}) {
      for (BeamRanking ranking : {BeamRanking::Viterbi, BeamRanking::Inside}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", beam " + std::to_string(beam));
        CkyOptions options;
        options.beam = beam;
        options.rootCategories = c.roots;
        options.combinators.composition = c.composition;
        options.beamRanking = ranking;
        options.keepLexicalEntries = true;
        CkyOptions plainOptions = options;
        plainOptions.keepLexicalEntries = false;
        plainOptions.beamRanking = BeamRanking::Inside;
        const CkyChart chart(c.lexicon, c.words, options);
        checkBeamCells(chart, CkyChart(c.lexicon, c.words, plainOptions), c, beam, ranking,
                       &counts);
        if (!chart.hasParse()) continue;
        for (const auto& [name, value] : chart.expectations()) {
          // The beam's choice may flip at θ ± h only where two entries tie; random weights
          // make that vanishingly rare.
          if (name.rfind("lexeme:", 0) == 0) {
            EXPECT_NEAR(logPartitionSlope(&c, name, options), value, 1e-5) << name;
          }
        }
      }
    }
  }
  EXPECT_GT(counts.cells, 1000);
  EXPECT_GT(counts.lexicalSaved, 20) << "lexical entries the plain beam prunes";
  EXPECT_GT(counts.rankedDifferently, 20) << "neighbours inside and Viterbi order differently";
}

// Dropping what pruned entries hold, or not recording the fill's events, changes none of the
// numbers.
TEST(CcgParserTest, DroppingPrunedEntriesKeepsEveryResult) {
  int pruned = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    RandomCase c = makeRandomCase(seed);
    CkyOptions options;
    options.beam = 2;
    options.rootCategories = c.roots;
    options.combinators.composition = c.composition;
    CkyChart kept(c.lexicon, c.words, options);
    options.keepPrunedEntries = false;
    CkyChart dropped(c.lexicon, c.words, options);
    options.recordEvents = false;
    CkyChart silent(c.lexicon, c.words, options);
    EXPECT_TRUE(silent.events().empty());
    std::size_t steps = 0;
    for (const ChartEvent& event : kept.events()) {
      steps +=
          event.kind == ChartEvent::Kind::EntryAdded || event.kind == ChartEvent::Kind::EdgeAdded
              ? 1
              : 0;
    }
    EXPECT_EQ(kept.edgesMade(), steps);
    EXPECT_EQ(silent.edgesMade(), steps);
    ASSERT_EQ(kept.hasParse(), dropped.hasParse());
    ASSERT_EQ(kept.hasParse(), silent.hasParse());
    EXPECT_EQ(kept.entryCount(), dropped.entryCount());
    for (int b = 0; b < dropped.length(); ++b) {
      for (int e = b + 1; e <= dropped.length(); ++e) {
        for (const ChartEntry& entry : dropped.cell(b, e).entries) {
          if (!entry.pruned) continue;
          ++pruned;
          EXPECT_TRUE(entry.edges.empty() && !entry.semantics);
        }
      }
    }
    if (!kept.hasParse()) continue;
    EXPECT_EQ(kept.logPartition(), dropped.logPartition());
    EXPECT_EQ(kept.logPartition(), silent.logPartition());
    EXPECT_EQ(kept.expectations(), dropped.expectations());
    EXPECT_EQ(kept.expectations(), silent.expectations());
    const auto a = kept.kBest(5);
    const auto b = dropped.kBest(5);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].score, b[i].score);
  }
  EXPECT_GT(pruned, 20);
}

// Two charts filled the same way: every cell's entries (category, meaning, pruned, scores and
// derivation steps), the roots, logZ, the expectations and the k best.
void expectSameCharts(const CkyChart& a, const CkyChart& b) {
  ASSERT_EQ(a.length(), b.length());
  EXPECT_EQ(a.edgesMade(), b.edgesMade());
  for (int begin = 0; begin < a.length(); ++begin) {
    for (int end = begin + 1; end <= a.length(); ++end) {
      const ChartCell& x = a.cell(begin, end);
      const ChartCell& y = b.cell(begin, end);
      ASSERT_EQ(x.entries.size(), y.entries.size());
      for (std::size_t e = 0; e < x.entries.size(); ++e) {
        const ChartEntry& p = x.entries[e];
        const ChartEntry& q = y.entries[e];
        EXPECT_EQ(toString(p.category), toString(q.category));
        EXPECT_EQ(p.pruned, q.pruned);
        EXPECT_EQ(p.semantics ? toString(p.semantics) : "",
                  q.semantics ? toString(q.semantics) : "");
        EXPECT_EQ(p.inside, q.inside);
        EXPECT_EQ(p.viterbi, q.viterbi);
        EXPECT_EQ(p.edges.size(), q.edges.size());
      }
    }
  }
  EXPECT_EQ(a.roots(), b.roots());
  EXPECT_EQ(a.logPartition(), b.logPartition());
  if (!a.hasParse()) return;
  EXPECT_EQ(a.expectations(), b.expectations());
  const auto x = a.kBest(5);
  const auto y = b.kBest(5);
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].score, y[i].score);
    EXPECT_EQ(toString(x[i].logicalForm), toString(y[i].logicalForm));
  }
}

// The parser options of a random case at a beam.
CkyOptions randomCaseOptions(const RandomCase& c, int beam) {
  CkyOptions options;
  options.beam = beam;
  options.rootCategories = c.roots;
  options.combinators.composition = c.composition;
  return options;
}

// A fill cache shared by charts one after another changes nothing: one cache through 60 random
// grammars, sentences, beams, root categories and combinator options (each change of the last two
// empties it), every chart the same as one filled alone.
TEST(CcgParserTest, ASharedFillCacheChangesNoResult) {
  CkyFillCache cache;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    RandomCase c = makeRandomCase(seed);
    for (int beam : {2, 0}) {
      const CkyOptions options = randomCaseOptions(c, beam);
      const CkyChart alone(c.lexicon, c.words, options);
      const CkyChart shared(c.lexicon, c.words, options, &cache);
      expectSameCharts(alone, shared);
    }
  }
  EXPECT_GT(cache.meanings(), 0u);
}

// Compacting the fill's term store (CkyOptions::compactTermsAbove) after every cell changes no
// chart: 60 random grammars and sentences, beams 2 and unbounded, alone and through one shared
// cache, against fills that never compact; and it does compact (the cache holds fewer terms).
TEST(CcgParserTest, CompactingTheTermStoreAfterEveryCellChangesNoResult) {
  CkyFillCache compacting;
  CkyFillCache growing;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    RandomCase c = makeRandomCase(seed);
    for (int beam : {2, 0}) {
      CkyOptions never = randomCaseOptions(c, beam);
      never.compactTermsAbove = 0;
      CkyOptions always = never;
      always.compactTermsAbove = 1;
      const CkyChart reference(c.lexicon, c.words, never);
      expectSameCharts(reference, CkyChart(c.lexicon, c.words, always));
      expectSameCharts(reference, CkyChart(c.lexicon, c.words, always, &compacting));
      expectSameCharts(reference, CkyChart(c.lexicon, c.words, never, &growing));
    }
  }
  EXPECT_GT(compacting.meanings(), 0U);
  EXPECT_LT(compacting.meanings(), growing.meanings());
}

// The same on a learner's typed charts of a Geo sentence, with root types, through one cache.
TEST(CcgParserTest, CompactingTheTermStoreChangesNoTypedChart) {
  LexiconLoad load = readFactoredLexicon(kGeoLexicon, "geo");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  FactoredLexicon lexicon = load.lexicon;
  lexicon.buildEntries(&geoTypes());
  const std::vector<std::string> words = split("what states border texas");
  CkyOptions never;
  never.types = &geoTypes();
  never.compactTermsAbove = 0;
  CkyOptions always = never;
  always.compactTermsAbove = 1;
  CkyFillCache cache;
  expectSameCharts(CkyChart(lexicon, words, never), CkyChart(lexicon, words, always, &cache));
  never.allowedConstants = std::make_shared<const std::unordered_set<std::string>>(
      std::unordered_set<std::string>{"state:t", "next_to:t", "texas:s"});
  always.allowedConstants = never.allowedConstants;
  expectSameCharts(CkyChart(lexicon, words, never), CkyChart(lexicon, words, always, &cache));
}

// A learner's sequence on one sentence: the chart of x, the chart of z's constants, the chart of
// x again with a lexeme added, all typed, through one cache; the second and third find what the
// first computed (the cache grows by less than a fill of its own).
TEST(CcgParserTest, ASharedFillCacheServesALearnersCharts) {
  LexiconLoad load = readFactoredLexicon(kGeoLexicon, "geo");
  ASSERT_FALSE(load.diagnostics.hasErrors());
  FactoredLexicon lexicon = load.lexicon;
  lexicon.buildEntries(&geoTypes());
  const std::vector<std::string> words = split("what states border texas");
  CkyOptions full;
  full.types = &geoTypes();
  CkyOptions ofZ = full;
  ofZ.allowedConstants = std::make_shared<const std::unordered_set<std::string>>(
      std::unordered_set<std::string>{"state:t", "next_to:t", "texas:s"});
  CkyFillCache cache;
  expectSameCharts(CkyChart(lexicon, words, full), CkyChart(lexicon, words, full, &cache));
  const std::size_t afterFirst = cache.meanings();
  expectSameCharts(CkyChart(lexicon, words, ofZ), CkyChart(lexicon, words, ofZ, &cache));
  EXPECT_EQ(cache.meanings(), afterFirst);  // a subset of the first fill's combinations
  const int lexemes = static_cast<int>(lexicon.lexemes().size());
  const int templates = static_cast<int>(lexicon.templates().size());
  lexicon.addLexeme({{"border"}, {"state:t"}});
  lexicon.addEntries(&geoTypes(), lexemes, templates);
  expectSameCharts(CkyChart(lexicon, words, full), CkyChart(lexicon, words, full, &cache));
  EXPECT_GT(cache.meanings(), afterFirst);
}

}  // namespace
}  // namespace gwb::ccg
