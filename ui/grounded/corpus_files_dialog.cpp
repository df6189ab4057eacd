#include "ui/grounded/corpus_files_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/grounded/experiment_job.h"

namespace gwb::ui {

CorpusFilesDialog::CorpusFilesDialog(const QString& title, const QString& purpose, Fields fields,
                                     QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(title);
  auto* intro = new QLabel(purpose, this);
  intro->setWordWrap(true);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  const auto addRow = [&](const QString& label, const QString& hint, const QString& filter) {
    auto* edit = new QLineEdit(this);
    edit->setMinimumWidth(460);
    edit->setToolTip(hint);
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    auto* column = new QVBoxLayout;
    column->setSpacing(1);
    column->addLayout(row);
    auto* note = new QLabel(QStringLiteral("<small>%1</small>").arg(hint.toHtmlEscaped()), this);
    note->setWordWrap(true);
    column->addWidget(note);
    auto* rowLabel = new QLabel(label, this);
    rowLabel->setBuddy(edit);
    form->addRow(rowLabel, column);
    connect(browse, &QPushButton::clicked, this, [this, edit, label, filter] {
      const QString path = QFileDialog::getOpenFileName(
          this, label.chopped(1).remove(QLatin1Char('&')), QFileInfo(edit->text()).path(), filter);
      if (!path.isEmpty()) edit->setText(path);
    });
    connect(edit, &QLineEdit::textChanged, this, &CorpusFilesDialog::updateButtons);
    return edit;
  };
  corpus_ = addRow(tr("&Corpus:"),
                   tr("The social-cue corpus (.yld): one utterance per line, objects and cues "
                      "before the words."),
                   tr("Social-cue corpora (*.yld);;All files (*)"));
  if (fields == Fields::CorpusGoldRecordings) {
    gold_ = addRow(tr("&Gold topics:"),
                   tr("Optional. The gold topic annotation aligned with the corpus (.yld); it "
                      "gives the gold row."),
                   tr("Gold annotations (*.yld);;All files (*)"));
  }
  recordings_ = addRow(tr("&Recordings:"),
                       tr("Optional. The recordings table (.tsv) cutting the corpus into "
                          "recordings, each one string; empty: the whole corpus is one "
                          "recording."),
                       tr("Recordings tables (*.tsv);;All files (*)"));
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  setFiles({});
}

CorpusFiles CorpusFilesDialog::defaultFiles() {
  const ExperimentSpec defaults = ExperimentSpec().withDefaultFiles();
  return {defaults.corpusPath, defaults.goldPath, defaults.recordingsPath};
}

void CorpusFilesDialog::setFiles(const CorpusFiles& files) {
  const CorpusFiles defaults = defaultFiles();
  // The defaults go together: a corpus of one's own does not take ../shared's gold or table.
  const bool own = !files.corpus.isEmpty();
  corpus_->setText(own ? files.corpus : defaults.corpus);
  if (gold_) gold_->setText(own ? files.gold : defaults.gold);
  recordings_->setText(own ? files.recordings : defaults.recordings);
  updateButtons();
}

CorpusFiles CorpusFilesDialog::files() const {
  return {corpus_->text().trimmed(), gold_ ? gold_->text().trimmed() : QString(),
          recordings_->text().trimmed()};
}

void CorpusFilesDialog::updateButtons() {
  QPushButton* open = buttons_ ? buttons_->button(QDialogButtonBox::Open) : nullptr;
  if (open) open->setEnabled(QFileInfo(corpus_->text().trimmed()).isFile());
}

}  // namespace gwb::ui
