#include "gwb/common/symbol_table.h"

#include <functional>

namespace gwb {

std::size_t SymbolTable::slotOf(const NameIndex& index, std::string_view name) const {
  const std::size_t mask = index.ids.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(name)&mask;; slot = (slot + 1) & mask) {
    const SymbolId id = index.ids[slot];
    if (id == kNoSymbol || names_[static_cast<std::size_t>(id)] == name) return slot;
  }
}

void SymbolTable::grow(NameIndex& index) {
  std::vector<SymbolId> old = std::move(index.ids);
  index.ids.assign(old.empty() ? 16 : 2 * old.size(), kNoSymbol);
  for (const SymbolId id : old) {
    if (id != kNoSymbol) index.ids[slotOf(index, names_[static_cast<std::size_t>(id)])] = id;
  }
}

SymbolId SymbolTable::intern(std::string_view name, SymbolKind kind) {
  NameIndex& index = kind == SymbolKind::Terminal ? terminals_ : nonterminals_;
  if (index.ids.empty()) grow(index);
  std::size_t slot = slotOf(index, name);
  if (index.ids[slot] != kNoSymbol) return index.ids[slot];
  if (2 * (index.count + 1) > index.ids.size()) {
    grow(index);
    slot = slotOf(index, name);
  }
  const auto id = static_cast<SymbolId>(names_.size());
  names_.emplace_back(name);
  kinds_.push_back(kind);
  index.ids[slot] = id;
  ++index.count;
  return id;
}

std::optional<SymbolId> SymbolTable::find(std::string_view name, SymbolKind kind) const {
  const NameIndex& index = kind == SymbolKind::Terminal ? terminals_ : nonterminals_;
  if (index.ids.empty()) return std::nullopt;
  const SymbolId id = index.ids[slotOf(index, name)];
  if (id == kNoSymbol) return std::nullopt;
  return id;
}

}  // namespace gwb
