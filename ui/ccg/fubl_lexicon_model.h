// FublLexiconModel: a learned factored lexicon (gwb/ccg/lexicon.h) as a table of its lexeme ×
// template pairs — one row per lexical entry the lexicon builds (the pairs whose slots and types
// fit) — for the lexicon browser of the FUBL learner view (fubl_view.h).
//
// Columns: the lexeme's words, its constants, the lexeme's, the template's and the pair's
// weights, the entry's score as the parser counts it (lexeme + 0.1 × template + pair,
// cky_parser.h), and the template (category : form). Numbers are returned as doubles under
// Qt::EditRole / the sort role, so a QSortFilterProxyModel sorts them as numbers; DisplayRole
// shows them with three decimals (formatWeight: a tiny negative weight shows as 0.000). Rows come
// in the lexicon's order: by lexeme index, then template index.
//
// FublLexiconFilter is the proxy the browser shows: it sorts, and keeps the rows whose lexeme
// has the filter text as one of its words (Word), as one of its constants or a constant's name
// without its type suffix (Constant), or either (Any); matching ignores case. An empty filter
// keeps every row.
//
// The model holds a shared pointer to the lexicon, which must not change while it is shown.
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>

#include "gwb/ccg/lexicon.h"

namespace gwb::ui {

class FublLexiconModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    WordsColumn,
    ConstantsColumn,
    LexemeWeightColumn,
    TemplateWeightColumn,
    PairWeightColumn,
    ScoreColumn,
    TemplateColumn,  // last: the widest
    ColumnCount
  };
  // Under this role every cell gives its raw value: a double for the number columns.
  static constexpr int kSortRole = Qt::UserRole + 1;

  explicit FublLexiconModel(QObject* parent = nullptr);

  void setLexicon(std::shared_ptr<const gwb::ccg::FactoredLexicon> lexicon);
  const gwb::ccg::FactoredLexicon* lexicon() const { return lexicon_.get(); }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // Row r's lexeme and template indices into the lexicon.
  int lexemeAt(int row) const { return pairs_[row].first; }
  int templateAt(int row) const { return pairs_[row].second; }
  // The row of a lexeme × template pair, -1 when they make no entry.
  int rowOf(int lexeme, int lexicalTemplate) const;
  // The weights of row r's features and its score (lexeme + 0.1 × template + pair).
  double lexemeWeight(int row) const;
  double templateWeight(int row) const;
  double pairWeight(int row) const;
  double score(int row) const;

  // "what states", "state:t next_to:t", "S|NP : (lambda $0 e (#0 $0))".
  QString wordsText(int lexeme) const;
  QString constantsText(int lexeme) const;
  QString templateText(int lexicalTemplate) const;

 private:
  std::shared_ptr<const gwb::ccg::FactoredLexicon> lexicon_;
  std::vector<std::pair<int, int>> pairs_;  // (lexeme, template), one per entry
};

// A weight or score as the browser shows it: three decimals, and "0.000" — never "-0.000" — for
// a value that rounds to zero from below (display only: the value itself is kept).
QString formatWeight(double value);

class FublLexiconFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  enum class Mode { Any, Word, Constant };

  explicit FublLexiconFilter(QObject* parent = nullptr);

  void setFilter(const QString& text, Mode mode);
  QString filterText() const { return text_; }
  Mode mode() const { return mode_; }
  // Whether `lexeme` of `lexicon` passes the filter.
  bool acceptsLexeme(const gwb::ccg::Lexeme& lexeme) const;

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QString text_;
  Mode mode_ = Mode::Any;
};

}  // namespace gwb::ui
