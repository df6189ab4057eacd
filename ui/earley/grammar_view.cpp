#include "ui/earley/grammar_view.h"

#include <algorithm>
#include <array>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/common/qt_conversions.h"
#include "ui/common/text_format.h"
#include "ui/earley/grammar_document.h"
#include "ui/earley/grammar_editor.h"
#include "ui/earley/grammar_table_model.h"
#include "ui/earley/parse_session.h"
#include "ui/earley/parse_tree_view.h"
#include "ui/earley/stepper_view.h"
#include "ui/earley/tree_chart_link.h"

namespace gwb::ui {

namespace {
// Typing pauses this long before a filter runs, so a 35k-row table does not refilter per key.
constexpr int kFilterDelayMs = 150;
// The LHS column grows to fit the longest name, but no wider than this many average chars.
constexpr int kMaxLhsChars = 28;
// The grammar is re-read this long after the last keystroke in the editor.
constexpr int kEditDelayMs = 400;
}  // namespace

GrammarView::GrammarView(std::unique_ptr<GrammarDocument> document, QWidget* parent)
    : QWidget(parent),
      document_(std::move(document)),
      model_(new GrammarTableModel(this)),
      proxy_(new GrammarFilterProxyModel(this)),
      filterEdit_(new QLineEdit(this)),
      scopeBox_(new QComboBox(this)),
      regexBox_(new QCheckBox(tr("Regular expression"), this)),
      countLabel_(new QLabel(this)),
      table_(new QTableView(this)),
      filterDelay_(new QTimer(this)) {
  model_->setGrammar(document_->grammar());
  proxy_->setSourceModel(model_);

  filterEdit_->setPlaceholderText(tr("Filter rules, e.g. NP or NP -> Det"));
  filterEdit_->setClearButtonEnabled(true);
  filterEdit_->setToolTip(filterHelp());

  scopeBox_->addItem(tr("LHS or RHS"), static_cast<int>(GrammarFilterProxyModel::Scope::LhsOrRhs));
  scopeBox_->addItem(tr("LHS only"), static_cast<int>(GrammarFilterProxyModel::Scope::Lhs));
  scopeBox_->addItem(tr("RHS only"), static_cast<int>(GrammarFilterProxyModel::Scope::Rhs));
  scopeBox_->setToolTip(tr("Which side of a rule the filter is matched against"));

  auto* filterBar = new QHBoxLayout;
  filterBar->addWidget(filterEdit_, 1);
  filterBar->addWidget(scopeBox_);
  filterBar->addWidget(regexBox_);
  filterBar->addSpacing(8);
  filterBar->addWidget(countLabel_);

  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setAlternatingRowColors(true);
  table_->setShowGrid(false);
  table_->setWordWrap(false);
  table_->setTextElideMode(Qt::ElideRight);
  table_->setCornerButtonEnabled(false);

  // Fixed row heights: the view never measures rows, which keeps 35k rows instant.
  QHeaderView* rows = table_->verticalHeader();
  rows->setSectionResizeMode(QHeaderView::Fixed);
  rows->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  rows->hide();

  QHeaderView* columns = table_->horizontalHeader();
  columns->setSectionsMovable(true);
  columns->setHighlightSections(false);
  columns->setStretchLastSection(false);
  columns->setSectionResizeMode(QHeaderView::Interactive);
  columns->setSectionResizeMode(GrammarTableModel::Rhs, QHeaderView::Stretch);
  columns->setSortIndicatorClearable(true);
  columns->setSortIndicator(-1, Qt::AscendingOrder);  // file order until a header is clicked
  columns->setContextMenuPolicy(Qt::CustomContextMenu);
  table_->setSortingEnabled(true);
  setInitialColumnWidths();
  table_->setColumnHidden(GrammarTableModel::Prior, !document_->grammar()->hasPriors());

  auto* rulesPane = new QWidget(this);
  auto* rulesLayout = new QVBoxLayout(rulesPane);
  rulesLayout->setContentsMargins(4, 4, 4, 0);
  rulesLayout->addLayout(filterBar);
  rulesLayout->addWidget(table_, 1);

  editor_ = new GrammarEditor(this);
  editor_->setObjectName(QStringLiteral("grammarEditor"));
  editor_->setPlainText(document_->text());
  editor_->setDiagnostics(document_->diagnostics());
  editor_->document()->setModified(false);
  editDelay_ = new QTimer(this);
  editDelay_->setSingleShot(true);
  // Re-reading a big grammar takes a moment: wait longer for a pause in typing.
  editDelay_->setInterval(document_->text().size() > 200000 ? 1200 : kEditDelayMs);
  connect(editor_, &QPlainTextEdit::textChanged, editDelay_, qOverload<>(&QTimer::start));
  connect(editDelay_, &QTimer::timeout, this, &GrammarView::applyEdits);
  connect(document_.get(), &GrammarDocument::grammarChanged, this, &GrammarView::onGrammarChanged);

  // The text above the table: both keep the full width (grammar lines and rule rows are long).
  auto* rulesPage = new QSplitter(Qt::Vertical, this);
  rulesPage->addWidget(editor_);
  rulesPage->addWidget(rulesPane);
  rulesPage->setStretchFactor(0, 1);
  rulesPage->setStretchFactor(1, 1);
  rulesPage->setChildrenCollapsible(false);
  rulesPage->setSizes({450, 550});

  stepper_ = new StepperView(this);
  stepper_->setGrammar(document_->grammar());
  stepper_->setSentences(sampleSentences(document_->filePath()));

  pages_ = new QTabWidget(this);
  pages_->setObjectName(QStringLiteral("grammarPages"));
  pages_->setDocumentMode(true);
  pages_->addTab(rulesPage, tr("Grammar"));
  pages_->addTab(stepper_, tr("Earley stepper"));
  tree_ = new ParseTreeView(this);
  pages_->addTab(tree_, tr("Parse tree"));
  pages_->setTabToolTip(2, tr("The most probable (Viterbi) parse of the stepper's sentence"));
  connect(stepper_, &StepperView::sessionChanged, this,
          [this](const std::shared_ptr<const ParseSession>& session) {
            tree_->setSession(session);
            if (pendingTreeState_) {
              tree_->restoreState(*pendingTreeState_);
              pendingTreeState_.reset();
            }
            updateTreeHighlight();
          });
  connect(tree_, &ParseTreeView::showInChartRequested, this, &GrammarView::showTreeNodeInChart);
  connect(stepper_, &StepperView::selectedItemChanged, this, &GrammarView::updateTreeHighlight);
  // Another parse of the list, or a rebuilt drawing.
  connect(tree_, &ParseTreeView::stateChanged, this, &GrammarView::updateTreeHighlight);
  pages_->setTabToolTip(0, tr("The rules, their probabilities and priors"));
  pages_->setTabToolTip(1, tr("Step through a probabilistic Earley parse of a sentence"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(pages_);
  if (!stepper_->sentence().isEmpty()) stepper_->parse();

  filterDelay_->setSingleShot(true);
  filterDelay_->setInterval(kFilterDelayMs);
  connect(filterDelay_, &QTimer::timeout, this, &GrammarView::applyFilterFromBar);
  connect(filterEdit_, &QLineEdit::textChanged, filterDelay_, qOverload<>(&QTimer::start));
  connect(filterEdit_, &QLineEdit::returnPressed, this, &GrammarView::applyFilterFromBar);
  connect(scopeBox_, &QComboBox::currentIndexChanged, this, &GrammarView::applyFilterFromBar);
  connect(regexBox_, &QCheckBox::toggled, this, &GrammarView::applyFilterFromBar);
  connect(columns, &QHeaderView::customContextMenuRequested, this, &GrammarView::showHeaderMenu);

  updateCountLabel();
}

GrammarView::~GrammarView() = default;

namespace {
// The pages' names in workspace files, in tab order.
const std::array<QString, 3> kPageNames{QStringLiteral("grammar"), QStringLiteral("stepper"),
                                        QStringLiteral("tree")};
}  // namespace

QJsonObject GrammarView::state() const {
  QJsonArray selected;
  for (gwb::RuleId rule : selectedRules()) selected.append(rule);
  const QJsonObject rules{{QStringLiteral("filter"), filterEdit_->text()},
                          {QStringLiteral("regex"), regexBox_->isChecked()},
                          {QStringLiteral("scope"), scopeBox_->currentData().toInt()},
                          {QStringLiteral("selected"), selected}};
  return QJsonObject{
      {QStringLiteral("page"), kPageNames.at(static_cast<std::size_t>(pages_->currentIndex()))},
      {QStringLiteral("rules"), rules},
      {QStringLiteral("stepper"), stepper_->state()},
      {QStringLiteral("tree"), pendingTreeState_.value_or(tree_->state())}};
}

void GrammarView::restoreState(const QJsonObject& state) {
  const QJsonObject rules = state.value(QStringLiteral("rules")).toObject();
  setFilter(
      rules.value(QStringLiteral("filter")).toString(),
      rules.value(QStringLiteral("regex")).toBool(),
      static_cast<GrammarFilterProxyModel::Scope>(rules.value(QStringLiteral("scope")).toInt(0)));
  std::vector<gwb::RuleId> selected;
  for (const auto& value : rules.value(QStringLiteral("selected")).toArray()) {
    const int rule = value.toInt(-1);
    if (rule >= 0 && static_cast<std::size_t>(rule) < document_->grammar()->ruleCount())
      selected.push_back(rule);
  }
  if (!selected.empty()) selectRules(selected);
  const QString page = state.value(QStringLiteral("page")).toString();
  for (std::size_t i = 0; i < kPageNames.size(); ++i) {
    if (page == kPageNames.at(i)) pages_->setCurrentIndex(static_cast<int>(i));
  }
  if (state.contains(QStringLiteral("tree")))
    pendingTreeState_ = state.value(QStringLiteral("tree")).toObject();
  if (state.contains(QStringLiteral("stepper"))) {
    stepper_->restoreState(state.value(QStringLiteral("stepper")).toObject());
  } else if (pendingTreeState_ && !stepper_->isParsing()) {
    tree_->restoreState(*pendingTreeState_);
    pendingTreeState_.reset();
  }
}

void GrammarView::applyEdits() {
  editDelay_->stop();
  document_->setText(editor_->toPlainText());
}

void GrammarView::onGrammarChanged() {
  // The text can change from outside the editor (Save As in another format).
  if (editor_->toPlainText() != document_->text()) {
    const QSignalBlocker block(editor_);
    editor_->setPlainText(document_->text());
  }
  editor_->setDiagnostics(document_->diagnostics());
  const std::vector<gwb::RuleId> selected = selectedRules();
  model_->setGrammar(document_->grammar());
  table_->setColumnHidden(GrammarTableModel::Prior, !document_->grammar()->hasPriors());
  applyFilterFromBar();
  std::vector<gwb::RuleId> stillThere;
  for (gwb::RuleId rule : selected)
    if (static_cast<std::size_t>(rule) < document_->grammar()->ruleCount())
      stillThere.push_back(rule);
  if (!stillThere.empty()) selectRules(stillThere);
  stepper_->setGrammar(document_->grammar());
}

GrammarView::Page GrammarView::currentPage() const {
  return static_cast<Page>(pages_->currentIndex());
}

void GrammarView::showPage(Page page) { pages_->setCurrentIndex(static_cast<int>(page)); }

QStringList GrammarView::sampleSentences(const QString& grammarPath) {
  QStringList sentences;
  const QFileInfo info(grammarPath);
  // The companion sentence file: one sentence a line, # comments.
  QFile companion(info.dir().filePath(info.completeBaseName() + QStringLiteral(".txt")));
  if (companion.open(QIODevice::ReadOnly | QIODevice::Text)) {
    while (!companion.atEnd()) {
      const QString line = QString::fromUtf8(companion.readLine()).simplified();
      if (!line.isEmpty() && !line.startsWith(QLatin1Char('#'))) sentences << line;
    }
  }
  // `Try: "a", "b".` in the grammar's comments.
  QFile grammar(grammarPath);
  if (grammar.open(QIODevice::ReadOnly | QIODevice::Text)) {
    static const QRegularExpression quotedSentence(QStringLiteral("\"([^\"]+)\""));
    for (int line = 0; line < 60 && !grammar.atEnd(); ++line) {
      const QString text = QString::fromUtf8(grammar.readLine());
      if (!text.startsWith(QLatin1Char('#'))) continue;
      const qsizetype at = text.indexOf(QStringLiteral("Try:"));
      if (at < 0) continue;
      auto matches = quotedSentence.globalMatch(text.mid(at));
      while (matches.hasNext()) {
        const QString sentence = matches.next().captured(1).simplified();
        if (!sentences.contains(sentence)) sentences << sentence;
      }
    }
  }
  return sentences;
}

QString GrammarView::filterHelp() {
  return tr("Case-insensitive; matches the LHS, the RHS or \"LHS -> RHS\"");
}

void GrammarView::setInitialColumnWidths() {
  const QFontMetrics cells = table_->fontMetrics();
  const QFontMetrics headers = table_->horizontalHeader()->fontMetrics();
  // Room for the cell margins and the header's sort arrow.
  const int padding = 2 * cells.averageCharWidth() + 16;
  const auto widthFor = [&](int column, const QString& widestValue) {
    const QString header = model_->headerData(column, Qt::Horizontal).toString();
    return std::max(headers.horizontalAdvance(header), cells.horizontalAdvance(widestValue)) +
           padding;
  };

  int lhsWidth = 0;
  const gwb::Grammar& grammar = *document_->grammar();
  for (gwb::SymbolId lhs : grammar.lhsSymbols())
    lhsWidth = std::max(lhsWidth, cells.horizontalAdvance(toQString(grammar.symbols().name(lhs))));
  lhsWidth = std::min(lhsWidth, kMaxLhsChars * cells.averageCharWidth());
  table_->setColumnWidth(GrammarTableModel::Lhs,
                         std::max(lhsWidth + padding, widthFor(GrammarTableModel::Lhs, {})));

  table_->setColumnWidth(GrammarTableModel::Probability,
                         widthFor(GrammarTableModel::Probability, QStringLiteral("1.2345678e-05")));
  table_->setColumnWidth(GrammarTableModel::Prior,
                         widthFor(GrammarTableModel::Prior, QStringLiteral("0.12345678")));
  table_->setColumnWidth(GrammarTableModel::LhsSum,
                         widthFor(GrammarTableModel::LhsSum, QStringLiteral("0.999999")));
  table_->setColumnWidth(GrammarTableModel::Kind,
                         widthFor(GrammarTableModel::Kind, QStringLiteral("multi-terminal")));
  table_->setColumnWidth(GrammarTableModel::Line,
                         widthFor(GrammarTableModel::Line, QStringLiteral("999999")));
}

void GrammarView::showHeaderMenu(const QPoint& position) {
  QMenu menu(this);
  for (int column = 0; column < GrammarTableModel::ColumnCount; ++column) {
    QAction* action = menu.addAction(model_->headerData(column, Qt::Horizontal).toString());
    action->setCheckable(true);
    action->setChecked(!table_->isColumnHidden(column));
    connect(action, &QAction::toggled, table_,
            [this, column](bool shown) { table_->setColumnHidden(column, !shown); });
  }
  menu.exec(table_->horizontalHeader()->viewport()->mapToGlobal(position));
}

bool GrammarView::applyFilterFromBar() {
  filterDelay_->stop();
  proxy_->setScope(static_cast<GrammarFilterProxyModel::Scope>(scopeBox_->currentData().toInt()));
  QString error;
  const bool valid = proxy_->setPattern(filterEdit_->text(), regexBox_->isChecked(), &error);
  if (valid) {
    filterEdit_->setStyleSheet(QString());
    filterEdit_->setToolTip(filterHelp());
  } else {
    filterEdit_->setStyleSheet(QStringLiteral("QLineEdit { background: #fde2e2; }"));
    filterEdit_->setToolTip(tr("Invalid regular expression: %1").arg(error));
  }
  updateCountLabel();
  return valid;
}

bool GrammarView::setFilter(const QString& text, bool isRegex,
                            GrammarFilterProxyModel::Scope scope) {
  {
    const QSignalBlocker blockEdit(filterEdit_);
    const QSignalBlocker blockRegex(regexBox_);
    const QSignalBlocker blockScope(scopeBox_);
    filterEdit_->setText(text);
    regexBox_->setChecked(isRegex);
    scopeBox_->setCurrentIndex(scopeBox_->findData(static_cast<int>(scope)));
  }
  return applyFilterFromBar();
}

void GrammarView::clearFilter() { setFilter(QString(), regexBox_->isChecked(), proxy_->scope()); }

void GrammarView::showRulesWithLhs(const QString& symbol) {
  setFilter(QLatin1Char('^') % QRegularExpression::escape(symbol) % QLatin1Char('$'), true,
            GrammarFilterProxyModel::Scope::Lhs);
}

void GrammarView::updateCountLabel() {
  const int visible = proxy_->rowCount();
  const int total = model_->rowCount();
  const QLocale locale;
  countLabel_->setText(
      visible == total
          ? countText(total, tr("rule"), tr("rules"))
          : tr("%1 of %2 rules").arg(locale.toString(visible), locale.toString(total)));
  emit visibleRuleCountChanged(visible, total);
}

std::vector<gwb::RuleId> GrammarView::selectedRules() const {
  QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(),
            [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  std::vector<gwb::RuleId> rules;
  rules.reserve(static_cast<std::size_t>(rows.size()));
  for (const QModelIndex& row : rows)
    rules.push_back(static_cast<gwb::RuleId>(row.data(GrammarTableModel::RuleIdRole).toInt()));
  return rules;
}

void GrammarView::selectRules(const std::vector<gwb::RuleId>& rules) {
  const auto isHidden = [this](gwb::RuleId rule) {
    return !proxy_->mapFromSource(model_->indexForRule(rule)).isValid();
  };
  if (std::any_of(rules.begin(), rules.end(), isHidden)) clearFilter();

  QItemSelection selection;
  QModelIndex first;
  for (gwb::RuleId rule : rules) {
    const QModelIndex index = proxy_->mapFromSource(model_->indexForRule(rule));
    if (!index.isValid()) continue;
    selection.select(index, index);
    if (!first.isValid() || index.row() < first.row()) first = index;
  }
  QItemSelectionModel* selectionModel = table_->selectionModel();
  selectionModel->select(selection,
                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (first.isValid()) {
    selectionModel->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    table_->scrollTo(first, QAbstractItemView::PositionAtCenter);
  }
}

int GrammarView::selectRulesAtLine(int line) {
  const std::vector<gwb::RuleId> rules = model_->rulesAtLine(line);
  if (!rules.empty()) selectRules(rules);
  return static_cast<int>(rules.size());
}

bool GrammarView::showTreeNodeInChart(int node) {
  const std::shared_ptr<const ParseSession>& session = stepper_->session();
  const gwb::ParseTree& tree = tree_->tree();
  if (!session || !session->hasChart() || node < 0 || static_cast<std::size_t>(node) >= tree.size())
    return false;
  showPage(Page::Stepper);
  const QString label = toQString(tree.node(node).label).toHtmlEscaped();
  const TreeChartLink link = chartItemForNode(*session, tree, node);
  const auto spanText = [](NodeSpan span) {
    return QStringLiteral("[%1, %2]").arg(span.begin).arg(span.end);
  };
  switch (link.kind) {
    case TreeChartLink::Kind::Word:
      stepper_->showMessage(tr("<b>%1</b> is a word: it has no chart item of its own.").arg(label));
      return false;
    case TreeChartLink::Kind::Empty:
      stepper_->showMessage(tr("<b>%1</b> %2 derives the empty string: the parser drops nullable "
                               "symbols from its rules, so it has no chart item.")
                                .arg(label, spanText(link.span)));
      return false;
    case TreeChartLink::Kind::NotFound:
      stepper_->showMessage(
          tr("No completed item for <b>%1</b> %2 in this chart.").arg(label, spanText(link.span)));
      return false;
    case TreeChartLink::Kind::Exact:
    case TreeChartLink::Kind::UnitChain: break;
  }
  const QString itemText = session->itemText(link.item).toHtmlEscaped();
  const std::size_t applied = stepper_->stepper()->applied();
  if (!session->stateAfter(link.item, applied)) {
    stepper_->showMessage(tr("<b>Not yet in the chart:</b> %1 is made at step %2; the stepper is "
                             "at step %3 (F5 runs to the end).")
                              .arg(itemText)
                              .arg(firstStepWith(*session, link.item))
                              .arg(applied));
    return false;
  }
  // A filter that hides the item would leave the selection invisible: show every item.
  if (!stepper_->chartModel()->indexOfItem(link.item).isValid())
    stepper_->setFilter(ChartModel::Filter{});
  stepper_->selectItem(link.item);
  if (link.kind == TreeChartLink::Kind::Exact) {
    stepper_->showMessage(tr("Showing %1, the item that built <b>%2</b> %3 in the tree.")
                              .arg(itemText, label, spanText(link.span)));
  } else {
    stepper_->showMessage(
        tr("<b>%1</b> %2 is the top of a unit chain, which the parser folds into completion "
           "(R<sub>U</sub>): showing %3, the item of <b>%4</b> below it.")
            .arg(label, spanText(link.span), itemText,
                 toQString(tree.node(link.node).label).toHtmlEscaped()));
  }
  return true;
}

void GrammarView::updateTreeHighlight() {
  const std::shared_ptr<const ParseSession>& session = stepper_->session();
  const gwb::ItemRef item = stepper_->selectedItem();
  // Only a tree of this session's sentence can be built from its chart.
  const bool sameSentence = session && session->hasChart() && !tree_->tree().empty() &&
                            tree_->tree().leaves() == session->words();
  tree_->setHighlightedNode(sameSentence ? treeNodeForItem(*session, tree_->tree(), item) : -1);
}

}  // namespace gwb::ui
