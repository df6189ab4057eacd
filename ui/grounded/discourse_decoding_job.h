// DiscourseDecodingJob: a social-cue corpus decoded with one grammar off the UI thread — the
// discourse view's "Decode with grammar" (Luong, Frank & Johnson 2013, section 7.4).
//
// The worker reads the grammar file (with the start symbol asked for, without the grammar
// checks), compiles it, and decodes every string of the corpus with decodeWithTrees
// (discourse_data.h) through core's batch service on `threads` threads: a discourse grammar
// parses each recording as one string, a sentence grammar each utterance. Progress counts the
// strings. After finished(): the decoding (`cancelled` when Cancel cut it short; its grammar
// path, name and start symbol filled in) and the error (the grammar's reading or compiling
// errors, or what the decoding threw; empty when it ran). The result does not depend on
// `threads`.
//
// Threading: a BackgroundJob (ui/common/background_job.h). The worker reads the DiscourseData
// given to start() and writes only the job's new decoding and error, which the owner reads after
// finished(). The owner must leave that DiscourseData unchanged while the job is busy (call
// cancelAndFinish() before changing it) and keep it alive as long as the job; destroying a
// running job cancels the decoding and waits for it.
#pragma once

#include <memory>
#include <string>

#include <QObject>
#include <QString>

#include "ui/common/background_job.h"
#include "ui/grounded/discourse_data.h"

namespace gwb::ui {

struct DiscourseDecodingRequest {
  std::string grammarPath;
  std::string root;  // the start symbol; empty: the grammar file's default
  int threads = 1;   // the batch's threads (at least one)
};

class DiscourseDecodingJob : public JobBase {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(DiscourseDecodingJob)

 public:
  explicit DiscourseDecodingJob(QObject* parent = nullptr);
  ~DiscourseDecodingJob() override;  // cancels and waits; emits nothing

  // Decodes `data`'s corpus (see the header comment for what the owner promises about `data`).
  // False (and nothing happens) while a decoding runs.
  bool start(const DiscourseData* data, DiscourseDecodingRequest request);

  // After finished(): the last decoding (null before the first one finished) and its error.
  std::shared_ptr<ModelDecoding> result() const { return result_; }
  const QString& error() const { return error_; }

 signals:
  void finished();

 private:
  struct Run;
  std::shared_ptr<Run> running_;  // written by the worker until finished()
  std::shared_ptr<ModelDecoding> result_;
  QString error_;
};

}  // namespace gwb::ui
