// CcgParseJob: one log-linear CKY parse (gwb/ccg/cky_parser.h, Kwiatkowski et al. 2011) off the
// UI thread — the CCG tab's Parse — with the k best derivations and the replay of the fill
// (gwb/ccg/cky_replay.h) that the tab's stepper shows.
//
// The request holds the lexicon (shared: the chart points into it, and the outcome keeps it
// alive as long as the chart), the words, the parser options (their cancel flag is the job's
// own) and k. The worker fills the chart, then takes the k best derivations and the replay, and
// times the whole. A request it cannot parse (no lexicon, no words, a beam or k below 1) gives an
// error in the outcome and no chart; what the work throws (a memory budget spent) is the
// outcome's error too. A cancelled parse keeps no chart: the outcome says how many of the
// chart's cells the fill finished before it stopped.
//
// Threading: a BackgroundJob (ui/common/background_job.h). The worker writes only the outcome,
// which the owner reads only after finished(); the outcome object is a new one for every
// start(), so an outcome the owner still holds is never written. Destroying a running job
// cancels the parse (the fill stops at its next cell) and waits for it.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/ccg/cky_parser.h"
#include "gwb/ccg/cky_replay.h"
#include "gwb/ccg/lexicon.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct CcgParseRequest {
  std::shared_ptr<const gwb::ccg::FactoredLexicon> lexicon;  // with its entries built
  std::vector<std::string> words;
  gwb::ccg::CkyOptions options;  // options.cancel is set to the job's flag
  int kBest = 5;
};

struct CcgParseOutcome {
  std::shared_ptr<const gwb::ccg::FactoredLexicon> lexicon;  // the chart points into it
  std::vector<std::string> words;
  // Null when the request was refused, the parse was cancelled or it threw.
  std::shared_ptr<const gwb::ccg::CkyChart> chart;
  std::vector<gwb::ccg::Derivation> derivations;  // the k best, best first
  std::vector<gwb::ccg::CkyReplayStep> steps;     // the fill, for the stepper
  bool cancelled = false;
  int cellsFilled = 0;  // when cancelled: the cells the fill finished before it stopped
  int cells = 0;        // the chart's cells (n(n+1)/2 for n words)
  QString error;        // empty when the parse ran (a cancelled one too)
  double milliseconds = 0.0;
};

class CcgParseJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(CcgParseJob)

 public:
  explicit CcgParseJob(QObject* parent = nullptr);
  ~CcgParseJob() override;  // cancels and waits; emits nothing

  // Starts a parse; false (and nothing happens) while one is running.
  bool start(CcgParseRequest request);

  // Tests: called on the worker before the chart is built (to cancel deterministically). Takes
  // effect from the next start().
  void setParseHookForTesting(std::function<void()> hook) { hook_ = std::move(hook); }

  // After finished(): what the last parse gave (null before the first one finished).
  std::shared_ptr<const CcgParseOutcome> outcome() const { return outcome_; }

 signals:
  void finished();

 private:
  std::function<void()> hook_;
  std::shared_ptr<CcgParseOutcome> running_;  // written by the worker until finished()
  std::shared_ptr<const CcgParseOutcome> outcome_;
};

// The parse itself, on the calling thread: what the job's worker runs (also for tests). Fills
// `outcome` from scratch; `cancel` (may be null) stops the fill between two cells.
void runCcgParse(CcgParseRequest request, CcgParseOutcome& outcome,
                 const std::atomic<bool>* cancel = nullptr);

}  // namespace gwb::ui
