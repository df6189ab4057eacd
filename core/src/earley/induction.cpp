#include "gwb/earley/induction.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <math.h>  // lgamma_r
#include <mutex>
#include <ostream>
#include <random>
#include <sstream>
#include <unordered_map>

#include <boost/math/special_functions/digamma.hpp>

#include "common/parallel.h"
#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"
#include "gwb/earley/grammar_io.h"

namespace gwb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::size_t index(RuleId id) { return static_cast<std::size_t>(id); }

// ---- Globs and rule patterns ----

// Does `text` match the glob (`*`, `?`, `\` escapes)? Iterative, with one backtrack point.
bool globMatches(std::string_view glob, std::string_view text) {
  std::size_t g = 0;
  std::size_t t = 0;
  std::size_t starGlob = std::string_view::npos;
  std::size_t starText = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      starGlob = g++;
      starText = t;
      continue;
    }
    if (g < glob.size()) {
      bool literal = glob[g] == '\\' && g + 1 < glob.size();
      const char c = literal ? glob[g + 1] : glob[g];
      if ((!literal && c == '?') || c == text[t]) {
        g += literal ? 2 : 1;
        ++t;
        continue;
      }
    }
    if (starGlob == std::string_view::npos) return false;
    g = starGlob + 1;
    t = ++starText;
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

// The symbol as the Earleyx format writes it: terminals with a leading `_`.
std::string writtenSymbol(const SymbolTable& symbols, SymbolId id) {
  return symbols.isTerminal(id) ? "_" + symbols.name(id) : symbols.name(id);
}

enum class TokenKind { Glob, Arrow, Comma, Except };
struct PatternToken {
  TokenKind kind;
  std::string text;  // globs keep their escapes
  std::size_t column;
};

bool tokenizePattern(std::string_view text, std::vector<PatternToken>& tokens, std::string* error) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (c == ',') {
      tokens.push_back({TokenKind::Comma, ",", i + 1});
      ++i;
      continue;
    }
    if (text.compare(i, 2, "->") == 0) {
      tokens.push_back({TokenKind::Arrow, "->", i + 1});
      i += 2;
      continue;
    }
    const std::size_t start = i;
    std::string glob;
    bool escaped = false;
    while (i < text.size()) {
      const char d = text[i];
      if (d == '\\') {
        if (i + 1 >= text.size()) {
          if (error)
            *error = "column " + std::to_string(i + 1) + ": '\\' at the end of the pattern";
          return false;
        }
        glob += text.substr(i, 2);
        escaped = true;
        i += 2;
        continue;
      }
      if (d == ' ' || d == '\t' || d == ',' || text.compare(i, 2, "->") == 0) break;
      glob += d;
      ++i;
    }
    const bool isExcept = !escaped && glob == "except";
    tokens.push_back({isExcept ? TokenKind::Except : TokenKind::Glob, glob, start + 1});
  }
  return true;
}

// Does the RHS glob sequence (with "..." items) match the rule's RHS? Small DP over positions.
bool rhsMatches(const std::vector<std::string>& items, const std::vector<std::string>& symbols) {
  const std::size_t m = items.size();
  const std::size_t n = symbols.size();
  // reach[j]: items[0..i) can match symbols[0..j). (Strings: never a null buffer, which keeps
  // GCC's -Wnull-dereference quiet.)
  std::string reach(n + 1, '\0');
  std::string next(n + 1, '\0');
  reach[0] = 1;
  for (std::size_t i = 0; i < m; ++i) {
    std::fill(next.begin(), next.end(), '\0');
    if (items[i] == "...") {
      bool any = false;
      for (std::size_t j = 0; j <= n; ++j) {
        any = any || reach[j] != 0;
        next[j] = any ? 1 : 0;
      }
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        if (reach[j] != 0 && globMatches(items[i], symbols[j])) next[j + 1] = 1;
      }
    }
    reach.swap(next);
  }
  return reach[n] != 0;
}

// ---- Special functions ----

// cc.mallet.util.Maths.logGamma: Lanczos (g = 607/128, 15 terms, Godfrey's coefficients), in
// the same order of operations.
constexpr std::array<double, 15> kLanczos = {
    0.99999999999999709182,     57.156235665862923517,      -59.597960355475491248,
    14.136097974741747174,      -0.49191381609762019978,    0.33994649984811888699e-4,
    0.46523628927048575665e-4,  -0.98374475304879564677e-4, 0.15808870322491248884e-3,
    -0.21026444172410488319e-3, 0.21743961811521264320e-3,  -0.16431810653676389022e-3,
    0.84418223983852743293e-4,  -0.26190838401581408670e-4, 0.36899182659531622704e-5,
};

// log Γ(a + c) − log Γ(a) for a ≥ 1e3 from Stirling's series, with the large terms cancelled
// analytically: (a + c − ½) log(a + c) − (a − ½) log a = (a − ½) log1p(c/a) + c log(a + c).
double stirlingLogGammaDifference(double a, double c) {
  const double b = a + c;
  const auto tail = [](double x) {
    const double x2 = x * x;
    return 1.0 / (12.0 * x) - 1.0 / (360.0 * x * x2) + 1.0 / (1260.0 * x * x2 * x2);
  };
  return (a - 0.5) * std::log1p(c / a) + c * std::log(b) - c + (tail(b) - tail(a));
}

// A word that is no terminal of the grammar, with no unknown-word model to stand in: the
// sentence cannot parse, and is not handed to the E-step at all.
bool hasUnknownWord(const CompiledGrammar& grammar, const std::vector<std::string>& words) {
  if (grammar.hasUnknownWordModel()) return false;
  const SymbolTable& symbols = grammar.symbols();
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return !symbols.findTerminal(w).has_value(); });
}

// ---- Output helpers ----

// Java's Double.toString, closely enough for Earleyx's .obj files.
std::string javaDouble(double value) {
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (std::isnan(value)) return "NaN";
  std::string text = formatProbability(value);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

std::string csvNumber(double value) {
  if (std::isnan(value)) return "";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return formatProbability(value);
}

// A copy holding only the rules with θ > 0 (same symbol ids); EM output loses the priors.
Grammar outputGrammar(const Grammar& grammar, InductionMethod method) {
  Grammar out;
  const SymbolTable& symbols = grammar.symbols();
  for (std::size_t id = 0; id < symbols.size(); ++id) {
    const auto symbol = static_cast<SymbolId>(id);
    out.symbols().intern(symbols.name(symbol), symbols.kind(symbol));
  }
  for (const Rule& rule : grammar.rules()) {
    if (!(rule.probability > 0.0)) continue;
    Rule copy = rule;
    if (method == InductionMethod::Em) copy.prior.reset();
    out.addRule(std::move(copy));
  }
  if (grammar.start()) out.setStart(*grammar.start());
  return out;
}

// The text of a rule that identifies it across grammars: LHS, then each RHS symbol with its kind.
std::string ruleKey(const Grammar& grammar, RuleId id) {
  const SymbolTable& symbols = grammar.symbols();
  const Rule& rule = grammar.rule(id);
  std::string key = symbols.name(rule.lhs);
  for (SymbolId s : rule.rhs) {
    key += '\0';
    key += symbols.isTerminal(s) ? 'T' : 'N';
    key += symbols.name(s);
  }
  return key;
}

}  // namespace

// ---- Names ----

const char* inductionMethodName(InductionMethod method) {
  return method == InductionMethod::Em ? "em" : "vb";
}

std::optional<InductionMethod> parseInductionMethod(std::string_view name) {
  if (name == "em") return InductionMethod::Em;
  if (name == "vb") return InductionMethod::Vb;
  return std::nullopt;
}

const char* stopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::Converged: return "converged";
    case StopReason::MaxIterations: return "max-iterations";
    case StopReason::ObjectiveIncreased: return "objective-increased";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::Failed: return "failed";
  }
  return "?";
}

InductionOptions InductionOptions::earleyx(InductionMethod method) {
  InductionOptions options;
  options.method = method;
  options.tolerance = 1e-7;
  options.defaultPrior = 1.0;
  options.specialFunctions = SpecialFunctions::Earleyx;
  options.unobservedRules = UnobservedRules::Keep;
  options.vbObjective = VbObjective::Earleyx;
  return options;
}

// ---- Rule patterns ----

std::optional<RulePattern> RulePattern::parse(std::string_view text, std::string* error) {
  std::vector<PatternToken> tokens;
  if (!tokenizePattern(text, tokens, error)) return std::nullopt;
  RulePattern pattern;
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  pattern.text_ =
      first == std::string_view::npos ? "" : std::string(text.substr(first, last - first + 1));
  std::size_t i = 0;
  const auto fail = [&](const std::string& message) {
    if (error) {
      const std::size_t column = i < tokens.size() ? tokens[i].column : text.size() + 1;
      *error = "column " + std::to_string(column) + ": " + message;
    }
    return std::nullopt;
  };
  // SIMPLE := GLOB [ "->" GLOB* ]
  const auto parseSimple = [&](Simple& simple) -> bool {
    if (i >= tokens.size() || tokens[i].kind != TokenKind::Glob) return false;
    simple.lhs = tokens[i++].text;
    if (simple.lhs == "...") return false;
    if (i < tokens.size() && tokens[i].kind == TokenKind::Arrow) {
      ++i;
      simple.anyRhs = false;
      while (i < tokens.size() && tokens[i].kind == TokenKind::Glob)
        simple.rhs.push_back(tokens[i++].text);
    }
    return true;
  };
  if (!parseSimple(pattern.include_))
    return fail("expected a left-hand-side glob such as `Word.*`");
  if (i < tokens.size()) {
    if (tokens[i].kind != TokenKind::Except)
      return fail("expected `except` or the end of the pattern");
    ++i;
    do {
      if (!pattern.excludes_.empty()) ++i;  // the comma
      Simple simple;
      if (!parseSimple(simple)) return fail("expected a rule pattern after `except` or `,`");
      pattern.excludes_.push_back(std::move(simple));
    } while (i < tokens.size() && tokens[i].kind == TokenKind::Comma);
    if (i < tokens.size()) return fail("expected `,` or the end of the pattern");
  }
  return pattern;
}

bool RulePattern::matchesSimple(const Simple& simple, const Grammar& grammar, RuleId id) {
  const Rule& rule = grammar.rule(id);
  const SymbolTable& symbols = grammar.symbols();
  if (!globMatches(simple.lhs, symbols.name(rule.lhs))) return false;
  if (simple.anyRhs) return true;
  std::vector<std::string> written;
  written.reserve(rule.rhs.size());
  for (SymbolId s : rule.rhs) written.push_back(writtenSymbol(symbols, s));
  return rhsMatches(simple.rhs, written);
}

bool RulePattern::matches(const Grammar& grammar, RuleId id) const {
  if (!matchesSimple(include_, grammar, id)) return false;
  return std::none_of(excludes_.begin(), excludes_.end(),
                      [&](const Simple& s) { return matchesSimple(s, grammar, id); });
}

std::optional<PriorOverride> parsePriorOverride(std::string_view text, std::string* error) {
  const std::size_t equals = text.rfind('=');
  if (equals == std::string_view::npos) {
    if (error) *error = "expected PATTERN=VALUE, e.g. 'Word.* -> _* except Word.None=0.001'";
    return std::nullopt;
  }
  const std::string valueText(text.substr(equals + 1));
  double value = 0.0;
  std::size_t used = 0;
  try {
    value = std::stod(valueText, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  while (used < valueText.size() && (valueText[used] == ' ' || valueText[used] == '\t')) ++used;
  if (used == 0 || used != valueText.size() || !(value > 0.0) || !std::isfinite(value)) {
    if (error) *error = "the prior '" + valueText + "' after '=' is not a positive number";
    return std::nullopt;
  }
  if (!isSupportedPrior(value)) {
    if (error) *error = unsupportedPriorMessage(value);
    return std::nullopt;
  }
  std::string patternError;
  auto pattern = RulePattern::parse(text.substr(0, equals), &patternError);
  if (!pattern) {
    if (error) *error = "pattern '" + std::string(text.substr(0, equals)) + "': " + patternError;
    return std::nullopt;
  }
  return PriorOverride{std::move(*pattern), value};
}

// ---- Special functions ----

double earleyxDigamma(double x) {
  // MALLET's Dirichlet.digamma as Earleyx runs it: below 1e-6, −γ − 1/x; else the recurrence
  // ψ(x) = ψ(x + 1) − 1/x up to x ≥ 9.5, then log x − 1/(2x) (the remaining terms of its
  // asymptotic series are `1/12`-style integer divisions, i.e. 0). The boundary is taken at
  // 9.5 − 1e-9 so that a sum of counts that should be exactly 8.5 jumps the same way whatever
  // its rounding.
  constexpr double kEulerMascheroniNegated = -0.5772156649015328606065121;
  if (x < 1e-6) return kEulerMascheroniNegated - (1 / x);
  double psi = 0;
  while (x < 9.5 - 1e-9) {
    psi -= 1 / x;
    x++;
  }
  const double inverse = 1 / x;
  psi += std::log(x) - .5 * inverse;
  return psi;
}

double earleyxLogGamma(double x) {
  const double g = 607.0 / 128.0;
  const double tmp = x + g + .5;
  double sum = kLanczos[0];
  for (std::size_t i = 1; i < kLanczos.size(); i++) {
    sum = sum + (kLanczos.at(i) / (x + static_cast<double>(i)));
  }
  constexpr double kPi = 3.141592653589793;  // Java's Math.PI
  const double log2Pi = std::log(2 * kPi);
  return ((x + .5) * std::log(tmp)) - tmp + (.5 * log2Pi) + std::log(sum) - std::log(x);
}

// Boost reports a domain error, pole or overflow by throwing; here it returns NaN or ±∞ instead,
// which the caller checks (induceGrammar fails the run with a message), so that no user value
// can make a special function end the program.
using NoThrowPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::ignore_error>>;

double digamma(double x, SpecialFunctions kind) {
  if (kind == SpecialFunctions::Earleyx) return earleyxDigamma(x);
  return boost::math::digamma(x, NoThrowPolicy());
}

namespace {

// log Γ(x). std::lgamma also writes the sign to the global `signgam`, a data race when the
// M-step runs on several threads; POSIX's lgamma_r returns it instead (the same value).
double logGamma(double x) {
#if defined(__unix__) || defined(__APPLE__)  // POSIX systems: glibc, musl, the BSDs, macOS
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

}  // namespace

double logGammaDifference(double a, double c, SpecialFunctions kind) {
  if (kind == SpecialFunctions::Earleyx) return earleyxLogGamma(a + c) - earleyxLogGamma(a);
  if (c == 0.0) return 0.0;
  if (a >= 1e3) return stirlingLogGammaDifference(a, c);
  return logGamma(a + c) - logGamma(a);
}

// ---- Priors and initialisation ----

std::vector<double> resolvePriors(const Grammar& grammar, const InductionOptions& options,
                                  Diagnostics& diagnostics) {
  std::vector<double> priors(grammar.ruleCount(), options.defaultPrior);
  if (!isSupportedPrior(options.defaultPrior))
    diagnostics.error("", 0, 0,
                      "the default prior: " + unsupportedPriorMessage(options.defaultPrior));
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    const Rule& rule = grammar.rule(id);
    if (rule.prior) priors[index(id)] = *rule.prior;
  }
  for (const PriorOverride& override : options.priorOverrides) {
    if (!isSupportedPrior(override.value)) {
      diagnostics.error("", 0, 0,
                        "prior for '" + override.pattern.text() +
                            "': " + unsupportedPriorMessage(override.value));
      continue;
    }
    std::size_t matched = 0;
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
      if (override.pattern.matches(grammar, id)) {
        priors[index(id)] = override.value;
        ++matched;
      }
    }
    if (matched == 0) {
      diagnostics.warning("", 0, 0,
                          "prior pattern '" + override.pattern.text() + "' matches no rule");
      continue;
    }
    diagnostics.note("", 0, 0,
                     "prior " + formatProbability(override.value) + " on " +
                         std::to_string(matched) + " rule(s) matching '" + override.pattern.text() +
                         "'");
  }
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (!isSupportedPrior(priors[index(id)])) {
      diagnostics.error(
          "", grammar.rule(id).sourceLine, 0,
          "rule " + grammar.ruleText(id) + ": " + unsupportedPriorMessage(priors[index(id)]));
    }
  }
  return priors;
}

bool initializeProbabilities(Grammar& grammar, const InductionOptions& options,
                             Diagnostics& diagnostics) {
  switch (options.init) {
    case InitMethod::Given: return true;
    case InitMethod::Uniform: {
      if (!(options.noise >= 0.0) || !std::isfinite(options.noise)) {
        diagnostics.error("", 0, 0, "the initialisation noise must be a number ≥ 0");
        return false;
      }
      // mt19937_64 is fully specified by the standard; the uniform variate is built by hand
      // (std::uniform_real_distribution is not), so a seed gives the same grammar everywhere.
      std::mt19937_64 random(options.seed);
      for (SymbolId lhs : grammar.lhsSymbols()) {
        const std::vector<RuleId>& rules = grammar.rulesWithLhs(lhs);
        std::vector<double> weights;
        weights.reserve(rules.size());
        double sum = 0.0;
        for (std::size_t k = 0; k < rules.size(); ++k) {
          const double u = static_cast<double>(random() >> 11) * 0x1.0p-53;
          weights.push_back(1.0 + options.noise * u);
          sum += weights.back();
        }
        for (std::size_t k = 0; k < rules.size(); ++k)
          grammar.setProbability(rules[k], weights[k] / sum);
      }
      return true;
    }
    case InitMethod::FromGrammar: {
      if (options.initFrom == nullptr) {
        diagnostics.error("", 0, 0, "initialisation from a grammar, but no grammar was given");
        return false;
      }
      const Grammar& source = *options.initFrom;
      std::unordered_map<std::string, double> byKey;
      byKey.reserve(source.ruleCount());
      for (RuleId id = 0; id < static_cast<RuleId>(source.ruleCount()); ++id)
        byKey.emplace(ruleKey(source, id), source.rule(id).probability);
      std::size_t matched = 0;
      std::vector<char> touched(grammar.symbols().size(), 0);
      for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
        const auto found = byKey.find(ruleKey(grammar, id));
        if (found == byKey.end()) continue;
        grammar.setProbability(id, found->second);
        touched[static_cast<std::size_t>(grammar.rule(id).lhs)] = 1;
        ++matched;
      }
      std::size_t renormalised = 0;
      for (SymbolId lhs : grammar.lhsSymbols()) {
        if (touched[static_cast<std::size_t>(lhs)] == 0) continue;
        const double sum = grammar.lhsProbabilitySum(lhs);
        if (!(sum > 0.0)) continue;
        for (RuleId id : grammar.rulesWithLhs(lhs))
          grammar.setProbability(id, grammar.rule(id).probability / sum);
        ++renormalised;
      }
      diagnostics.note("", 0, 0,
                       std::to_string(matched) + " of " + std::to_string(grammar.ruleCount()) +
                           " rule(s) took their probability from the initial grammar (" +
                           std::to_string(source.ruleCount()) + " rules); " +
                           std::to_string(renormalised) + " left-hand side(s) renormalised");
      if (matched == 0)
        diagnostics.warning("", 0, 0, "no rule of the initial grammar matches a rule of this one");
      return true;
    }
  }
  return false;
}

// ---- E-step ----

namespace {

// Chunk c is sentences [starts[c], starts[c + 1]): the fewest consecutive sentences with at
// least `chunkTokens` tokens (a long discourse is a chunk of its own).
std::vector<std::size_t> chunkStarts(const std::vector<std::vector<std::string>>& sentences,
                                     std::size_t chunkTokens) {
  std::vector<std::size_t> starts;
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    if (tokens == 0) starts.push_back(i);
    tokens += sentences[i].size();
    if (tokens >= std::max<std::size_t>(1, chunkTokens)) tokens = 0;
  }
  starts.push_back(sentences.size());
  return starts;
}

}  // namespace

ExpectationResult runExpectationStep(const CompiledGrammar& grammar,
                                     const std::vector<std::vector<std::string>>& sentences,
                                     const InductionOptions& options,
                                     const InductionControl& control, int iteration) {
  const std::size_t ruleCount = grammar.grammar().ruleCount();
  const std::size_t total = sentences.size();
  const std::vector<std::size_t> starts = chunkStarts(sentences, options.chunkTokens);
  const std::size_t chunkCount = starts.size() - 1;
  const std::size_t threads = std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.threads)),
                               std::max<std::size_t>(1, chunkCount)));
  const ExpectationStep step =
      control.expectationStep ? control.expectationStep : ExpectationStep(accumulateExpectedCounts);

  ExpectationResult result;
  result.counts.assign(ruleCount, 0.0);

  // Chunk c is computed in slot c % window and may start only once chunk c − window has been
  // added to the total, which bounds memory to `window` count vectors. A wide window keeps
  // every thread busy while one works through a long chunk (a whole recording, for the
  // discourse grammar) that the in-order reduction has to wait for. Among the chunks the window
  // admits, the one with the most tokens starts first, so that the last to finish are short
  // (the 24 recordings differ eightfold in length); the sums are still taken in chunk order.
  struct Slot {
    std::vector<double> counts;
    double negLogLikelihood = 0.0;
    std::vector<std::size_t> failed;
    bool ready = false;
  };
  const std::size_t window = 8 * threads;
  std::vector<Slot> slots(window);
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::size_t> chunkTokens(chunkCount, 0);
  for (std::size_t c = 0; c < chunkCount; ++c) {
    for (std::size_t i = starts[c]; i < starts[c + 1]; ++i) chunkTokens[c] += sentences[i].size();
  }
  std::vector<char> started(chunkCount, 0);
  std::size_t startedCount = 0;
  std::size_t firstNotStarted = 0;
  std::size_t reduced = 0;
  bool stop = false;
  bool cancelled = false;
  std::mutex progressMutex;
  std::size_t done = 0;

  // Parses the sentences of `chunk` into `slot`; false when cancelled.
  const auto computeChunk = [&](std::size_t chunk, Slot& slot) {
    slot.counts.assign(ruleCount, 0.0);
    slot.negLogLikelihood = 0.0;
    slot.failed.clear();
    for (std::size_t i = starts[chunk]; i < starts[chunk + 1]; ++i) {
      if (control.cancel != nullptr && control.cancel->load(std::memory_order_relaxed)) {
        return false;
      }
      const ExpectedCounts counted = hasUnknownWord(grammar, sentences[i])
                                         ? ExpectedCounts{}
                                         : step(grammar, sentences[i], options.mode, slot.counts);
      if (counted.parsed && std::isfinite(counted.logProbability)) {
        slot.negLogLikelihood -= counted.logProbability;
      } else {
        slot.failed.push_back(i);
      }
      if (control.observer != nullptr) {
        std::lock_guard<std::mutex> lock(progressMutex);
        control.observer->onProgress(iteration, ++done, total);
      }
    }
    return true;
  };
  // With `mutex` held: adds every finished chunk that is next in order to the total, so the
  // sum is the same whichever thread computed which chunk.
  const auto drainReadyChunks = [&] {
    while (reduced < chunkCount && slots[reduced % window].ready) {
      Slot& next = slots[reduced % window];
      for (std::size_t r = 0; r < ruleCount; ++r) result.counts[r] += next.counts[r];
      result.negLogLikelihood += next.negLogLikelihood;
      result.failedSentences.insert(result.failedSentences.end(), next.failed.begin(),
                                    next.failed.end());
      next.ready = false;
      ++reduced;
    }
  };
  // With `mutex` held: the longest chunk not started that the window admits, or chunkCount.
  const auto chunkToStart = [&] {
    std::size_t best = chunkCount;
    const std::size_t end = std::min(chunkCount, reduced + window);
    for (std::size_t c = firstNotStarted; c < end; ++c) {
      if (started[c] == 0 && (best == chunkCount || chunkTokens[c] > chunkTokens[best])) best = c;
    }
    return best;
  };
  const auto worker = [&]() {
    try {
      for (;;) {
        std::size_t chunk = chunkCount;
        {
          std::unique_lock<std::mutex> lock(mutex);
          changed.wait(lock, [&] {
            if (stop || startedCount == chunkCount) return true;
            chunk = chunkToStart();
            return chunk < chunkCount;
          });
          if (stop || startedCount == chunkCount) return;
          started[chunk] = 1;
          ++startedCount;
          while (firstNotStarted < chunkCount && started[firstNotStarted] != 0) ++firstNotStarted;
        }
        Slot& slot = slots[chunk % window];
        if (!computeChunk(chunk, slot)) {
          std::lock_guard<std::mutex> lock(mutex);
          stop = true;
          cancelled = true;
          changed.notify_all();
          return;
        }
        std::lock_guard<std::mutex> lock(mutex);
        slot.ready = true;
        drainReadyChunks();
        changed.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;  // the other threads stop at their next chunk
        changed.notify_all();
      }
      throw;  // runOnThreads hands the first one to the caller
    }
  };
  parallel::runOnThreads(static_cast<int>(threads), worker);
  result.cancelled = cancelled;
  return result;
}

// ---- M-step ----

namespace {

// EM: relative frequencies per LHS over the rules that take part. Marks the rules it set.
void emUpdate(Grammar& grammar, const std::vector<double>& counts,
              const std::vector<char>& takesPart, std::vector<char>& updated) {
  for (SymbolId lhs : grammar.lhsSymbols()) {
    double sum = 0.0;
    for (RuleId id : grammar.rulesWithLhs(lhs)) {
      if (takesPart[index(id)] != 0) sum += counts[index(id)];
    }
    if (!(sum > 0.0)) continue;  // nothing observed: keep θ
    for (RuleId id : grammar.rulesWithLhs(lhs)) {
      if (takesPart[index(id)] == 0) continue;
      grammar.setProbability(id, counts[index(id)] / sum);
      updated[index(id)] = 1;
    }
  }
}

// VB: mean-field weights and the free energies. Marks the rules it set.
//   F = −log p(x) − Σ_r [lgΓ(α*) − lgΓ(α)] + Σ_X [lgΓ(Σα*) − lgΓ(Σα)] + Σ_r c_r log θ_new,
// summed in that order (Earleyx's); F_var adds Σ_r c_r (log θ_E-step − log θ_new).
// The rules' special functions run on `threads` threads; every sum is then taken on this
// thread in rule order, so the result is the same for any thread count.
void vbUpdate(Grammar& grammar, const std::vector<double>& counts,
              const std::vector<double>& priors, double negLogLikelihood, SpecialFunctions kind,
              const std::vector<char>& takesPart, int threads, std::vector<char>& updated,
              MaximizationResult& out) {
  constexpr std::size_t kGrain = 2048;  // rules per thread at the least
  const std::size_t ruleCount = grammar.ruleCount();
  struct LhsSums {
    double prior = 0.0;
    double count = 0.0;
    double posterior = 0.0;
    bool any = false;
    double logGammaTerm = 0.0;  // lgΓ(Σα*) − lgΓ(Σα)
    double digammaSum = 0.0;    // ψ(Σα*)
  };
  std::vector<LhsSums> sums(grammar.symbols().size());
  const auto sumsOf = [&](SymbolId lhs) -> LhsSums& { return sums[static_cast<std::size_t>(lhs)]; };
  for (RuleId id = 0; id < static_cast<RuleId>(ruleCount); ++id) {
    if (takesPart[index(id)] == 0) continue;
    const double prior = priors[index(id)];
    const double count = counts[index(id)];
    LhsSums& lhs = sumsOf(grammar.rule(id).lhs);
    lhs.prior += prior;
    lhs.count += count;
    lhs.posterior += prior + count;
    lhs.any = true;
  }
  const std::vector<SymbolId>& lhsSymbols = grammar.lhsSymbols();
  for (SymbolId symbol : lhsSymbols) {
    LhsSums& lhs = sumsOf(symbol);
    if (!lhs.any) continue;
    lhs.logGammaTerm = kind == SpecialFunctions::Earleyx
                           ? earleyxLogGamma(lhs.posterior) - earleyxLogGamma(lhs.prior)
                           : logGammaDifference(lhs.prior, lhs.count, kind);
    lhs.digammaSum = digamma(lhs.posterior, kind);
  }
  // Per rule: lgΓ(α*) − lgΓ(α), log θ_new and log θ_E-step.
  std::vector<double> logGammaTerms(ruleCount, 0.0);
  std::vector<double> logTheta(ruleCount, 0.0);
  std::vector<double> logThetaBefore(ruleCount, 0.0);
  parallel::forEachRange(ruleCount, threads, kGrain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      if (takesPart[r] == 0) continue;
      const auto id = static_cast<RuleId>(r);
      const double prior = priors[r];
      const double posterior = prior + counts[r];
      logGammaTerms[r] = logGammaDifference(prior, counts[r], kind);
      logTheta[r] = digamma(posterior, kind) - sumsOf(grammar.rule(id).lhs).digammaSum;
      logThetaBefore[r] = std::log(grammar.rule(id).probability);
    }
  });

  double freeEnergy = negLogLikelihood;
  for (std::size_t r = 0; r < ruleCount; ++r) {
    if (takesPart[r] != 0) freeEnergy -= logGammaTerms[r];
  }
  for (SymbolId symbol : lhsSymbols) {
    const LhsSums& lhs = sumsOf(symbol);
    if (lhs.any) freeEnergy += lhs.logGammaTerm;
  }
  double eStepCorrection = 0.0;
  for (std::size_t r = 0; r < ruleCount; ++r) {
    if (takesPart[r] == 0) continue;
    // Earleyx multiplies by α* − α rather than c (the same number but for rounding).
    const double weight =
        kind == SpecialFunctions::Earleyx ? (priors[r] + counts[r]) - priors[r] : counts[r];
    if (weight != 0.0) {
      freeEnergy += weight * logTheta[r];
      eStepCorrection += weight * (logThetaBefore[r] - logTheta[r]);
    }
    grammar.setProbability(static_cast<RuleId>(r), std::exp(logTheta[r]));
    updated[r] = 1;
  }
  out.freeEnergy = freeEnergy;
  out.variationalFreeEnergy = freeEnergy + eStepCorrection;
}

}  // namespace

MaximizationResult maximizationStep(Grammar& grammar, const std::vector<double>& counts,
                                    const std::vector<double>& priors, double negLogLikelihood,
                                    const InductionOptions& options,
                                    const std::vector<char>* support) {
  const bool keep = options.unobservedRules == UnobservedRules::Keep;
  std::vector<char> takesPart(grammar.ruleCount(), 0);
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    takesPart[index(id)] =
        !keep ? grammar.rule(id).probability > 0.0
              : counts[index(id)] > 0.0 || (support != nullptr && (*support)[index(id)] != 0);
  }
  std::vector<char> updated(grammar.ruleCount(), 0);
  MaximizationResult out;
  if (options.method == InductionMethod::Em) {
    emUpdate(grammar, counts, takesPart, updated);
    out.freeEnergy = kNaN;
    out.variationalFreeEnergy = kNaN;
  } else {
    vbUpdate(grammar, counts, priors, negLogLikelihood, options.specialFunctions, takesPart,
             options.threads, updated, out);
  }

  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (updated[index(id)] != 0 && grammar.rule(id).probability < options.pruneThreshold) {
      grammar.setProbability(id, 0.0);
    }
  }
  for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id) {
    if (!(grammar.rule(id).probability > 0.0)) continue;
    if (!keep || updated[index(id)] != 0) ++out.liveRules;
  }
  return out;
}

namespace {

// What is wrong with the run's set-up, or "".
std::string optionsProblem(const Grammar& grammar,
                           const std::vector<std::vector<std::string>>& sentences,
                           const InductionOptions& options) {
  if (!grammar.start()) return "the grammar has no start symbol";
  if (sentences.empty()) return "there are no sentences to learn from";
  if (options.threads < 1) return "threads must be at least 1";
  if (options.chunkTokens < 1) return "the chunk size must be at least 1 token";
  if (!(options.tolerance >= 0.0)) return "the tolerance must be a number ≥ 0";
  if (!(options.increaseTolerance >= 0.0)) return "the increase tolerance must be ≥ 0";
  if (options.maxIterations < 0) return "the maximum number of iterations must be ≥ 0";
  if (!(options.pruneThreshold >= 0.0)) return "the pruning threshold must be ≥ 0";
  return "";
}

// Whether iteration `iteration` (objective O, previous O') ends the run, and why; in the order
// Earleyx checks: a rise, the maximum, then convergence.
std::optional<StopReason> stopDecision(double objective, double previous, int iteration, bool vb,
                                       const InductionOptions& options, std::string& message) {
  std::ostringstream text;
  text.precision(17);
  std::optional<StopReason> stop;
  if (!std::isfinite(objective)) {
    text << (vb ? "the free energy" : "−log p(x)") << " is not finite";
    stop = StopReason::Failed;
  } else if (iteration > 1 &&
             (objective - previous) > options.increaseTolerance * std::abs(objective)) {
    text << "the objective increased from " << previous << " to " << objective;
    stop = StopReason::ObjectiveIncreased;
  } else if (options.maxIterations > 0 && iteration >= options.maxIterations) {
    text << "reached " << options.maxIterations << " iteration(s)";
    stop = StopReason::MaxIterations;
  } else if (objective == 0.0) {
    text << "the objective is 0";
    stop = StopReason::Converged;
  } else if (const double change = (previous - objective) / std::abs(objective);
             change < options.tolerance) {
    text.precision(6);
    text << "relative change " << change << " < " << options.tolerance;
    stop = StopReason::Converged;
  }
  if (stop) message = text.str();
  return stop;
}

}  // namespace

std::vector<char> countSupport(const Grammar& grammar,
                               const std::vector<std::vector<std::string>>& sentences,
                               const InductionOptions& options, const InductionControl& control,
                               bool* cancelled) {
  // Uniform probabilities over the live rules of each LHS: no derivation is then so improbable
  // that its counts underflow, and the support of the counts is that of every θ > 0.
  Grammar uniform = grammar;
  for (SymbolId lhs : uniform.lhsSymbols()) {
    std::size_t live = 0;
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) ++live;
    }
    for (RuleId id : uniform.rulesWithLhs(lhs)) {
      if (uniform.rule(id).probability > 0.0) {
        uniform.setProbability(id, 1.0 / static_cast<double>(live));
      }
    }
  }
  std::vector<char> support(grammar.ruleCount(), 0);
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(uniform, diagnostics, "grammar");
  if (!compiled) return support;  // the real grammar's compile reports the problem
  InductionControl quiet = control;
  quiet.observer = nullptr;
  const ExpectationResult expected = runExpectationStep(*compiled, sentences, options, quiet);
  if (cancelled != nullptr) *cancelled = expected.cancelled;
  for (std::size_t r = 0; r < support.size(); ++r) support[r] = expected.counts[r] > 0.0 ? 1 : 0;
  return support;
}

// ---- The driver ----

InductionResult induceGrammar(Grammar grammar,
                              const std::vector<std::vector<std::string>>& sentences,
                              const InductionOptions& options, const InductionControl& control) {
  InductionResult result;
  Diagnostics& diagnostics = result.diagnostics;
  const auto fail = [&](std::string message) {
    result.stopReason = StopReason::Failed;
    result.message = std::move(message);
    result.grammar = std::move(grammar);
    return std::move(result);
  };

  if (const std::string problem = optionsProblem(grammar, sentences, options); !problem.empty()) {
    return fail(problem);
  }

  const bool vb = options.method == InductionMethod::Vb;
  std::vector<double> priors;
  if (vb) {
    priors = resolvePriors(grammar, options, diagnostics);
    if (diagnostics.hasErrors()) return fail("bad Dirichlet priors");
    for (RuleId id = 0; id < static_cast<RuleId>(grammar.ruleCount()); ++id)
      grammar.setPrior(id, priors[index(id)]);
  }
  if (!initializeProbabilities(grammar, options, diagnostics) || diagnostics.hasErrors())
    return fail("cannot initialise the rule probabilities");

  // Keep mode: which rules any parse can use, recomputed whenever rules die.
  std::vector<char> support;
  std::size_t supportLiveRules = std::numeric_limits<std::size_t>::max();
  const auto liveRuleCount = [&] {
    std::size_t live = 0;
    for (const Rule& rule : grammar.rules()) {
      if (rule.probability > 0.0) ++live;
    }
    return live;
  };

  double previous = kInfinity;
  std::optional<CompiledGrammar> compiled;  // of `grammar`, which stays where it is
  for (int iteration = 1;; ++iteration) {
    if (control.cancel != nullptr && control.cancel->load()) {
      result.stopReason = StopReason::Cancelled;
      result.message = "cancelled before iteration " + std::to_string(iteration);
      break;
    }
    const auto start = std::chrono::steady_clock::now();
    // Only probabilities change between iterations: reweight the last iteration's compiled
    // grammar in place unless rules died (or it has ε-rules), and compile afresh otherwise.
    if (!compiled || !compiled->reweight(grammar)) {
      compiled.reset();
      Diagnostics compileDiagnostics;
      compiled = CompiledGrammar::compile(grammar, compileDiagnostics, "grammar");
      if (!compiled) diagnostics.append(compileDiagnostics);
    }
    if (!compiled) {
      result.stopReason = StopReason::Failed;
      result.message =
          "the grammar of iteration " + std::to_string(iteration) + " does not compile";
      break;
    }
    bool cancelled = false;
    if (options.unobservedRules == UnobservedRules::Keep && liveRuleCount() != supportLiveRules) {
      support = countSupport(grammar, sentences, options, control, &cancelled);
      supportLiveRules = liveRuleCount();
    }
    ExpectationResult expected;
    const auto expectationStart = std::chrono::steady_clock::now();
    if (!cancelled) {
      expected = runExpectationStep(*compiled, sentences, options, control, iteration);
    }
    const auto expectationEnd = std::chrono::steady_clock::now();
    if (cancelled || expected.cancelled) {
      result.stopReason = StopReason::Cancelled;
      result.message = "cancelled during iteration " + std::to_string(iteration) +
                       "; the grammar is that of iteration " + std::to_string(iteration - 1);
      break;
    }
    if (expected.failedSentences.size() == sentences.size()) {
      result.stopReason = StopReason::Failed;
      result.message =
          "no sentence parses with the grammar of iteration " + std::to_string(iteration);
      break;
    }
    const MaximizationResult maximized = maximizationStep(
        grammar, expected.counts, priors, expected.negLogLikelihood, options, &support);
    IterationRecord record;
    record.iteration = iteration;
    record.negLogLikelihood = expected.negLogLikelihood;
    record.freeEnergy = vb ? maximized.freeEnergy : kNaN;
    record.variationalFreeEnergy = vb ? maximized.variationalFreeEnergy : kNaN;
    record.objective = !vb                                           ? expected.negLogLikelihood
                       : options.vbObjective == VbObjective::Earleyx ? record.freeEnergy
                                                                     : record.variationalFreeEnergy;
    record.liveRules = maximized.liveRules;
    record.failures = expected.failedSentences.size();
    record.failedSentences = std::move(expected.failedSentences);
    record.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.expectationSeconds =
        std::chrono::duration<double>(expectationEnd - expectationStart).count();

    const double objective = record.objective;
    if (vb && std::isfinite(expected.negLogLikelihood) && !std::isfinite(objective)) {
      result.stopReason = StopReason::Failed;
      result.message = "iteration " + std::to_string(iteration) +
                       ": the variational update is not finite (a digamma or log-gamma of the "
                       "priors and counts overflowed)";
      result.records.push_back(std::move(record));
      break;
    }
    const std::optional<StopReason> stop =
        stopDecision(objective, previous, iteration, vb, options, result.message);
    if (stop) {
      result.stopReason = *stop;
      record.objectiveIncreased = *stop == StopReason::ObjectiveIncreased;
    }
    if (control.observer != nullptr) control.observer->onIteration(record, grammar);
    result.records.push_back(std::move(record));
    if (stop) break;
    previous = objective;
  }
  result.grammar = std::move(grammar);
  return result;
}

// ---- Input ----

SentenceFile readSentenceFile(const std::string& path) {
  SentenceFile file;
  std::string text;
  if (!readWholeFile(path, &text, &file.error)) {
    if (file.error.empty()) file.error = "cannot read " + path;
    return file;
  }
  return readSentenceText(text);
}

SentenceFile readSentenceText(std::string_view text) {
  SentenceFile file;
  for (const text::Line& line : text::splitLines(text)) {
    std::vector<std::string> words = tokenize(std::string(line.text));
    if (words.empty()) {
      ++file.blankLines;
    } else {
      file.sentences.push_back(std::move(words));
    }
  }
  return file;
}

// ---- Output ----

bool writeInducedEarleyx(const Grammar& grammar, InductionMethod method, std::ostream& out,
                         std::string* error) {
  return writeEarleyx(outputGrammar(grammar, method), out, error);
}

void writeInducedNltk(const Grammar& grammar, InductionMethod method, std::ostream& out) {
  writeNltk(outputGrammar(grammar, method), out);
}

void writeCurveCsv(const std::vector<IterationRecord>& records, std::ostream& out) {
  out << "iteration,neg_log_likelihood,free_energy,variational_free_energy,objective,live_rules,"
         "seconds,failures,increased\n";
  for (const IterationRecord& r : records) {
    out << r.iteration << ',' << csvNumber(r.negLogLikelihood) << ',' << csvNumber(r.freeEnergy)
        << ',' << csvNumber(r.variationalFreeEnergy) << ',' << csvNumber(r.objective) << ','
        << r.liveRules << ',' << csvNumber(r.seconds) << ',' << r.failures << ','
        << (r.objectiveIncreased ? 1 : 0) << '\n';
  }
}

void writeEarleyxObjectives(const std::vector<IterationRecord>& records, std::ostream& out) {
  for (const IterationRecord& r : records) {
    if (r.objectiveIncreased) continue;
    out << "iteration " << r.iteration << ' ' << javaDouble(r.negLogLikelihood) << ' '
        << javaDouble(r.objective) << '\n';
  }
}

bool saveInductionOutputs(const InductionResult& result, InductionMethod method,
                          const std::string& prefix, std::string* error) {
  std::ostringstream earleyx;
  if (!writeInducedEarleyx(result.grammar, method, earleyx, error)) return false;
  std::ostringstream nltk;
  writeInducedNltk(result.grammar, method, nltk);
  std::ostringstream curve;
  writeCurveCsv(result.records, curve);
  std::ostringstream objectives;
  writeEarleyxObjectives(result.records, objectives);
  AtomicOutputSet files(prefix + ".manifest");
  files.add(prefix + ".iogrammar", earleyx.str());
  files.add(prefix + ".pcfg", nltk.str());
  files.add(prefix + ".curve.csv", curve.str());
  files.add(prefix + ".obj", objectives.str());
  return files.commit(error);
}

}  // namespace gwb
