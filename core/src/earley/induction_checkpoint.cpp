#include "gwb/earley/induction_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/text_lines.h"
#include "gwb/common/atomic_file.h"

namespace gwb {

namespace {

std::string hex(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", value);
  return buffer;
}

// Whether nothing but spaces is left in `fields` (`iteration 2x` or `probabilities 3 4` are
// damage, not 2 and 3).
bool nothingLeft(std::istringstream& fields) {
  fields.clear();
  std::string extra;
  return !(fields >> extra);
}

bool readHex(const std::string& word, double* value) {
  if (word.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(word.c_str(), &end);
  return end == word.c_str() + word.size();
}

}  // namespace

std::string formatInductionCheckpoint(const InductionCheckpoint& checkpoint) {
  std::ostringstream out;
  out << "gwb-induction-checkpoint 1\n";
  out << "run " << checkpoint.run << '\n';
  out << "iteration " << checkpoint.iteration << '\n';
  out << "objective " << hex(checkpoint.objective) << '\n';
  for (const IterationRecord& r : checkpoint.records) {
    out << "record " << r.iteration << ' ' << hex(r.negLogLikelihood) << ' ' << hex(r.freeEnergy)
        << ' ' << hex(r.variationalFreeEnergy) << ' ' << hex(r.objective) << ' ' << r.liveRules
        << ' ' << hex(r.seconds) << ' ' << hex(r.expectationSeconds) << ' '
        << (r.objectiveIncreased ? 1 : 0) << ' ' << r.failures;
    for (std::size_t i : r.failedSentences) out << ' ' << i;
    out << '\n';
  }
  out << "probabilities " << checkpoint.probabilities.size() << '\n';
  for (double p : checkpoint.probabilities) out << hex(p) << '\n';
  out << "end\n";
  return out.str();
}

std::optional<InductionCheckpoint> parseInductionCheckpoint(const std::string& text,
                                                            std::string* error) {
  // The core's line reader: a byte-order mark is skipped and LF, CRLF and CR end lines alike (a
  // checkpoint copied through an editor or a CRLF checkout still reads).
  if (text::isUtf16(text)) {
    if (error != nullptr) *error = std::string("line 1: ") + text::kUtf16Message;
    return std::nullopt;
  }
  const std::vector<text::Line> lines = text::splitLines(text);
  std::size_t at = 0;
  std::string line;
  int lineNumber = 0;
  InductionCheckpoint checkpoint;
  const auto failAt = [&](const std::string& expected) {
    if (error != nullptr) *error = "line " + std::to_string(lineNumber) + ": expected " + expected;
    return std::nullopt;
  };
  const auto next = [&] {
    ++lineNumber;
    if (at == lines.size()) {
      line.clear();
      return false;
    }
    line = std::string(lines[at++].text);
    return true;
  };
  if (!next() || line != "gwb-induction-checkpoint 1")
    return failAt("'gwb-induction-checkpoint 1' (not a checkpoint of this version)");
  if (!next() || line.rfind("run ", 0) != 0) return failAt("'run DESCRIPTION'");
  checkpoint.run = line.substr(4);
  std::string word;
  {
    if (!next()) return failAt("'iteration N'");
    std::istringstream fields(line);
    if (!(fields >> word >> checkpoint.iteration) || word != "iteration" ||
        checkpoint.iteration < 1 || !nothingLeft(fields))
      return failAt("'iteration N' with N >= 1");
  }
  {
    if (!next()) return failAt("'objective X'");
    std::istringstream fields(line);
    std::string value;
    if (!(fields >> word >> value) || word != "objective" ||
        !readHex(value, &checkpoint.objective) || !nothingLeft(fields))
      return failAt("'objective X' (a hexadecimal float)");
  }
  while (next() && line.rfind("record ", 0) == 0) {
    std::istringstream fields(line.substr(7));
    IterationRecord r;
    std::string nll, fe, vfe, objective, seconds, eSeconds;
    int increased = 0;
    if (!(fields >> r.iteration >> nll >> fe >> vfe >> objective >> r.liveRules >> seconds >>
          eSeconds >> increased >> r.failures) ||
        !readHex(nll, &r.negLogLikelihood) || !readHex(fe, &r.freeEnergy) ||
        !readHex(vfe, &r.variationalFreeEnergy) || !readHex(objective, &r.objective) ||
        !readHex(seconds, &r.seconds) || !readHex(eSeconds, &r.expectationSeconds) ||
        (increased != 0 && increased != 1))
      return failAt(
          "an iteration record ('record ITERATION -LOGP F VF OBJECTIVE LIVE-RULES SECONDS "
          "E-SECONDS 0|1 FAILURES INDEX...')");
    r.objectiveIncreased = increased != 0;
    std::size_t index = 0;
    while (fields >> index) r.failedSentences.push_back(index);
    if (!nothingLeft(fields))
      return failAt("failed sentence indices (numbers) at the end of the record");
    if (r.failedSentences.size() != r.failures)
      return failAt(std::to_string(r.failures) + " failed sentence indices, found " +
                    std::to_string(r.failedSentences.size()));
    checkpoint.records.push_back(std::move(r));
  }
  if (checkpoint.records.size() != static_cast<std::size_t>(checkpoint.iteration))
    return failAt(std::to_string(checkpoint.iteration) +
                  " iteration records ('record ...'), found " +
                  std::to_string(checkpoint.records.size()));
  std::size_t count = 0;
  {
    std::istringstream fields(line);
    if (!(fields >> word >> count) || word != "probabilities" || !nothingLeft(fields))
      return failAt("'probabilities N'");
  }
  // The count is the file's word: room is made as the lines come, not for the count up front
  // (`probabilities 99999999999` in a damaged file must be an error, not an allocation).
  checkpoint.probabilities.reserve(std::min<std::size_t>(count, 1U << 16U));
  for (std::size_t i = 0; i < count; ++i) {
    double p = 0;
    if (!next() || !readHex(line, &p)) return failAt("a probability (a hexadecimal float)");
    // θ goes into the grammar as it is: NaN, an infinity or a negative number is damage.
    if (std::isnan(p) || std::isinf(p) || p < 0)
      return failAt("a probability (a finite hexadecimal float >= 0), found '" + line + "'");
    checkpoint.probabilities.push_back(p);
  }
  if (!next() || line != "end") return failAt("'end' (the checkpoint is cut short)");
  return checkpoint;
}

InductionCheckpoint finalCheckpoint(const InductionResult& result) {
  InductionCheckpoint checkpoint;
  checkpoint.iteration = static_cast<int>(result.records.size());
  checkpoint.probabilities.reserve(result.grammar.ruleCount());
  for (const Rule& rule : result.grammar.rules())
    checkpoint.probabilities.push_back(rule.probability);
  if (!result.records.empty()) checkpoint.objective = result.records.back().objective;
  checkpoint.records = result.records;
  return checkpoint;
}

bool saveInductionCheckpoint(const std::string& path, const InductionCheckpoint& checkpoint,
                             std::string* error) {
  const std::string text = formatInductionCheckpoint(checkpoint);
  return writeFileAtomically(
      path, [&](std::ostream& out) { return static_cast<bool>(out << text); }, error);
}

}  // namespace gwb
