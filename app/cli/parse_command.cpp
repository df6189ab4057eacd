// `gwb parse`: Earley-parse every line of an input file; write surprisal, prefix and string
// probabilities and Viterbi trees in Earleyx's file format (PREFIX.surprisal, ...) or as TSV.
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "command_support.h"
#include "commands.h"
#include "gwb/common/atomic_file.h"
#include "gwb/common/distribution.h"
#include "gwb/common/memory_budget.h"
#include "gwb/common/number_format.h"
#include "gwb/earley/batch_parse.h"
#include "gwb/earley/earley_parser.h"
#include "gwb/earley/grammar_check.h"
#include "gwb/earley/grammar_io.h"
#include "gwb/earley/kbest.h"
#include "gwb/earley/tokenize.h"

namespace gwb::cli {

namespace {

struct ParseSettings {
  std::string grammar;
  std::string format = "auto";
  std::string root;
  std::string input;
  std::string mode = "scaled";
  std::string out;
  bool surprisal = false;
  bool prefix = false;
  bool stringProbability = false;
  bool viterbi = false;
  std::size_t kbest = 0;
  bool bits = false;
  bool tsv = false;
  bool noLookahead = false;
  bool quiet = false;
  int threads = 1;
};

class ProgressBar {
 public:
  ProgressBar(std::size_t total, bool enabled) : total_(total), enabled_(enabled) {}
  void update(std::size_t done) {
    if (!enabled_ || total_ < 2) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const int width = 30;
    const auto filled = static_cast<int>(width * done / total_);
    std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(width - filled), ' ') << "] " << done << '/'
              << total_ << std::flush;
    if (done == total_) std::cerr << '\n';
  }

 private:
  std::size_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_{};
};

int runParse(const ParseSettings& s) {
  GrammarReadOptions readOptions;
  readOptions.format = *parseGrammarFormat(s.format);
  readOptions.root = s.root;
  readOptions.runChecks = false;
  const GrammarLoad loaded = [&] {
    const MemoryContext reading("reading the grammar " + s.grammar);
    return loadGrammarFile(s.grammar, readOptions);
  }();
  for (const Diagnostic& d : loaded.diagnostics)
    if (d.severity == Severity::Error) std::cerr << toString(d) << '\n';
  if (!loaded.ok()) return 1;
  {
    // Rules that do not sum to one make "probabilities" above 1 and negative surprisals: say
    // so once, with grammar check's own warning.
    GrammarCheckOptions sumOptions;
    sumOptions.maxPerKind = 1;
    // Said once, by rank 0.
    const Diagnostics sums = distribution().leader()
                                 ? checkProbabilitySums(loaded.grammar, s.grammar, sumOptions)
                                 : Diagnostics{};
    for (const Diagnostic& d : sums) std::cerr << toString(d) << '\n';
    if (!sums.empty())
      std::cerr << "gwb: warning: the rule probabilities do not sum to 1, so the numbers below "
                   "are scores, not probabilities (they may exceed 1; surprisal may be "
                   "negative)\n";
  }
  Diagnostics diagnostics;
  const auto compiled = CompiledGrammar::compile(loaded.grammar, diagnostics, s.grammar);
  if (!compiled) {
    for (const Diagnostic& d : diagnostics) std::cerr << toString(d) << '\n';
    return 1;
  }
  std::string text;
  std::string error;
  if (!readWholeFile(s.input, &text, &error)) {
    std::cerr << "gwb: " << error << '\n';
    return 1;
  }
  const std::vector<std::string> lines = sentenceLines(text);
  ParseOptions options;
  options.mode = s.mode == "log" ? NumericMode::Log : NumericMode::Scaled;
  options.lookahead = !s.noLookahead;
  options.prefixStringProbabilities = s.stringProbability;
  options.viterbi = s.viterbi;
  const double unit = s.bits ? 1.0 / std::log(2.0) : 1.0;

  // Under mpirun the lines are split into one consecutive range per rank, balanced by length;
  // each rank parses its range on its own threads and formats it, and rank 0 joins the ranges'
  // texts in rank order — the input order — so that every output is byte for byte the
  // single-process one.
  Distribution& ranks = distribution();
  std::vector<std::vector<std::string>> sentences;
  sentences.reserve(lines.size());
  for (const std::string& line : lines) sentences.push_back(tokenize(line));
  std::size_t first = 0;
  std::size_t last = lines.size();
  if (ranks.size() > 1) {
    std::vector<std::size_t> costs;
    costs.reserve(sentences.size());
    for (const auto& words : sentences) costs.push_back(words.size() + 1);
    const std::vector<std::size_t> bounds = balancedRanges(costs, ranks.size());
    first = bounds[static_cast<std::size_t>(ranks.rank())];
    last = bounds[static_cast<std::size_t>(ranks.rank()) + 1];
  }
  const std::vector<std::vector<std::string>> mine(
      sentences.begin() + static_cast<std::ptrdiff_t>(first),
      sentences.begin() + static_cast<std::ptrdiff_t>(last));

  // Parse every line on the batch service (results in input order), then write them in that
  // order. A line that runs out of memory stops every thread; its message (with the line's
  // context) is printed once.
  std::vector<std::vector<RankedParse>> kbests(s.kbest > 0 ? mine.size() : 0);
  BatchParse batch;
  {
    ProgressBar progress(mine.size(), !s.quiet && ranks.leader() && mine.size() > 20);
    BatchProgressFunction observer(
        [&](std::size_t, std::size_t finished, std::size_t) { progress.update(finished); });
    BatchParseOptions batchOptions;
    batchOptions.parse = options;
    batchOptions.control.threads = s.threads;
    batchOptions.control.observer = &observer;
    batchOptions.describeItem = [&](std::size_t id) {
      return "parsing line " + std::to_string(first + id + 1) + " of " + s.input;
    };
    if (s.kbest > 0) {
      batchOptions.inspectChart = [&](std::size_t id, const ParseResult& result,
                                      const EarleyChart& chart) {
        if (result.success) kbests[id] = kBestParses(chart, s.kbest);
      };
    }
    try {
      batch = parseBatch(*compiled, mine, batchOptions);
    } catch (const std::bad_alloc& e) {
      const bool overBudget = dynamic_cast<const MemoryBudgetExceeded*>(&e) != nullptr;
      kbests.clear();
      std::cerr << "gwb: " << outOfMemoryMessage(e)
                << (overBudget ? "; raise the budget with --max-memory (0: no limit)"
                               : "; the machine (or ulimit -v) has no more memory to give")
                << (s.threads > 1 ? " or parse fewer lines at once (--threads)" : "") << '\n';
      return 1;
    }
    progress.update(mine.size());
  }
  const std::vector<ParseResult>& results = batch.results;
  // The texts of this rank's range; with one rank, of every line.
  enum Stream { Summary, Problems, Surprisal, Prefix, StringProb, Viterbi, Kbest, Tsv, Streams };
  std::ostringstream out[Streams];
  int failures = 0;
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const std::size_t id = first + k;
    const std::vector<std::string>& words = mine[k];
    const ParseResult& result = results[k];
    std::string status = "ok";
    if (!result.success) {
      ++failures;
      status = result.failedAt >= 0
                   ? "no parse: the prefix ends at word " + std::to_string(result.failedAt + 1) +
                         " '" + words[static_cast<std::size_t>(result.failedAt)] + "'"
                   : "no parse: not a complete sentence";
      out[Problems] << s.input << ':' << id + 1 << ": " << status << '\n';
    }
    // Numbers for other programs in the shortest text that reads back to the same double.
    out[Summary] << id << '\t' << words.size() << '\t' << formatProbability(result.logProbability)
                 << '\t' << formatProbability(result.viterbiLogProbability) << '\t' << result.items
                 << '\t' << status << '\n';
    const auto block = [&](std::ostringstream& stream, auto value) {
      stream << "# " << id << '\n';
      for (std::size_t i = 0; i < words.size(); ++i)
        stream << words[i] << ' ' << formatJavaDouble(value(i)) << '\n';
      stream << "#! Done\n";
    };
    if (s.surprisal)
      block(out[Surprisal], [&](std::size_t i) { return result.surprisal[i] * unit; });
    if (s.prefix)
      block(out[Prefix],
            [&](std::size_t i) { return std::exp(result.logPrefixProbability[i + 1]); });
    if (s.stringProbability)
      block(out[StringProb],
            [&](std::size_t i) { return std::exp(result.logStringProbability[i + 1]); });
    if (s.viterbi) out[Viterbi] << (result.success ? result.viterbiTree.toPtb(true) : "") << '\n';
    if (s.kbest > 0) {
      out[Kbest] << "# " << id << '\n';
      for (std::size_t rank = 0; rank < kbests[k].size(); ++rank)
        out[Kbest] << rank + 1 << '\t' << formatProbability(kbests[k][rank].logProbability) << '\t'
                   << kbests[k][rank].tree.toPtb(true) << '\n';
    }
    for (std::size_t i = 0; i < words.size(); ++i) {
      out[Tsv] << id << '\t' << i + 1 << '\t' << words[i];
      if (s.surprisal) out[Tsv] << '\t' << formatProbability(result.surprisal[i] * unit);
      if (s.prefix) out[Tsv] << '\t' << formatProbability(result.logPrefixProbability[i + 1]);
      if (s.stringProbability)
        out[Tsv] << '\t' << formatProbability(result.logStringProbability[i + 1]);
      out[Tsv] << '\n';
    }
  }
  std::string texts[Streams];
  for (int k = 0; k < Streams; ++k) texts[k] = out[k].str();
  if (ranks.size() > 1) {
    ByteWriter message;
    message.put<std::int64_t>(failures);
    for (const std::string& stream : texts) message.putString(stream);
    const std::vector<std::string> parts = ranks.gather(message.bytes());
    if (!ranks.leader()) return 0;  // rank 0 writes everything
    failures = 0;
    for (std::string& stream : texts) stream.clear();
    for (const std::string& part : parts) {
      ByteReader reader(part);
      failures += static_cast<int>(reader.get<std::int64_t>());
      for (std::string& stream : texts) stream += reader.getString();
    }
  }
  std::cerr << texts[Problems];
  std::cout << "sentence\ttokens\tlog_probability\tviterbi_log_probability\titems\tstatus\n"
            << texts[Summary];
  std::string tsvText = "sentence\tposition\tword";
  if (s.surprisal) tsvText += s.bits ? "\tsurprisal_bits" : "\tsurprisal_nats";
  if (s.prefix) tsvText += "\tlog_prefix_probability";
  if (s.stringProbability) tsvText += "\tlog_string_probability";
  tsvText += '\n';
  tsvText += texts[Tsv];
  if (!s.out.empty()) {
    // One set: PREFIX.manifest, written last, vouches that the files come from one run.
    AtomicOutputSet files(s.out + ".manifest");
    if (s.tsv) {
      files.add(s.out + ".tsv", tsvText);
    } else {
      if (s.surprisal) files.add(s.out + ".surprisal", texts[Surprisal]);
      if (s.prefix) files.add(s.out + ".prefix", texts[Prefix]);
      if (s.stringProbability) files.add(s.out + ".stringprob", texts[StringProb]);
    }
    if (s.viterbi) files.add(s.out + ".viterbi", texts[Viterbi]);
    if (s.kbest > 0) files.add(s.out + ".kbest", texts[Kbest]);
    std::string saveError;
    if (!files.commit(&saveError)) {
      std::cerr << "gwb: " << saveError << '\n';
      return 1;
    }
  } else if (s.surprisal || s.prefix || s.stringProbability) {
    std::cout << tsvText;
  }
  if (s.viterbi && s.out.empty()) std::cout << texts[Viterbi];
  if (s.kbest > 0 && s.out.empty()) std::cout << texts[Kbest];
  if (failures > 0)
    std::cerr << failures << " of " << lines.size() << " sentence(s) had no parse\n";
  return 0;
}

}  // namespace

void addParseCommand(CLI::App& app, int& exitStatus) {
  auto s = std::make_shared<ParseSettings>();
  CLI::App* parse = app.add_subcommand(
      "parse",
      "probabilistic Earley parse of every line of a file: surprisal, prefix and string "
      "probabilities, Viterbi trees");
  parse->add_option("--grammar,-g", s->grammar, "grammar file")
      ->required()
      ->check(CLI::ExistingFile);
  parse->add_option("--format", s->format, "grammar format: earleyx, nltk or auto")
      ->check(CLI::IsMember({"auto", "earleyx", "nltk"}));
  parse->add_option("--root", s->root, "start symbol");
  parse->add_option("--input,-i", s->input, "one sentence per line (a .concat file is one line)")
      ->required()
      ->check(CLI::ExistingFile);
  parse->add_flag("--surprisal", s->surprisal, "per-word surprisal (nats; --bits for bits)");
  parse->add_flag("--bits", s->bits, "surprisal in bits");
  parse->add_flag("--prefix", s->prefix, "per-word prefix probability");
  parse->add_flag("--stringprob", s->stringProbability,
                  "probability that each prefix is a whole sentence (linear in the length, also on "
                  "whole discourses)");
  parse->add_flag("--viterbi", s->viterbi, "the most probable tree (PTB brackets)");
  parse
      ->add_option("--kbest", s->kbest,
                   "the K most probable trees of each sentence, best first: rank, log "
                   "probability, PTB brackets (lazy k-best over the chart)")
      ->check(CLI::Range(1, 1000000));
  parse->add_option("--mode", s->mode, "numeric mode: scaled (rescaling, default) or log")
      ->check(CLI::IsMember({"scaled", "log"}));
  parse->add_option("--out,-o", s->out,
                    "write PREFIX.surprisal/.prefix/.stringprob/.viterbi (Earleyx format) and, "
                    "last, PREFIX.manifest");
  parse->add_flag("--tsv", s->tsv, "with --out, write PREFIX.tsv instead of Earleyx files");
  parse->add_flag("--no-lookahead", s->noLookahead, "plain Earley without FIRST/FOLLOW pruning");
  parse->add_flag("--quiet,-q", s->quiet, "no progress bar");
  parse->add_option("--threads,-t", s->threads, "parse this many lines at once")
      ->check(CLI::Range(1, 256));
  addMaxMemoryOption(*parse);
  parse->callback([s, &exitStatus] { exitStatus = runParse(*s); });
}

}  // namespace gwb::cli
