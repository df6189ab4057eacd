#include "ui/grounded/corpus_view.h"

#include <algorithm>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/common/text_format.h"

namespace gwb::ui {

namespace {
constexpr int kChipPadding = 5;
constexpr int kChipGap = 6;

// "kid.eyes" → "kid eyes" for display.
QString cueText(const QString& cue) {
  QString text = cue;
  text.replace(QLatin1Char('.'), QLatin1Char(' '));
  return text;
}

QColor cueColor(const QString& cue) {
  if (cue.startsWith(QLatin1String("kid"))) return {0x2e, 0x8b, 0x3c};
  if (cue.startsWith(QLatin1String("mom"))) return {0x8e, 0x44, 0xad};
  return {0x55, 0x55, 0x55};
}

// Paints the objects of an utterance as chips: ".dog  kid eyes · mom hands".
class ObjectChipDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    base.text.clear();
    base.widget->style()->drawControl(QStyle::CE_ItemViewItem, &base, painter, base.widget);
    const QVariantList objects = index.data(CorpusTableModel::ObjectsRole).toList();
    const QString topic = index.data(CorpusTableModel::TopicRole).toString();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QFont bold = option.font;
    bold.setBold(true);
    QFont small = option.font;
    small.setPointSizeF(option.font.pointSizeF() * 0.85);
    const QFontMetrics boldMetrics(bold);
    const QFontMetrics smallMetrics(small);
    int x = option.rect.left() + 4;
    const QRect row = option.rect.adjusted(0, 3, 0, -3);
    for (const QVariant& value : objects) {
      const QStringList parts = value.toStringList();
      if (parts.isEmpty()) continue;
      const QString& name = parts.front();
      int width = boldMetrics.horizontalAdvance(name) + 2 * kChipPadding;
      QStringList cues;
      for (qsizetype i = 1; i < parts.size(); ++i) cues << cueText(parts[i]);
      const QString cueLine = cues.join(QStringLiteral(" \u00b7 "));
      if (!cues.isEmpty()) width += smallMetrics.horizontalAdvance(cueLine) + kChipPadding;
      const QRect chip(x, row.top(), width, row.height());
      if (chip.left() > option.rect.right()) break;
      const bool isTopic = name == topic;
      painter->setPen(isTopic ? QPen(QColor(0xd2, 0x78, 0x12), 2)
                              : QPen(option.palette.color(QPalette::Mid), 1));
      painter->setBrush(QColor(0xf3, 0xf5, 0xf9));
      painter->drawRoundedRect(chip, 8, 8);
      painter->setFont(bold);
      painter->setPen(option.palette.color(QPalette::Text));
      const QRect nameRect(chip.left() + kChipPadding, chip.top(),
                           boldMetrics.horizontalAdvance(name), chip.height());
      painter->drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft, name);
      if (!cues.isEmpty()) {
        painter->setFont(small);
        int cx = nameRect.right() + kChipPadding;
        for (qsizetype i = 0; i < cues.size(); ++i) {
          const QString text = i == 0 ? cues[i] : QStringLiteral(" \u00b7 ") % cues[i];
          painter->setPen(i == 0 ? cueColor(parts[1]) : cueColor(parts[i + 1]));
          const int w = smallMetrics.horizontalAdvance(text);
          painter->drawText(QRect(cx, chip.top(), w, chip.height()),
                            Qt::AlignVCenter | Qt::AlignLeft, text);
          cx += w;
        }
      }
      x += width + kChipGap;
    }
    painter->restore();
  }
};

// The gold topic as a chip (or a dim "none").
class TopicChipDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    base.text.clear();
    base.widget->style()->drawControl(QStyle::CE_ItemViewItem, &base, painter, base.widget);
    const QString topic = index.data(CorpusTableModel::TopicRole).toString();
    if (topic.isEmpty()) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics(option.font);
    if (topic == QLatin1String("none")) {
      QColor dim = option.palette.color(QPalette::Text);
      dim.setAlphaF(0.45F);
      painter->setPen(dim);
      painter->drawText(option.rect.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                        QObject::tr("none"));
    } else {
      const QRect chip(option.rect.left() + 4, option.rect.top() + 3,
                       metrics.horizontalAdvance(topic) + 2 * kChipPadding,
                       option.rect.height() - 6);
      painter->setPen(QPen(QColor(0xd2, 0x78, 0x12), 1.5));
      painter->setBrush(QColor(0xfd, 0xe6, 0xc8));
      painter->drawRoundedRect(chip, 8, 8);
      painter->setPen(option.palette.color(QPalette::Text));
      painter->drawText(chip, Qt::AlignCenter, topic);
    }
    painter->restore();
  }
};

// The words, with the topical ones (gold annotation) in bold orange.
class WordsDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    const QStringList topical = index.data(CorpusTableModel::TopicalWordsRole).toStringList();
    if (topical.isEmpty()) {
      QStyledItemDelegate::paint(painter, option, index);
      return;
    }
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    const QStringList words = base.text.split(QLatin1Char(' '));
    base.text.clear();
    base.widget->style()->drawControl(QStyle::CE_ItemViewItem, &base, painter, base.widget);
    painter->save();
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics plain(option.font);
    const QFontMetrics strong(bold);
    const bool selected = option.state.testFlag(QStyle::State_Selected);
    int x = option.rect.left() + 4;
    QStringList left = topical;  // each marked occurrence once, in order
    for (const QString& word : words) {
      const qsizetype at = left.indexOf(word);
      const bool isTopical = at >= 0;
      if (isTopical) left.removeAt(at);
      painter->setFont(isTopical ? bold : option.font);
      painter->setPen(selected    ? option.palette.color(QPalette::HighlightedText)
                      : isTopical ? QColor(0xb3, 0x5c, 0x00)
                                  : option.palette.color(QPalette::Text));
      const QString text = word % QLatin1Char(' ');
      const int w = (isTopical ? strong : plain).horizontalAdvance(text);
      painter->drawText(QRect(x, option.rect.top(), w, option.rect.height()),
                        Qt::AlignVCenter | Qt::AlignLeft, text);
      x += w;
      if (x > option.rect.right()) break;
    }
    painter->restore();
  }
};

}  // namespace

CorpusTableModel::CorpusTableModel(const CorpusDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {}

int CorpusTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(document_->utterances().size());
}

int CorpusTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CorpusTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Utterance& u = document_->utterances()[static_cast<std::size_t>(index.row())];
  if (role == TextRole) return u.text;
  if (role == TopicRole) return u.goldTopic;
  if (role == TopicalWordsRole) return u.topicalWords;
  if (role == ObjectsRole) {
    QVariantList objects;
    for (const SocialObject& o : u.objects) objects << QVariant(QStringList{o.name} + o.cues);
    return objects;
  }
  switch (index.column()) {
    case Line:
      if (role == Qt::DisplayRole) return u.line;
      if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case Objects:
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        QStringList parts;
        for (const SocialObject& o : u.objects)
          parts << (o.cues.isEmpty() ? o.name
                                     : o.name % QStringLiteral(" (") %
                                           o.cues.join(QStringLiteral(", ")) % QLatin1Char(')'));
        return parts.join(QStringLiteral("; "));
      }
      break;
    case Words:
      if (role == Qt::DisplayRole) return u.words.join(QLatin1Char(' '));
      if (role == Qt::ToolTipRole && !u.topicalWords.isEmpty())
        return tr("Words about the topic: %1").arg(u.topicalWords.join(QStringLiteral(", ")));
      break;
    case Topic:
      if (role == Qt::DisplayRole) return u.goldTopic;
      break;
    default: break;
  }
  return {};
}

QVariant CorpusTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case Line: return tr("Line");
    case Objects: return tr("Objects and social cues");
    case Words: return tr("Words");
    case Topic: return tr("Gold topic");
    default: return {};
  }
}

CorpusView::CorpusView(std::unique_ptr<CorpusDocument> document, QWidget* parent)
    : QWidget(parent),
      document_(std::move(document)),
      model_(new CorpusTableModel(document_.get(), this)),
      proxy_(new QSortFilterProxyModel(this)),
      summary_(new QLabel(this)),
      filterEdit_(new QLineEdit(this)),
      parseSelected_(new QPushButton(tr("Parse in stepper"), this)),
      parseAll_(new QPushButton(tr("Parse whole file"), this)),
      table_(new QTableView(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

  filterEdit_->setPlaceholderText(tr("Filter by word, object or topic"));
  filterEdit_->setClearButtonEnabled(true);
  parseSelected_->setToolTip(
      tr("Parse the selected utterances, as one string, in the Earley stepper of the grammar "
         "you used last"));
  parseAll_->setToolTip(
      tr("Parse the whole file as one string (a discourse, for the "
         "discourse grammar)"));

  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setAlternatingRowColors(true);
  table_->setShowGrid(false);
  table_->setWordWrap(false);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 12);
  table_->setItemDelegateForColumn(CorpusTableModel::Objects, new ObjectChipDelegate(table_));
  table_->setItemDelegateForColumn(CorpusTableModel::Topic, new TopicChipDelegate(table_));
  table_->setItemDelegateForColumn(CorpusTableModel::Words, new WordsDelegate(table_));
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  header->setStretchLastSection(false);
  const QFontMetrics metrics = table_->fontMetrics();
  table_->setColumnWidth(CorpusTableModel::Line,
                         metrics.horizontalAdvance(QStringLiteral("99999")) + 20);
  table_->setColumnWidth(CorpusTableModel::Objects,
                         metrics.horizontalAdvance(QStringLiteral(
                             ".dog kid eyes \u00b7 mom eyes \u00b7 mom hands  .pig kid hands")) +
                             40);
  table_->setColumnHidden(CorpusTableModel::Objects,
                          document_->kind() != CorpusDocument::Kind::SocialCues);
  table_->setColumnHidden(CorpusTableModel::Topic, !document_->hasGold());
  table_->setColumnWidth(CorpusTableModel::Topic,
                         metrics.horizontalAdvance(QStringLiteral("Gold topic  ")) + 24);
  header->setSectionResizeMode(CorpusTableModel::Words, QHeaderView::Stretch);

  auto* bar = new QHBoxLayout;
  bar->addWidget(filterEdit_, 1);
  bar->addWidget(parseSelected_);
  bar->addWidget(parseAll_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addWidget(summary_);
  layout->addLayout(bar);
  layout->addWidget(table_, 1);

  connect(filterEdit_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilterFixedString(text);
    updateSummary();
    emit stateChanged();
  });
  connect(parseSelected_, &QPushButton::clicked, this, [this] {
    const QString text = selectedText();
    if (!text.isEmpty()) emit parseRequested(text);
  });
  connect(parseAll_, &QPushButton::clicked, this,
          [this] { emit parseRequested(document_->allText()); });
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    emit parseRequested(index.data(CorpusTableModel::TextRole).toString());
  });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    parseSelected_->setEnabled(!selectedRows().empty());
    emit stateChanged();
  });
  parseSelected_->setEnabled(false);
  updateSummary();
}

CorpusView::~CorpusView() = default;

void CorpusView::updateSummary() {
  const int total = model_->rowCount();
  const int shown = proxy_->rowCount();
  QString what;
  switch (document_->kind()) {
    case CorpusDocument::Kind::Sentences:
      what = countText(total, tr("sentence"), tr("sentences"));
      break;
    case CorpusDocument::Kind::SocialCues:
      what = countText(total, tr("utterance"), tr("utterances")) % tr(" with social cues");
      break;
    case CorpusDocument::Kind::GoldTopics:
      what = countText(total, tr("utterance"), tr("utterances")) % tr(" with gold topics");
      break;
  }
  QString text = tr("<b>%1</b> \u00b7 %2 \u00b7 %3")
                     .arg(document_->displayName().toHtmlEscaped(), what,
                          countText(document_->wordCount(), tr("word"), tr("words")));
  if (!document_->goldPath().isEmpty())
    text += tr(" \u00b7 gold topics from %1")
                .arg(QFileInfo(document_->goldPath()).fileName().toHtmlEscaped());
  if (shown != total) text += tr(" \u00b7 %1 shown").arg(QLocale().toString(shown));
  summary_->setText(text);
}

std::vector<int> CorpusView::selectedRows() const {
  std::vector<int> rows;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows())
    rows.push_back(proxy_->mapToSource(index).row());
  std::sort(rows.begin(), rows.end());
  return rows;
}

QString CorpusView::selectedText() const {
  QStringList parts;
  for (int row : selectedRows())
    parts << document_->utterances()[static_cast<std::size_t>(row)].text;
  return parts.join(QLatin1Char(' '));
}

void CorpusView::selectRows(const std::vector<int>& rows) {
  QItemSelection selection;
  for (int row : rows) {
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (index.isValid()) selection.select(index, index);
  }
  table_->selectionModel()->select(selection,
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (!rows.empty()) {
    const QModelIndex first = proxy_->mapFromSource(model_->index(rows.front(), 0));
    if (first.isValid()) table_->scrollTo(first);
  }
}

QJsonObject CorpusView::state() const {
  QJsonArray rows;
  for (int row : selectedRows()) rows.append(row);
  return QJsonObject{{QStringLiteral("filter"), filterEdit_->text()},
                     {QStringLiteral("selectedRows"), rows}};
}

void CorpusView::restoreState(const QJsonObject& state) {
  filterEdit_->setText(state.value(QStringLiteral("filter")).toString());
  std::vector<int> rows;
  for (const auto& value : state.value(QStringLiteral("selectedRows")).toArray()) {
    const int row = value.toInt(-1);
    if (row >= 0 && row < model_->rowCount()) rows.push_back(row);
  }
  selectRows(rows);
}

}  // namespace gwb::ui
