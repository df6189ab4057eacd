#include "gwb/earley/induction_output.h"

#include <cmath>
#include <ostream>
#include <sstream>

#include "gwb/common/atomic_file.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"

namespace gwb {

namespace {

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

}  // namespace

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
    out << "iteration " << r.iteration << ' ' << formatJavaDouble(r.negLogLikelihood) << ' '
        << formatJavaDouble(r.objective) << '\n';
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
