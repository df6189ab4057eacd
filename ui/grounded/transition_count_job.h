// TransitionCountJob: expected topic-transition counts over a corpus's recordings (core's
// expectedTransitionCounts, gwb/grounded/transition_counts.h) off the UI thread — the topic
// transition view's counts, for its grammar and, in the difference view, the one compared with.
//
// The sources are counted one after another, each grammar compiled on the worker and its
// recordings spread over `threads` batch threads; progress counts recordings over all sources.
// After finished(): one TransitionCounts per source, in order (`cancelled` set on the one Cancel
// cut short; the sources not reached are left empty), and the error (a grammar that does not
// compile, or what the count threw; empty when it ran). The counts do not depend on `threads`.
//
// Threading: a BackgroundJob (ui/common/background_job.h). The worker reads the corpus and the
// recordings given to start() and writes only the job's new counts and error, which the owner
// reads after finished(). The owner must leave the corpus and recordings unchanged while the
// job is busy (cancelAndFinish() before changing them) and keep them alive as long as the job;
// destroying a running job cancels the count and waits for it.
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "gwb/earley/grammar.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_transitions.h"
#include "gwb/grounded/transition_counts.h"
#include "ui/common/background_job.h"

namespace gwb::ui {

struct TransitionCountSource {
  std::shared_ptr<const gwb::Grammar> grammar;
  gwb::TopicTransitions transitions;  // read from `grammar`
};

class TransitionCountJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(TransitionCountJob)

 public:
  explicit TransitionCountJob(QObject* parent = nullptr);
  ~TransitionCountJob() override;  // cancels and waits; emits nothing

  // Counts `sources` over `corpus` and `recordings` (see the header comment for what the owner
  // promises about them). False (and nothing happens) while a count runs.
  bool start(const gwb::SocialCorpus* corpus, const std::vector<gwb::Recording>* recordings,
             std::vector<TransitionCountSource> sources, int threads);

  // After finished(): the last count's results, one per source, and its error.
  const std::vector<std::shared_ptr<gwb::TransitionCounts>>& counts() const { return counts_; }
  const QString& error() const { return error_; }
  // Whether Cancel cut the last count short.
  bool cancelled() const;

 signals:
  void finished();

 private:
  struct Run;
  std::shared_ptr<Run> running_;  // written by the worker until finished()
  std::vector<std::shared_ptr<gwb::TransitionCounts>> counts_;
  QString error_;
};

}  // namespace gwb::ui
