// `gwb induce`: EM or Variational Bayes over expected rule counts (induction.h). One line per
// iteration on stdout, in Earleyx's form; a progress bar within long iterations on stderr;
// PREFIX.iogrammar / .pcfg / .curve.csv / .obj with --out. Ctrl-C cancels cooperatively: the
// grammar of the last finished iteration is still written.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "command_support.h"
#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/distribution.h"
#include "gwb/common/memory_budget.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction.h"
#include "gwb/earley/induction_checkpoint.h"
#include "gwb/earley/induction_output.h"

namespace gwb::cli {

namespace {

struct InduceSettings {
  std::string grammar;
  std::string format = "auto";
  std::string root;
  std::string input;
  std::string method = "vb";
  int iterations = 0;
  double tolerance = 1e-7;
  std::vector<std::string> priors;
  double defaultPrior = 1.0;
  double prune = 0.0;
  std::string init = "given";
  std::uint64_t seed = 1;
  double noise = 0.1;
  int threads = 1;
  std::string out;
  std::string mode = "scaled";
  bool earleyx = false;
  bool quiet = false;
  std::string checkpoint;
  bool resume = false;
  std::size_t chunkTokens = InductionOptions{}.chunkTokens;
};

// What fixes a run's result, for checking that --resume continues the same run (threads and
// the number of ranks do not change the result; --iterations may grow).
std::string runDescription(const InduceSettings& s) {
  std::ostringstream out;
  out << "grammar=" << s.grammar << " format=" << s.format << " root=" << s.root
      << " input=" << s.input << " method=" << s.method << " tolerance=" << s.tolerance
      << " default-prior=" << s.defaultPrior << " prune=" << s.prune << " init=" << s.init
      << " seed=" << s.seed << " noise=" << s.noise << " mode=" << s.mode
      << " earleyx=" << s.earleyx << " chunk-tokens=" << s.chunkTokens;
  for (const std::string& prior : s.priors) out << " prior=" << prior;
  std::string text = out.str();
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::atomic<bool> interrupted{false};
extern "C" void onInterrupt(int /*signal*/) { interrupted = true; }

// Prints Earleyx's iteration lines and draws a progress bar on stderr within an iteration.
class ConsoleObserver : public InductionObserver {
 public:
  ConsoleObserver(bool vb, bool progress) : vb_(vb), progress_(progress) {}

  // The bar appears only once an iteration has run for a second (short ones print nothing).
  void onProgress(int iteration, std::size_t done, std::size_t total) override {
    if (!progress_ || total < 2) return;
    const auto now = std::chrono::steady_clock::now();
    if (iteration != iteration_) {
      iteration_ = iteration;
      started_ = now;
    }
    if (now - started_ < std::chrono::seconds(1)) return;
    if (done < total && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const int width = 30;
    const auto filled = static_cast<int>(width * done / total);
    std::cerr << "\riteration " << iteration << " ["
              << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(width - filled), ' ') << "] " << done << '/'
              << total << std::flush;
    drawn_ = true;
  }

  void onIteration(const IterationRecord& r, const Grammar& /*grammar*/) override {
    clearBar();
    std::ostringstream line;
    line << "# iteration " << r.iteration << ", numRules=" << r.liveRules
         << ", sumNegLogProb = " << formatProbability(r.negLogLikelihood);
    if (vb_) {
      line << ", freeEnergy=" << formatProbability(r.freeEnergy)
           << ", variationalFreeEnergy=" << formatProbability(r.variationalFreeEnergy);
    }
    line << std::setprecision(3) << ", seconds=" << r.seconds;
    if (r.failures > 0) line << ", failures=" << r.failures;
    if (r.objectiveIncreased) line << " (objective increased)";
    std::cout << line.str() << std::endl;
  }

  void clearBar() {
    if (drawn_) std::cerr << '\r' << std::string(60, ' ') << '\r' << std::flush;
    drawn_ = false;
  }

 private:
  bool vb_;
  bool progress_;
  bool drawn_ = false;
  int iteration_ = 0;
  std::chrono::steady_clock::time_point started_{};
  std::chrono::steady_clock::time_point last_{};
};

GrammarLoad loadGrammar(const std::string& path, const std::string& format,
                        const std::string& root) {
  GrammarReadOptions options;
  options.format = *parseGrammarFormat(format);
  options.root = root;
  options.runChecks = false;
  return loadGrammarFile(path, options);
}

bool printErrors(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity != Severity::Note) std::cerr << toString(d) << '\n';
  return !diagnostics.hasErrors();
}

int runInduce(const InduceSettings& s) {
  const InductionMethod method = *parseInductionMethod(s.method);
  InductionOptions options = s.earleyx ? InductionOptions::earleyx(method) : InductionOptions{};
  options.method = method;
  options.maxIterations = s.iterations;
  options.tolerance = s.tolerance;
  options.defaultPrior = s.defaultPrior;
  options.pruneThreshold = s.prune;
  options.seed = s.seed;
  options.noise = s.noise;
  options.threads = s.threads;
  options.chunkTokens = s.chunkTokens;
  options.mode = s.mode == "log" ? NumericMode::Log : NumericMode::Scaled;
  bool ok = true;
  for (const std::string& text : s.priors) {
    std::string error;
    if (auto prior = parsePriorOverride(text, &error)) {
      options.priorOverrides.push_back(std::move(*prior));
    } else {
      std::cerr << "gwb: --prior " << text << ": " << error << '\n';
      ok = false;
    }
  }
  if (!ok) return 1;

  const GrammarLoad loaded = loadGrammar(s.grammar, s.format, s.root);
  if (!printErrors(loaded.diagnostics)) return 1;
  GrammarLoad initial;
  if (s.init == "given") {
    options.init = InitMethod::Given;
  } else if (s.init == "uniform") {
    options.init = InitMethod::Uniform;
  } else {
    initial = loadGrammar(s.init, "auto", "");
    if (!printErrors(initial.diagnostics)) return 1;
    options.init = InitMethod::FromGrammar;
    options.initFrom = &initial.grammar;
  }

  SentenceFile input = readSentenceFile(s.input);
  if (!input.ok()) {
    std::cerr << "gwb: " << input.error << '\n';
    return 1;
  }
  const std::vector<std::vector<std::string>>& sentences = input.sentences;
  const std::size_t blank = input.blankLines;
  if (blank > 0) std::cerr << "gwb: skipped " << blank << " blank line(s) of " << s.input << '\n';

  // Under mpirun every rank trains on the same data with the E-step spread over the ranks
  // (bitwise the one-process result); rank 0 alone prints, checkpoints and writes the outputs.
  Distribution& ranks = distribution();
  ConsoleObserver observer(method == InductionMethod::Vb,
                           !s.quiet && ranks.leader() && isatty(STDERR_FILENO) != 0);
  InductionControl control;
  control.observer = &observer;
  control.cancel = &interrupted;
  control.distribution = &ranks;
  const std::string checkpointPath =
      !s.checkpoint.empty() ? s.checkpoint : (s.out.empty() ? "" : s.out + ".checkpoint");
  const std::string run = runDescription(s);
  std::optional<InductionCheckpoint> resumeFrom;
  if (s.resume) {
    if (checkpointPath.empty()) {
      std::cerr << "gwb: --resume needs --out PREFIX (or --checkpoint FILE)\n";
      return 1;
    }
    // Rank 0 reads the checkpoint and hands it to the others (no shared file system needed).
    std::string text;
    std::string error;
    if (ranks.leader() && !readWholeFile(checkpointPath, &text, &error)) text.clear();
    ranks.broadcast(text);
    if (text.empty()) {
      if (ranks.leader())
        std::cerr << "gwb: --resume: " << (error.empty() ? checkpointPath + " is empty" : error)
                  << '\n';
      return failedOnEveryRank(ranks, 1);
    }
    resumeFrom = parseInductionCheckpoint(text, &error);
    if (!resumeFrom) {
      if (ranks.leader()) std::cerr << "gwb: --resume: " << checkpointPath << ": " << error << '\n';
      return failedOnEveryRank(ranks, 1);
    }
    if (resumeFrom->run != run) {
      if (ranks.leader())
        std::cerr << "gwb: --resume: " << checkpointPath
                  << " is the checkpoint of another run:\n  it has:  " << resumeFrom->run
                  << "\n  now:     " << run << '\n';
      return failedOnEveryRank(ranks, 1);
    }
    control.resume = &*resumeFrom;
    if (ranks.leader())
      std::cerr << "gwb: resuming after iteration " << resumeFrom->iteration << " ("
                << checkpointPath << ")\n";
  }
  // Fault injection for the resume tests (tests/mpi): "N" kills this process (SIGKILL) right
  // after its N-th checkpoint.
  const char* killAfter = std::getenv("GWB_TEST_KILL_AFTER_CHECKPOINT");
  const int killAfterCheckpoint = killAfter != nullptr ? std::atoi(killAfter) : 0;
  int checkpointsWritten = 0;
  bool checkpointFailed = false;
  if (!checkpointPath.empty() && ranks.leader()) {
    control.onCheckpoint = [&](const InductionCheckpoint& state) {
      InductionCheckpoint named = state;
      named.run = run;
      std::string error;
      if (!saveInductionCheckpoint(checkpointPath, named, &error) && !checkpointFailed) {
        std::cerr << "gwb: warning: cannot write the checkpoint: " << error << '\n';
        checkpointFailed = true;
      }
      if (++checkpointsWritten == killAfterCheckpoint) std::raise(SIGKILL);
    };
  }
  const InductionResult result = [&] {
    // Ctrl-C cancels while training; the previous action comes back however training ends
    // (an allocation failure included), so that a later Ctrl-C is not swallowed.
    struct InterruptScope {
      void (*previous)(int) = std::signal(SIGINT, onInterrupt);
      ~InterruptScope() { std::signal(SIGINT, previous); }
    } interruptScope;
    const MemoryContext training("training on " + std::to_string(sentences.size()) +
                                 " sentence(s) of " + s.input + " with " +
                                 std::to_string(loaded.grammar.ruleCount()) + " rules");
    return induceGrammar(loaded.grammar, sentences, options, control);
  }();
  observer.clearBar();
  if (!ranks.leader()) return result.ok() ? 0 : 1;  // rank 0 reports and writes
  if (ranks.size() > 1 && !s.quiet)
    std::cerr << "gwb: " << ranks.size() << " ranks; rank 0 sent and received "
              << ranks.bytesCommunicated() << " bytes in " << result.records.size()
              << " iteration(s)\n";
  for (const Diagnostic& d : result.diagnostics) std::cerr << toString(d) << '\n';

  if (!result.records.empty()) {
    std::cout << "# Final objective = " << formatProbability(result.records.back().objective)
              << '\n';
    const IterationRecord& last = result.records.back();
    if (last.failures > 0) {
      std::cerr << "gwb: " << last.failures << " of " << sentences.size()
                << " sentence(s) had no parse (left out), e.g. line(s)";
      for (std::size_t k = 0; k < last.failedSentences.size() && k < 5; ++k)
        std::cerr << ' ' << last.failedSentences[k] + 1;
      std::cerr << " of the non-blank lines\n";
    }
  }
  std::cout << "# Stop: " << stopReasonName(result.stopReason) << " (" << result.message << ")\n";
  if (!result.ok()) return 1;
  if (!s.out.empty()) {
    std::string saveError;
    if (!saveInductionOutputs(result, method, s.out, &saveError)) {
      std::cerr << "gwb: " << saveError << '\n';
      return 1;
    }
  }
  return result.stopReason == StopReason::Cancelled ? 130 : 0;
}

}  // namespace

void addInduceCommand(CLI::App& app, int& exitStatus) {
  auto s = std::make_shared<InduceSettings>();
  CLI::App* induce = app.add_subcommand(
      "induce",
      "learn rule probabilities by EM or Variational Bayes (inside-outside on the "
      "Earley chart)");
  induce->add_option("--grammar,-g", s->grammar, "grammar file")
      ->required()
      ->check(CLI::ExistingFile);
  induce->add_option("--format", s->format, "grammar format: earleyx, nltk or auto")
      ->check(CLI::IsMember({"auto", "earleyx", "nltk"}));
  induce->add_option("--root", s->root, "start symbol");
  induce->add_option("--input,-i", s->input, "training data, one sentence (or discourse) per line")
      ->required()
      ->check(CLI::ExistingFile);
  induce->add_option("--method,-m", s->method, "em or vb (default vb)")
      ->check(CLI::IsMember({"em", "vb"}));
  induce
      ->add_option("--iterations,-n", s->iterations, "at most N iterations (0: until convergence)")
      ->check(CLI::NonNegativeNumber);
  induce
      ->add_option("--tolerance", s->tolerance,
                   "stop when the objective's relative change is below T (default 1e-7)")
      ->check(CLI::NonNegativeNumber);
  induce->add_option("--prior", s->priors,
                     "PATTERN=VALUE: Dirichlet prior for matching rules, e.g. "
                     "'Word.* -> _* except Word.None=0.001' (repeatable; the last match wins)");
  induce
      ->add_option("--default-prior", s->defaultPrior,
                   "prior of rules without a prior column (default 1)")
      ->check(CLI::PositiveNumber);
  induce->add_option("--prune", s->prune, "drop rules whose re-estimated probability is below P");
  induce->add_option("--init", s->init,
                     "given (default), uniform (plus --noise, seeded by --seed), or a grammar "
                     "file whose rules, matched by text, give the starting probabilities");
  induce->add_option("--seed", s->seed, "random seed for --init uniform");
  induce->add_option("--noise", s->noise, "relative noise for --init uniform (default 0.1)")
      ->check(CLI::NonNegativeNumber);
  induce->add_option("--threads,-t", s->threads, "parse this many sentences at once")
      ->check(CLI::Range(1, 256));
  induce->add_option("--out,-o", s->out,
                     "write PREFIX.iogrammar, PREFIX.pcfg, PREFIX.curve.csv, PREFIX.obj and, "
                     "last, PREFIX.manifest");
  induce->add_option("--mode", s->mode, "numeric mode: scaled (default) or log")
      ->check(CLI::IsMember({"scaled", "log"}));
  induce->add_flag("--earleyx", s->earleyx,
                   "reproduce Earleyx: MALLET's digamma and log-gamma, unobserved rules kept");
  induce->add_flag("--quiet,-q", s->quiet, "no progress bar");
  induce
      ->add_option("--chunk-tokens", s->chunkTokens,
                   "E-step work unit: consecutive sentences of at least N tokens (default 1024), "
                   "whose counts are summed in a fixed order; the result depends on N, never on "
                   "threads or ranks")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
  induce->add_option("--checkpoint", s->checkpoint,
                     "after every iteration, save where the run stands to FILE (atomically; "
                     "default PREFIX.checkpoint with --out)");
  induce->add_flag("--resume", s->resume,
                   "go on from the checkpoint of an interrupted run of the same command (the "
                   "result is that of an uninterrupted run)");
  addMaxMemoryOption(*induce);
  induce->callback([s, &exitStatus] { exitStatus = runInduce(*s); });
}

}  // namespace gwb::cli
