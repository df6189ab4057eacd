#include "ui/ds/ds_dag_model.h"

#include <algorithm>
#include <set>

namespace gwb::ui {

DsDagModel::DsDagModel(QObject* parent) : QAbstractTableModel(parent) {}
DsDagModel::~DsDagModel() = default;

void DsDagModel::setResult(std::shared_ptr<const gwb::ds::DsParseResult> result,
                           std::vector<std::string> words) {
  beginResetModel();
  result_ = std::move(result);
  words_ = std::move(words);
  visible_ = 0;
  onPath_.clear();
  nodeOnPath_.clear();
  boundaries_.clear();
  lastLexical_.clear();
  if (result_) {
    const auto& dag = result_->dag;
    onPath_.assign(dag.edges().size(), false);
    nodeOnPath_.assign(dag.nodes().size(), false);
    if (!dag.nodes().empty()) nodeOnPath_[0] = true;
    for (int e : result_->path) {
      if (e < 0 || static_cast<std::size_t>(e) >= dag.edges().size()) continue;
      onPath_[static_cast<std::size_t>(e)] = true;
      nodeOnPath_[static_cast<std::size_t>(dag.edges()[static_cast<std::size_t>(e)].to)] = true;
    }
    std::set<int> bounds{0, static_cast<int>(dag.edges().size())};
    std::vector<int>& lastLexical = lastLexical_;
    for (std::size_t i = 0; i < dag.edges().size(); ++i) {
      const gwb::ds::DagEdge& e = dag.edges()[i];
      if (!e.lexical || e.wordIndex < 0) continue;
      if (static_cast<std::size_t>(e.wordIndex) >= lastLexical.size())
        lastLexical.resize(static_cast<std::size_t>(e.wordIndex) + 1, -1);
      lastLexical[static_cast<std::size_t>(e.wordIndex)] = static_cast<int>(i);
    }
    for (int last : lastLexical)
      if (last >= 0) bounds.insert(last + 1);
    boundaries_.assign(bounds.begin(), bounds.end());
  }
  endResetModel();
  emit resultChanged();
  emit visibleChanged(visible_);
}

bool DsDagModel::succeeded() const {
  return result_ && result_->outcome == gwb::ds::ParseOutcome::Parsed;
}

int DsDagModel::edgeCount() const {
  return result_ ? static_cast<int>(result_->dag.edges().size()) : 0;
}

int DsDagModel::nodeCount() const {
  return result_ ? static_cast<int>(result_->dag.nodes().size()) : 0;
}

int DsDagModel::visibleNodes() const {
  if (!result_ || result_->dag.nodes().empty()) return 0;
  int count = 1;
  for (int i = 0; i < visible_; ++i)
    count = std::max(count, result_->dag.edges()[static_cast<std::size_t>(i)].to + 1);
  return count;
}

int DsDagModel::wordsShown() const {
  int words = 0;
  for (int last : lastLexical_)
    if (last >= 0 && last < visible_) ++words;
  return words;
}

std::vector<int> DsDagModel::wordBoundaries() const { return boundaries_; }

int DsDagModel::latestNode() const {
  if (!result_ || result_->dag.nodes().empty()) return -1;
  if (visible_ == 0) return 0;
  return result_->dag.edges()[static_cast<std::size_t>(visible_ - 1)].to;
}

bool DsDagModel::isOnPath(int edgeId) const {
  return edgeId >= 0 && static_cast<std::size_t>(edgeId) < onPath_.size() &&
         onPath_[static_cast<std::size_t>(edgeId)];
}

bool DsDagModel::isNodeOnPath(int nodeId) const {
  return nodeId >= 0 && static_cast<std::size_t>(nodeId) < nodeOnPath_.size() &&
         nodeOnPath_[static_cast<std::size_t>(nodeId)];
}

bool DsDagModel::setVisibleEdges(int count) {
  if (!result_ || count < 0 || count > edgeCount() || count == visible_) return false;
  if (count > visible_) {
    beginInsertRows(QModelIndex(), visible_, count - 1);
    visible_ = count;
    endInsertRows();
  } else {
    beginRemoveRows(QModelIndex(), count, visible_ - 1);
    visible_ = count;
    endRemoveRows();
  }
  emit visibleChanged(visible_);
  return true;
}

bool DsDagModel::nextWord() {
  for (int b : boundaries_)
    if (b > visible_) return setVisibleEdges(b);
  return false;
}

bool DsDagModel::previousWord() {
  for (auto it = boundaries_.rbegin(); it != boundaries_.rend(); ++it)
    if (*it < visible_) return setVisibleEdges(*it);
  return false;
}

std::string DsDagModel::dump() const {
  if (!result_) return "no parse\n";
  const auto& dag = result_->dag;
  std::string out = "nodes " + std::to_string(visibleNodes()) + "/" + std::to_string(nodeCount()) +
                    ", edges " + std::to_string(visible_) + "/" + std::to_string(edgeCount()) +
                    "\n";
  for (int id = 0; id < visibleNodes(); ++id) {
    const gwb::ds::DagNode& n = dag.node(id);
    out += "n" + std::to_string(id) + " w" + std::to_string(n.wordsConsumed) +
           (n.complete ? " complete" : "") + "\n";
    const std::string tree = n.tree->toString();
    std::size_t begin = 0;
    while (begin < tree.size()) {
      std::size_t end = tree.find('\n', begin);
      if (end == std::string::npos) end = tree.size();
      out += "    " + tree.substr(begin, end - begin) + "\n";
      begin = end + 1;
    }
  }
  for (int id = 0; id < visible_; ++id) {
    const gwb::ds::DagEdge& e = dag.edges()[static_cast<std::size_t>(id)];
    out += "e" + std::to_string(id) + " n" + std::to_string(e.from) + " -> n" +
           std::to_string(e.to) + " " + e.action;
    if (!e.closure.empty()) {
      out += " +";
      for (std::size_t k = 0; k < e.closure.size(); ++k) out += (k > 0 ? "," : "") + e.closure[k];
    }
    if (e.lexical) out += " word " + std::to_string(e.wordIndex + 1);
    if (isOnPath(id)) out += " path";
    out += "\n";
  }
  return out;
}

std::string DsDagModel::visibleDot() const {
  if (!result_) return "digraph ds_parse {\n}\n";
  gwb::ds::ParseDag prefix;
  for (int id = 0; id < visibleNodes(); ++id) prefix.addNode(result_->dag.node(id));
  std::vector<int> highlight;
  for (int id = 0; id < visible_; ++id) {
    prefix.addEdge(result_->dag.edges()[static_cast<std::size_t>(id)]);
    if (isOnPath(id)) highlight.push_back(id);
  }
  return prefix.toDot(highlight);
}

int DsDagModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : visible_;
}

int DsDagModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant DsDagModel::data(const QModelIndex& index, int role) const {
  if (!result_ || !index.isValid() || index.row() >= visible_) return {};
  const gwb::ds::DagEdge& e = result_->dag.edges()[static_cast<std::size_t>(index.row())];
  if (role == EdgeIdRole) return index.row();
  if (role == OnPathRole) return isOnPath(index.row());
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case StepColumn: return index.row() + 1;
    case FromColumn: return QStringLiteral("#%1").arg(e.from);
    case ToColumn: return QStringLiteral("#%1").arg(e.to);
    case ActionColumn: return QString::fromStdString(e.action);
    case WordColumn: return e.lexical ? QString::fromStdString(e.word) : QString();
    case ClosureColumn: {
      QStringList names;
      for (const std::string& c : e.closure) names << QString::fromStdString(c);
      return names.join(QStringLiteral(", "));
    }
    default: return {};
  }
}

QVariant DsDagModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StepColumn: return tr("Step");
    case FromColumn: return tr("From");
    case ToColumn: return tr("To");
    case ActionColumn: return tr("Action");
    case WordColumn: return tr("Word");
    case ClosureColumn: return tr("Then");
    default: return {};
  }
}

}  // namespace gwb::ui
