#include "gwb/grounded/social_grammar.h"

#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/topic_decoding.h"
#include "shared_data.h"

namespace gwb {
namespace {

// A rule as the Earleyx format writes it, without probability or prior: "T.dog->[PSEUDO.DOG X]".
std::string ruleKey(const Grammar& g, const Rule& rule) {
  std::string key = g.symbols().name(rule.lhs) + "->[";
  for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
    if (i > 0) key += ' ';
    if (g.symbols().isTerminal(rule.rhs[i])) key += '_';
    key += g.symbols().name(rule.rhs[i]);
  }
  return key + "]";
}

std::set<std::string> ruleKeys(const Grammar& g) {
  std::set<std::string> keys;
  for (const Rule& rule : g.rules()) keys.insert(ruleKey(g, rule));
  return keys;
}

std::string joinKeys(const std::set<std::string>& keys, std::size_t limit = 8) {
  std::string out;
  std::size_t n = 0;
  for (const std::string& k : keys) {
    if (n++ == limit) return out + " ...";
    out += (out.empty() ? "" : ", ") + k;
  }
  return out;
}

SocialCorpus tinyCorpus() {
  const SocialCorpusLoad load = readSocialCorpus(
      ".dog kid.eyes # .pig # ## the doggie\n.pig kid.eyes mom.eyes # ## a piggie\n## hi\n",
      "tiny");
  EXPECT_TRUE(load.ok());
  return load.corpus;
}

std::string earleyxText(const Grammar& g) {
  std::ostringstream out;
  EXPECT_TRUE(writeEarleyx(g, out));
  return out.str();
}

TEST(SocialGrammarTest, CueSelectionSyntax) {
  const std::vector<std::string> order = {"kid.eyes", "kid.hands", "mom.eyes"};
  struct Case {
    const char* text;
    std::vector<std::string> expected;
    const char* error;  // "" when it parses and selects
  };
  const Case cases[] = {
      {"all", order, ""},
      {"none", {}, ""},
      {"drop:kid.hands", {"kid.eyes", "mom.eyes"}, ""},
      {"only:mom.eyes", {"mom.eyes"}, ""},
      {"drop:", {}, "expected a cue name after 'drop:'"},
      {"some", {}, "expected all, none, drop:CUE or only:CUE, found 'some'"},
      {"only:mom.point",
       {},
       "unknown cue 'mom.point' (the corpus has: kid.eyes, kid.hands, "
       "mom.eyes)"},
  };
  for (const Case& c : cases) {
    std::string error;
    const auto selection = CueSelection::parse(c.text, &error);
    std::optional<std::vector<std::string>> cues;
    if (selection) {
      EXPECT_EQ(selection->text(), c.text);
      cues = selection->select(order, &error);
    }
    if (std::string(c.error).empty()) {
      ASSERT_TRUE(cues) << c.text << ": " << error;
      EXPECT_EQ(*cues, c.expected) << c.text;
    } else {
      EXPECT_FALSE(cues) << c.text;
      EXPECT_EQ(error, c.error);
    }
  }
}

TEST(SocialGrammarTest, TinyUnigramGrammarInFull) {
  SocialGrammarOptions options;
  options.cues = {"kid.eyes", "mom.eyes"};
  options.wordAlpha = 0.5;
  const SocialGrammarBuild build = generateSocialGrammar(tinyCorpus(), options);
  ASSERT_TRUE(build.ok());
  EXPECT_EQ(earleyxText(build.grammar),
            "1 Sentence->[Topic.None Words.None] : 0.3333333333333333\n"
            "1 Sentence->[Topic.dog Words.dog] : 0.3333333333333333\n"
            "1 Sentence->[Topic.pig Words.pig] : 0.3333333333333333\n"
            "1e+10 Topic.None->[_##] : 0.5\n"
            "1e+10 Topic.None->[T.None Topic.None] : 0.5\n"
            "1e+10 Topic.dog->[T.dog Topic.None] : 0.5\n"
            "1e+10 Topic.dog->[T.None Topic.dog] : 0.5\n"
            "1e+10 Topic.pig->[T.pig Topic.None] : 0.5\n"
            "1e+10 Topic.pig->[T.None Topic.pig] : 0.5\n"
            "1 T.dog->[PSEUDO.DOG Socials.Topical.kid.eyes] : 1\n"
            "1 T.None->[PSEUDO.DOG Socials.NotTopical.kid.eyes] : 0.5\n"
            "1 PSEUDO.DOG->[_.dog] : 1\n"
            "1 T.pig->[PSEUDO.PIG Socials.Topical.kid.eyes] : 1\n"
            "1 T.None->[PSEUDO.PIG Socials.NotTopical.kid.eyes] : 0.5\n"
            "1 PSEUDO.PIG->[_.pig] : 1\n"
            "1 Socials.Topical.kid.eyes->[PSEUDOKID.EYES Socials.Topical.mom.eyes] : 0.5\n"
            "1 Socials.Topical.kid.eyes->[Socials.Topical.mom.eyes] : 0.5\n"
            "1 Socials.Topical.mom.eyes->[PSEUDOMOM.EYES PSEUDO#] : 0.5\n"
            "1 Socials.Topical.mom.eyes->[_#] : 0.5\n"
            "1 Socials.NotTopical.kid.eyes->[PSEUDOKID.EYES Socials.NotTopical.mom.eyes] : 0.5\n"
            "1 Socials.NotTopical.kid.eyes->[Socials.NotTopical.mom.eyes] : 0.5\n"
            "1 Socials.NotTopical.mom.eyes->[PSEUDOMOM.EYES PSEUDO#] : 0.5\n"
            "1 Socials.NotTopical.mom.eyes->[_#] : 0.5\n"
            "1 PSEUDOKID.EYES->[_kid.eyes] : 1\n"
            "1 PSEUDOMOM.EYES->[_mom.eyes] : 1\n"
            "1 PSEUDO#->[_#] : 1\n"
            "1 Words.None->[Word.None] : 0.5\n"
            "1 Words.None->[Word.None Words.None] : 0.5\n"
            "1 Words.dog->[Word.dog] : 0.25\n"
            "1 Words.dog->[Word.None] : 0.25\n"
            "1 Words.dog->[Word.dog Words.dog] : 0.25\n"
            "1 Words.dog->[Word.None Words.dog] : 0.25\n"
            "1 Words.pig->[Word.pig] : 0.25\n"
            "1 Words.pig->[Word.None] : 0.25\n"
            "1 Words.pig->[Word.pig Words.pig] : 0.25\n"
            "1 Words.pig->[Word.None Words.pig] : 0.25\n"
            "1 Word.None->[_a] : 0.2\n"
            "1 Word.None->[_doggie] : 0.2\n"
            "1 Word.None->[_hi] : 0.2\n"
            "1 Word.None->[_piggie] : 0.2\n"
            "1 Word.None->[_the] : 0.2\n"
            "0.5 Word.dog->[_a] : 0.2\n"
            "0.5 Word.dog->[_doggie] : 0.2\n"
            "0.5 Word.dog->[_hi] : 0.2\n"
            "0.5 Word.dog->[_piggie] : 0.2\n"
            "0.5 Word.dog->[_the] : 0.2\n"
            "0.5 Word.pig->[_a] : 0.2\n"
            "0.5 Word.pig->[_doggie] : 0.2\n"
            "0.5 Word.pig->[_hi] : 0.2\n"
            "0.5 Word.pig->[_piggie] : 0.2\n"
            "0.5 Word.pig->[_the] : 0.2\n");
}

TEST(SocialGrammarTest, NoCuesLeaveObjectsWithoutEvidence) {
  SocialGrammarOptions options;  // no cues
  const SocialGrammarBuild build = generateSocialGrammar(tinyCorpus(), options);
  ASSERT_TRUE(build.ok());
  const std::set<std::string> keys = ruleKeys(build.grammar);
  EXPECT_TRUE(keys.count("T.dog->[PSEUDO.DOG PSEUDO#]"));
  EXPECT_TRUE(keys.count("T.None->[PSEUDO.PIG PSEUDO#]"));
  for (const std::string& k : keys) EXPECT_EQ(k.find("Socials"), std::string::npos) << k;
}

TEST(SocialGrammarTest, DiscourseLayer) {
  SocialGrammarOptions options;
  options.kind = SocialGrammarKind::Discourse;
  options.cues = {"kid.eyes"};
  options.transitionAlpha = 0.1;
  options.selfTransitionAlpha = 2.0;
  const SocialGrammarBuild build = generateSocialGrammar(tinyCorpus(), options);
  ASSERT_TRUE(build.ok());
  const Grammar& g = build.grammar;
  EXPECT_EQ(g.symbols().name(*g.start()), "Discourse");
  const std::string text = earleyxText(g);
  // 3 initial, 3 × (3 transitions + 1 ending), 3 Sentence.t rules on top.
  EXPECT_EQ(text.substr(0, text.find("1e+10 Topic.None")),
            "1 Discourse->[Discourse.None] : 0.3333333333333333\n"
            "1 Discourse->[Discourse.dog] : 0.3333333333333333\n"
            "1 Discourse->[Discourse.pig] : 0.3333333333333333\n"
            "2 Discourse.None->[Sentence.None Discourse.None] : 0.25\n"
            "0.1 Discourse.None->[Sentence.None Discourse.dog] : 0.25\n"
            "0.1 Discourse.None->[Sentence.None Discourse.pig] : 0.25\n"
            "1 Discourse.None->[Sentence.None] : 0.25\n"
            "0.1 Discourse.dog->[Sentence.dog Discourse.None] : 0.25\n"
            "2 Discourse.dog->[Sentence.dog Discourse.dog] : 0.25\n"
            "0.1 Discourse.dog->[Sentence.dog Discourse.pig] : 0.25\n"
            "1 Discourse.dog->[Sentence.dog] : 0.25\n"
            "0.1 Discourse.pig->[Sentence.pig Discourse.None] : 0.25\n"
            "0.1 Discourse.pig->[Sentence.pig Discourse.dog] : 0.25\n"
            "2 Discourse.pig->[Sentence.pig Discourse.pig] : 0.25\n"
            "1 Discourse.pig->[Sentence.pig] : 0.25\n"
            "1 Sentence.None->[Topic.None Words.None] : 1\n"
            "1 Sentence.dog->[Topic.dog Words.dog] : 1\n"
            "1 Sentence.pig->[Topic.pig Words.pig] : 1\n");
}

TEST(SocialGrammarTest, BadOptionsAreErrors) {
  SocialGrammarOptions options;
  options.wordAlpha = 0.0;
  options.cues = {"mom.point"};
  const SocialGrammarBuild build = generateSocialGrammar(tinyCorpus(), options);
  ASSERT_EQ(build.diagnostics.size(), 2u);
  EXPECT_EQ(toString(build.diagnostics.items()[0]),
            "error: the word prior must be a positive number");
  EXPECT_EQ(toString(build.diagnostics.items()[1]),
            "tiny: error: cue 'mom.point' does not occur in the corpus");
  EXPECT_FALSE(generateSocialGrammar(SocialCorpus{}, SocialGrammarOptions{}).ok());
}

// The generated grammars parse their own corpus, and the Viterbi tree decodes to one utterance
// per line (per recording for the discourse grammar).
TEST(SocialGrammarTest, GeneratedGrammarsParseTheirCorpus) {
  const SocialCorpus corpus = tinyCorpus();
  for (SocialGrammarKind kind : {SocialGrammarKind::Unigram, SocialGrammarKind::Discourse}) {
    for (const std::vector<std::string>& cues :
         {corpus.cueOrder, std::vector<std::string>{}, std::vector<std::string>{"mom.eyes"}}) {
      SocialGrammarOptions options;
      options.kind = kind;
      options.cues = cues;
      const SocialGrammarBuild build = generateSocialGrammar(corpus, options);
      ASSERT_TRUE(build.ok());
      Diagnostics diagnostics;
      const auto compiled = CompiledGrammar::compile(build.grammar, diagnostics);
      ASSERT_TRUE(compiled);
      EarleyParser parser(*compiled);
      std::vector<std::vector<std::string>> inputs;
      if (kind == SocialGrammarKind::Unigram) {
        for (const SocialUtterance& u : corpus.utterances) inputs.push_back(socialTokens(u, cues));
      } else {
        inputs.push_back(recordingTokens(corpus, wholeCorpusRecording(corpus)[0], cues));
      }
      std::size_t utterances = 0;
      for (const auto& input : inputs) {
        const ParseResult result = parser.parse(input);
        ASSERT_TRUE(result.success) << socialGrammarKindName(kind);
        utterances += decodeSocialTree(result.viterbiTree).size();
      }
      EXPECT_EQ(utterances, corpus.utterances.size());
    }
  }
}

class SharedSocialGrammarTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string path = testing::sharedPath("data/earleyx/data/socialall.ortho.yld");
    if (!testing::fileExists(path)) return;
    corpus_ = new SocialCorpusLoad(loadSocialCorpusFile(path));
  }
  static void TearDownTestSuite() {
    delete corpus_;
    corpus_ = nullptr;
  }
  static std::set<std::string> sharedRules(const std::string& path, const std::string& root) {
    GrammarReadOptions options;
    options.root = root;
    options.runChecks = false;
    const GrammarLoad load = loadGrammarFile(path, options);
    EXPECT_TRUE(load.ok());
    return ruleKeys(load.grammar);
  }
  static SocialCorpusLoad* corpus_;
};
SocialCorpusLoad* SharedSocialGrammarTest::corpus_ = nullptr;

TEST_F(SharedSocialGrammarTest, DiscourseGrammarHasExactlyTheRulesOfSocialDiscourse) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(grammarPath, "data/earleyx/grammars/socialDiscourse.grammar");
  ASSERT_TRUE(corpus_ && corpus_->ok());
  SocialGrammarOptions options;
  options.kind = SocialGrammarKind::Discourse;
  options.cues = corpus_->corpus.cueOrder;
  const SocialGrammarBuild build = generateSocialGrammar(corpus_->corpus, options);
  ASSERT_TRUE(build.ok());
  EXPECT_EQ(build.grammar.ruleCount(), 35764u);
  const std::set<std::string> expected = sharedRules(grammarPath, "Discourse");
  const std::set<std::string> generated = ruleKeys(build.grammar);
  std::set<std::string> missing;
  std::set<std::string> extra;
  for (const std::string& k : expected)
    if (!generated.count(k)) missing.insert(k);
  for (const std::string& k : generated)
    if (!expected.count(k)) extra.insert(k);
  EXPECT_TRUE(missing.empty()) << missing.size() << " missing: " << joinKeys(missing);
  EXPECT_TRUE(extra.empty()) << extra.size() << " extra: " << joinKeys(extra);
}

TEST_F(SharedSocialGrammarTest, UnigramGrammarIsTheDiscourseGrammarBelowItsTopLayer) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  GWB_REQUIRE_SHARED(discoursePath, "data/earleyx/grammars/socialDiscourse.grammar");
  GWB_REQUIRE_SHARED(unigramPath, "data/earleyx/grammars/unigram.grammar");
  ASSERT_TRUE(corpus_ && corpus_->ok());
  SocialGrammarOptions options;
  options.cues = corpus_->corpus.cueOrder;
  const SocialGrammarBuild build = generateSocialGrammar(corpus_->corpus, options);
  ASSERT_TRUE(build.ok());
  const std::set<std::string> generated = ruleKeys(build.grammar);

  // socialDiscourse.grammar without Discourse*, with Sentence.t -> X Y as Sentence -> X Y.
  std::set<std::string> expected;
  for (const std::string& k : sharedRules(discoursePath, "Discourse")) {
    if (k.rfind("Discourse", 0) == 0) continue;
    if (k.rfind("Sentence.", 0) == 0) {
      expected.insert("Sentence" + k.substr(k.find("->")));
      continue;
    }
    expected.insert(k);
  }
  EXPECT_EQ(generated, expected);

  // Every rule of unigram.grammar, plus the 332 Word.t and 2 Topic.t rules it lacks.
  const std::set<std::string> unigram = sharedRules(unigramPath, "Sentence");
  std::set<std::string> notGenerated;
  for (const std::string& k : unigram)
    if (!generated.count(k)) notGenerated.insert(k);
  EXPECT_TRUE(notGenerated.empty()) << joinKeys(notGenerated);
  std::size_t words = 0;
  std::set<std::string> others;
  for (const std::string& k : generated) {
    if (unigram.count(k)) continue;
    if (k.rfind("Word.", 0) == 0 && k.find("->[_") != std::string::npos) {
      ++words;
    } else {
      others.insert(k);
    }
  }
  EXPECT_EQ(words, 332u);
  EXPECT_EQ(others, (std::set<std::string>{"Topic.bear->[T.None Topic.bear]",
                                           "Topic.cheese->[T.None Topic.cheese]"}));
  EXPECT_EQ(build.grammar.ruleCount(), 34407u + 332u + 2u);
}

TEST_F(SharedSocialGrammarTest, PriorsFollowSection61) {
  GWB_REQUIRE_SHARED(corpusPath, "data/earleyx/data/socialall.ortho.yld");
  ASSERT_TRUE(corpus_ && corpus_->ok());
  SocialGrammarOptions options;
  options.cues = corpus_->corpus.cueOrder;
  options.wordAlpha = 0.001;
  const SocialGrammarBuild build = generateSocialGrammar(corpus_->corpus, options);
  ASSERT_TRUE(build.ok());
  const Grammar& g = build.grammar;
  std::size_t sparse = 0;
  for (const Rule& rule : g.rules()) {
    const std::string& lhs = g.symbols().name(rule.lhs);
    ASSERT_TRUE(rule.prior);
    const bool lexical = rule.rhs.size() == 1 && g.symbols().isTerminal(rule.rhs[0]);
    if (lhs.rfind("Word.", 0) == 0 && lhs != "Word.None" && lexical) {
      EXPECT_EQ(*rule.prior, 0.001);
      ++sparse;
    } else if (lhs.rfind("Topic.", 0) == 0) {
      EXPECT_EQ(*rule.prior, 1e10);
    } else {
      EXPECT_EQ(*rule.prior, 1.0) << ruleKey(g, rule);
    }
  }
  EXPECT_EQ(sparse, 30u * 1110u);
}

}  // namespace
}  // namespace gwb
