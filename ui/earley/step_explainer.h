// Plain-language explanations of an Earley parse, for teaching.
//
// explainStep() describes one operation of a recorded parse the way a teacher would say it,
// with the numbers that went into it, in the chosen NumberFormat:
//   complete: [1, 2] NP → Det N . advances [1, 1] ... to ...; γ = 1 × 0.35 = 0.35
// The first sentence (the headline) names the operation, the items and the arithmetic; the
// detail paragraphs explain why (left-corner and unit closures, look-ahead, why lexical rules
// are never predicted, prefix probability and surprisal after a word). Products are written
// with × for probabilities and scaled values and as sums (+) for log probabilities, so that
// the shown factors always give the shown result.
//
// explainItem() describes an item after `applied` operations: its span and dotted rule, what
// α, γ and the Viterbi score mean for it, and every operation that has touched it so far.
#pragma once

#include <cstddef>
#include <vector>

#include <QString>
#include <QStringList>

#include "gwb/earley/earley_parser.h"
#include "ui/common/value_format.h"

namespace gwb::ui {

class ParseSession;

struct Explanation {
  QString headline;     // one sentence, plain text
  QStringList details;  // further paragraphs, plain text
  // The headline's arithmetic as true log probabilities: the γ (predict, complete) or α
  // (scan) factors and the value they give — for tests and for tooltips with full precision.
  std::vector<double> factors;
  double result = 0.0;
  QString toHtml() const;
  QString toPlainText() const;
};

Explanation explainStep(const ParseSession& session, std::size_t step, NumberFormat format);
Explanation explainItem(const ParseSession& session, gwb::ItemRef item, std::size_t applied,
                        NumberFormat format);
// How a finished parse ended, for the status line (headline) and the explanation: the
// probability of a sentence; the word that could not be scanned (and whether the grammar knows
// it at all); or that the sentence ended before a complete parse. Empty for a cancelled parse.
Explanation explainOutcome(const ParseSession& session);
// What the stepper shows before the first operation.
Explanation explainStart(const ParseSession& session);

}  // namespace gwb::ui
