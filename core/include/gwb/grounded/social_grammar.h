// Social-cue grammars generated from a corpus: the sentence-level unigram PCFG of Johnson,
// Demuth & Frank (2012) and the discourse-level grammar of Luong, Frank & Johnson (2013,
// sections 3.1-3.2), with the Dirichlet priors of section 6.1.
//
// T is the set of objects in the corpus, T' = T ∪ {None}, W its word types, C the social cues
// kept (in the corpus's cue order c1..cn). Names follow the authors' grammar files
// (`unigram.grammar`, `socialDiscourse.grammar`): PSEUDO<X> is a preterminal for the terminal
// X written in upper case (PSEUDO.DOG → .dog, PSEUDOKID.EYES → kid.eyes, PSEUDO# → #).
//
//   Sentence         → Topic.t Words.t                         t ∈ T'   (sentence level)
//   Discourse        → Discourse.t                             t ∈ T'   (discourse level:
//   Discourse.t      → Sentence.t Discourse.t' | Sentence.t    t, t' ∈ T'  these four
//   Sentence.t       → Topic.t Words.t                         t ∈ T'      replace the first)
//   Topic.None       → T.None Topic.None | ##
//   Topic.t          → T.t Topic.None | T.None Topic.t         t ∈ T
//   T.t              → PSEUDO.T Socials.Topical.c1             t ∈ T
//   T.None           → PSEUDO.T Socials.NotTopical.c1          for every t ∈ T
//   Socials.X.ci     → PSEUDO<ci> Socials.X.ci+1 | Socials.X.ci+1      X ∈ {Topical, NotTopical}
//   Socials.X.cn     → PSEUDO<cn> PSEUDO# | #
//   Words.None       → Word.None | Word.None Words.None
//   Words.t          → Word.t | Word.None | Word.t Words.t | Word.None Words.t    t ∈ T
//   Word.t           → w                                       t ∈ T', w ∈ W
//   PSEUDO.T → .t,  PSEUDO<c> → c,  PSEUDO# → #
//
// With no cues (n = 0), T.t → PSEUDO.T PSEUDO# and T.None → PSEUDO.T PSEUDO#: objects carry no
// evidence and only the words decide the topic. Generated from the real corpus with every cue,
// the discourse grammar has exactly the rules of `socialDiscourse.grammar`, and the sentence
// grammar those of `unigram.grammar` plus the 332 Word.t rules and 2 Topic.t rules that file
// lacks (tested).
//
// Probabilities start uniform per LHS. Priors (the Earleyx ALPHA column): `wordAlpha` on
// Word.t → w for t ∈ T (sparse, section 6.1), `nullWordAlpha` on Word.None → w (not sparse:
// footnote 8), `transitionAlpha` on Discourse.t → Sentence.t Discourse.t' (`selfTransitionAlpha`
// when t' = t, if given), `pinnedAlpha` on the
// Topic rules (1e10 in the authors' files, which keeps the position of the topical object
// uniform), and 1 everywhere else. Rules are added in a fixed order (topics and words sorted),
// so the same corpus and options always give the same file.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gwb/common/diagnostic.h"
#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"

namespace gwb {

// Which social cues a grammar (and its input strings) keep: all, none (Table 3), all but one
// (Table 4, "ablation") or one only (Table 5, "add-one").
struct CueSelection {
  enum class Mode { All, None, Drop, Only };
  Mode mode = Mode::All;
  std::string cue;  // Drop and Only

  // "all", "none", "drop:CUE", "only:CUE"; nullopt and *error otherwise.
  static std::optional<CueSelection> parse(std::string_view text, std::string* error = nullptr);
  std::string text() const;  // back to the syntax above
  // The cues kept, in `cueOrder`; nullopt and *error when CUE is not one of them.
  std::optional<std::vector<std::string>> select(const std::vector<std::string>& cueOrder,
                                                 std::string* error = nullptr) const;
};

enum class SocialGrammarKind { Unigram, Discourse };
const char* socialGrammarKindName(SocialGrammarKind kind);  // "unigram" / "discourse"
std::optional<SocialGrammarKind> parseSocialGrammarKind(std::string_view name);

struct SocialGrammarOptions {
  SocialGrammarKind kind = SocialGrammarKind::Unigram;
  std::vector<std::string> cues;  // the cues kept, in order (CueSelection::select)
  double wordAlpha = 0.001;       // Word.t → w, t ∈ T: the paper's best α (footnote 10)
  double nullWordAlpha = 1.0;     // Word.None → w
  double transitionAlpha = 1.0;   // Discourse.t → Sentence.t Discourse.t', t' ≠ t
  // Discourse.t → Sentence.t Discourse.t (staying on the topic); nullopt: transitionAlpha. The
  // authors' learned discourse grammar has 1 here and 0.1 on the other transitions.
  std::optional<double> selfTransitionAlpha;
  double pinnedAlpha = 1e10;  // Topic.* rules
  double otherAlpha = 1.0;
};

// The line search of footnote 10.
inline constexpr std::array<double, 5> kAlphaLineSearch = {1, 0.1, 0.01, 0.001, 0.0001};

struct SocialGrammarBuild {
  Grammar grammar;  // start symbol Sentence or Discourse
  Diagnostics diagnostics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

// Generates the grammar for `corpus` (its objects and words). Errors: an empty corpus, a
// non-positive prior, a cue not in the corpus.
SocialGrammarBuild generateSocialGrammar(const SocialCorpus& corpus,
                                         const SocialGrammarOptions& options);

// The start symbol's name for a kind ("Sentence" / "Discourse").
const char* socialGrammarRoot(SocialGrammarKind kind);

// Is `grammar` a discourse grammar (a Discourse nonterminal that the start symbol is)? This holds
// for generated discourse grammars and for grammars learned from them.
bool isDiscourseGrammar(const Grammar& grammar);
// The corpus cues the grammar has as terminals, in the corpus's order: the cues it was made with,
// which the strings to parse must keep (socialTokens, recordingTokens).
std::vector<std::string> grammarCues(const Grammar& grammar,
                                     const std::vector<std::string>& cueOrder);

}  // namespace gwb
