#include "ui/ccg/fubl_lexicon_model.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include <QStringList>

#include "gwb/ccg/cky_parser.h"
#include "ui/common/qt_conversions.h"

namespace gwb::ui {

namespace ccg = gwb::ccg;

QString formatWeight(double value) {
  QString text = QString::number(value, 'f', 3);
  if (text.startsWith(QLatin1Char('-')) && std::all_of(text.cbegin() + 1, text.cend(), [](QChar c) {
        return c == QLatin1Char('0') || c == QLatin1Char('.');
      })) {
    text.remove(0, 1);  // -0.000: a weight that rounds to zero has no sign
  }
  return text;
}

FublLexiconModel::FublLexiconModel(QObject* parent) : QAbstractTableModel(parent) {}

void FublLexiconModel::setLexicon(std::shared_ptr<const ccg::FactoredLexicon> lexicon) {
  beginResetModel();
  lexicon_ = std::move(lexicon);
  pairs_.clear();
  if (lexicon_) {
    std::unordered_set<std::string> phrases;
    for (const ccg::Lexeme& lexeme : lexicon_->lexemes()) {
      const std::string phrase = ccg::joinWords(lexeme.words);
      if (!phrases.insert(phrase).second) continue;
      for (const ccg::LexicalEntry& entry : lexicon_->entriesFor(phrase)) {
        pairs_.emplace_back(entry.lexeme, entry.lexicalTemplate);
      }
    }
    std::sort(pairs_.begin(), pairs_.end());
    pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
  }
  endResetModel();
}

int FublLexiconModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(pairs_.size());
}

int FublLexiconModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

int FublLexiconModel::rowOf(int lexeme, int lexicalTemplate) const {
  const auto it =
      std::lower_bound(pairs_.begin(), pairs_.end(), std::make_pair(lexeme, lexicalTemplate));
  if (it == pairs_.end() || *it != std::make_pair(lexeme, lexicalTemplate)) return -1;
  return static_cast<int>(it - pairs_.begin());
}

double FublLexiconModel::lexemeWeight(int row) const {
  return lexicon_->weight(ccg::lexemeFeature(lexicon_->lexemes()[pairs_[row].first]));
}

double FublLexiconModel::templateWeight(int row) const {
  return lexicon_->weight(ccg::templateFeature(lexicon_->templates()[pairs_[row].second]));
}

double FublLexiconModel::pairWeight(int row) const {
  return lexicon_->weight(ccg::pairFeature(lexicon_->lexemes()[pairs_[row].first],
                                           lexicon_->templates()[pairs_[row].second]));
}

double FublLexiconModel::score(int row) const {
  return lexemeWeight(row) + ccg::kTemplateFeatureValue * templateWeight(row) + pairWeight(row);
}

QString FublLexiconModel::wordsText(int lexeme) const {
  return toQString(ccg::joinWords(lexicon_->lexemes()[lexeme].words));
}

QString FublLexiconModel::constantsText(int lexeme) const {
  return toQString(ccg::joinWords(lexicon_->lexemes()[lexeme].constants));
}

QString FublLexiconModel::templateText(int lexicalTemplate) const {
  return toQString(ccg::templateKey(lexicon_->templates()[lexicalTemplate]));
}

QVariant FublLexiconModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || !lexicon_) return {};
  const int row = index.row();
  const bool raw = role == kSortRole;
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole && !raw && role != Qt::TextAlignmentRole) {
    return {};
  }
  const bool number = index.column() >= LexemeWeightColumn && index.column() <= ScoreColumn;
  if (role == Qt::TextAlignmentRole) {
    return QVariant::fromValue(
        Qt::Alignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
  }
  double value = 0;
  switch (index.column()) {
    case WordsColumn: return wordsText(pairs_[row].first);
    case ConstantsColumn: return constantsText(pairs_[row].first);
    case TemplateColumn: return templateText(pairs_[row].second);
    case LexemeWeightColumn: value = lexemeWeight(row); break;
    case TemplateWeightColumn: value = templateWeight(row); break;
    case PairWeightColumn: value = pairWeight(row); break;
    case ScoreColumn: value = score(row); break;
    default: return {};
  }
  if (raw) return value;
  if (role == Qt::ToolTipRole) return QString::number(value, 'g', 17);
  return formatWeight(value);
}

QVariant FublLexiconModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case WordsColumn: return tr("Words");
    case ConstantsColumn: return tr("Constants");
    case TemplateColumn: return tr("Template");
    case LexemeWeightColumn: return tr("Lexeme w");
    case TemplateWeightColumn: return tr("Template w");
    case PairWeightColumn: return tr("Pair w");
    case ScoreColumn: return tr("Score");
    default: return {};
  }
}

FublLexiconFilter::FublLexiconFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(FublLexiconModel::kSortRole);
}

void FublLexiconFilter::setFilter(const QString& text, Mode mode) {
  text_ = text.trimmed();
  mode_ = mode;
  invalidateFilter();
}

bool FublLexiconFilter::acceptsLexeme(const ccg::Lexeme& lexeme) const {
  if (text_.isEmpty()) return true;
  const auto same = [this](const std::string& value) {
    return toQString(value).compare(text_, Qt::CaseInsensitive) == 0;
  };
  if (mode_ != Mode::Constant) {
    for (const std::string& word : lexeme.words) {
      if (same(word)) return true;
    }
  }
  if (mode_ != Mode::Word) {
    for (const std::string& constant : lexeme.constants) {
      if (same(constant) || same(constant.substr(0, constant.find(':')))) return true;
    }
  }
  return false;
}

bool FublLexiconFilter::filterAcceptsRow(int sourceRow, const QModelIndex& /*sourceParent*/) const {
  const auto* model = qobject_cast<const FublLexiconModel*>(sourceModel());
  if (model == nullptr || model->lexicon() == nullptr) return true;
  return acceptsLexeme(model->lexicon()->lexemes()[model->lexemeAt(sourceRow)]);
}

}  // namespace gwb::ui
