// Interned grammar symbols.
//
// Terminals and nonterminals live in two separate name spaces (the Earleyx format writes the
// terminal `the` as `_the`, and a nonterminal may well be called `the` too), but share one dense
// id space, so that parser tables can be plain vectors indexed by SymbolId. Ids are assigned in
// order of first appearance and never change; names are stored once.
//
// Lookup by name goes through one flat open-addressing table per name space (ids, probed
// linearly from the name's hash; at most half full), not a node-based hash map: parsing threads
// look up every word, and flat tables keep those reads in a few contiguous arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gwb {

using SymbolId = std::int32_t;
inline constexpr SymbolId kNoSymbol = -1;

enum class SymbolKind : std::uint8_t { Terminal, Nonterminal };

class SymbolTable {
 public:
  // Returns the id of (name, kind), adding it if it is new.
  SymbolId intern(std::string_view name, SymbolKind kind);
  std::optional<SymbolId> find(std::string_view name, SymbolKind kind) const;
  std::optional<SymbolId> findTerminal(std::string_view name) const {
    return find(name, SymbolKind::Terminal);
  }
  std::optional<SymbolId> findNonterminal(std::string_view name) const {
    return find(name, SymbolKind::Nonterminal);
  }

  const std::string& name(SymbolId id) const { return names_[static_cast<std::size_t>(id)]; }
  SymbolKind kind(SymbolId id) const { return kinds_[static_cast<std::size_t>(id)]; }
  bool isTerminal(SymbolId id) const { return kind(id) == SymbolKind::Terminal; }
  bool isNonterminal(SymbolId id) const { return kind(id) == SymbolKind::Nonterminal; }
  std::size_t size() const { return names_.size(); }
  std::size_t terminalCount() const { return terminals_.count; }
  std::size_t nonterminalCount() const { return nonterminals_.count; }

 private:
  struct NameIndex {
    std::vector<SymbolId> ids;  // a power of two of them (or none); kNoSymbol: empty
    std::size_t count = 0;

    NameIndex() = default;
    NameIndex(const NameIndex&) = default;
    NameIndex& operator=(const NameIndex&) = default;
    // A moved-from index is empty, like a moved-from map.
    NameIndex(NameIndex&& other) noexcept
        : ids(std::move(other.ids)), count(std::exchange(other.count, 0)) {}
    NameIndex& operator=(NameIndex&& other) noexcept {
      ids = std::move(other.ids);
      other.ids.clear();
      count = std::exchange(other.count, 0);
      return *this;
    }
    ~NameIndex() = default;
  };
  // The slot holding `name` in `index`, or the empty slot where it would go.
  std::size_t slotOf(const NameIndex& index, std::string_view name) const;
  void grow(NameIndex& index);

  std::vector<std::string> names_;
  std::vector<SymbolKind> kinds_;
  NameIndex terminals_;
  NameIndex nonterminals_;
};

}  // namespace gwb
