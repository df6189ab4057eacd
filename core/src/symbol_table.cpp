#include "gwb/symbol_table.h"

namespace gwb {

SymbolId SymbolTable::intern(std::string_view name, SymbolKind kind) {
  auto& index = kind == SymbolKind::Terminal ? terminals_ : nonterminals_;
  auto [it, inserted] = index.try_emplace(std::string(name), static_cast<SymbolId>(names_.size()));
  if (inserted) {
    names_.emplace_back(name);
    kinds_.push_back(kind);
  }
  return it->second;
}

std::optional<SymbolId> SymbolTable::find(std::string_view name, SymbolKind kind) const {
  const auto& index = kind == SymbolKind::Terminal ? terminals_ : nonterminals_;
  auto it = index.find(std::string(name));
  if (it == index.end()) return std::nullopt;
  return it->second;
}

}  // namespace gwb
