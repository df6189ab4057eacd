// CorpusView: a CorpusDocument as a table, one utterance a row, with the social cues as chips.
//
// Columns: the line, the objects present with their social cues (a chip per object: its name,
// then its cues; the gold topic's chip is outlined), the words (those the gold annotation
// marks as about the topic in bold orange), and the gold topic. A filter
// bar matches words, objects or topics. "Parse in stepper" sends the selected utterances (as
// one string, in order) to an Earley stepper; "Parse whole file" sends everything — a
// recording for the discourse grammar. CorpusTableModel is the model behind the table.
#pragma once

#include <memory>

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QWidget>

#include "ui/grounded/corpus_document.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gwb::ui {

class CorpusTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int { Line, Objects, Words, Topic, ColumnCount };
  enum Role : int {
    ObjectsRole = Qt::UserRole,  // QVariantList of QStringList: {object, cue, cue, ...}
    TopicRole,                   // QString: the gold topic (".pig", "none", or empty)
    TextRole,                    // QString: the utterance as a parser reads it
    TopicalWordsRole,            // QStringList: words the gold annotation marks as topical
  };

  explicit CorpusTableModel(const CorpusDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const CorpusDocument* document_;
};

class CorpusView : public QWidget {
  Q_OBJECT
  Q_DISABLE_COPY_MOVE(CorpusView)

 public:
  explicit CorpusView(std::unique_ptr<CorpusDocument> document, QWidget* parent = nullptr);
  ~CorpusView() override;

  CorpusDocument& document() const { return *document_; }
  QTableView* tableView() const { return table_; }
  CorpusTableModel* model() const { return model_; }
  QSortFilterProxyModel* proxyModel() const { return proxy_; }
  QLineEdit* filterEdit() const { return filterEdit_; }

  // The selected utterances (source rows, in file order) and their text joined.
  std::vector<int> selectedRows() const;
  QString selectedText() const;
  void selectRows(const std::vector<int>& rows);

  QJsonObject state() const;
  void restoreState(const QJsonObject& state);

 signals:
  // The user asked to parse `text` in an Earley stepper.
  void parseRequested(const QString& text);
  void stateChanged();

 private:
  void updateSummary();

  std::unique_ptr<CorpusDocument> document_;
  CorpusTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QLabel* summary_ = nullptr;
  QLineEdit* filterEdit_ = nullptr;
  QPushButton* parseSelected_ = nullptr;
  QPushButton* parseAll_ = nullptr;
  QTableView* table_ = nullptr;
};

}  // namespace gwb::ui
