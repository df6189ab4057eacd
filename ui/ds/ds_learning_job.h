// DsLearningJob: one DS lexicon-induction run (Eshghi, Hough & Purver 2013, section 3; core's
// learnLexicon in gwb/ds/lexicon_learner.h) on a worker thread, its reports delivered to the UI
// thread — what `gwb ds learn` does, for the workbench's DS learning view.
//
// DsLearningSettings is the view's form: the seed grammar folder, the training file (`Sent :` /
// `Sem :` blocks), the per-item budgets and the held-out mass, as the CLI's options. The job
// reads both inputs on its worker (a seed grammar is a few thousand lines), then runs the core
// loop with a LearningObserver that posts one LearningPoint per item through the job's context,
// so itemLearned() is emitted on the UI thread once per training item, in corpus order, with
// exactly the figures core reported. The loop expands one item at a time (batch 1), so Cancel
// takes effect before the next item; the run then keeps every update made so far.
//
// Threading: a BackgroundJob (ui/common/background_job.h), declared last so that it is joined
// before the members it writes are destroyed. result(), grammar() and corpus() are read after
// finished(). setItemHook() lets a test hold the worker before an item (deterministic cancel).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/hypothesis_search.h"
#include "gwb/ds/lexicon_learner.h"
#include "gwb/ds/semantic_corpus.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct DsLearningSettings {
  QString seedDirectory;  // a DyLan grammar folder (the seed: computational actions, macros)
  QString trainPath;      // sentences paired with record types
  double heldOutMass = 0.1;
  gwb::ds::HypothesisSearchOptions search;  // per-item budgets, as `gwb ds learn`
};

// One point of the live curve: core's running figures after one item.
struct LearningPoint {
  qint64 items = 0;       // items seen (LearningProgress::itemsDone)
  qint64 total = 0;       // items in the training file
  qint64 hypotheses = 0;  // lexicon size: distinct (word, hypothesis) pairs
  qint64 words = 0;
  double meanHypothesesPerItem = 0.0;
  qint64 itemsWithoutTuples = 0;
  QString sentence;  // the item just learned from
  QString note;      // its note (budget hit, no tuple), empty otherwise
};

class DsLearningJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsLearningJob)

 public:
  explicit DsLearningJob(QObject* parent = nullptr);
  ~DsLearningJob() override;

  // Starts a run; false while one is busy.
  bool start(const DsLearningSettings& settings);
  // Blocks (processing events) until the run has finished; false on time-out.
  bool waitForFinished(int milliseconds = 600000);

  // After finished(): the seed grammar and corpus as read (null / empty on a reading error), the
  // learner's result, and what went wrong (empty if nothing did).
  const DsLearningSettings& settings() const { return settings_; }
  std::shared_ptr<const gwb::ds::DsGrammar> seedGrammar() const { return seed_; }
  const std::vector<gwb::ds::SemanticExample>& corpus() const { return corpus_; }
  const gwb::ds::LearningResult& result() const { return result_; }
  const QString& error() const { return error_; }
  bool hasResult() const { return hasResult_; }

  // Tests: called on the worker before each item is expanded (0-based item).
  void setItemHook(std::function<void(std::size_t item)> hook) { hook_ = std::move(hook); }

 signals:
  void loaded(qint64 items);
  void itemLearned(const gwb::ui::LearningPoint& point);
  void finished();

 private:
  void run(JobContext& context);  // on the worker

  DsLearningSettings settings_;
  std::shared_ptr<const gwb::ds::DsGrammar> seed_;
  std::vector<gwb::ds::SemanticExample> corpus_;
  gwb::ds::LearningResult result_;
  QString error_;
  bool hasResult_ = false;
  std::function<void(std::size_t)> hook_;
};

}  // namespace gwb::ui
