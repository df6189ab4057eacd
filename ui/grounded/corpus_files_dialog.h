// CorpusFilesDialog: one form for the files a research window reads a social-cue corpus from —
// the corpus, (optionally) its gold topic annotation, and the recordings table — each row
// saying what the file is for, with a Browse button, instead of a file dialog per file.
//
// The fields start with the files given (setFiles), and where those are empty with ../shared's
// (defaultFiles, as the experiments panel fills its form): the Providence social-cue corpus,
// its gold topics and the recordings table. The Open button is enabled only while the corpus
// field names an existing file; the optional fields may stay empty (no gold; the whole corpus as
// one recording).
#pragma once

#include <QDialog>
#include <QString>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace gwb::ui {

struct CorpusFiles {
  QString corpus;
  QString gold;        // empty: none
  QString recordings;  // empty: the whole corpus is one recording
  bool operator==(const CorpusFiles& o) const {
    return corpus == o.corpus && gold == o.gold && recordings == o.recordings;
  }
};

class CorpusFilesDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Fields { CorpusGoldRecordings, CorpusRecordings };

  // `purpose`: a sentence at the top saying what the files will be used for.
  CorpusFilesDialog(const QString& title, const QString& purpose, Fields fields,
                    QWidget* parent = nullptr);

  // Fills the fields: `files`' non-empty paths, else ../shared's defaults.
  void setFiles(const CorpusFiles& files);
  CorpusFiles files() const;
  // ../shared's corpus, gold topics and recordings (empty where missing).
  static CorpusFiles defaultFiles();

  QLineEdit* corpusEdit() const { return corpus_; }
  QLineEdit* goldEdit() const { return gold_; }  // null without a gold field
  QLineEdit* recordingsEdit() const { return recordings_; }
  QDialogButtonBox* buttons() const { return buttons_; }

 private:
  void updateButtons();

  QLineEdit* corpus_ = nullptr;
  QLineEdit* gold_ = nullptr;
  QLineEdit* recordings_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace gwb::ui
