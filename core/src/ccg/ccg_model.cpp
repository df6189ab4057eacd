#include "gwb/ccg/ccg_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/parallel.h"
#include "common/text_lines.h"
#include "gwb/ccg/lambda_type.h"
#include "gwb/common/atomic_file.h"

namespace gwb::ccg {

namespace {

// The answer of a filled chart (null: none), and whether it abstained on a tie.
Term answerOf(const CkyChart& chart, const EvaluationOptions& options, bool* tied) {
  *tied = false;
  if (!chart.hasParse()) return nullptr;
  if (options.mostProbableLogicalForm) {
    const std::vector<std::pair<Term, double>> forms = chart.logicalForms();  // best first
    if (forms.empty()) return nullptr;
    const double tolerance = CkyChart::kTieTolerance * std::max(1e-300, forms[0].second);
    *tied =
        options.abstainOnTies && forms.size() > 1 && forms[1].second >= forms[0].second - tolerance;
    return *tied ? nullptr : forms[0].first;
  }
  *tied = options.abstainOnTies && chart.bestLogicalFormCount() > 1;
  if (*tied) return nullptr;
  const std::vector<Derivation> best = chart.kBest(1);
  return best.empty() ? nullptr : best.front().logicalForm;
}

// The words a derivation skips: in each Skip step, those of its span outside the lexeme's words
// (the first run of them in the span; skipped words attach to the entry on their left, or to the
// first entry).
std::vector<std::string> skippedWordsOf(const DerivationNode& root, const FactoredLexicon& lexicon,
                                        const std::vector<std::string>& words) {
  std::vector<std::string> out;
  std::vector<const DerivationNode*> stack{&root};
  std::vector<std::pair<int, std::string>> skipped;  // position, word
  while (!stack.empty()) {
    const DerivationNode* node = stack.back();
    stack.pop_back();
    for (const DerivationNode& child : node->children) stack.push_back(&child);
    if (node->combinator != Combinator::Skip || node->lexeme < 0) continue;
    const std::vector<std::string>& own =
        lexicon.lexemes()[static_cast<std::size_t>(node->lexeme)].words;
    const auto spanBegin = words.begin() + node->begin;
    const auto spanEnd = words.begin() + node->end;
    const auto run = std::search(spanBegin, spanEnd, own.begin(), own.end());
    const int runBegin = static_cast<int>(run - words.begin());
    const int runEnd = runBegin + static_cast<int>(own.size());
    for (int k = node->begin; k < node->end; ++k) {
      if (k < runBegin || k >= runEnd) {
        skipped.emplace_back(k, words[static_cast<std::size_t>(k)]);
      }
    }
  }
  std::sort(skipped.begin(), skipped.end());
  out.reserve(skipped.size());
  for (auto& [position, word] : skipped) out.push_back(std::move(word));
  return out;
}

// Why `chart` (the full one) did not answer `gold` (GoldDiagnosis).
// `known`: every word of the lexicon's lexemes.
GoldDiagnosis diagnose(const FactoredLexicon& lexicon, const CkyOptions& parserOptions,
                       const std::unordered_set<std::string>& known, const SemanticExample& example,
                       const CkyChart& chart, const Term& answer, CkyFillCache* cache) {
  GoldDiagnosis diagnosis;
  for (const std::string& word : example.words) {
    if (known.count(word) == 0 &&
        std::find(diagnosis.unknownWords.begin(), diagnosis.unknownWords.end(), word) ==
            diagnosis.unknownWords.end()) {
      diagnosis.unknownWords.push_back(word);
    }
  }
  const double goldLog = chart.hasParse() ? chart.logProbability(example.logicalForm)
                                          : -std::numeric_limits<double>::infinity();
  if (std::isfinite(goldLog)) {
    diagnosis.kind = GoldDiagnosis::Kind::Outscored;
    diagnosis.goldProbability = std::exp(goldLog);
    diagnosis.answerProbability = answer ? std::exp(chart.logProbability(answer)) : 0.0;
    return diagnosis;
  }
  CkyOptions restricted = parserOptions;
  const std::vector<std::string> constants = constantsInOrder(example.logicalForm);
  restricted.allowedConstants =
      std::make_shared<const std::unordered_set<std::string>>(constants.begin(), constants.end());
  CkyChart goldChart(lexicon, example.words, restricted, cache);
  Derivation gold;
  if (!goldChart.bestDerivation(example.logicalForm, &gold)) {
    diagnosis.kind = GoldDiagnosis::Kind::NotDerivable;
    restricted.skipWords = true;
    CkyChart skipping(lexicon, example.words, restricted, cache);
    if (skipping.bestDerivation(example.logicalForm, &gold)) {
      diagnosis.derivableSkipping = true;
      diagnosis.skippedWords = skippedWordsOf(gold.root, lexicon, example.words);
    }
    return diagnosis;
  }
  diagnosis.kind = GoldDiagnosis::Kind::Pruned;
  diagnosis.goldScore = gold.score;
  const std::vector<Derivation> best = chart.kBest(1);
  diagnosis.bestScore =
      best.empty() ? -std::numeric_limits<double>::infinity() : best.front().score;
  return diagnosis;
}

// `# root-types T1 T2 ...` (types separated by spaces; "<e,t>" holds none).
void readRootTypes(std::string_view line, const std::string& file, int lineNumber,
                   CcgModelLoad* load) {
  auto types = std::make_shared<std::vector<TypePtr>>();
  std::size_t at = std::string_view("# root-types").size();
  while (at < line.size()) {
    if (line[at] == ' ' || line[at] == '\t') {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    std::string error;
    const TypePtr type = parseType(line.substr(at, end - at), &error);
    if (type == nullptr) {
      load->diagnostics.error(file, lineNumber, static_cast<int>(at) + 1,
                              "expected a type after '# root-types' (" + error + ")");
      return;
    }
    types->push_back(type);
    at = end;
  }
  if (types->empty()) {
    load->diagnostics.error(file, lineNumber, static_cast<int>(line.size()) + 1,
                            "expected at least one type after '# root-types' (a model without "
                            "the line lets a root have any type)");
    return;
  }
  load->parser.rootTypes = std::move(types);
}

}  // namespace

std::string writeCcgModel(const FactoredLexicon& lexicon, const CkyOptions& parser) {
  std::string out = "# gwb-ccg-model " + std::to_string(kCcgModelVersion) + "\n";
  out += "# beam " + std::to_string(parser.beam) + "\n";
  out += std::string("# composition ") + (parser.combinators.composition ? "1" : "0") + "\n";
  out += std::string("# beam-rank ") +
         (parser.beamRanking == BeamRanking::Viterbi ? "viterbi" : "inside") + "\n";
  out += std::string("# keep-lexical-entries ") + (parser.keepLexicalEntries ? "1" : "0") + "\n";
  if (parser.rootTypes != nullptr && !parser.rootTypes->empty()) {
    out += "# root-types";
    for (const TypePtr& type : *parser.rootTypes) out += " " + toString(type);
    out += "\n";
  }
  return out + writeFactoredLexicon(lexicon);
}

bool saveCcgModel(const FactoredLexicon& lexicon, const CkyOptions& parser, const std::string& path,
                  std::string* error) {
  const std::string text = writeCcgModel(lexicon, parser);
  return writeFileAtomically(
      path, [&](std::ostream& out) { return static_cast<bool>(out << text); }, error);
}

CcgModelLoad readCcgModel(std::string_view text, const std::string& file) {
  CcgModelLoad load;
  // The core's line reader: a byte-order mark is skipped and LF, CRLF and CR end lines alike.
  const std::vector<text::Line> lines = text::splitLines(text);
  const std::string_view first = lines.empty() ? std::string_view() : lines.front().text;
  const std::string expected = "# gwb-ccg-model " + std::to_string(kCcgModelVersion);
  if (first.rfind("# gwb-ccg-model ", 0) != 0) {
    load.diagnostics.error(file, 1, 1,
                           "expected '" + expected + "' (a model written by gwb ccg train)");
    return load;
  }
  bool known = false;
  for (int version = kCcgModelOldestVersion; version <= kCcgModelVersion; ++version) {
    known = known || first == "# gwb-ccg-model " + std::to_string(version);
  }
  if (!known) {
    load.diagnostics.error(file, 1, 17,
                           "model format version '" + std::string(first.substr(16)) +
                               "' is not supported (this gwb reads versions " +
                               std::to_string(kCcgModelOldestVersion) + " to " +
                               std::to_string(kCcgModelVersion) + ")");
    return load;
  }
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const std::string_view line = lines[k].text;
    const int lineNumber = lines[k].number;
    if (line.rfind("# ", 0) != 0) break;
    std::istringstream fields{std::string(line.substr(2))};
    std::string key;
    long long value = 0;
    fields >> key;
    if (key == "root-types") {
      readRootTypes(line, file, lineNumber, &load);
      continue;
    }
    if (key == "beam-rank") {
      std::string rank;
      std::string extra;
      if (!(fields >> rank) || (fields >> extra) || (rank != "inside" && rank != "viterbi")) {
        load.diagnostics.error(file, lineNumber, 13,
                               "expected 'inside' or 'viterbi' after '# beam-rank'");
        continue;
      }
      load.parser.beamRanking = rank == "viterbi" ? BeamRanking::Viterbi : BeamRanking::Inside;
      continue;
    }
    // Another comment line of the opening block (the lexicon's own, a note) is skipped: a
    // `# beam` after it still counts (it was silently ignored).
    if (key != "beam" && key != "composition" && key != "keep-lexical-entries") continue;
    std::string extra;  // `# beam 200x` or `# beam 2e5` is not a beam of 200 or 2
    if (!(fields >> value) || (fields >> extra) || value < 0 || value > 1000000 ||
        (key != "beam" && value > 1)) {
      load.diagnostics.error(
          file, lineNumber, 3 + static_cast<int>(key.size()) + 1,
          "expected a " + std::string(key == "beam" ? "beam size (0 to 1000000)" : "0 or 1") +
              " after '# " + key + "'");
      continue;
    }
    if (key == "beam") load.parser.beam = static_cast<int>(value);
    if (key == "composition") load.parser.combinators.composition = value == 1;
    if (key == "keep-lexical-entries") load.parser.keepLexicalEntries = value == 1;
  }
  LexiconLoad lexicon = readFactoredLexicon(text, file);
  load.lexicon = std::move(lexicon.lexicon);
  load.diagnostics.append(lexicon.diagnostics);
  return load;
}

CcgModelLoad loadCcgModel(const std::string& path) {
  return text::loadTextFile<CcgModelLoad>(path, [](std::string_view text, const std::string& file) {
    return readCcgModel(text, file);
  });
}

std::string toString(GoldDiagnosis::Kind kind) {
  switch (kind) {
    case GoldDiagnosis::Kind::None: return "not diagnosed";
    case GoldDiagnosis::Kind::Outscored: return "outscored";
    case GoldDiagnosis::Kind::Pruned: return "pruned";
    case GoldDiagnosis::Kind::NotDerivable: return "not derivable";
  }
  return "";
}

std::string describe(const GoldDiagnosis& diagnosis) {
  if (diagnosis.kind == GoldDiagnosis::Kind::None) return "";
  std::ostringstream out;
  out << toString(diagnosis.kind);
  if (diagnosis.kind == GoldDiagnosis::Kind::Outscored) {
    out << ": P(gold) " << diagnosis.goldProbability << ", P(predicted) "
        << diagnosis.answerProbability;
  } else if (diagnosis.kind == GoldDiagnosis::Kind::Pruned) {
    out << ": gold's best derivation scores " << diagnosis.goldScore << ", the chart's best "
        << diagnosis.bestScore;
  }
  if (!diagnosis.unknownWords.empty()) {
    out << "; words no lexeme holds:";
    for (const std::string& word : diagnosis.unknownWords) out << ' ' << word;
  }
  if (diagnosis.derivableSkipping) {
    out << "; derivable skipping:";
    for (const std::string& word : diagnosis.skippedWords) out << ' ' << word;
  }
  return out.str();
}

EvaluationResult evaluateSemanticParser(const FactoredLexicon& lexicon, const CkyOptions& parser,
                                        const std::vector<SemanticExample>& test,
                                        const EvaluationOptions& options) {
  EvaluationResult result;
  result.sentences.resize(test.size());
  CkyOptions parserOptions = parser;
  parserOptions.keepPrunedEntries = false;     // nothing shows them; same answers, less memory
  parserOptions.recordEvents = false;          // nothing replays an evaluation fill
  std::unordered_set<std::string> knownWords;  // for the diagnosis's unseen words
  if (options.diagnoseErrors) {
    for (const Lexeme& lexeme : lexicon.lexemes()) {
      knownWords.insert(lexeme.words.begin(), lexeme.words.end());
    }
  }
  parallel::forEachRange(test.size(), options.threads, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto start = std::chrono::steady_clock::now();
      SentenceResult& sentence = result.sentences[i];
      CkyFillCache cache;  // the re-parse with word skipping finds the plain parse's meanings
      CkyChart chart(lexicon, test[i].words, parserOptions, &cache);
      sentence.answer = answerOf(chart, options, &sentence.tied);
      sentence.answerWithSkipping = sentence.answer;
      sentence.tiedWithSkipping = sentence.tied;
      if (!sentence.answer && !sentence.tied && options.wordSkipping) {
        CkyOptions skipping = parserOptions;
        skipping.skipWords = true;
        CkyChart skipped(lexicon, test[i].words, skipping, &cache);
        sentence.answerWithSkipping = answerOf(skipped, options, &sentence.tiedWithSkipping);
      }
      sentence.correct = sentence.answer && exactMatch(sentence.answer, test[i].logicalForm);
      sentence.correctWithSkipping = sentence.answerWithSkipping &&
                                     exactMatch(sentence.answerWithSkipping, test[i].logicalForm);
      sentence.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (options.diagnoseErrors && !sentence.correct) {
        sentence.diagnosis =
            diagnose(lexicon, parserOptions, knownWords, test[i], chart, sentence.answer, &cache);
      }
    }
  });
  for (const SentenceResult& sentence : result.sentences) {
    ++result.plain.sentences;
    ++result.withSkipping.sentences;
    if (sentence.answer) ++result.plain.answered;
    if (sentence.correct) ++result.plain.correct;
    if (sentence.answerWithSkipping) ++result.withSkipping.answered;
    if (sentence.tied) ++result.plain.tied;
    if (sentence.tiedWithSkipping) ++result.withSkipping.tied;
    if (sentence.correctWithSkipping) ++result.withSkipping.correct;
    if (sentence.diagnosis.kind == GoldDiagnosis::Kind::Outscored) ++result.outscored;
    if (sentence.diagnosis.kind == GoldDiagnosis::Kind::Pruned) ++result.pruned;
    if (sentence.diagnosis.kind == GoldDiagnosis::Kind::NotDerivable) {
      ++result.notDerivable;
      if (!sentence.diagnosis.unknownWords.empty()) ++result.notDerivableUnseen;
      if (sentence.diagnosis.derivableSkipping) ++result.notDerivableSkipping;
    }
  }
  return result;
}

}  // namespace gwb::ccg
