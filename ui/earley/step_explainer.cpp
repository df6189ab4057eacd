#include "ui/earley/step_explainer.h"

#include <cmath>
#include <limits>

#include <QLocale>
#include <QObject>

#include "ui/common/qt_conversions.h"
#include "ui/earley/parse_session.h"

namespace gwb::ui {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double logAdd(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

QString tr(const char* text) { return QObject::tr(text); }

// Shows true log probabilities in the chosen format. Values of a span [l, r] are shown
// divided by the prefix ratios of l..r in the "scaled" format, as the parser stores them.
class Numbers {
 public:
  Numbers(const ParseSession& session, NumberFormat format) : s_(session), f_(format) {}

  bool additive() const {
    return f_ == NumberFormat::LogProbability ||
           (f_ == NumberFormat::Scaled && s_.mode() == gwb::NumericMode::Log);
  }
  bool scaled() const {
    return f_ == NumberFormat::Scaled && s_.mode() == gwb::NumericMode::Scaled;
  }
  QString op() const { return additive() ? QStringLiteral(" + ") : QStringLiteral(" \u00d7 "); }
  // A quantity that is never scaled (rule probabilities, closures, Viterbi scores).
  QString plain(double logP) const {
    return additive() ? formatLog(logP) : formatProbabilityFromLog(logP);
  }
  QString forward(double logP, int set) const { return plain(scaled() ? logP - scale(set) : logP); }
  QString inner(double logP, int origin, int set) const {
    return plain(scaled() ? logP - (scale(set) - scale(origin)) : logP);
  }
  QString product(const QStringList& factors, const QString& result) const {
    return factors.join(op()) % QStringLiteral(" = ") % result;
  }
  // "α" or "ln α" / "α̂" depending on the format.
  QString alpha() const { return name(QStringLiteral("\u03b1")); }
  QString gamma() const { return name(QStringLiteral("\u03b3")); }
  QString viterbi() const { return additive() ? QStringLiteral("ln v") : QStringLiteral("v"); }
  double scale(int set) const { return s_.chart().logScaleUpTo(static_cast<std::size_t>(set)); }

 private:
  QString name(const QString& letter) const {
    if (additive()) return QStringLiteral("ln ") % letter;
    if (scaled()) return letter % QChar(0x0302);
    return letter;
  }
  const ParseSession& s_;
  NumberFormat f_;
};

QString quoted(const std::string& word) {
  return QStringLiteral("\u2018") % toQString(word) % QStringLiteral("\u2019");
}

QString ruleText(const ParseSession& s, std::int32_t rule) {
  QString text = toQString(s.compiled().ruleText(rule));
  text.replace(QStringLiteral(" -> "), QStringLiteral(" \u2192 "));
  if (rule == s.compiled().goalRule())
    text = QStringLiteral("GOAL \u2192 ") % s.symbolName(s.compiled().start());
  return text;
}

// The values of an item after operation `step` as true log probabilities.
struct TrueValues {
  double forward = kNegInf;
  double inner = kNegInf;
  double viterbi = kNegInf;
};

TrueValues valuesAt(const ParseSession& s, gwb::ItemRef item, std::size_t step) {
  TrueValues v;
  const auto state = s.trace().stateAt(item, step);
  if (!state) return v;
  v.forward = s.logForward(item, state->forward);
  v.inner = s.logInner(item, state->inner);
  v.viterbi = state->viterbi;
  return v;
}

// Σ α(w)·R_L(Z, y) over the items w of `set` waiting on some Z after operation `step`: the
// prediction mass of y, computed from the chart rather than read back from the item.
double logPredictionMass(const ParseSession& s, std::size_t set, std::size_t step,
                         gwb::SymbolId y) {
  double mass = kNegInf;
  const gwb::CompiledGrammar& g = s.compiled();
  for (const gwb::ItemRef& w : s.itemsWaitingFor(set, step, y)) {
    const gwb::EarleyItem& it = s.chart().item(w);
    const gwb::SymbolId z = g.rule(it.rule).rhs[static_cast<std::size_t>(it.dot)];
    for (const gwb::ClosureEntry& entry : g.leftCorner(z)) {
      if (entry.symbol != y) continue;
      mass = logAdd(mass, valuesAt(s, w, step).forward + entry.logValue);
    }
  }
  return mass;
}

// The words from..to−1 in quotes. A long span is elided in the middle — its first few words
// and the last ones before the current position, with the count — so that an explanation
// deep into a discourse does not quote thousands of words.
QString wordsOf(const ParseSession& s, int from, int to) {
  constexpr int kHead = 3;
  constexpr int kTail = 6;
  const auto word = [&s](int i) { return toQString(s.words()[static_cast<std::size_t>(i)]); };
  QStringList words;
  if (to - from <= kHead + kTail + 2) {
    for (int i = from; i < to; ++i) words << word(i);
    return QStringLiteral("\u201c") % words.join(QLatin1Char(' ')) % QStringLiteral("\u201d");
  }
  for (int i = from; i < from + kHead; ++i) words << word(i);
  words << QStringLiteral("\u2026");
  for (int i = to - kTail; i < to; ++i) words << word(i);
  return QStringLiteral("\u201c") % words.join(QLatin1Char(' ')) % QStringLiteral("\u201d ") %
         tr("(%1 words)").arg(QLocale().toString(to - from));
}

Explanation explainInit(const ParseSession& s, const gwb::ParseEvent& e, const Numbers& n) {
  Explanation x;
  const double e0 = s.compiled().nullProbability(s.compiled().start());
  x.headline = tr("init: the axiom %1 starts the parse; %2 = %3 = %4")
                   .arg(s.itemText(e.item), n.alpha(), n.gamma(), n.plain(std::log1p(-e0)));
  x.details
      << tr("State set 0 holds the items before any word is read. The goal rule "
            "GOAL \u2192 %1 has weight 1%2, so the axiom carries all the probability "
            "mass of the sentences to come.")
             .arg(s.symbolName(s.compiled().start()),
                  e0 > 0
                      ? tr(" \u2212 P(%1 \u21d2* \u03b5)").arg(s.symbolName(s.compiled().start()))
                      : QString());
  x.details << tr("Next, prediction adds every rule that can begin %1 at position 0.")
                   .arg(s.symbolName(s.compiled().start()));
  return x;
}

Explanation explainPredict(const ParseSession& s, std::size_t step, const gwb::ParseEvent& e,
                           const Numbers& n) {
  Explanation x;
  const gwb::CompiledGrammar& g = s.compiled();
  const gwb::EarleyItem& item = s.chart().item(e.item);
  const gwb::CompiledRule& rule = g.rule(item.rule);
  const gwb::SymbolId y = rule.lhs;
  const TrueValues v = valuesAt(s, e.item, step);
  const double logP = rule.logProbability;
  const double logMass = logPredictionMass(s, static_cast<std::size_t>(e.item.set), step, y);
  const std::vector<gwb::ItemRef> waiting =
      s.itemsWaitingFor(static_cast<std::size_t>(e.item.set), step, y);

  QString because;
  if (waiting.size() == 1) {
    const gwb::EarleyItem& w = s.chart().item(waiting.front());
    const gwb::CompiledRule& wr = g.rule(w.rule);
    const gwb::SymbolId z = wr.rhs[static_cast<std::size_t>(w.dot)];
    because = z == y
                  ? tr("because %1 waits for %2").arg(s.itemText(waiting.front()), s.symbolName(y))
                  : tr("because %1 waits for %2, which can begin with %3")
                        .arg(s.itemText(waiting.front()), s.symbolName(z), s.symbolName(y));
  } else if (!waiting.empty()) {
    because =
        tr("because %1 items wait for symbols that can begin with %2, e.g. %3")
            .arg(QString::number(waiting.size()), s.symbolName(y), s.itemText(waiting.front()));
  } else {
    because = tr("from the prediction mass of %1").arg(s.symbolName(y));
  }
  x.headline = tr("predict: %1, %2; %3 = %4, %5 = P(%6) = %7")
                   .arg(s.itemText(e.item), because, n.alpha(),
                        n.product({n.forward(logMass, e.item.set), n.plain(logP)},
                                  n.forward(v.forward, e.item.set)),
                        n.gamma(), ruleText(s, item.rule), n.plain(logP));
  x.factors = {logMass, logP};
  x.result = logMass + logP;
  x.details << tr("The prediction mass of %1 at %2 (%3) is the forward probability of the "
                  "items waiting there, each multiplied by the left-corner closure "
                  "R_L(Z, %1): the probability that a Z begins with %1 through any chain of "
                  "left corners. Predicted items predict nothing more: the closure already "
                  "reached every rule that can begin at %2.")
                   .arg(s.symbolName(y), QString::number(e.item.set),
                        n.forward(logMass, e.item.set));
  x.details << tr(
      "Lexical rules such as N \u2192 'man' are never predicted as items: the "
      "scanner makes [i, i+1] N \u2192 'man' . directly from the prediction mass "
      "of N at i.");
  if (s.lookahead()) {
    const auto set = static_cast<std::size_t>(e.item.set);
    x.details << (set < s.words().size()
                      ? tr("Look-ahead is on: only rules that can begin with the next word %1 "
                           "are predicted. Switch to textbook mode to see every prediction.")
                            .arg(quoted(s.words()[set]))
                      : tr("Look-ahead is on: at the end of the input nothing is predicted."));
  }
  return x;
}

Explanation explainScan(const ParseSession& s, std::size_t step, const gwb::ParseEvent& e,
                        const Numbers& n) {
  Explanation x;
  const gwb::CompiledGrammar& g = s.compiled();
  const gwb::EarleyItem& item = s.chart().item(e.item);
  const int to = e.item.set;
  const int from = to - 1;
  const std::string& word = s.words()[static_cast<std::size_t>(from)];
  const TrueValues v = valuesAt(s, e.item, step);
  const double logS = n.scale(to) - n.scale(from);
  const QString divide =
      n.scaled() ? QStringLiteral(" \u00f7 ") % formatProbabilityFromLog(logS) : QString();
  if (!e.predecessor.valid()) {
    const gwb::CompiledRule& rule = g.rule(item.rule);
    const double logP = rule.logProbability;
    const double logMass = logPredictionMass(s, static_cast<std::size_t>(from), step, rule.lhs);
    const QString product =
        n.product({n.forward(logMass, from), n.plain(logP) % divide}, n.forward(v.forward, to));
    const QString innerText =
        n.scaled() ? n.plain(logP) % divide % QStringLiteral(" = ") % n.inner(v.inner, from, to)
                   : n.plain(logP);
    x.headline = tr("scan: the word %1 at position %2 is %3; %4 gets %5 = %6, %7 = %8")
                     .arg(quoted(word), QString::number(from), ruleText(s, item.rule),
                          s.itemText(e.item), n.alpha(), product, n.gamma(), innerText);
    x.factors = {logMass, logP};
    x.result = logMass + logP;
    const std::vector<gwb::ItemRef> waiting =
        s.itemsWaitingFor(static_cast<std::size_t>(from), step, rule.lhs);
    x.details << tr("Lexical rules are never predicted as items: the scanner creates %1 "
                    "directly from the prediction mass of %2 in set %3 (%4) \u2014 the forward "
                    "probability of the items that wait for a symbol that can begin with %2%5.")
                     .arg(s.itemText(e.item), s.symbolName(rule.lhs), QString::number(from),
                          n.forward(logMass, from),
                          waiting.empty() ? QString()
                                          : tr(", such as %1").arg(s.itemText(waiting.front())));
  } else {
    const TrueValues p = valuesAt(s, e.predecessor, step);
    x.headline = tr("scan: the word %1 at position %2 advances %3 to %4; %5 = %6, %7 = %8")
                     .arg(quoted(word), QString::number(from), s.itemText(e.predecessor),
                          s.itemText(e.item), n.alpha(),
                          n.forward(p.forward, from) % divide % QStringLiteral(" = ") %
                              n.forward(v.forward, to),
                          n.gamma(),
                          n.inner(p.inner, item.origin, from) % divide % QStringLiteral(" = ") %
                              n.inner(v.inner, item.origin, to));
    x.details << tr(
        "A terminal after the dot matches the word, so the dot moves over it; the "
        "probabilities carry over unchanged.");
  }
  if (n.scaled()) {
    x.details << tr("Scaled arithmetic: every item scanned into set %1 is divided by the ratio "
                    "S = P(first %1 words \u2026)/P(first %2 words \u2026) = %3, so that their "
                    "forward values sum to 1 again and nothing underflows on long inputs.")
                     .arg(QString::number(to), QString::number(from),
                          formatProbabilityFromLog(logS));
  }
  // After the last scan of a word, the prefix probability and the word's surprisal are known.
  const bool lastOfWord =
      step + 1 >=
      s.trace().stepsOfKindInSet(static_cast<std::size_t>(to), gwb::OperationKind::Scan).second;
  if (lastOfWord) {
    const double prefix = s.result().logPrefixProbability[static_cast<std::size_t>(to)];
    const double surprisal = s.result().surprisal[static_cast<std::size_t>(from)];
    x.details << tr("The word is read: the prefix probability P(%1 \u2026) is the sum of the "
                    "forward probabilities of the items scanned into set %2 = %3, so the "
                    "surprisal of %4 is %5 nats (%6 bits).")
                     .arg(wordsOf(s, 0, to).mid(1).chopped(1), QString::number(to),
                          formatProbabilityFromLog(prefix), quoted(word),
                          QString::number(surprisal, 'f', 3),
                          QString::number(surprisal / std::log(2.0), 'f', 3));
  }
  return x;
}

Explanation explainComplete(const ParseSession& s, std::size_t step, const gwb::ParseEvent& e,
                            const Numbers& n) {
  Explanation x;
  const gwb::CompiledGrammar& g = s.compiled();
  const gwb::EarleyChart& chart = s.chart();
  const gwb::EarleyItem& child = chart.item(e.child);
  const gwb::EarleyItem& pred = chart.item(e.predecessor);
  const gwb::SymbolId y = g.rule(child.rule).lhs;
  const int j = child.origin;
  const int r = e.item.set;
  const int k = pred.origin;

  // The constituent Y over [j, r]: every finished item of it, summed.
  const std::vector<gwb::ItemRef> parts = s.constituentItems(e.child, step);
  double constituentInner = kNegInf;
  for (const gwb::ItemRef& part : parts)
    constituentInner = logAdd(constituentInner, valuesAt(s, part, step).inner);
  const TrueValues p = valuesAt(s, e.predecessor, step);
  const TrueValues c = valuesAt(s, e.child, step);

  double logUnit = 0.0;
  double logUnitBest = 0.0;
  for (const auto& entry : g.unitInto(y)) {
    if (entry.from == e.via) {
      logUnit = entry.logSum;
      logUnitBest = entry.logBest;
    }
  }
  const bool showUnit = e.via != y || std::abs(logUnit) > 1e-12;

  QStringList innerFactors{n.inner(p.inner, k, j)};
  QStringList forwardFactors{n.forward(p.forward, j)};
  if (showUnit) {
    innerFactors << n.plain(logUnit);
    forwardFactors << n.plain(logUnit);
  }
  innerFactors << n.inner(constituentInner, j, r);
  forwardFactors << n.inner(constituentInner, j, r);
  const double innerGain = p.inner + logUnit + constituentInner;
  const double forwardGain = p.forward + logUnit + constituentInner;

  const QString childText = parts.size() == 1
                                ? s.itemText(e.child)
                                : tr("%1 (one of %2 finished %3 items over [%4, %5])")
                                      .arg(s.itemText(e.child), QString::number(parts.size()),
                                           s.symbolName(y), QString::number(j), QString::number(r));
  const QString verb = e.created ? tr("to") : tr("and adds to");
  x.headline = tr("complete: %1 advances %2 %3 %4; %5 %6 %7")
                   .arg(childText, s.itemText(e.predecessor), verb, s.itemText(e.item), n.gamma(),
                        e.created ? QStringLiteral("=") : QStringLiteral("+="),
                        n.product(innerFactors, n.inner(innerGain, k, r)));

  x.factors = {p.inner, logUnit, constituentInner};
  x.result = innerGain;
  const QString yName = s.symbolName(y);
  x.details << tr("%1 %2 %3 (the forward probability keeps the prefix before the item).")
                   .arg(n.alpha(), e.created ? QStringLiteral("=") : QStringLiteral("+="),
                        n.product(forwardFactors, n.forward(forwardGain, r)));
  if (parts.size() > 1) {
    x.details << tr("The inner probability of %1 over [%2, %3] (%4) sums all %5 finished %1 "
                    "items with that span: every way of deriving %6 from %1 counts.")
                     .arg(yName, QString::number(j), QString::number(r),
                          n.inner(constituentInner, j, r), QString::number(parts.size()),
                          wordsOf(s, j, r));
  }
  if (showUnit) {
    x.details << tr("The item waits for %1, and %1 \u21d2* %2 through unit rules: the unit "
                    "closure R_U(%1, %2) = %3 sums every such chain, so the chain never "
                    "appears as items.")
                     .arg(s.symbolName(e.via), yName, n.plain(logUnit));
  }
  if (!e.created) {
    const double before = e.innerBefore;
    const double innerBefore = s.logInnerOfSpan(k, r, before);
    const auto after = s.trace().stateAt(e.item, step);
    x.details << tr("The item already existed: its %1 was %2 and is now %3.")
                     .arg(n.gamma(), n.inner(innerBefore, k, r),
                          n.inner(s.logInnerOfSpan(k, r, after->inner), k, r));
  }
  const double candidate = p.viterbi + logUnitBest + c.viterbi;
  const bool better = e.created || candidate > e.viterbiBefore;
  x.details << tr("Viterbi: %1 = %2 through the best %3 item; %4.")
                   .arg(n.viterbi(),
                        n.product(showUnit ? QStringList{n.plain(p.viterbi), n.plain(logUnitBest),
                                                         n.plain(c.viterbi)}
                                           : QStringList{n.plain(p.viterbi), n.plain(c.viterbi)},
                                  n.plain(candidate)),
                        yName,
                        e.created ? tr("the first derivation of this item")
                        : better
                            ? tr("better than the %1 kept so far, so it replaces it")
                                  .arg(n.plain(e.viterbiBefore))
                            : tr("the %1 kept so far is better").arg(n.plain(e.viterbiBefore)));
  return x;
}

}  // namespace

QString Explanation::toHtml() const {
  QString html = QStringLiteral("<p><b>") % headline.toHtmlEscaped() % QStringLiteral("</b></p>");
  for (const QString& detail : details)
    html += QStringLiteral("<p>") % detail.toHtmlEscaped() % QStringLiteral("</p>");
  return html;
}

QString Explanation::toPlainText() const {
  QStringList all{headline};
  all << details;
  return all.join(QStringLiteral("\n\n"));
}

Explanation explainStep(const ParseSession& session, std::size_t step, NumberFormat format) {
  if (!session.hasChart() || step >= session.stepCount()) return {};
  const Numbers numbers(session, format);
  const gwb::ParseEvent e = session.trace().event(step);
  switch (e.kind) {
    case gwb::OperationKind::Init: return explainInit(session, e, numbers);
    case gwb::OperationKind::Predict: return explainPredict(session, step, e, numbers);
    case gwb::OperationKind::Scan: return explainScan(session, step, e, numbers);
    case gwb::OperationKind::Complete: return explainComplete(session, step, e, numbers);
  }
  return {};
}

Explanation explainItem(const ParseSession& session, gwb::ItemRef item, std::size_t applied,
                        NumberFormat format) {
  Explanation x;
  if (!session.hasChart() || !session.stateAfter(item, applied)) return x;
  const Numbers n(session, format);
  const gwb::EarleyItem& it = session.chart().item(item);
  const int l = it.origin;
  const int r = item.set;
  const TrueValues v = valuesAt(session, item, applied - 1);
  x.headline = l == r ? tr("%1: nothing read yet at position %2")
                            .arg(session.itemText(item), QString::number(l))
                      : tr("%1 covers words %2\u2013%3, %4")
                            .arg(session.itemText(item), QString::number(l), QString::number(r - 1),
                                 wordsOf(session, l, r));
  x.details << tr("%1 = %2: the forward probability \u2014 the total probability of every way "
                  "to start a sentence, read the first %3 words and arrive at this item.")
                   .arg(n.alpha(), n.forward(v.forward, r), QString::number(r));
  x.details << tr("%1 = %2: the inner probability \u2014 of deriving the part before the dot "
                  "from this rule, over the words it covers.")
                   .arg(n.gamma(), n.inner(v.inner, l, r));
  x.details << tr("%1 = %2: the same for the single best derivation (Viterbi).")
                   .arg(n.viterbi(), n.plain(v.viterbi));
  QStringList history;
  const std::vector<std::size_t> steps =
      session.steppable() ? session.trace().stepsOf(item) : std::vector<std::size_t>{};
  for (const std::size_t step : steps) {
    if (step >= applied) break;
    history << tr("%1 at step %2")
                   .arg(toQString(gwb::operationKindName(session.trace().kindOfStep(step))),
                        QString::number(step + 1));
  }
  if (!history.isEmpty())
    x.details << tr("Made and updated by: %1.").arg(history.join(QStringLiteral(", ")));
  const std::vector<gwb::ItemRef> from = session.antecedents(item, applied);
  if (!from.empty()) {
    QStringList names;
    for (std::size_t i = 0; i < from.size() && i < 4; ++i) names << session.itemText(from[i]);
    if (from.size() > 4) names << tr("%1 more").arg(from.size() - 4);
    x.details
        << tr("Antecedents (outlined in the chart): %1.").arg(names.join(QStringLiteral("; ")));
  }
  return x;
}

Explanation explainOutcome(const ParseSession& session) {
  Explanation x;
  if (!session.hasChart() || session.outcome() != ParseSession::Outcome::Parsed) return x;
  const gwb::ParseResult& result = session.result();
  const auto n = static_cast<int>(session.words().size());
  if (result.success) {
    x.headline = tr("Parsed: P = %1").arg(formatReadableProbabilityFromLog(result.logProbability));
    return x;
  }
  if (result.failedAt >= 0) {
    const std::string& w = session.words()[static_cast<std::size_t>(result.failedAt)];
    const gwb::CompiledGrammar& g = session.compiled();
    const auto terminal = g.symbols().findTerminal(w);
    const bool known = (terminal && !g.lexicalRules(*terminal).empty()) || g.hasUnknownWordModel();
    x.headline = tr("No parse: word %1, %2, could not be scanned")
                     .arg(QString::number(result.failedAt + 1), quoted(w));
    if (!known) {
      x.details << tr("The grammar has no rule for %1: no preterminal rewrites to it, and the "
                      "grammar has no model for unknown words, so no item can read it.")
                       .arg(quoted(w));
    } else {
      x.details << tr("The grammar knows %1, but nothing in state set %2 can read it: no item "
                      "expects it and no predicted category can start with it after %3.")
                       .arg(quoted(w), QString::number(result.failedAt),
                            result.failedAt == 0 ? tr("the start of the sentence")
                                                 : wordsOf(session, 0, result.failedAt));
    }
    return x;
  }
  x.headline = tr("No parse: the sentence ended before a complete parse");
  x.details << tr("Every word was read: %1 is the beginning of a sentence of the grammar "
                  "(its prefix probability is %2), but no complete sentence \u2014 there is no "
                  "finished item [0, %3] GOAL \u2192 %4 . in the last state set.")
                   .arg(wordsOf(session, 0, n),
                        formatProbabilityFromLog(result.logPrefixProbability.back()),
                        QString::number(n), session.symbolName(session.compiled().start()));
  return x;
}

Explanation explainStart(const ParseSession& session) {
  Explanation x;
  x.headline =
      tr("Ready to parse %1 words: state sets 0 to %2 will hold the items.")
          .arg(QString::number(session.words().size()), QString::number(session.words().size()));
  x.details << tr("Step (F10) to add the axiom [0, 0] GOAL \u2192 . %1. Each item "
                  "[l, r] X \u2192 \u03b1 . \u03b2 says: X may cover words l..r\u22121 by this "
                  "rule, with \u03b1 already read. F11 steps to the next word, F5 runs to the end "
                  "or to a breakpoint, Shift+F10 steps back.")
                   .arg(session.symbolName(session.compiled().start()));
  return x;
}

}  // namespace gwb::ui
