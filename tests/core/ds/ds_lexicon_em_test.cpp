#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "gwb/ds/lexicon_em.h"
#include "gwb/ds/lexicon_learner.h"
#include "shared_data.h"

namespace gwb::ds {
namespace {

// An example from explicit tuples of hypothesis names (the name is both key and action).
ExampleHypotheses example(std::vector<std::string> words,
                          const std::vector<std::vector<std::string>>& tuples) {
  ExampleHypotheses ex;
  ex.words = std::move(words);
  for (const std::vector<std::string>& t : tuples) {
    std::vector<std::size_t> indices;
    for (const std::string& name : t) {
      std::size_t i = 0;
      while (i < ex.hypotheses.size() && ex.hypotheses[i].key != name) ++i;
      if (i == ex.hypotheses.size()) ex.hypotheses.push_back({name, name});
      indices.push_back(i);
    }
    ex.tuples.push_back(indices);
  }
  return ex;
}

double probabilityOf(const IncrementalEm& em, const std::string& word, const std::string& key) {
  for (const LearnedHypothesis& h : em.hypotheses())
    if (h.word == word && h.key == key) return h.probability;
  return -1;
}

TEST(DsLexiconEmTest, CanonicalKeysIgnoreLabelNames) {
  const struct {
    const char* a;
    const char* b;
    bool same;
  } cases[] = {
      {"ttrput([x==john : e|head==x : e])", "ttrput([x5==john : e|head==x5 : e])", true},
      {"ttrput(R1^(R1 ++ [e1==go : es|p2==subj(e1, R1.head) : t|head==e1 : es]))",
       "ttrput(R^(R ++ [e7==go : es|p==subj(e7, R.head) : t|head==e7 : es]))", true},
      // The pattern of names matters: x, x is not x, y.
      {"f(x1, x1)", "f(x1, x2)", false},
      {"ttrput([x==john : e|head==x : e])", "ttrput([x==mary : e|head==x : e])", false},
      // head and atoms are kept, and so are the type names e and t.
      {"g(head, john)", "g(x, john)", false},
      {"put(ty(e)) put(fo(x))", "put(ty(e2)) put(fo(x))", false},
  };
  for (const auto& c : cases)
    EXPECT_EQ(canonicalHypothesisKey(c.a) == canonicalHypothesisKey(c.b), c.same)
        << c.a << " / " << c.b << ": " << canonicalHypothesisKey(c.a) << " / "
        << canonicalHypothesisKey(c.b);
}

// Eqs. 2–4 by hand, held-out mass 0.2.
//   item 1 "a b": tuples (A1, B1), (A2, B1). New words: θ'_a = 1/2, 1/2; θ'_b(B1) = 1. Both
//   tuples have p = 1/2, so θ''_a = 1/2, 1/2 and θ''_b(B1) = 1; N_a = N_b = 1: θ = θ''.
//   item 2 "a c": tuples (A1, C1), (A3, C2). θ'_a(A1) = 0.8 · 1/2 = 0.4 (seen), θ'_a(A3) = 0.2
//   (the held-out mass, one unseen hypothesis); θ'_c = 1/2, 1/2. p = 0.2 and 0.1, so
//   θ''_a = A1 2/3, A3 1/3; θ''_c = C1 2/3, C2 1/3. N_a = 2:
//   θ_a(A1) = 1/2 · 1/2 + 1/2 · 2/3 = 7/12, θ_a(A2) = 1/4, θ_a(A3) = 1/6; θ_b is untouched.
TEST(DsLexiconEmTest, UpdatesAsEquationsTwoToFourSay) {
  IncrementalEm em(0.2);
  em.observe(example({"a", "b"}, {{"A1", "B1"}, {"A2", "B1"}}), 0);
  EXPECT_DOUBLE_EQ(probabilityOf(em, "a", "A1"), 0.5);
  EXPECT_DOUBLE_EQ(probabilityOf(em, "a", "A2"), 0.5);
  EXPECT_DOUBLE_EQ(probabilityOf(em, "b", "B1"), 1.0);
  const EmUpdate u = em.observe(example({"a", "c"}, {{"A1", "C1"}, {"A3", "C2"}}), 1);
  EXPECT_EQ(u.tuples, 2u);
  EXPECT_EQ(u.newHypotheses, 3u);  // A3, C1, C2
  EXPECT_NEAR(probabilityOf(em, "a", "A1"), 7.0 / 12, 1e-12);
  EXPECT_NEAR(probabilityOf(em, "a", "A2"), 0.25, 1e-12);
  EXPECT_NEAR(probabilityOf(em, "a", "A3"), 1.0 / 6, 1e-12);
  EXPECT_NEAR(probabilityOf(em, "c", "C1"), 2.0 / 3, 1e-12);
  EXPECT_NEAR(probabilityOf(em, "c", "C2"), 1.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(probabilityOf(em, "b", "B1"), 1.0);
  EXPECT_EQ(em.examplesWith("a"), 2);
  // Ids in order of first appearance: A1 0, B1 1, A2 2, C1 3, A3 4.
  EXPECT_EQ(em.ranked("a"), (std::vector<int>{0, 2, 4}));  // A1, A2, A3 by probability
  // Provenance: A1 came from both items, A3 from the second.
  EXPECT_EQ(em.hypotheses()[0].items, (std::vector<int>{0, 1}));
  EXPECT_EQ(em.hypotheses()[4].items, (std::vector<int>{1}));
  // An example without tuples changes nothing.
  EXPECT_TRUE(em.observe(example({"a"}, {}), 2).skipped);
  EXPECT_NEAR(probabilityOf(em, "a", "A1"), 7.0 / 12, 1e-12);
  EXPECT_EQ(em.examplesObserved(), 2u);
}

// A word occurring twice in a sentence: a tuple counts once for each distinct hypothesis.
TEST(DsLexiconEmTest, RepeatedWordCountsEachTupleOncePerHypothesis) {
  IncrementalEm em;
  em.observe(example({"a", "a"}, {{"A1", "A1"}, {"A1", "A2"}}), 0);
  // θ' = 1/2 each; p = 1/4, 1/4; mass A1 = 1/4 + 1/4, A2 = 1/4; Z = 3/4.
  EXPECT_NEAR(probabilityOf(em, "a", "A1"), 2.0 / 3, 1e-12);
  EXPECT_NEAR(probabilityOf(em, "a", "A2"), 1.0 / 3, 1e-12);
}

// A deterministic generator: word i's hypotheses depend on the word and the item.
ExampleHypotheses fakeHypotheses(const SemanticExample& ex, std::size_t item) {
  ExampleHypotheses h;
  h.words = splitWords(ex.sentence);
  const std::size_t n = h.words.size();
  for (std::size_t v = 0; v < 3; ++v) {
    std::vector<std::size_t> tuple;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string key = h.words[i] + "#" + std::to_string((i + v + item % 2) % 3);
      std::size_t k = 0;
      while (k < h.hypotheses.size() && h.hypotheses[k].key != key) ++k;
      if (k == h.hypotheses.size()) h.hypotheses.push_back({key, key});
      tuple.push_back(k);
    }
    h.tuples.push_back(tuple);
  }
  h.budgetHit = item == 3;
  if (h.budgetHit) h.note = "stopped at 3 tuples";
  return h;
}

std::vector<SemanticExample> fakeCorpus() {
  std::vector<SemanticExample> corpus;
  const char* sentences[] = {"you go", "you like it", "it goes",   "go",          "you like you",
                             "it",     "like it",     "you go go", "it likes you"};
  int line = 1;
  for (const char* s : sentences) {
    SemanticExample ex;
    ex.sentence = s;
    ex.line = line;
    line += 4;
    corpus.push_back(ex);
  }
  return corpus;
}

class CountingObserver : public LearningObserver {
 public:
  std::vector<LearningProgress> seen;
  void onItem(const LearningProgress& p, const SemanticExample& /*example*/,
              const ExampleHypotheses& /*hypotheses*/) override {
    seen.push_back(p);
  }
};

TEST(DsLexiconLearnerTest, SameLexiconForAnyThreadCount) {
  const std::vector<SemanticExample> corpus = fakeCorpus();
  LearningOptions options;
  options.threads = 1;
  const LearningResult serial = learnLexicon(corpus, fakeHypotheses, options);
  for (int threads : {2, 3}) {
    options.threads = threads;
    options.batch = 2;
    CountingObserver observer;
    const LearningResult parallel = learnLexicon(corpus, fakeHypotheses, options, &observer);
    ASSERT_EQ(parallel.em.hypotheses().size(), serial.em.hypotheses().size());
    for (std::size_t i = 0; i < serial.em.hypotheses().size(); ++i) {
      EXPECT_EQ(parallel.em.hypotheses()[i].key, serial.em.hypotheses()[i].key);
      EXPECT_EQ(parallel.em.hypotheses()[i].probability, serial.em.hypotheses()[i].probability);
      EXPECT_EQ(parallel.em.hypotheses()[i].items, serial.em.hypotheses()[i].items);
    }
    EXPECT_EQ(learnedLexiconText(parallel.em, 2), learnedLexiconText(serial.em, 2));
    // The observer sees every item, in order, with running counts.
    ASSERT_EQ(observer.seen.size(), corpus.size());
    for (std::size_t i = 0; i < corpus.size(); ++i) EXPECT_EQ(observer.seen[i].itemsDone, i + 1);
    EXPECT_EQ(observer.seen.back().hypotheses, serial.em.hypotheses().size());
    EXPECT_EQ(observer.seen.back().itemsOverBudget, 1u);
  }
  ASSERT_EQ(serial.notes.size(), 1u);
  EXPECT_EQ(serial.notes[0], "line 13 (go): stopped at 3 tuples");
  // Every word's distribution sums to one.
  for (const std::string& word : serial.em.words()) {
    double sum = 0;
    for (int id : serial.em.ranked(word))
      sum += serial.em.hypotheses()[static_cast<std::size_t>(id)].probability;
    EXPECT_NEAR(sum, 1.0, 1e-12) << word;
  }
}

TEST(DsLexiconLearnerTest, CancelKeepsTheUpdatesMadeSoFar) {
  const std::vector<SemanticExample> corpus = fakeCorpus();
  std::atomic<bool> cancel{false};
  LearningOptions options;
  options.batch = 2;
  options.cancel = &cancel;
  struct CancelAfterTwo : LearningObserver {
    std::atomic<bool>* cancel = nullptr;
    void onItem(const LearningProgress& p, const SemanticExample& /*example*/,
                const ExampleHypotheses& /*hypotheses*/) override {
      if (p.itemsDone == 2) *cancel = true;
    }
  } observer;
  observer.cancel = &cancel;
  const LearningResult r = learnLexicon(corpus, fakeHypotheses, options, &observer);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.progress.itemsDone, 2u);
  EXPECT_EQ(r.em.examplesObserved(), 2u);
}

// The top-N output is DyLan's learned-lexicon format: it reloads, and the top-1 lexicon
// parses with the grammar. Hypotheses are the toy grammar's real actions plus decoys (another
// word's action), proposed so that EM must prefer the right ones.
TEST(DsLexiconLearnerTest, TopNLexiconsReloadAndParse) {
  const std::string toy = testing::sourceDir() + "/tests/data/ds/toy";
  DsGrammarLoad load = loadDsGrammar(toy);
  ASSERT_TRUE(load.ok());
  auto actionOf = [&](const std::string& word) {
    return load.grammar.entries(word).at(0).action.toString();
  };
  std::vector<SemanticExample> corpus;
  for (const char* s : {"ann sleeps", "bob sleeps", "ann runs", "bob runs quietly"}) {
    SemanticExample ex;
    ex.sentence = s;
    corpus.push_back(ex);
  }
  auto generate = [&](const SemanticExample& ex, std::size_t /*item*/) {
    ExampleHypotheses h;
    h.words = splitWords(ex.sentence);
    // Right: every word its own action. Decoy: each name takes the other name's action.
    std::vector<std::size_t> right;
    std::vector<std::size_t> decoy;
    for (const std::string& w : h.words) {
      const std::string a = actionOf(w);
      h.hypotheses.push_back({canonicalHypothesisKey(a), a});
      right.push_back(h.hypotheses.size() - 1);
      if (w == "ann" || w == "bob") {
        const std::string other = actionOf(w == "ann" ? "bob" : "ann");
        h.hypotheses.push_back({canonicalHypothesisKey(other), other});
        decoy.push_back(h.hypotheses.size() - 1);
      } else {
        decoy.push_back(right.back());
      }
    }
    h.tuples = {right, decoy};
    return h;
  };
  const LearningResult learned = learnLexicon(corpus, generate, LearningOptions{});
  const std::string dir =
      (std::filesystem::temp_directory_path() / "gwb-ds-lexicon-learner-test").string();
  std::filesystem::create_directories(dir);
  std::string error;
  ASSERT_TRUE(writeLearnedLexicons(learned.em, dir, 2, &error)) << error;
  for (int top : {1, 2}) {
    Diagnostics diagnostics;
    std::vector<LexicalEntry> entries =
        loadLearnedLexicon(dir + "/lexicon.lex-top-" + std::to_string(top) + ".txt", diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << (diagnostics.empty() ? "" : toString(*diagnostics.begin()));
    // ann and bob have two hypotheses each; the others one.
    EXPECT_EQ(entries.size(), top == 1 ? 5u : 7u);
    DsGrammarLoad parsing = loadDsGrammar(toy);
    useLearnedLexicon(parsing.grammar, std::move(entries));
    const DsParser parser(parsing.grammar);
    const DsParseResult r = parser.parse("bob sleeps quietly");
    EXPECT_EQ(r.outcome, ParseOutcome::Parsed) << "top-" << top;
    ASSERT_NE(r.rootFormula, nullptr);
    EXPECT_NE(r.rootFormula->text().find("==bob"), std::string::npos) << r.rootFormula->text();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gwb::ds
