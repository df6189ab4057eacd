#include "gwb/ds/lexicon_learner.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "common/parallel.h"
#include "gwb/common/atomic_file.h"

namespace gwb::ds {

LearningResult learnLexicon(const std::vector<SemanticExample>& corpus,
                            const HypothesisGenerator& generate, const LearningOptions& options,
                            LearningObserver* observer) {
  LearningResult result;
  result.em = IncrementalEm(options.heldOutMass);
  const auto start = std::chrono::steady_clock::now();
  const int threads = std::max(1, options.threads);
  const std::size_t batch =
      options.batch > 0 ? options.batch : static_cast<std::size_t>(4 * threads);
  LearningProgress& progress = result.progress;
  progress.itemsTotal = corpus.size();
  std::size_t hypothesesOverItems = 0;
  for (std::size_t first = 0; first < corpus.size(); first += batch) {
    if (options.cancel != nullptr && options.cancel->load()) {
      result.cancelled = true;
      break;
    }
    const std::size_t last = std::min(corpus.size(), first + batch);
    std::vector<ExampleHypotheses> expanded(last - first);
    std::atomic<std::size_t> next{first};
    parallel::runOnThreads(std::min<int>(threads, static_cast<int>(last - first)), [&] {
      for (std::size_t i = next.fetch_add(1); i < last; i = next.fetch_add(1))
        expanded[i - first] = generate(corpus[i], i);
    });
    for (std::size_t i = first; i < last; ++i) {
      const ExampleHypotheses& h = expanded[i - first];
      result.em.observe(h, static_cast<int>(i));
      ++progress.itemsDone;
      hypothesesOverItems += h.hypotheses.size();
      if (h.tuples.empty()) ++progress.itemsWithoutTuples;
      if (h.budgetHit) ++progress.itemsOverBudget;
      if (h.tuples.empty() || h.budgetHit)
        result.notes.push_back("line " + std::to_string(corpus[i].line) + " (" +
                               corpus[i].sentence +
                               "): " + (h.note.empty() ? "no hypothesis tuple" : h.note));
      progress.hypotheses = result.em.hypotheses().size();
      progress.words = result.em.words().size();
      progress.meanHypothesesPerItem =
          static_cast<double>(hypothesesOverItems) / static_cast<double>(progress.itemsDone);
      progress.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (observer != nullptr) observer->onItem(progress, corpus[i], h);
    }
  }
  return result;
}

namespace {

std::string probabilityText(double p) {
  std::ostringstream out;
  out << std::setprecision(17) << p;
  return out.str();
}

}  // namespace

std::string learnedLexiconText(const IncrementalEm& em, int top) {
  std::string out;
  for (const std::string& word : em.words()) {
    const std::vector<int> ids = em.ranked(word);
    for (std::size_t r = 0; r < ids.size() && r < static_cast<std::size_t>(std::max(0, top)); ++r) {
      const LearnedHypothesis& h = em.hypotheses()[static_cast<std::size_t>(ids[r])];
      out += "[" + probabilityText(h.probability) + ",0]\n" + word + "\n" + h.action + "\n\n";
    }
  }
  return out;
}

std::string losslessLexiconText(const IncrementalEm& em) {
  auto escape = [](const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\\')
        out += "\\\\";
      else
        out += c;
    }
    return out;
  };
  std::string out = "id\tword\tprobability\trank\titems\tkey\taction\n";
  for (const std::string& word : em.words()) {
    const std::vector<int> ids = em.ranked(word);
    for (std::size_t r = 0; r < ids.size(); ++r) {
      const LearnedHypothesis& h = em.hypotheses()[static_cast<std::size_t>(ids[r])];
      std::string items;
      for (int item : h.items) items += (items.empty() ? "" : ",") + std::to_string(item + 1);
      out += std::to_string(h.id) + "\t" + escape(word) + "\t" + probabilityText(h.probability) +
             "\t" + std::to_string(r + 1) + "\t" + items + "\t" + escape(h.key) + "\t" +
             escape(h.action) + "\n";
    }
  }
  return out;
}

bool writeLearnedLexicons(const IncrementalEm& em, const std::string& directory, int maxTop,
                          std::string* error) {
  auto write = [&](const std::string& name, const std::string& text) {
    return writeFileAtomically(
        directory + "/" + name, [&](std::ostream& out) { return static_cast<bool>(out << text); },
        error);
  };
  for (int top = 1; top <= maxTop; ++top)
    if (!write("lexicon.lex-top-" + std::to_string(top) + ".txt", learnedLexiconText(em, top)))
      return false;
  return write("hypotheses.tsv", losslessLexiconText(em));
}

}  // namespace gwb::ds
