// Grounded word learning on the command line (Luong, Frank & Johnson 2013):
//   gwb grammar generate unigram|discourse --corpus FILE [--cues ...] [--alpha A] --out GRAMMAR
//   gwb segment-eval REF HYP [--k K] [--recordings TSV]
//   gwb transitions GRAMMAR [--top N] [--csv FILE] [--counts CORPUS [--recordings TSV]]
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/batch.h"
#include "gwb/earley/compiled_grammar.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/grounded/segmentation.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/social_grammar.h"
#include "gwb/grounded/topic_annotation.h"
#include "gwb/grounded/topic_transitions.h"
#include "gwb/grounded/transition_counts.h"

namespace gwb::cli {

namespace {

void printDiagnostics(const Diagnostics& diagnostics, std::ostream& out) {
  for (const Diagnostic& d : diagnostics) out << toString(d) << '\n';
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// ---- gwb grammar generate ----

struct GenerateSettings {
  std::string kind;
  std::string corpus;
  std::string cues = "all";
  double alpha = 0.001;
  double nullWordAlpha = 1.0;
  double transitionAlpha = 1.0;
  double selfTransitionAlpha = 0.0;  // 0: same as transitionAlpha
  double pinnedAlpha = 1e10;
  std::string out;
};

int runGenerate(const GenerateSettings& s) {
  const SocialCorpusLoad corpus = loadSocialCorpusFile(s.corpus);
  printDiagnostics(corpus.diagnostics, std::cerr);
  if (!corpus.ok()) return 1;
  std::string error;
  const auto selection = CueSelection::parse(s.cues, &error);
  const auto cues = selection ? selection->select(corpus.corpus.cueOrder, &error) : std::nullopt;
  if (!cues) {
    std::cerr << "gwb: --cues: " << error << '\n';
    return 1;
  }
  SocialGrammarOptions options;
  options.kind = *parseSocialGrammarKind(s.kind);
  options.cues = *cues;
  options.wordAlpha = s.alpha;
  options.nullWordAlpha = s.nullWordAlpha;
  options.transitionAlpha = s.transitionAlpha;
  if (s.selfTransitionAlpha > 0.0) options.selfTransitionAlpha = s.selfTransitionAlpha;
  options.pinnedAlpha = s.pinnedAlpha;
  const SocialGrammarBuild build = generateSocialGrammar(corpus.corpus, options);
  printDiagnostics(build.diagnostics, std::cerr);
  if (!build.ok()) return 1;
  if (!saveGrammarFile(build.grammar, s.out, GrammarFormat::Earleyx, &error)) {
    std::cerr << "gwb: " << error << '\n';
    return 1;
  }
  std::string cueList;
  for (const std::string& c : *cues) cueList += (cueList.empty() ? "" : " ") + c;
  std::cerr << "wrote " << build.grammar.ruleCount() << " rules (" << s.kind << ", root "
            << socialGrammarRoot(options.kind) << ", " << corpus.corpus.topics().size()
            << " objects, " << corpus.corpus.vocabulary().size()
            << " words, cues: " << (cueList.empty() ? "none" : cueList) << ") to " << s.out << '\n';
  return 0;
}

// ---- gwb segment-eval ----

struct SegmentSettings {
  std::string reference;
  std::string hypothesis;
  std::string referenceColumn = "1";
  std::string hypothesisColumn = "1";
  std::string recordings;
  int window = 0;  // 0: segeval's default per recording
};

// One label per utterance from a topic annotation file (a column) or a gold .yld file.
std::optional<std::vector<std::optional<std::string>>> loadLabels(const std::string& path,
                                                                  const std::string& column) {
  if (endsWith(path, ".yld")) {
    const GoldAnnotationLoad gold = loadGoldAnnotationFile(path);
    printDiagnostics(gold.diagnostics, std::cerr);
    if (!gold.ok()) return std::nullopt;
    return goldTopicLabels(gold.gold);
  }
  const TopicAnnotationsLoad load = loadTopicAnnotationsFile(path);
  printDiagnostics(load.diagnostics, std::cerr);
  if (!load.ok()) return std::nullopt;
  auto index = load.annotations.annotatorIndex(column);
  if (!index) {
    std::string names;
    for (const std::string& n : load.annotations.annotators) names += " " + n;
    std::cerr << "gwb: " << path << ": no annotator '" << column << "' (columns:" << names << ")\n";
    return std::nullopt;
  }
  return load.annotations.labels[*index];
}

std::string fixed(double value, int digits = 1) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

int runSegmentEval(const SegmentSettings& s) {
  const auto reference = loadLabels(s.reference, s.referenceColumn);
  const auto hypothesis = loadLabels(s.hypothesis, s.hypothesisColumn);
  if (!reference || !hypothesis) return 1;
  if (reference->size() != hypothesis->size()) {
    std::cerr << "gwb: " << s.reference << " has " << reference->size() << " utterances, "
              << s.hypothesis << " has " << hypothesis->size() << '\n';
    return 1;
  }
  std::vector<Recording> recordings;
  if (!s.recordings.empty()) {
    const RecordingsLoad load = loadRecordingsFile(s.recordings);
    printDiagnostics(load.diagnostics, std::cerr);
    if (!load.ok()) return 1;
    recordings = load.recordings;
    int covered = 0;
    for (const Recording& r : recordings) {
      if (r.firstUtterance != covered) {
        std::cerr << s.recordings << ":" << r.line << ": error: recording '" << r.id
                  << "' does not start where the previous one ended\n";
        return 1;
      }
      covered += r.utterances;
    }
    if (covered != static_cast<int>(reference->size())) {
      std::cerr << "gwb: the recordings cover " << covered << " utterances, the labels "
                << reference->size() << '\n';
      return 1;
    }
  } else {
    Recording all;
    all.id = "all";
    all.utterances = static_cast<int>(reference->size());
    recordings.push_back(all);
  }
  std::cout << "recording\tunits\tk\ta=b\tPk\tWindowDiff\tPk_error\tWindowDiff_error\n";
  std::vector<SegmentationComparison> parts;
  double meanEqual = 0.0;
  double meanPk = 0.0;
  double meanWd = 0.0;
  std::size_t skipped = 0;
  for (const Recording& r : recordings) {
    std::vector<std::string> ref;
    std::vector<std::string> hyp;
    for (int i = r.firstUtterance; i < r.firstUtterance + r.utterances; ++i) {
      const auto& a = (*reference)[static_cast<std::size_t>(i)];
      const auto& b = (*hypothesis)[static_cast<std::size_t>(i)];
      if (!a || !b) {
        ++skipped;  // not annotated by one side: left out
        continue;
      }
      ref.push_back(*a);
      hyp.push_back(*b);
    }
    std::string error;
    const auto c = compareLabelings(
        ref, hyp, s.window > 0 ? std::optional<int>(s.window) : std::nullopt, &error);
    if (!c) {
      std::cerr << "gwb: recording " << r.id << ": " << error << "; left out\n";
      continue;
    }
    parts.push_back(*c);
    meanEqual += c->aEqualsB();
    meanPk += c->pk.agreement();
    meanWd += c->windowDiff.agreement();
    std::cout << r.id << '\t' << c->units << '\t' << c->pk.window << '\t' << fixed(c->aEqualsB())
              << '\t' << fixed(c->pk.agreement()) << '\t' << fixed(c->windowDiff.agreement())
              << '\t' << fixed(c->pk.error(), 4) << '\t' << fixed(c->windowDiff.error(), 4) << '\n';
  }
  if (parts.empty()) return 1;
  if (parts.size() > 1) {
    const SegmentationComparison pooled = poolComparisons(parts);
    const auto n = static_cast<double>(parts.size());
    std::cout << "pooled\t" << pooled.units << '\t'
              << (pooled.pk.window != 0 ? std::to_string(pooled.pk.window) : std::string("-"))
              << '\t' << fixed(pooled.aEqualsB()) << '\t' << fixed(pooled.pk.agreement()) << '\t'
              << fixed(pooled.windowDiff.agreement()) << '\t' << fixed(pooled.pk.error(), 4) << '\t'
              << fixed(pooled.windowDiff.error(), 4) << '\n';
    std::cout << "mean\t" << pooled.units << "\t-\t" << fixed(meanEqual / n) << '\t'
              << fixed(meanPk / n) << '\t' << fixed(meanWd / n) << '\t'
              << fixed(1.0 - meanPk / n / 100.0, 4) << '\t' << fixed(1.0 - meanWd / n / 100.0, 4)
              << '\n';
  }
  if (skipped > 0)
    std::cerr << skipped << " utterance(s) without a label on one side were left out\n";
  return 0;
}

// ---- gwb transitions ----

struct TransitionSettings {
  std::string grammar;
  std::string root;
  std::string csv;
  std::size_t top = 3;
  bool stochastic = false;
  std::string countsCorpus;  // expected counts over this corpus's recordings
  std::string recordings;
  std::string countsCsv;
  int threads = 1;
};

// `gwb transitions --counts`: expected transition counts over a corpus (transition_counts.h).
int printExpectedCounts(const TransitionSettings& s, const Grammar& grammar,
                        const TopicTransitions& t) {
  const SocialCorpusLoad corpus = loadSocialCorpusFile(s.countsCorpus);
  printDiagnostics(corpus.diagnostics, std::cerr);
  if (!corpus.ok()) return 1;
  std::vector<Recording> recordings = wholeCorpusRecording(corpus.corpus);
  if (!s.recordings.empty()) {
    RecordingsLoad load = loadRecordingsFile(s.recordings);
    checkRecordings(load.recordings, corpus.corpus, s.recordings, load.diagnostics);
    printDiagnostics(load.diagnostics, std::cerr);
    if (!load.ok()) return 1;
    recordings = std::move(load.recordings);
  }
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(grammar, diagnostics, s.grammar);
  if (!compiled) {
    printDiagnostics(diagnostics, std::cerr);
    return 1;
  }
  BatchControl control;
  control.threads = s.threads;
  const TransitionCounts counts =
      expectedTransitionCounts(*compiled, t, corpus.corpus, recordings,
                               grammarCues(grammar, corpus.corpus.cueOrder), control);
  std::cout << "\nexpected counts over " << counts.strings << " recording(s) of " << s.countsCorpus
            << " (top per topic; initial, ending):\n";
  for (const TopicTransition& tr : topTransitionsPerTopic(t, counts.transition, s.top))
    std::cout << "  " << tr.from << " -> " << tr.to << '\t' << fixed(tr.probability, 2) << '\n';
  for (std::size_t i = 0; i < t.topics.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    std::cout << "  " << t.topics[i] << "\tinitial " << fixed(counts.initial(k), 2) << "\tending "
              << fixed(counts.ending(k), 2) << '\n';
  }
  if (counts.failures > 0)
    std::cerr << "gwb: " << counts.failures << " of " << counts.strings
              << " recording(s) had no parse and count nothing\n";
  if (!s.countsCsv.empty()) {
    std::string error;
    if (!writeFileAtomically(
            s.countsCsv,
            [&](std::ostream& out) {
              writeTransitionCountsCsv(t.topics, counts, out);
              return true;
            },
            &error)) {
      std::cerr << "gwb: " << error << '\n';
      return 1;
    }
    std::cerr << "wrote the expected counts to " << s.countsCsv << '\n';
  }
  return 0;
}

int runTransitions(const TransitionSettings& s) {
  GrammarReadOptions options;
  options.root = s.root;
  options.runChecks = false;
  const GrammarLoad loaded = loadGrammarFile(s.grammar, options);
  if (!loaded.ok()) {
    printDiagnostics(loaded.diagnostics, std::cerr);
    return 1;
  }
  std::string error;
  const auto t = topicTransitions(loaded.grammar, &error);
  if (!t) {
    std::cerr << "gwb: " << s.grammar << ": " << error << '\n';
    return 1;
  }
  const Eigen::MatrixXd matrix = s.stochastic ? t->stochastic() : t->transition;
  const StationaryDistribution stationary = t->stationaryDistribution();
  const Eigen::VectorXd& pi = stationary.pi;
  const Occupancy occupied = t->occupancyDistribution();
  const Eigen::VectorXd& occupancy = occupied.share;
  std::cout << "topics: " << t->topics.size()
            << "\nstationary distribution: " << stationaryStatusName(stationary.status)
            << (stationary.explanation.empty() ? "" : " — " + stationary.explanation)
            << (stationary.status == StationaryDistribution::Status::NotUnique
                    ? " (the column shows one of them)"
                    : "")
            << (occupied.fromEndings ? ""
                                     : "\noccupancy: undefined — no topic can end a discourse, so "
                                       "the column repeats the stationary distribution")
            << "\n\ntopic\tstationary\toccupancy   (stationary: of the chain given that the "
               "discourse goes on; occupancy: share of utterances, endings kept)\n";
  std::vector<std::size_t> order(t->topics.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return occupancy(static_cast<Eigen::Index>(a)) > occupancy(static_cast<Eigen::Index>(b));
  });
  for (std::size_t i : order) {
    const auto k = static_cast<Eigen::Index>(i);
    const std::string stationaryText =
        stationary.status == StationaryDistribution::Status::Undefined   ? "undefined"
        : stationary.status == StationaryDistribution::Status::NotUnique ? fixed(pi(k), 4) + "?"
                                                                         : fixed(pi(k), 4);
    const std::string occupancyText =
        occupied.fromEndings ? fixed(occupancy(k), 4)
        : occupied.stationaryStatus == StationaryDistribution::Status::Undefined ? "undefined"
                                                                                 : stationaryText;
    std::cout << "  " << t->topics[i] << '\t' << stationaryText << '\t' << occupancyText << '\n';
  }
  std::cout << "\ntop transitions per topic ("
            << (s.stochastic ? "rows rescaled to sum to one" : "rule probabilities") << "):\n";
  for (const TopicTransition& tr : topTransitionsPerTopic(*t, matrix, s.top))
    std::cout << "  " << tr.from << " -> " << tr.to << '\t' << fixed(tr.probability, 4) << '\n';
  if (!s.csv.empty()) {
    if (!writeFileAtomically(
            s.csv,
            [&](std::ostream& out) {
              writeTransitionsCsv(*t, out);
              return true;
            },
            &error)) {
      std::cerr << "gwb: " << error << '\n';
      return 1;
    }
    std::cerr << "wrote the " << t->topics.size() << "x" << t->topics.size() << " matrix to "
              << s.csv << '\n';
  }
  if (!s.countsCorpus.empty()) return printExpectedCounts(s, loaded.grammar, *t);
  return 0;
}

}  // namespace

void addGroundedCommands(CLI::App& app, int& exitStatus) {
  // `grammar generate` joins the `grammar` group of grammar_commands.cpp.
  CLI::App* grammar = nullptr;
  try {
    grammar = app.get_subcommand("grammar");
  } catch (const CLI::OptionNotFound&) {
    grammar = app.add_subcommand("grammar", "read, check, convert and generate grammars");
  }
  auto g = std::make_shared<GenerateSettings>();
  CLI::App* generate = grammar->add_subcommand(
      "generate",
      "a social-cue grammar from a corpus in .yld format (Earleyx format with the prior column)");
  generate->add_option("kind", g->kind, "unigram (sentence level) or discourse")
      ->required()
      ->check(CLI::IsMember({"unigram", "discourse"}));
  generate->add_option("--corpus", g->corpus, "utterances with objects, cues and words (.yld)")
      ->required()
      ->check(CLI::ExistingFile);
  generate->add_option("--cues", g->cues, "all, none, drop:CUE or only:CUE (default all)");
  generate->add_option("--alpha", g->alpha,
                       "Dirichlet prior on Word.t -> w for every object t (default 0.001)");
  generate->add_option("--null-word-alpha", g->nullWordAlpha,
                       "prior on Word.None -> w (default 1)");
  generate->add_option("--transition-alpha", g->transitionAlpha,
                       "prior on Discourse.t -> Sentence.t Discourse.t' (default 1)");
  generate->add_option("--self-transition-alpha", g->selfTransitionAlpha,
                       "prior on Discourse.t -> Sentence.t Discourse.t (default: "
                       "--transition-alpha)");
  generate->add_option("--pinned-alpha", g->pinnedAlpha,
                       "prior on the Topic.* rules (default 1e10: fixed)");
  generate->add_option("--out,-o", g->out, "grammar file to write")->required();
  generate->callback([g, &exitStatus] { exitStatus = runGenerate(*g); });

  auto seg = std::make_shared<SegmentSettings>();
  CLI::App* segment = app.add_subcommand(
      "segment-eval",
      "a=b, Pk and WindowDiff between two topic labellings (as 100x(1-error) and error rates)");
  segment
      ->add_option("reference", seg->reference,
                   "one topic label per utterance (a column per annotator), or a gold .yld file")
      ->required()
      ->check(CLI::ExistingFile);
  segment->add_option("hypothesis", seg->hypothesis, "the same, to compare with the reference")
      ->required()
      ->check(CLI::ExistingFile);
  segment
      ->add_option("--k", seg->window,
                   "window size (default: segeval's, half the mean reference segment, >= 2)")
      ->check(CLI::Range(1, 1000000));
  segment
      ->add_option("--recordings", seg->recordings,
                   "recordings.tsv: score each recording, then pooled and mean")
      ->check(CLI::ExistingFile);
  segment->add_option("--ref-annotator", seg->referenceColumn,
                      "the reference's column: a header name or 1, 2, ... (default 1)");
  segment->add_option("--hyp-annotator", seg->hypothesisColumn,
                      "the hypothesis's column (default 1)");
  segment->callback([seg, &exitStatus] { exitStatus = runSegmentEval(*seg); });

  auto tr = std::make_shared<TransitionSettings>();
  CLI::App* transitions = app.add_subcommand(
      "transitions",
      "the topic-transition matrix of a discourse grammar: stationary distribution, top "
      "transitions, CSV");
  transitions->add_option("grammar", tr->grammar, "a discourse grammar (Discourse.t rules)")
      ->required()
      ->check(CLI::ExistingFile);
  transitions->add_option("--root", tr->root, "start symbol (default: inferred)");
  transitions->add_option("--top", tr->top, "transitions listed per topic (default 3)");
  transitions->add_flag("--stochastic", tr->stochastic,
                        "list transitions with each row rescaled to sum to one");
  transitions->add_option("--csv", tr->csv, "write the matrix (and ending probabilities) as CSV");
  transitions
      ->add_option("--counts", tr->countsCorpus,
                   "also the expected transition counts over this corpus (.yld): each recording "
                   "parsed as one string, inside-outside")
      ->check(CLI::ExistingFile);
  transitions
      ->add_option("--recordings", tr->recordings,
                   "recordings.tsv for --counts (default: the whole corpus is one recording)")
      ->check(CLI::ExistingFile);
  transitions->add_option("--counts-csv", tr->countsCsv,
                          "write the expected counts (and endings) as CSV");
  transitions->add_option("--threads,-t", tr->threads, "recordings parsed at once (--counts)")
      ->check(CLI::Range(1, 256));
  transitions->callback([tr, &exitStatus] { exitStatus = runTransitions(*tr); });
}

}  // namespace gwb::cli
