#include "gwb/grounded/social_grammar.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace gwb {

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// The preterminal the authors' grammars use for terminal `word`: PSEUDO.DOG, PSEUDOKID.EYES.
std::string pseudo(std::string_view word) { return "PSEUDO" + upper(word); }

// Collects rules by name, then gives every LHS a uniform distribution.
class RuleBuilder {
 public:
  explicit RuleBuilder(Grammar& grammar) : grammar_(grammar) {}

  SymbolId nonterminal(const std::string& name) {
    return grammar_.symbols().intern(name, SymbolKind::Nonterminal);
  }
  SymbolId terminal(const std::string& word) {
    return grammar_.symbols().intern(word, SymbolKind::Terminal);
  }
  void add(const std::string& lhs, std::vector<SymbolId> rhs, double prior) {
    Rule rule;
    rule.lhs = nonterminal(lhs);
    rule.rhs = std::move(rhs);
    rule.prior = prior;
    if (grammar_.findRule(rule.lhs, rule.rhs)) return;  // e.g. a repeated PSEUDO rule
    grammar_.addRule(std::move(rule));
  }
  void add(const std::string& lhs, const std::vector<std::string>& rhsNonterminals, double prior) {
    std::vector<SymbolId> rhs;
    rhs.reserve(rhsNonterminals.size());
    for (const std::string& name : rhsNonterminals) rhs.push_back(nonterminal(name));
    add(lhs, std::move(rhs), prior);
  }
  void addLexical(const std::string& lhs, const std::string& word, double prior) {
    add(lhs, std::vector<SymbolId>{terminal(word)}, prior);
  }
  void makeUniform() {
    for (SymbolId lhs : grammar_.lhsSymbols()) {
      const auto& ids = grammar_.rulesWithLhs(lhs);
      const double p = 1.0 / static_cast<double>(ids.size());
      for (RuleId id : ids) grammar_.setProbability(id, p);
    }
  }

 private:
  Grammar& grammar_;
};

}  // namespace

std::optional<CueSelection> CueSelection::parse(std::string_view text, std::string* error) {
  CueSelection selection;
  if (text == "all") return selection;
  if (text == "none") {
    selection.mode = Mode::None;
    return selection;
  }
  const auto withCue = [&](std::string_view prefix, Mode mode) -> bool {
    if (text.substr(0, prefix.size()) != prefix) return false;
    selection.mode = mode;
    selection.cue = std::string(text.substr(prefix.size()));
    return true;
  };
  if (withCue("drop:", Mode::Drop) || withCue("only:", Mode::Only)) {
    if (!selection.cue.empty()) return selection;
    if (error) *error = "expected a cue name after '" + std::string(text) + "'";
    return std::nullopt;
  }
  if (error) *error = "expected all, none, drop:CUE or only:CUE, found '" + std::string(text) + "'";
  return std::nullopt;
}

std::string CueSelection::text() const {
  switch (mode) {
    case Mode::All: return "all";
    case Mode::None: return "none";
    case Mode::Drop: return "drop:" + cue;
    case Mode::Only: return "only:" + cue;
  }
  return "all";
}

std::optional<std::vector<std::string>> CueSelection::select(
    const std::vector<std::string>& cueOrder, std::string* error) const {
  if (mode == Mode::All) return cueOrder;
  if (mode == Mode::None) return std::vector<std::string>{};
  if (std::find(cueOrder.begin(), cueOrder.end(), cue) == cueOrder.end()) {
    if (error) {
      std::string known;
      for (const std::string& c : cueOrder) known += (known.empty() ? "" : ", ") + c;
      *error = "unknown cue '" + cue + "' (the corpus has: " + known + ")";
    }
    return std::nullopt;
  }
  if (mode == Mode::Only) return std::vector<std::string>{cue};
  std::vector<std::string> kept;
  for (const std::string& c : cueOrder)
    if (c != cue) kept.push_back(c);
  return kept;
}

const char* socialGrammarKindName(SocialGrammarKind kind) {
  return kind == SocialGrammarKind::Unigram ? "unigram" : "discourse";
}

std::optional<SocialGrammarKind> parseSocialGrammarKind(std::string_view name) {
  if (name == "unigram") return SocialGrammarKind::Unigram;
  if (name == "discourse") return SocialGrammarKind::Discourse;
  return std::nullopt;
}

const char* socialGrammarRoot(SocialGrammarKind kind) {
  return kind == SocialGrammarKind::Unigram ? "Sentence" : "Discourse";
}

namespace {

// Errors in the corpus or the options that make generation pointless.
void checkGenerationInputs(const SocialCorpus& corpus, const SocialGrammarOptions& options,
                           Diagnostics& diag) {
  if (corpus.topics().empty()) diag.error(corpus.source, 0, 0, "the corpus names no objects");
  if (corpus.vocabulary().empty()) diag.error(corpus.source, 0, 0, "the corpus has no words");
  const std::vector<std::pair<const char*, double>> priors = {
      {"word", options.wordAlpha},
      {"null-word", options.nullWordAlpha},
      {"transition", options.transitionAlpha},
      {"self-transition", options.selfTransitionAlpha.value_or(options.transitionAlpha)},
      {"pinned", options.pinnedAlpha},
      {"other", options.otherAlpha}};
  for (const auto& [name, value] : priors) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      diag.error("", 0, 0, std::string("the ") + name + " prior must be a positive number");
    } else if (!isSupportedPrior(value)) {
      diag.error("", 0, 0,
                 std::string("the ") + name + " prior: " + unsupportedPriorMessage(value));
    }
  }
  for (const std::string& cue : options.cues) {
    if (std::find(corpus.cueOrder.begin(), corpus.cueOrder.end(), cue) == corpus.cueOrder.end())
      diag.error(corpus.source, 0, 0, "cue '" + cue + "' does not occur in the corpus");
  }
}

}  // namespace

SocialGrammarBuild generateSocialGrammar(const SocialCorpus& corpus,
                                         const SocialGrammarOptions& options) {
  SocialGrammarBuild build;
  checkGenerationInputs(corpus, options, build.diagnostics);
  if (build.diagnostics.hasErrors()) return build;
  const std::vector<std::string> objects = corpus.topics();
  const std::vector<std::string> words = corpus.vocabulary();

  Grammar& g = build.grammar;
  RuleBuilder b(g);
  std::vector<std::string> topics;  // T': None first, then the objects
  topics.push_back(kNullTopic);
  topics.insert(topics.end(), objects.begin(), objects.end());
  const bool discourse = options.kind == SocialGrammarKind::Discourse;
  const std::string& none = kNullTopic;
  const double other = options.otherAlpha;

  // The top: sentence level, or the discourse layer above topic-specific sentences.
  if (discourse) {
    for (const std::string& t : topics) b.add("Discourse", {"Discourse." + t}, other);
    for (const std::string& t : topics) {
      for (const std::string& next : topics) {
        const double alpha = next == t
                                 ? options.selfTransitionAlpha.value_or(options.transitionAlpha)
                                 : options.transitionAlpha;
        b.add("Discourse." + t, {"Sentence." + t, "Discourse." + next}, alpha);
      }
      b.add("Discourse." + t, {"Sentence." + t}, other);
    }
    for (const std::string& t : topics) b.add("Sentence." + t, {"Topic." + t, "Words." + t}, other);
  } else {
    for (const std::string& t : topics) b.add("Sentence", {"Topic." + t, "Words." + t}, other);
  }

  // Topics: which object (if any) is topical, and the social cues on each object.
  b.add("Topic." + none, std::vector<SymbolId>{b.terminal("##")}, options.pinnedAlpha);
  b.add("Topic." + none, {"T." + none, "Topic." + none}, options.pinnedAlpha);
  for (const std::string& t : objects) {
    b.add("Topic." + t, {"T." + t, "Topic." + none}, options.pinnedAlpha);
    b.add("Topic." + t, {"T." + none, "Topic." + t}, options.pinnedAlpha);
  }
  const std::vector<std::string>& cues = options.cues;
  const auto firstSocial = [&](const char* kind) {
    return cues.empty() ? pseudo("#") : std::string("Socials.") + kind + "." + cues.front();
  };
  for (const std::string& t : objects) {
    b.add("T." + t, {pseudo("." + t), firstSocial("Topical")}, other);
    b.add("T." + none, {pseudo("." + t), firstSocial("NotTopical")}, other);
    b.addLexical(pseudo("." + t), "." + t, other);
  }
  for (const char* kind : {"Topical", "NotTopical"}) {
    for (std::size_t i = 0; i < cues.size(); ++i) {
      const std::string lhs = std::string("Socials.") + kind + "." + cues[i];
      if (i + 1 < cues.size()) {
        const std::string next = std::string("Socials.") + kind + "." + cues[i + 1];
        b.add(lhs, {pseudo(cues[i]), next}, other);
        b.add(lhs, {next}, other);
      } else {
        b.add(lhs, {pseudo(cues[i]), pseudo("#")}, other);
        b.add(lhs, std::vector<SymbolId>{b.terminal("#")}, other);
      }
    }
  }
  for (const std::string& cue : cues) b.addLexical(pseudo(cue), cue, other);
  b.addLexical(pseudo("#"), "#", other);

  // Words: each drawn from the topic's distribution or the general (None) one.
  b.add("Words." + none, {"Word." + none}, other);
  b.add("Words." + none, {"Word." + none, "Words." + none}, other);
  for (const std::string& t : objects) {
    b.add("Words." + t, {"Word." + t}, other);
    b.add("Words." + t, {"Word." + none}, other);
    b.add("Words." + t, {"Word." + t, "Words." + t}, other);
    b.add("Words." + t, {"Word." + none, "Words." + t}, other);
  }
  for (const std::string& t : topics) {
    const double alpha = t == none ? options.nullWordAlpha : options.wordAlpha;
    for (const std::string& w : words) b.addLexical("Word." + t, w, alpha);
  }

  b.makeUniform();
  g.setStart(b.nonterminal(socialGrammarRoot(options.kind)));
  return build;
}

bool isDiscourseGrammar(const Grammar& grammar) {
  const auto start = grammar.start();
  return start && grammar.symbols().name(*start) == "Discourse";
}

std::vector<std::string> grammarCues(const Grammar& grammar,
                                     const std::vector<std::string>& cueOrder) {
  std::vector<std::string> cues;
  for (const std::string& cue : cueOrder)
    if (grammar.symbols().findTerminal(cue)) cues.push_back(cue);
  return cues;
}

}  // namespace gwb
