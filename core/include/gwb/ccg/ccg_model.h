// A learned CCG semantic parser — factored lexicon, every weight, the parser settings it was
// trained with — as a file, and its evaluation by exact match (Kwiatkowski et al. 2011, section 8).
//
// Model file (docs/formats.md, "CCG models"): a factored lexicon file (lexicon.h) whose opening
// comment lines carry the format and version and the parser settings:
//
//     # gwb-ccg-model 4
//     # beam 200
//     # composition 1
//     # beam-rank inside
//     # keep-lexical-entries 0
//     # root-types <e,t> c i m p r s
//     lexeme 9.7 texas :- texas:s
//     ...
//
// so that the same file also reads as a plain lexicon (`gwb ccg parse --lexicon MODEL`). A file
// without the first line, or with another version, is refused with an error naming the line.
// Lines are read as by every text reader of the core (a byte-order mark skipped; LF, CRLF and CR
// line ends alike); a header value must be the whole rest of its line (`# beam 2e5` is refused).
// Version 2 lexemes may hold the operators argmax, argmin, count and sum, filling template slots
// in their place (term.h, operatorsAsConstants); version 1 models (none) still read, unchanged.
// Version 3 adds `# root-types`, the types a root's logical form may have (CkyOptions::rootTypes:
// the training forms' types), written when the parser has them; without the line (versions 1
// and 2, or a model trained without the restriction) a root may have any type. Version 4 adds
// `# beam-rank inside|viterbi` and `# keep-lexical-entries 0|1` (CkyOptions::beamRanking and
// keepLexicalEntries, UBL's beam discipline); without them (versions 1 to 3) inside and 0.
// Files are written atomically (gwb/common/atomic_file.h).
//
// Evaluation: each test sentence is parsed; the answer is the most probable logical form,
// p(z | x) summed over its derivations (the paper's eq. 2 and 3; CkyChart::logicalForms), or with
// `mostProbableLogicalForm` off the logical form of the best derivation (UBL's Viterbi answer);
// none without a parse. When several distinct logical forms (under exact match) share the best
// probability (or the best derivation score), the parser abstains: no answer, which counts against
// recall but not precision — as UBL's Train.isCorrect ("more than one equally high scoring logical
// forms ... we abstain from returning a result") and SPF's Tester do; `abstainOnTies` off answers
// with the first of them instead. With word skipping, a sentence without a parse is parsed again
// with skipping on (UBL's test-time fallback); a tied sentence is not (it had a parse), and a tie
// in the skipping parse abstains too. Recall = correct / sentences, precision = correct / answered,
// F1 their harmonic mean; correct means exact match (term.h). Sentences are parsed on `threads`
// threads, each result stored at its sentence's index, so the result does not depend on the thread
// count.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/lexicon.h"
#include "gwb/ccg/semantic_examples.h"
#include "gwb/common/diagnostic.h"

namespace gwb::ccg {

inline constexpr int kCcgModelVersion = 4;        // written
inline constexpr int kCcgModelOldestVersion = 1;  // read: this one to kCcgModelVersion

struct CcgModelLoad {
  FactoredLexicon lexicon;
  CkyOptions parser;
  Diagnostics diagnostics;
};

std::string writeCcgModel(const FactoredLexicon& lexicon, const CkyOptions& parser);
bool saveCcgModel(const FactoredLexicon& lexicon, const CkyOptions& parser, const std::string& path,
                  std::string* error = nullptr);
CcgModelLoad readCcgModel(std::string_view text, const std::string& file);
CcgModelLoad loadCcgModel(const std::string& path);

// Why a sentence's answer (without word skipping) was not its gold logical form, when
// EvaluationOptions::diagnoseErrors asks: the model's error or the search's.
struct GoldDiagnosis {
  enum class Kind {
    None,          // not diagnosed (the answer was right, or not asked)
    Outscored,     // gold is in the chart: another logical form is more probable (or tied)
    Pruned,        // not in the chart, but derivable from the lexicon: the beam dropped it
    NotDerivable,  // no derivation of gold even in the chart restricted to its constants
  };
  Kind kind = Kind::None;
  double goldProbability = 0;    // Outscored: P(gold | x), summed over its derivations
  double answerProbability = 0;  // Outscored: P(answer | x) (0 without an answer)
  double goldScore = 0;          // Pruned: θ·φ of gold's best derivation (restricted chart)
  double bestScore = 0;          // Pruned: θ·φ of the full chart's best derivation (-inf: none)
  std::vector<std::string> unknownWords;  // words no lexeme holds
  // NotDerivable: whether the restricted chart derives gold once words may be skipped, and the
  // words its best such derivation skips (what the lexicon cannot absorb).
  bool derivableSkipping = false;
  std::vector<std::string> skippedWords;
};

std::string toString(GoldDiagnosis::Kind kind);  // "outscored", "pruned", "not derivable", ...
// One line for a person: "outscored: P(gold) 0.12, P(predicted) 0.8", "pruned: ...", "not
// derivable; words no lexeme holds: surround; derivable skipping: surround". Empty for None.
std::string describe(const GoldDiagnosis& diagnosis);

struct SentenceResult {
  Term answer;              // without word skipping; null when there was no parse
  Term answerWithSkipping;  // the same, or the skipping re-parse's answer
  bool correct = false;
  bool correctWithSkipping = false;
  bool tied = false;              // abstained: distinct logical forms tied for the best score
  bool tiedWithSkipping = false;  // the same for the answer with word skipping
  double seconds = 0;             // parse time
  GoldDiagnosis diagnosis;        // EvaluationOptions::diagnoseErrors, for wrong answers
};

struct ExactMatchScores {
  int sentences = 0;
  int answered = 0;
  int correct = 0;
  int tied = 0;  // parsed, but abstained on a tie (not answered)
  double recall() const { return sentences ? static_cast<double>(correct) / sentences : 0.0; }
  double precision() const { return answered ? static_cast<double>(correct) / answered : 0.0; }
  double f1() const {
    const double r = recall();
    const double p = precision();
    return r + p > 0 ? 2 * r * p / (r + p) : 0.0;
  }
};

struct EvaluationResult {
  ExactMatchScores plain;
  int outscored = 0;  // diagnoses of the wrong answers (diagnoseErrors)
  int pruned = 0;
  int notDerivable = 0;
  int notDerivableUnseen = 0;    // of those, with a word no lexeme holds
  int notDerivableSkipping = 0;  // of those, derivable once words are skipped
  ExactMatchScores withSkipping;
  std::vector<SentenceResult> sentences;
};

struct EvaluationOptions {
  bool wordSkipping = true;
  bool abstainOnTies = true;  // as UBL and SPF; off: the first of the tied forms answers
  // The paper's arg max_z p(z | x) (eq. 2); off: the best derivation's form (UBL).
  bool mostProbableLogicalForm = true;
  int threads = 1;
  // For each sentence answered wrongly (or not) without word skipping, find out whether gold was
  // in the chart but outscored, pruned from the beam though derivable, or not derivable from the
  // lexicon (a chart restricted to gold's constants, as the learner finds y*; the same beam).
  bool diagnoseErrors = false;
};

EvaluationResult evaluateSemanticParser(const FactoredLexicon& lexicon, const CkyOptions& parser,
                                        const std::vector<SemanticExample>& test,
                                        const EvaluationOptions& options = {});

}  // namespace gwb::ccg
