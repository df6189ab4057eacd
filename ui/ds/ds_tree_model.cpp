#include "ui/ds/ds_tree_model.h"

#include <algorithm>
#include <map>

#include <QStringList>

namespace gwb::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

DsTreeModel::DsTreeModel(QObject* parent) : QAbstractItemModel(parent) {}
DsTreeModel::~DsTreeModel() = default;

void DsTreeModel::setTree(std::shared_ptr<const gwb::ds::DsTree> tree) {
  beginResetModel();
  tree_ = std::move(tree);
  parent_.clear();
  children_.clear();
  roots_.clear();
  row_.clear();
  if (tree_) {
    const std::size_t n = tree_->size();
    parent_.assign(n, -1);
    children_.assign(n, {});
    row_.assign(n, 0);
    std::map<std::string, int> byAddress;
    for (std::size_t i = 0; i < n; ++i)
      byAddress.emplace(tree_->node(i).address.toString(), static_cast<int>(i));
    // Nodes are sorted by address, so a parent always precedes its children and children are
    // appended in address order.
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& address = tree_->node(i).address.toString();
      int parent = -1;
      for (std::size_t len = address.size(); len-- > 1 && parent < 0;) {
        const auto it = byAddress.find(address.substr(0, len));
        if (it != byAddress.end()) parent = it->second;
      }
      parent_[i] = parent;
      std::vector<int>& list = parent < 0 ? roots_ : children_[static_cast<std::size_t>(parent)];
      row_[i] = static_cast<int>(list.size());
      list.push_back(static_cast<int>(i));
    }
  }
  endResetModel();
}

const std::vector<int>& DsTreeModel::siblings(int parent) const {
  return parent < 0 ? roots_ : children_[static_cast<std::size_t>(parent)];
}

std::string DsTreeModel::dump() const {
  std::string out;
  // Depth-first over the model's own rows, with an explicit stack.
  std::vector<QModelIndex> stack;
  for (int r = rowCount() - 1; r >= 0; --r) stack.push_back(index(r, 0));
  while (!stack.empty()) {
    const QModelIndex at = stack.back();
    stack.pop_back();
    out += data(at, Qt::DisplayRole).toString().toStdString();
    if (data(at, PointerRole).toBool()) out += " \u25C6";
    out += " {" + data(at, AllLabelsRole).toStringList().join(QStringLiteral(", ")).toStdString() +
           "}\n";
    for (int r = rowCount(at) - 1; r >= 0; --r) stack.push_back(index(r, 0, at));
  }
  return out;
}

QModelIndex DsTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!tree_ || column < 0 || column >= ColumnCount) return {};
  const int p = parent.isValid() ? static_cast<int>(parent.internalId()) : -1;
  const std::vector<int>& list = siblings(p);
  if (row < 0 || static_cast<std::size_t>(row) >= list.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(list[static_cast<std::size_t>(row)]));
}

QModelIndex DsTreeModel::parent(const QModelIndex& child) const {
  if (!tree_ || !child.isValid()) return {};
  const int p = parent_[child.internalId()];
  if (p < 0) return {};
  return createIndex(row_[static_cast<std::size_t>(p)], 0, static_cast<quintptr>(p));
}

int DsTreeModel::rowCount(const QModelIndex& parent) const {
  if (!tree_) return 0;
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(
      siblings(parent.isValid() ? static_cast<int>(parent.internalId()) : -1).size());
}

int DsTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant DsTreeModel::data(const QModelIndex& index, int role) const {
  if (!tree_ || !index.isValid()) return {};
  const std::size_t i = index.internalId();
  const gwb::ds::DsNode& node = tree_->node(i);
  switch (role) {
    case NodeIndexRole: return static_cast<int>(i);
    case PointerRole: return node.address == tree_->pointer();
    case LinkedRole: return node.address.isLinked();
    case UnfixedRole: return !node.address.isFixed();
    case AllLabelsRole: {
      QStringList labels;
      for (const gwb::ds::LabelPtr& l : node.labels) labels << qs(l->text());
      return labels;
    }
    case RequirementsRole: {
      QStringList labels;
      for (const gwb::ds::LabelPtr& l : node.labels)
        if (l->isRequirement()) labels << qs(l->text());
      return labels;
    }
    case Qt::DisplayRole: break;
    default: return {};
  }
  switch (index.column()) {
    case AddressColumn: return qs(node.address.toString());
    case TypeColumn: {
      QStringList types;
      for (const gwb::ds::LabelPtr& l : node.labels) {
        const gwb::ds::Label* inner = l->isRequirement() ? l->child().get() : l.get();
        if (inner->kind() == gwb::ds::LabelKind::Type) types << qs(l->text());
      }
      return types.join(QStringLiteral(", "));
    }
    case FormulaColumn: {
      const gwb::ds::FormulaPtr f = node.formula();
      return f ? qs(f->text()) : QString();
    }
    case OtherLabelsColumn: {
      QStringList labels;
      for (const gwb::ds::LabelPtr& l : node.labels) {
        const gwb::ds::Label* inner = l->isRequirement() ? l->child().get() : l.get();
        if (inner->kind() == gwb::ds::LabelKind::Type) continue;
        if (l->kind() == gwb::ds::LabelKind::Formula) continue;
        labels << qs(l->text());
      }
      return labels.join(QStringLiteral(", "));
    }
    default: return {};
  }
}

QVariant DsTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case AddressColumn: return tr("Node");
    case TypeColumn: return tr("Type");
    case FormulaColumn: return tr("Formula");
    case OtherLabelsColumn: return tr("Other labels");
    default: return {};
  }
}

}  // namespace gwb::ui
