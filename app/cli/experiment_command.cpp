// `gwb experiment social`: the paper's grounded-learning experiments (social_experiment.h) —
// build the grammar, train, decode, and print the metric row of Tables 2 and 3; over several
// seeds, also mean ± sd. `gwb experiment compare`: χ² tests between two decoded outputs, as
// Tables 4 and 5 mark them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "command_support.h"
#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/distribution.h"
#include "gwb/common/memory_budget.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/induction_checkpoint.h"
#include "gwb/earley/induction_output.h"
#include "gwb/grounded/social_experiment.h"
#include "gwb/grounded/synthetic_corpus.h"
#include "gwb/grounded/topic_annotation.h"
#include "gwb/grounded/topic_transitions.h"

namespace gwb::cli {

namespace {

struct ExperimentSettings {
  std::string model = "vb";
  std::string cues = "all";
  double alpha = 0.001;
  bool alphaSearch = false;
  double nullWordAlpha = 1.0;
  double transitionAlpha = 1.0;
  double selfTransitionAlpha = 0.0;  // 0: same as transitionAlpha
  int iterations = 0;
  double tolerance = 1e-7;
  std::uint64_t seed = 1;
  int seeds = 1;
  double noise = 0.1;
  int threads = 1;
  std::size_t chunkTokens = InductionOptions{}.chunkTokens;
  bool earleyx = false;
  std::string decode = "viterbi";
  bool topicFromWords = false;
  std::string out;
  std::string corpus;
  std::string gold;
  std::string recordings;
  std::string goldLexicon;
  bool quiet = false;
  bool resume = false;
};

// ../shared (or $GWB_SHARED_DIR) + relative, for the defaults.
std::string sharedDefault(const std::string& relative) {
  const char* env = std::getenv("GWB_SHARED_DIR");
  return std::string(env != nullptr && *env != '\0' ? env : "../shared") + "/" + relative;
}

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& out) {
  for (const Diagnostic& d : diagnostics) out << toString(d) << '\n';
}

std::string fixed(double value, int digits = 2) {
  if (std::isnan(value)) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

class ProgressObserver : public InductionObserver {
 public:
  explicit ProgressObserver(bool enabled) : enabled_(enabled) {}
  void onIteration(const IterationRecord& r, const Grammar& /*grammar*/) override {
    if (!enabled_) return;
    std::cerr << "  iteration " << r.iteration << ": -log p = " << fixed(r.negLogLikelihood, 1);
    if (!std::isnan(r.freeEnergy)) std::cerr << ", free energy = " << fixed(r.freeEnergy, 1);
    std::cerr << ", " << r.liveRules << " rules, " << fixed(r.seconds, 1) << " s";
    if (r.failures > 0) std::cerr << ", " << r.failures << " failures";
    std::cerr << '\n';
  }

 private:
  bool enabled_;
};

// The numbers of one metric row, in the order of kHeader after its first four columns.
std::vector<double> rowValues(const SocialExperimentResult& r) {
  const GroundedScores& s = r.scores;
  return {s.accuracy(),
          s.topic.f1(),
          s.topic.precision(),
          s.topic.recall(),
          s.word.f1(),
          s.word.precision(),
          s.word.recall(),
          s.lexicon.f1(),
          s.lexicon.precision(),
          s.lexicon.recall(),
          r.freeEnergy,
          r.negLogLikelihood,
          static_cast<double>(r.records.size()),
          r.seconds,
          s.labelAccuracy()};
}
// Digits for column c of rowValues: percentages 2, energies 1, iterations 0, seconds 1.
int digitsOf(std::size_t c) { return c < 10 || c == 14 ? 2 : (c == 12 ? 0 : 1); }
const char* kHeader =
    "model\tcues\talpha\tseed\tacc\ttopic_f1\ttopic_p\ttopic_r\tword_f1\tword_p\tword_r\tlex_f1"
    "\tlex_p\tlex_r\tenergy\tneg_log_p\titerations\tseconds\tlabel_acc";

// Predictions in the gold format (".dog ## a puppy.dog"), readable by readGoldAnnotation.
std::string decodedText(const std::vector<DecodedUtterance>& decoded) {
  std::ostringstream out;
  for (const DecodedUtterance& u : decoded) {
    if (u.topic != kNullTopic) out << '.' << u.topic << ' ';
    out << "##";
    for (std::size_t i = 0; i < u.words.size(); ++i) {
      out << ' ' << u.words[i];
      if (u.wordTopics[i] != kNullTopic) out << '.' << u.wordTopics[i];
    }
    out << '\n';
  }
  return out.str();
}

bool saveOutputs(const std::string& dir, const SocialExperimentResult& r, SocialModel model,
                 const std::string& row, const std::string& run) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << "gwb: cannot create " << dir << ": " << ec.message() << '\n';
    return false;
  }
  std::ostringstream grammar;
  std::string error;
  const InductionMethod method =
      model == SocialModel::Em ? InductionMethod::Em : InductionMethod::Vb;
  if (!writeInducedEarleyx(r.grammar, method, grammar, &error)) {
    std::cerr << "gwb: " << error << '\n';
    return false;
  }
  std::ostringstream curve;
  writeCurveCsv(r.records, curve);
  TopicAnnotations topics;
  topics.annotators = {"model"};
  topics.labels.resize(1);
  for (std::size_t i = 0; i < r.decoded.size(); ++i) {
    topics.labels[0].emplace_back(r.decoded[i].topic);
    topics.lines.push_back(static_cast<int>(i) + 1);
  }
  // One set: DIR/manifest, written last, vouches that the files come from one run.
  AtomicOutputSet files(dir + "/manifest");
  files.add(dir + "/learned.iogrammar", grammar.str());
  files.add(dir + "/curve.csv", curve.str());
  files.add(dir + "/decoded.yld", decodedText(r.decoded));
  files.add(dir + "/topics.txt", topicAnnotationsText(topics));
  files.add(dir + "/metrics.tsv", std::string(kHeader) + "\n" + row + "\n");
  if (!run.empty()) files.add(dir + "/run.txt", run + "\n");
  if (model == SocialModel::Discourse || model == SocialModel::DiscourseInit) {
    if (const auto t = topicTransitions(r.grammar)) {
      std::ostringstream csv;
      writeTransitionsCsv(*t, csv);
      files.add(dir + "/transitions.csv", csv.str());
    }
  }
  if (!files.commit(&error)) {
    std::cerr << "gwb: " << error << '\n';
    return false;
  }
  return true;
}

// Everything an experiment reads, checked.
struct ExperimentInputs {
  SocialCorpus corpus;
  GoldAnnotation gold;
  std::vector<Recording> recordings;
  Lexicon dictionary;
  std::vector<std::string> cues;
  std::string corpusPath;      // as read (for a run's description)
  std::string recordingsPath;  // "" without a recordings table
};

std::optional<ExperimentInputs> loadInputs(const ExperimentSettings& s) {
  const std::string corpusPath =
      s.corpus.empty() ? sharedDefault("data/earleyx/data/socialall.ortho.yld") : s.corpus;
  const std::string goldPath =
      s.gold.empty() ? sharedDefault("data/earleyx/data/gold.topic.ortho.yld") : s.gold;
  const std::string recordingsPath =
      s.recordings.empty() ? sharedDefault("data/social-cues/recordings.tsv") : s.recordings;
  ExperimentInputs in;
  in.corpusPath = corpusPath;
  SocialCorpusLoad corpus = loadSocialCorpusFile(corpusPath);
  printDiagnostics(corpus.diagnostics, std::cerr);
  if (!corpus.ok()) return std::nullopt;
  in.corpus = std::move(corpus.corpus);
  GoldAnnotationLoad gold = loadGoldAnnotationFile(goldPath);
  Diagnostics checks = gold.diagnostics;
  if (gold.ok()) alignGoldWithCorpus(gold.gold, in.corpus, checks);
  printDiagnostics(checks, std::cerr);
  if (checks.hasErrors()) return std::nullopt;
  in.gold = std::move(gold.gold);
  if (!s.recordings.empty() || std::filesystem::exists(recordingsPath)) {
    const RecordingsLoad load = loadRecordingsFile(recordingsPath);
    Diagnostics recordingChecks = load.diagnostics;
    if (load.ok()) checkRecordings(load.recordings, in.corpus, recordingsPath, recordingChecks);
    printDiagnostics(recordingChecks, std::cerr);
    if (recordingChecks.hasErrors()) return std::nullopt;
    in.recordings = load.recordings;
    in.recordingsPath = recordingsPath;
  } else {
    in.recordings = wholeCorpusRecording(in.corpus);
  }
  in.dictionary = goldLexicon(in.gold);
  if (!s.goldLexicon.empty()) {
    const LexiconLoad load = loadLexiconFile(s.goldLexicon);
    printDiagnostics(load.diagnostics, std::cerr);
    if (!load.ok()) return std::nullopt;
    in.dictionary = load.lexicon;
  }
  std::string error;
  const auto selection = CueSelection::parse(s.cues, &error);
  auto cues = selection ? selection->select(in.corpus.cueOrder, &error) : std::nullopt;
  if (!cues) {
    std::cerr << "gwb: --cues: " << error << '\n';
    return std::nullopt;
  }
  in.cues = std::move(*cues);
  if (distribution().leader())
    std::cerr << "corpus " << corpusPath << ": " << in.corpus.utterances.size() << " utterances, "
              << in.recordings.size() << " recording(s); gold dictionary " << in.dictionary.size()
              << " entries\n";
  return in;
}

// Mean and sample standard deviation rows over seeds (two lines).
std::string meanAndSdRows(const std::string& prefix, const std::vector<std::vector<double>>& rows) {
  const std::size_t columns = rows.front().size();
  std::ostringstream mean;
  std::ostringstream sd;
  mean << prefix << "\tmean";
  sd << prefix << "\tsd";
  for (std::size_t c = 0; c < columns; ++c) {
    double m = 0.0;
    for (const auto& row : rows) m += row[c];
    m /= static_cast<double>(rows.size());
    double v = 0.0;
    for (const auto& row : rows) v += (row[c] - m) * (row[c] - m);
    v /= static_cast<double>(rows.size() - 1);
    mean << '\t' << fixed(m, digitsOf(c));
    sd << '\t' << fixed(std::sqrt(v), std::max(1, digitsOf(c)));
  }
  return mean.str() + '\n' + sd.str() + '\n';
}

// One run's metric row: as printed, and its numbers unrounded (for the mean and sd rows).
struct RunRow {
  std::string text;
  std::vector<double> values;
};

// ---- Checkpoints and --resume of `gwb experiment social` ----
//
// With --out, every run (DIR: OUT, or OUT/alphaA-seedS with several) keeps where its training
// stands in DIR/checkpoint, rewritten atomically after every iteration that does not end a
// training stage (social_experiment.h), and discourse+init keeps its sentence stage's final
// state in DIR/sentence-stage.checkpoint. Both are core's induction checkpoints
// (induction_checkpoint.h) whose `run` line is the run's description (what fixes its result)
// and the stage. A finished run's outputs include DIR/run.txt, its description; its checkpoints
// are then removed. --resume skips a finished run (its row is read back from metrics.tsv, whose
// numbers are exact), goes on from the checkpoints of an interrupted one, starts a run that has
// neither afresh, and refuses files of another run.

// FNV-1a of a file's bytes ("-" when it cannot be read), to tell inputs apart by content.
std::string fileFingerprint(const std::string& path) {
  std::string text;
  if (!readWholeFile(path, &text)) return "-";
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  std::ostringstream out;
  out << std::hex << std::setw(16) << std::setfill('0') << hash;
  return out.str();
}

// What fixes a run's result (threads and ranks do not; --iterations may grow, as for induce),
// on one line. Decoding settings are left out: a resumed run decodes afresh.
std::string runDescription(const ExperimentSettings& s, const ExperimentInputs& in, double alpha,
                           std::uint64_t seed) {
  std::ostringstream out;
  out << "experiment-social model=" << s.model << " cues=";
  for (std::size_t i = 0; i < in.cues.size(); ++i) out << (i > 0 ? "," : "") << in.cues[i];
  out << " alpha=" << formatProbability(alpha) << " seed=" << seed
      << " null-word-alpha=" << formatProbability(s.nullWordAlpha)
      << " transition-alpha=" << formatProbability(s.transitionAlpha)
      << " self-transition-alpha=" << formatProbability(s.selfTransitionAlpha)
      << " tolerance=" << formatProbability(s.tolerance) << " noise=" << formatProbability(s.noise)
      << " chunk-tokens=" << s.chunkTokens << " earleyx=" << s.earleyx
      << " corpus=" << in.corpusPath << '@' << fileFingerprint(in.corpusPath)
      << " recordings=" << in.recordingsPath;
  if (!in.recordingsPath.empty()) out << '@' << fileFingerprint(in.recordingsPath);
  std::string text = out.str();
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

constexpr const char* kStageMark = " stage=";
constexpr const char* kSentenceStageDone = "sentence-done";

// What --resume found in a run's folder, decided on rank 0 and sent to every rank.
struct ResumeState {
  enum Kind : std::uint8_t { Error, Afresh, Finished, Resume };
  Kind kind = Afresh;
  std::string text;  // Error: the message; Finished: metrics.tsv
  SocialTrainingStage stage = SocialTrainingStage::Sentence;
  std::optional<InductionCheckpoint> checkpoint;         // Resume: the stage's last one
  std::optional<InductionCheckpoint> sentenceStageDone;  // discourse+init
};

// Rank 0: reads DIR and decides. `run` is the run's description.
ResumeState inspectRunFolder(const std::string& dir, const std::string& run, SocialModel model) {
  ResumeState state;
  const auto error = [&](std::string message) {
    state.kind = ResumeState::Error;
    state.text = std::move(message);
    return state;
  };
  const auto another = [&](const std::string& path, const std::string& theirs) {
    return error(path + " is of another run:\n  it has:  " + theirs + "\n  now:     " + run);
  };
  if (verifyOutputSet(dir + "/manifest")) {
    std::string theirs;
    if (!readWholeFile(dir + "/run.txt", &theirs))
      return error(dir + " holds finished outputs without run.txt (not of a resumable run)");
    if (!theirs.empty() && theirs.back() == '\n') theirs.pop_back();
    if (theirs != run) return another(dir + "/run.txt", theirs);
    if (!readWholeFile(dir + "/metrics.tsv", &state.text))
      return error("cannot read " + dir + "/metrics.tsv");
    state.kind = ResumeState::Finished;
    return state;
  }
  // A checkpoint file: nullopt when there is none; an error when it is not of this run.
  const auto read = [&](const std::string& path, std::string* stage,
                        std::string* problem) -> std::optional<InductionCheckpoint> {
    std::string text;
    if (!std::filesystem::exists(path)) return std::nullopt;
    std::string why;
    if (!readWholeFile(path, &text, &why)) {
      *problem = why;
      return std::nullopt;
    }
    auto checkpoint = parseInductionCheckpoint(text, &why);
    if (!checkpoint) {
      *problem = path + ": " + why;
      return std::nullopt;
    }
    const std::size_t mark = checkpoint->run.rfind(kStageMark);
    const std::string theirs = checkpoint->run.substr(0, mark);
    if (mark == std::string::npos || theirs != run) {
      *problem =
          path + " is the checkpoint of another run:\n  it has:  " + theirs + "\n  now:     " + run;
      return std::nullopt;
    }
    *stage = checkpoint->run.substr(mark + std::string(kStageMark).size());
    return checkpoint;
  };
  std::string stage;
  std::string problem;
  state.checkpoint = read(dir + "/checkpoint", &stage, &problem);
  if (!problem.empty()) return error(problem);
  if (state.checkpoint) {
    const auto parsed = parseSocialTrainingStage(stage);
    if (!parsed) return error(dir + "/checkpoint: unknown stage '" + stage + "'");
    state.stage = *parsed;
  }
  if (model == SocialModel::DiscourseInit) {
    std::string doneStage;
    state.sentenceStageDone = read(dir + "/sentence-stage.checkpoint", &doneStage, &problem);
    if (!problem.empty()) return error(problem);
    if (state.sentenceStageDone && doneStage != kSentenceStageDone)
      return error(dir + "/sentence-stage.checkpoint: expected stage " + kSentenceStageDone);
    // The sentence stage has ended: its last checkpoint is of no more use.
    if (state.sentenceStageDone && state.checkpoint && state.stage == SocialTrainingStage::Sentence)
      state.checkpoint.reset();
    if (state.checkpoint && state.stage == SocialTrainingStage::Discourse &&
        !state.sentenceStageDone) {
      return error(dir + "/checkpoint is of the discourse stage, but " + dir +
                   "/sentence-stage.checkpoint (the sentence stage's final state) is missing");
    }
  }
  state.kind =
      state.checkpoint || state.sentenceStageDone ? ResumeState::Resume : ResumeState::Afresh;
  return state;
}

std::string encodeResumeState(const ResumeState& state) {
  ByteWriter out;
  out.put<std::uint8_t>(state.kind);
  out.putString(state.text);
  out.put<std::uint8_t>(static_cast<std::uint8_t>(state.stage));
  out.putString(state.checkpoint ? formatInductionCheckpoint(*state.checkpoint) : "");
  out.putString(state.sentenceStageDone ? formatInductionCheckpoint(*state.sentenceStageDone) : "");
  return std::move(out.bytes());
}

ResumeState decodeResumeState(const std::string& bytes) {
  ByteReader in(bytes);
  ResumeState state;
  state.kind = static_cast<ResumeState::Kind>(in.get<std::uint8_t>());
  state.text = in.getString();
  state.stage = static_cast<SocialTrainingStage>(in.get<std::uint8_t>());
  for (auto* checkpoint : {&state.checkpoint, &state.sentenceStageDone}) {
    const std::string text = in.getString();
    if (!text.empty()) checkpoint->emplace(*parseInductionCheckpoint(text, nullptr));
  }
  return state;
}

// Every rank: what rank 0 finds in DIR.
ResumeState resumeStateOf(const std::string& dir, const std::string& run, SocialModel model,
                          Distribution& ranks) {
  std::string bytes;
  if (ranks.leader()) bytes = encodeResumeState(inspectRunFolder(dir, run, model));
  ranks.broadcast(bytes);
  return decodeResumeState(bytes);
}

// The row of a finished run, from its metrics.tsv: the printed row is made from the exact
// numbers, as the run printed it.
std::optional<RunRow> finishedRow(const ExperimentSettings& s, double alpha, std::uint64_t seed,
                                  const std::string& metrics) {
  std::istringstream lines(metrics);
  std::string line;
  std::getline(lines, line);  // the header
  if (!std::getline(lines, line)) return std::nullopt;
  std::istringstream fields(line);
  std::string field;
  for (int i = 0; i < 4; ++i) std::getline(fields, field, '\t');
  RunRow row;
  while (std::getline(fields, field, '\t'))
    row.values.push_back(std::strtod(field.c_str(), nullptr));
  if (row.values.size() != 15) return std::nullopt;
  std::ostringstream text;
  text << s.model << '\t' << s.cues << '\t' << alpha << '\t' << seed;
  for (std::size_t i = 0; i < row.values.size(); ++i)
    text << '\t' << fixed(row.values[i], digitsOf(i));
  row.text = text.str();
  return row;
}

// --resume on a run that finished before (its row) or whose folder is refused (nullopt). Every
// rank of `ranks` has the same `resumed` (rank 0's, broadcast), so a refusal is every rank's.
std::optional<RunRow> finishedOrFailed(const ResumeState& resumed, const ExperimentSettings& s,
                                       double alpha, std::uint64_t seed, const std::string& dir,
                                       const Distribution& ranks) {
  const bool leader = ranks.leader();
  if (resumed.kind == ResumeState::Error) {
    if (leader) std::cerr << "gwb: --resume: " << resumed.text << '\n';
    failedOnEveryRank(ranks, 1);
    return std::nullopt;
  }
  auto row = finishedRow(s, alpha, seed, resumed.text);
  if (leader) {
    if (row) {
      std::cerr << "  finished before (" << dir << ")\n";
    } else {
      std::cerr << "gwb: --resume: " << dir << "/metrics.tsv: bad row\n";
    }
  }
  if (!row) failedOnEveryRank(ranks, 1);
  return row;
}

// --resume on a run to train: where it goes on (`resumed` must outlive the run).
void setResumePoint(const ResumeState& resumed, const std::string& dir, bool leader,
                    SocialCheckpoints& checkpoints) {
  if (resumed.kind == ResumeState::Afresh) {
    if (leader) std::cerr << "  no checkpoint in " << dir << ": starting afresh\n";
    return;
  }
  if (resumed.sentenceStageDone) {
    checkpoints.sentenceStageDone = &*resumed.sentenceStageDone;
    if (leader) std::cerr << "  the sentence stage finished before\n";
  }
  if (resumed.checkpoint) {
    checkpoints.resume = &*resumed.checkpoint;
    checkpoints.resumeStage = resumed.stage;
    if (leader) {
      std::cerr << "gwb: resuming after iteration " << resumed.checkpoint->iteration << " of the "
                << socialTrainingStageName(resumed.stage) << " stage (" << dir << "/checkpoint)\n";
    }
  }
}

// Fault injection for the resume tests: "N" kills this process (SIGKILL) right after it has
// written its N-th checkpoint file (counted over the whole command).
int checkpointsBeforeKill() {
  const char* value = std::getenv("GWB_TEST_KILL_AFTER_CHECKPOINT");
  return value != nullptr ? std::atoi(value) : 0;
}

// One run on `ranks`: its row (and its outputs written); nullopt on failure. `checkpoints`:
// keep checkpoints in the run's folder and honour s.resume (gwb experiment social with --out).
std::optional<RunRow> runOne(const ExperimentSettings& s, const ExperimentInputs& in, double alpha,
                             std::uint64_t seed, bool subfolder, InductionObserver* observer,
                             Distribution& ranks, bool checkpoints = false) {
  SocialExperimentOptions options;
  options.model = *parseSocialModel(s.model);
  options.cues = in.cues;
  options.alpha = alpha;
  options.nullWordAlpha = s.nullWordAlpha;
  options.transitionAlpha = s.transitionAlpha;
  if (s.selfTransitionAlpha > 0.0) options.selfTransitionAlpha = s.selfTransitionAlpha;
  options.iterations = s.iterations;
  options.tolerance = s.tolerance;
  options.seed = seed;
  options.noise = s.noise;
  options.threads = s.threads;
  options.chunkTokens = s.chunkTokens;
  options.earleyx = s.earleyx;
  options.decoding =
      s.decode == "marginal" ? TopicDecodingMode::Marginal : TopicDecodingMode::Viterbi;
  options.topicFromWords = s.topicFromWords;
  options.observer = observer;
  // Under mpirun every rank runs the experiment, its E-steps spread over the ranks (bitwise the
  // one-process result); rank 0 alone reports and writes.
  options.distribution = &ranks;
  std::ostringstream dirText;
  dirText << s.out;
  if (subfolder) dirText << "/alpha" << alpha << "-seed" << seed;
  const std::string dir = dirText.str();
  checkpoints = checkpoints && !s.out.empty();
  // Rank 0 alone reads and writes checkpoints, so it alone needs the description.
  const std::string run =
      checkpoints && ranks.leader() ? runDescription(s, in, alpha, seed) : std::string();
  if (!s.quiet && ranks.leader()) {
    std::cerr << s.model << ", cues " << s.cues << ", alpha " << alpha << ", seed " << seed
              << ":\n";
  }
  ResumeState resumed;
  if (checkpoints && s.resume) {
    resumed = resumeStateOf(dir, run, options.model, ranks);
    if (resumed.kind == ResumeState::Error || resumed.kind == ResumeState::Finished)
      return finishedOrFailed(resumed, s, alpha, seed, dir, ranks);
    setResumePoint(resumed, dir, ranks.leader(), options.checkpoints);
  }
  static int checkpointsWritten = 0;
  static const int killAfter = checkpointsBeforeKill();
  bool checkpointFailed = false;
  const auto save = [&](const std::string& path, InductionCheckpoint named,
                        const std::string& stage) {
    named.run = run + kStageMark + stage;
    std::string error;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!saveInductionCheckpoint(path, named, &error) && !checkpointFailed) {
      std::cerr << "gwb: warning: cannot write the checkpoint: " << error << '\n';
      checkpointFailed = true;
    }
    if (++checkpointsWritten == killAfter) std::raise(SIGKILL);
  };
  if (checkpoints && ranks.leader()) {
    options.checkpoints.onCheckpoint = [&](SocialTrainingStage stage,
                                           const InductionCheckpoint& state) {
      save(dir + "/checkpoint", state, socialTrainingStageName(stage));
    };
    options.checkpoints.onSentenceStageDone = [&](const InductionCheckpoint& state) {
      save(dir + "/sentence-stage.checkpoint", state, kSentenceStageDone);
    };
  }
  const SocialExperimentResult r = [&] {
    std::ostringstream what;
    what << "running " << s.model << " (alpha " << alpha << ", seed " << seed << ") on "
         << in.corpus.utterances.size() << " utterances";
    const MemoryContext context(what.str());
    return runSocialExperiment(in.corpus, in.gold, in.dictionary, in.recordings, options);
  }();
  if (ranks.leader()) printDiagnostics(r.diagnostics, std::cerr);
  if (!r.ok()) return std::nullopt;
  const std::vector<double> values = rowValues(r);
  std::ostringstream row;
  row << s.model << '\t' << s.cues << '\t' << alpha << '\t' << seed;
  for (std::size_t i = 0; i < values.size(); ++i) row << '\t' << fixed(values[i], digitsOf(i));
  if (!s.quiet && ranks.leader()) std::cerr << "  " << r.stopMessage << '\n';
  if (!s.out.empty() && ranks.leader()) {
    // The file is for other programs: every number in full (what reads back to the same double).
    std::ostringstream fullRow;
    fullRow << s.model << '\t' << s.cues << '\t' << formatProbability(alpha) << '\t' << seed;
    for (const double value : values) fullRow << '\t' << formatProbability(value);
    if (!saveOutputs(dir, r, options.model, fullRow.str(), run)) return std::nullopt;
    if (checkpoints) {  // the outputs (with run.txt) now say the run is finished
      std::error_code ec;
      std::filesystem::remove(dir + "/checkpoint", ec);
      std::filesystem::remove(dir + "/sentence-stage.checkpoint", ec);
    }
  }
  return RunRow{row.str(), values};
}

int runExperiment(const ExperimentSettings& s) {
  if (s.resume && s.out.empty()) {
    std::cerr << "gwb: --resume needs --out DIR (where the checkpoints are)\n";
    return 1;
  }
  const std::optional<ExperimentInputs> inputs = loadInputs(s);
  if (!inputs) return 1;
  std::vector<double> alphas;
  if (s.alphaSearch) {
    alphas.assign(kAlphaLineSearch.begin(), kAlphaLineSearch.end());
  } else {
    alphas.push_back(s.alpha);
  }
  std::cout << kHeader << '\n';
  ProgressObserver progress(!s.quiet && distribution().leader());
  const bool subfolders = s.seeds > 1 || alphas.size() > 1;
  for (double alpha : alphas) {
    std::vector<std::vector<double>> rows;
    for (int k = 0; k < s.seeds; ++k) {
      auto row = runOne(s, *inputs, alpha, s.seed + static_cast<std::uint64_t>(k), subfolders,
                        &progress, distribution(), true);
      if (!row) return 1;
      std::cout << row->text << std::endl;
      rows.push_back(std::move(row->values));
    }
    if (rows.size() > 1) {
      std::ostringstream prefix;
      prefix << s.model << '\t' << s.cues << '\t' << alpha;
      std::cout << meanAndSdRows(prefix.str(), rows) << std::flush;
    }
  }
  return 0;
}

// ---- gwb experiment sweep ----

// A grid file (docs/scale-out.md): one setting a line, `#` starts a comment.
//   models vb discourse+init          the models (default vb)
//   cues all none drop:kid.eyes       the cue selections (default all)
//   alphas 0.001 0.01                 the Word.t -> w priors (default 0.001)
//   seeds 1-5 7                       the seeds: numbers and ranges (default 1)
//   row NAME MODEL CUES [SEEDS]       a named group instead of the models x cues product (as
//                                     scripts/reproduce-tables.sh names the paper's rows),
//                                     with its own seeds if given; repeatable
// Cells are groups x alphas x seeds, in that order; a group is one model and one cue selection.
struct SweepGroup {
  std::string name;  // its folder under --out
  std::string model;
  std::string cues;
  std::vector<std::uint64_t> seeds;
};

struct SweepGrid {
  std::vector<SweepGroup> groups;
  std::vector<double> alphas;
};

struct SweepCell {
  std::size_t group = 0;
  double alpha = 0.0;
  std::uint64_t seed = 0;
};

struct SweepSettings {
  std::string grid;
  ExperimentSettings settings;
};

std::optional<std::vector<std::uint64_t>> parseSeeds(const std::vector<std::string>& words,
                                                     std::string* error) {
  std::vector<std::uint64_t> seeds;
  for (const std::string& word : words) {
    const std::size_t dash = word.find('-');
    try {
      std::size_t used = 0;
      const std::uint64_t first = std::stoull(word.substr(0, dash), &used);
      if (used != word.substr(0, dash).size()) throw std::invalid_argument(word);
      std::uint64_t last = first;
      if (dash != std::string::npos) {
        last = std::stoull(word.substr(dash + 1), &used);
        if (used != word.size() - dash - 1 || last < first || last - first >= 100000)
          throw std::invalid_argument(word);
      }
      for (std::uint64_t seed = first; seed <= last; ++seed) seeds.push_back(seed);
    } catch (const std::exception&) {
      *error = "expected seeds as numbers or ranges like 1-5, not '" + word + "'";
      return std::nullopt;
    }
  }
  return seeds;
}

// A group's folder name: the model and cues with only letters, digits, '.', '_' and '-'.
std::string groupName(const std::string& model, const std::string& cues) {
  std::string name = model + "-" + cues;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '-';
  return name;
}

std::optional<SweepGrid> readSweepGrid(const std::string& path, std::string* error) {
  std::string text;
  if (!readWholeFile(path, &text, error)) return std::nullopt;
  std::vector<std::string> models{"vb"}, cueSelections{"all"};
  std::vector<std::uint64_t> seeds{1};
  SweepGrid grid;
  grid.alphas = {0.001};
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& what) {
    *error = path + ":" + std::to_string(number) + ": " + what;
    return std::nullopt;
  };
  while (std::getline(lines, line)) {
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string key;
    if (!(fields >> key)) continue;
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    if (words.empty()) return fail("'" + key + "' needs at least one value");
    std::string problem;
    if (key == "models") {
      for (const std::string& m : words)
        if (!parseSocialModel(m)) return fail("unknown model '" + m + "'");
      models = words;
    } else if (key == "cues") {
      for (const std::string& c : words)
        if (!CueSelection::parse(c, &problem)) return fail("cues '" + c + "': " + problem);
      cueSelections = words;
    } else if (key == "alphas") {
      grid.alphas.clear();
      for (const std::string& a : words) {
        char* end = nullptr;
        const double alpha = std::strtod(a.c_str(), &end);
        if (end != a.c_str() + a.size() || !(alpha > 0.0))
          return fail("expected a positive alpha, not '" + a + "'");
        grid.alphas.push_back(alpha);
      }
    } else if (key == "seeds") {
      const auto parsed = parseSeeds(words, &problem);
      if (!parsed) return fail(problem);
      seeds = *parsed;
    } else if (key == "row") {
      if (words.size() < 3) return fail("expected 'row NAME MODEL CUES [SEEDS...]'");
      if (!parseSocialModel(words[1])) return fail("unknown model '" + words[1] + "'");
      if (!CueSelection::parse(words[2], &problem))
        return fail("cues '" + words[2] + "': " + problem);
      if (groupName(words[0], "") != words[0] + "-")
        return fail("a row name may hold only letters, digits, '.', '_' and '-'");
      SweepGroup group{words[0], words[1], words[2], {}};
      if (words.size() > 3) {
        const auto parsed = parseSeeds({words.begin() + 3, words.end()}, &problem);
        if (!parsed) return fail(problem);
        group.seeds = *parsed;
      }
      grid.groups.push_back(std::move(group));
    } else {
      return fail("unknown setting '" + key + "' (models, cues, alphas, seeds or row)");
    }
  }
  if (grid.groups.empty()) {
    for (const std::string& model : models)
      for (const std::string& cues : cueSelections)
        grid.groups.push_back({groupName(model, cues), model, cues, seeds});
  }
  for (SweepGroup& group : grid.groups)
    if (group.seeds.empty()) group.seeds = seeds;
  return grid;
}

std::string cellFile(const std::string& out, const SweepGroup& group, double alpha,
                     std::uint64_t seed) {
  std::ostringstream path;
  path << out << '/' << group.name << "/cells/alpha" << alpha << "-seed" << seed << ".row";
  return path.str();
}

// A finished cell's file: the row as printed, then its numbers in hexadecimal floating point.
std::string cellText(const RunRow& row) {
  std::ostringstream out;
  out << row.text << '\n';
  for (double v : row.values) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", v);
    out << buffer << '\n';
  }
  out << "end\n";
  return out.str();
}

std::optional<RunRow> readCell(const std::string& path) {
  std::string text;
  if (!readWholeFile(path, &text)) return std::nullopt;
  std::istringstream in(text);
  RunRow row;
  if (!std::getline(in, row.text)) return std::nullopt;
  for (std::string line; std::getline(in, line);) {
    if (line == "end") return row;
    row.values.push_back(std::strtod(line.c_str(), nullptr));
  }
  return std::nullopt;  // cut short: run the cell again
}

int runSweep(const SweepSettings& w) {
  Distribution& ranks = distribution();
  std::string error;
  const std::optional<SweepGrid> grid = readSweepGrid(w.grid, &error);
  if (!grid) {
    if (ranks.leader()) std::cerr << "gwb: " << error << '\n';
    return 1;
  }
  std::vector<SweepCell> cells;
  for (std::size_t g = 0; g < grid->groups.size(); ++g)
    for (double alpha : grid->alphas)
      for (std::uint64_t seed : grid->groups[g].seeds) cells.push_back({g, alpha, seed});
  const std::string& out = w.settings.out;

  // Runs cell `k` in this process alone (its E-steps on this rank's threads) and records it.
  std::vector<std::optional<ExperimentInputs>> inputs(grid->groups.size());
  const auto runCell = [&](std::size_t k) -> std::optional<RunRow> {
    const SweepCell& cell = cells[k];
    const SweepGroup& group = grid->groups[cell.group];
    ExperimentSettings s = w.settings;
    s.model = group.model;
    s.cues = group.cues;
    s.out = out + "/" + group.name + "/runs";
    if (!inputs[cell.group]) inputs[cell.group] = loadInputs(s);
    if (!inputs[cell.group]) return std::nullopt;
    ProgressObserver progress(!s.quiet);
    return runOne(s, *inputs[cell.group], cell.alpha, cell.seed, true, &progress, singleProcess());
  };
  const auto saveCell = [&](std::size_t k, const RunRow& row) {
    const SweepCell& cell = cells[k];
    const std::string path = cellFile(out, grid->groups[cell.group], cell.alpha, cell.seed);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    std::string saveError;
    if (!writeFileAtomically(
            path, [&](std::ostream& file) { return static_cast<bool>(file << cellText(row)); },
            &saveError)) {
      std::cerr << "gwb: " << saveError << '\n';
      return false;
    }
    return true;
  };

  // The queue: the cells without a finished file, in grid order.
  std::vector<std::size_t> queue;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const SweepCell& cell = cells[k];
    if (!readCell(cellFile(out, grid->groups[cell.group], cell.alpha, cell.seed)))
      queue.push_back(k);
  }
  if (ranks.leader())  // one line, even with --quiet: what a resumed sweep skips

    std::cerr << "sweep " << w.grid << ": " << cells.size() << " cell(s), "
              << cells.size() - queue.size() << " finished before, " << queue.size()
              << " to run on " << ranks.size() << " rank(s)\n";

  if (ranks.size() == 1) {
    for (std::size_t k : queue) {
      const auto row = runCell(k);
      if (!row || !saveCell(k, *row)) return 1;
    }
  } else if (ranks.leader()) {
    // Rank 0 hands out cells and records what comes back; a worker asks with its last result
    // (or nothing) and gets the next cell, or -1 when none is left.
    std::size_t next = 0;
    int stopped = 0;
    while (stopped < ranks.size() - 1) {
      int from = 0;
      const std::string message = ranks.receiveFromAny(&from);
      ByteReader reader(message);
      if (!reader.atEnd()) {
        const auto k = static_cast<std::size_t>(reader.get<std::uint64_t>());
        RunRow row;
        row.text = reader.getString();
        row.values = reader.getDoubles();
        if (!saveCell(k, row)) return 1;
      }
      ByteWriter reply;
      if (next < queue.size()) {
        reply.put<std::int64_t>(static_cast<std::int64_t>(queue[next++]));
      } else {
        reply.put<std::int64_t>(-1);
        ++stopped;
      }
      ranks.send(from, reply.bytes());
    }
  } else {
    std::string result;  // empty: the first request
    for (;;) {
      ranks.send(0, result);
      int from = 0;
      const std::string reply = ranks.receiveFromAny(&from);
      ByteReader reader(reply);
      const auto k = reader.get<std::int64_t>();
      if (k < 0) break;
      const auto row = runCell(static_cast<std::size_t>(k));
      if (!row) return 1;  // main stops every rank, with this one's message above
      ByteWriter message;
      message.put<std::uint64_t>(static_cast<std::uint64_t>(k));
      message.putString(row->text);
      message.putDoubles(row->values);
      result = std::move(message.bytes());
    }
    return 0;
  }

  // Rank 0: every group's metrics.tsv (as `gwb experiment social --seeds N` prints it) and the
  // whole table, sweep.tsv, in grid order.
  std::ostringstream table;
  table << kHeader << '\n';
  for (std::size_t g = 0; g < grid->groups.size(); ++g) {
    const SweepGroup& group = grid->groups[g];
    std::ostringstream metrics;
    metrics << kHeader << '\n';
    for (double alpha : grid->alphas) {
      std::vector<std::vector<double>> rows;
      for (std::uint64_t seed : group.seeds) {
        const auto row = readCell(cellFile(out, group, alpha, seed));
        if (!row) {
          std::cerr << "gwb: " << cellFile(out, group, alpha, seed) << " is missing or cut short\n";
          return 1;
        }
        metrics << row->text << '\n';
        rows.push_back(row->values);
      }
      if (rows.size() > 1) {
        std::ostringstream prefix;
        prefix << group.model << '\t' << group.cues << '\t' << alpha;
        metrics << meanAndSdRows(prefix.str(), rows);
      }
    }
    const std::string text = metrics.str();
    table << text.substr(text.find('\n') + 1);
    std::string saveError;
    if (!writeFileAtomically(
            out + "/" + group.name + "/metrics.tsv",
            [&](std::ostream& file) { return static_cast<bool>(file << text); }, &saveError)) {
      std::cerr << "gwb: " << saveError << '\n';
      return 1;
    }
  }
  std::string saveError;
  if (!writeFileAtomically(
          out + "/sweep.tsv",
          [&](std::ostream& file) { return static_cast<bool>(file << table.str()); }, &saveError)) {
    std::cerr << "gwb: " << saveError << '\n';
    return 1;
  }
  std::cout << table.str() << std::flush;
  return 0;
}

// ---- gwb experiment compare ----

struct CompareSettings {
  std::string gold;
  std::string a;
  std::string b;
  bool noYates = false;
};

int runCompare(const CompareSettings& s) {
  const std::string goldPath =
      s.gold.empty() ? sharedDefault("data/earleyx/data/gold.topic.ortho.yld") : s.gold;
  const GoldAnnotationLoad gold = loadGoldAnnotationFile(goldPath);
  const GoldAnnotationLoad a = loadGoldAnnotationFile(s.a);
  const GoldAnnotationLoad b = loadGoldAnnotationFile(s.b);
  for (const auto* load : {&gold, &a, &b}) printDiagnostics(load->diagnostics, std::cerr);
  if (!gold.ok() || !a.ok() || !b.ok()) return 1;
  const auto asDecoded = [](const GoldAnnotation& g) {
    std::vector<DecodedUtterance> out;
    for (const GoldUtterance& u : g.utterances) {
      out.push_back(DecodedUtterance{u.topics.empty() ? kNullTopic : u.topics.front(), u.words,
                                     u.wordTopics});
    }
    return out;
  };
  const Lexicon dictionary = goldLexicon(gold.gold);
  std::size_t badA = 0;
  std::size_t badB = 0;
  const GroundedScores sa = scoreGrounded(gold.gold, asDecoded(a.gold), dictionary, &badA);
  const GroundedScores sb = scoreGrounded(gold.gold, asDecoded(b.gold), dictionary, &badB);
  if (badA > 0 || badB > 0) {
    std::cerr << "gwb: " << (badA > 0 ? s.a : s.b) << " does not match the gold's words on "
              << std::max(badA, badB) << " utterance(s)\n";
    return 1;
  }
  const auto report = [&](const char* level, const std::vector<bool>& x,
                          const std::vector<bool>& y) {
    const ChiSquareTest t = chiSquareCorrectness(x, y, !s.noYates);
    const auto correct = [](const std::vector<bool>& v) {
      return static_cast<double>(std::count(v.begin(), v.end(), true));
    };
    std::cout << level << '\t' << x.size() << '\t'
              << fixed(100.0 * correct(x) / static_cast<double>(x.size())) << '\t'
              << fixed(100.0 * correct(y) / static_cast<double>(y.size())) << '\t'
              << fixed(t.statistic, 3) << '\t' << std::setprecision(4) << t.pValue << '\t'
              << (t.significant() ? "*" : "") << '\n';
  };
  std::cout << "level\titems\tcorrect_a\tcorrect_b\tchi2\tp\tp<.05\n";
  report("utterance", sa.utteranceCorrect, sb.utteranceCorrect);
  report("word", sa.wordCorrect, sb.wordCorrect);
  return 0;
}

// The options a single experiment and a sweep share: how every run trains, decodes and reads.
void addTrainingOptions(CLI::App& command, ExperimentSettings& s) {
  command.add_option("--null-word-alpha", s.nullWordAlpha, "prior on Word.None -> w (default 1)");
  command.add_option("--transition-alpha", s.transitionAlpha,
                     "prior on the discourse transitions (default 1)");
  command.add_option("--self-transition-alpha", s.selfTransitionAlpha,
                     "prior on staying on a topic, Discourse.t -> Sentence.t Discourse.t "
                     "(default: --transition-alpha)");
  command.add_option("--iterations,-n", s.iterations, "at most N iterations (0: to convergence)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--tolerance", s.tolerance, "converged below this relative change (1e-7)");
  command.add_option("--noise", s.noise, "relative noise on the uniform start (default 0.1)");
  command
      .add_option("--decode", s.decode,
                  "viterbi (topics of the best parse, default) or marginal (each utterance's "
                  "most probable topic under the posterior)")
      ->check(CLI::IsMember({"viterbi", "marginal"}));
  command.add_flag("--topic-from-words", s.topicFromWords,
                   "label an utterance None unless one of its words carries its topic (the gold "
                   "annotation's rule; gives the paper's figures)");
  command.add_flag("--earleyx", s.earleyx,
                   "train as Earleyx: MALLET's digamma and log-gamma, unobserved rules kept");
  command
      .add_option("--chunk-tokens", s.chunkTokens,
                  "E-step work unit: consecutive strings of at least N tokens (default 1024); "
                  "the result depends on N, never on threads or ranks")
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
  command.add_option("--threads,-t", s.threads, "parse this many strings at once")
      ->check(CLI::Range(1, 256));
  command.add_option("--corpus", s.corpus,
                     "corpus (default $GWB_SHARED_DIR or ../shared: socialall.ortho.yld)");
  command.add_option("--gold", s.gold, "gold annotation (default gold.topic.ortho.yld)");
  command.add_option("--recordings", s.recordings,
                     "recordings table for the discourse models (default recordings.tsv)");
  command.add_option("--gold-lexicon", s.goldLexicon,
                     "'word topic' lines (default: every word.topic of the gold annotation)");
  command.add_flag("--quiet,-q", s.quiet, "no progress on stderr");
  addMaxMemoryOption(command);
}

}  // namespace

void addExperimentCommand(CLI::App& app, int& exitStatus) {
  CLI::App* experiment =
      app.add_subcommand("experiment", "grounded word-learning experiments (Luong et al. 2013)");
  experiment->require_subcommand(1);

  auto s = std::make_shared<ExperimentSettings>();
  CLI::App* social = experiment->add_subcommand(
      "social", "train a social-cue model, decode topics, print the metric row (Tables 2-3)");
  social->add_option("--model", s->model, "em, vb, discourse or discourse+init (default vb)")
      ->check(CLI::IsMember({"em", "vb", "discourse", "discourse+init"}));
  social->add_option("--cues", s->cues, "all, none, drop:CUE or only:CUE (default all)");
  social->add_option("--alpha", s->alpha, "Dirichlet prior on Word.t -> w (default 0.001)");
  social->add_flag("--alpha-search", s->alphaSearch,
                   "run every alpha of the line search 1, 0.1, 0.01, 0.001, 0.0001");
  social->add_option("--seed", s->seed, "random seed of the initial noise (default 1)");
  social->add_option("--seeds", s->seeds, "run seeds SEED .. SEED+N-1 and add mean and sd rows")
      ->check(CLI::Range(1, 1000));
  social->add_option("--out", s->out,
                     "write learned.iogrammar, decoded.yld, topics.txt, curve.csv, metrics.tsv, "
                     "run.txt (and transitions.csv) here, and last a manifest of them; keep a "
                     "checkpoint here after every iteration (for --resume)");
  social->add_flag("--resume", s->resume,
                   "go on from the checkpoints in --out of an interrupted run of the same "
                   "command: finished runs are not run again, an interrupted one continues "
                   "after its last iteration (the result is that of an uninterrupted run)");
  addTrainingOptions(*social, *s);
  social->callback([s, &exitStatus] { exitStatus = runExperiment(*s); });

  auto w = std::make_shared<SweepSettings>();
  CLI::App* sweep = experiment->add_subcommand(
      "sweep",
      "run a grid of social-cue experiments (models x cues x alphas x seeds, docs/scale-out.md) "
      "as a resumable work queue — over the ranks under mpirun — and write one table");
  sweep->add_option("--grid", w->grid, "the grid file")->required()->check(CLI::ExistingFile);
  sweep
      ->add_option("--out", w->settings.out,
                   "results folder: GROUP/metrics.tsv and GROUP/runs/ per row of the grid, "
                   "GROUP/cells/ (finished cells, not run again), sweep.tsv")
      ->required();
  addTrainingOptions(*sweep, w->settings);
  sweep->callback([w, &exitStatus] { exitStatus = runSweep(*w); });

  auto y = std::make_shared<std::pair<SyntheticCorpusOptions, std::string>>();
  CLI::App* synthesize = experiment->add_subcommand(
      "synthesize",
      "write a synthetic social-cue corpus of any size (PREFIX.yld, PREFIX.gold.yld, "
      "PREFIX.recordings.tsv) from a small generative model, for scaling studies");
  synthesize->add_option("--utterances,-n", y->first.utterances, "utterances (default 1000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  synthesize
      ->add_option("--per-recording", y->first.utterancesPerRecording,
                   "utterances per recording (default 200)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  synthesize->add_option("--objects", y->first.objects, "objects, i.e. topics (default 30)")
      ->check(CLI::Range(1, 100000));
  synthesize->add_option("--seed", y->first.seed, "random seed (default 1)");
  synthesize->add_option("--out,-o", y->second, "PREFIX of the three files")->required();
  synthesize->callback([y, &exitStatus] {
    const SyntheticCorpus made = generateSocialCorpus(y->first);
    const std::string& prefix = y->second;
    AtomicOutputSet files(prefix + ".manifest");
    files.add(prefix + ".yld", made.corpus);
    files.add(prefix + ".gold.yld", made.gold);
    files.add(prefix + ".recordings.tsv", made.recordings);
    std::string error;
    if (!files.commit(&error)) {
      std::cerr << "gwb: " << error << '\n';
      exitStatus = 1;
      return;
    }
    std::cout << "wrote " << y->first.utterances << " utterances to " << prefix << ".yld, "
              << prefix << ".gold.yld and " << prefix << ".recordings.tsv\n";
    exitStatus = 0;
  });

  auto c = std::make_shared<CompareSettings>();
  CLI::App* compare = experiment->add_subcommand(
      "compare", "chi-square tests of two models' per-utterance and per-word correctness");
  compare->add_option("a", c->a, "decoded.yld of model A")->required()->check(CLI::ExistingFile);
  compare->add_option("b", c->b, "decoded.yld of model B")->required()->check(CLI::ExistingFile);
  compare->add_option("--gold", c->gold, "gold annotation (default gold.topic.ortho.yld)");
  compare->add_flag("--no-yates", c->noYates, "no continuity correction");
  compare->callback([c, &exitStatus] { exitStatus = runCompare(*c); });
}

}  // namespace gwb::cli
