// DsParseJob: one Dynamic Syntax parse (gwb/ds/ds_parser.h) off the UI thread — the DS
// stepper's Parse — loading the DyLan grammar folder first when no loaded grammar is given.
//
// The request says which folder, the grammar already loaded from it (if any), the words and the
// parse options (their cancel flag is the job's own). The worker loads the grammar when needed
// (the loaded one comes back in the outcome, for the next parse of the same folder), parses, and
// times the parse. The outcome is the owner's after finished(): the grammar, the words, the
// result (null when the grammar did not load), and an error (the folder's first error, or what
// the parse threw, e.g. the memory budget being spent).
//
// Threading: a BackgroundJob (ui/common/background_job.h). The worker writes only the outcome,
// which the owner reads only after finished(); the outcome object is a new one for every
// start(), so an outcome the owner still holds is never written. Destroying a running job
// cancels the parse (it stops at its next tree) and waits for it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/ds/ds_grammar.h"
#include "gwb/ds/ds_parser.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct DsParseRequest {
  QString directory;                                  // the DyLan grammar folder
  std::shared_ptr<const gwb::ds::DsGrammar> grammar;  // loaded from `directory`; null: load it
  std::vector<std::string> words;
  gwb::ds::DsParseOptions options;  // options.cancel is set to the job's flag
};

struct DsParseOutcome {
  QString directory;
  std::shared_ptr<const gwb::ds::DsGrammar> grammar;  // the one parsed with (null: none loaded)
  std::vector<std::string> words;
  std::shared_ptr<const gwb::ds::DsParseResult> result;  // null when the grammar did not load
  QString error;         // empty when the parse ran (a cancelled one too)
  double parseMs = 0.0;  // the parse alone, without the grammar's loading
};

class DsParseJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DsParseJob)

 public:
  explicit DsParseJob(QObject* parent = nullptr);
  ~DsParseJob() override;  // cancels and waits; emits nothing

  // Starts a parse; false (and nothing happens) while one is running.
  bool start(DsParseRequest request);

  // After finished(): what the last parse gave (null before the first one finished).
  std::shared_ptr<const DsParseOutcome> outcome() const { return outcome_; }

 signals:
  void finished();

 private:
  std::shared_ptr<DsParseOutcome> running_;  // written by the worker until finished()
  std::shared_ptr<const DsParseOutcome> outcome_;
};

// The parse itself, on the calling thread: what the job's worker runs (also for tests). Fills
// `outcome` as it goes, so that what was loaded before a throw is kept.
void runDsParse(DsParseRequest request, DsParseOutcome& outcome,
                const std::atomic<bool>* cancel = nullptr);

}  // namespace gwb::ui
