#include "gwb/ccg/lambda_type.h"

#include <atomic>
#include <utility>

#include "ccg/sexpr_tokens.h"
#include "common/text_lines.h"

namespace gwb::ccg {

TypePtr atomicType(std::string name) {
  auto type = std::make_shared<Type>();
  type->atom = std::move(name);
  return type;
}

TypePtr functionType(TypePtr from, TypePtr to) {
  auto type = std::make_shared<Type>();
  type->from = std::move(from);
  type->to = std::move(to);
  return type;
}

std::string toString(const TypePtr& type) {
  if (!type) return "?";
  if (!type->isFunction()) return type->atom;
  return "<" + toString(type->from) + "," + toString(type->to) + ">";
}

bool sameType(const TypePtr& a, const TypePtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->isFunction() != b->isFunction()) return false;
  if (!a->isFunction()) return a->atom == b->atom;
  return sameType(a->from, b->from) && sameType(a->to, b->to);
}

namespace {

// Recursive descent over "<a,b>" with a depth bound.
TypePtr parseTypeAt(std::string_view text, std::size_t* pos, int depth, std::string* error) {
  auto skipSpaces = [&] {
    while (*pos < text.size() && text[*pos] == ' ') ++*pos;
  };
  skipSpaces();
  if (depth > 64) {
    if (error) *error = "type nested more than 64 levels deep";
    return nullptr;
  }
  if (*pos >= text.size()) {
    if (error) {
      *error = text.empty() ? "expected a type"
                            : "expected a type after '" + std::string(text) + "', found its end";
    }
    return nullptr;
  }
  if (text[*pos] == '<') {
    ++*pos;
    TypePtr from = parseTypeAt(text, pos, depth + 1, error);
    if (!from) return nullptr;
    skipSpaces();
    if (*pos >= text.size() || text[*pos] != ',') {
      if (error) *error = "expected ',' in function type '" + std::string(text) + "'";
      return nullptr;
    }
    ++*pos;
    TypePtr to = parseTypeAt(text, pos, depth + 1, error);
    if (!to) return nullptr;
    skipSpaces();
    if (*pos >= text.size() || text[*pos] != '>') {
      if (error) *error = "expected '>' closing function type '" + std::string(text) + "'";
      return nullptr;
    }
    ++*pos;
    return functionType(std::move(from), std::move(to));
  }
  const std::size_t start = *pos;
  while (*pos < text.size() && text[*pos] != ',' && text[*pos] != '>' && text[*pos] != '<' &&
         text[*pos] != ' ') {
    ++*pos;
  }
  if (*pos == start) {
    if (error) *error = "expected a type name in '" + std::string(text) + "'";
    return nullptr;
  }
  return atomicType(std::string(text.substr(start, *pos - start)));
}

}  // namespace

TypePtr parseType(std::string_view text, std::string* error) {
  std::size_t pos = 0;
  TypePtr type = parseTypeAt(text, &pos, 0, error);
  if (type && pos != text.size()) {
    if (error) *error = "unexpected text after type in '" + std::string(text) + "'";
    return nullptr;
  }
  return type;
}

TypeSystem::TypeSystem() {
  const int e = addAtom("e", -1);
  addAtom("t", -1);
  addAtom("i", e);
}

std::uint64_t TypeSystem::newId() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

TypeSystem::TypeSystem(const TypeSystem& other)
    : atoms_(other.atoms_), atomIndex_(other.atomIndex_), predicates_(other.predicates_) {
  reintern();
}

TypeSystem& TypeSystem::operator=(const TypeSystem& other) {
  if (this != &other) {
    atoms_ = other.atoms_;
    atomIndex_ = other.atomIndex_;
    predicates_ = other.predicates_;
    id_ = newId();
    reintern();
  }
  return *this;
}

TypeSystem::TypeSystem(TypeSystem&& other) noexcept
    : id_(other.id_),
      atoms_(std::move(other.atoms_)),
      atomIndex_(std::move(other.atomIndex_)),
      predicates_(std::move(other.predicates_)) {
  other.id_ = newId();
  other.atoms_.clear();
  other.atomIndex_.clear();
  other.predicates_.clear();
}

TypeSystem& TypeSystem::operator=(TypeSystem&& other) noexcept {
  if (this != &other) {
    id_ = other.id_;
    atoms_ = std::move(other.atoms_);
    atomIndex_ = std::move(other.atomIndex_);
    predicates_ = std::move(other.predicates_);
    other.id_ = newId();
    other.atoms_.clear();
    other.atomIndex_.clear();
    other.predicates_.clear();
  }
  return *this;
}

void TypeSystem::reintern() {
  for (std::size_t index = 0; index < atoms_.size(); ++index) {
    auto type = std::make_shared<Type>();
    type->atom = atoms_[index].type->atom;
    type->system = id_;
    type->atomIndex = static_cast<int>(index);
    atoms_[index].type = std::move(type);
  }
  for (auto& [name, predicate] : predicates_) {
    for (Signature& signature : predicate.signatures) {
      for (TypePtr& argument : signature.arguments) argument = intern(argument);
      signature.result = intern(signature.result);
    }
    predicate.type = intern(predicate.type);
  }
}

int TypeSystem::addAtom(const std::string& name, int parent) {
  const auto index = static_cast<int>(atoms_.size());
  auto type = std::make_shared<Type>();
  type->atom = name;
  type->system = id_;
  type->atomIndex = index;
  atoms_.push_back({parent, std::move(type)});
  atomIndex_.emplace(name, index);
  return index;
}

int TypeSystem::atomIndex(const std::string& name) const {
  auto it = atomIndex_.find(name);
  return it == atomIndex_.end() ? -1 : it->second;
}

int TypeSystem::atomIndex(const Type& atomic) const {
  return atomic.system == id_ ? atomic.atomIndex : atomIndex(atomic.atom);
}

TypePtr TypeSystem::intern(const TypePtr& type) const {
  if (!type) return type;
  if (!type->isFunction()) {
    if (type->system == id_) return type;
    const int index = atomIndex(type->atom);
    return index < 0 ? type : atoms_[index].type;
  }
  TypePtr from = intern(type->from);
  TypePtr to = intern(type->to);
  if (from == type->from && to == type->to) return type;
  return functionType(std::move(from), std::move(to));
}

bool TypeSystem::addAtomic(const std::string& name, const std::string& parent) {
  const int parentIndex = atomIndex(parent);
  if (atomIndex(name) >= 0 || parentIndex < 0) return false;
  addAtom(name, parentIndex);
  return true;
}

bool TypeSystem::isSubtype(const TypePtr& a, const TypePtr& b) const {
  if (!a || !b) return false;
  if (a->isFunction() || b->isFunction()) {
    if (a->isFunction() != b->isFunction()) return false;
    return isSubtype(a->from, b->from) && isSubtype(a->to, b->to);
  }
  if (a == b) return true;
  const int target = atomIndex(*b);
  if (target < 0) return a->atom == b->atom;
  // The hierarchy is a tree (a type is declared after its parent), so the walk ends.
  for (int current = atomIndex(*a); current >= 0; current = atoms_[current].parent) {
    if (current == target) return true;
  }
  return false;
}

bool TypeSystem::compatible(const TypePtr& a, const TypePtr& b) const {
  if (!a || !b) return false;
  if (a->isFunction() || b->isFunction()) {
    if (a->isFunction() != b->isFunction()) return false;
    return compatible(a->from, b->from) && compatible(a->to, b->to);
  }
  return isSubtype(a, b) || isSubtype(b, a);
}

TypePtr TypeSystem::meet(const TypePtr& a, const TypePtr& b) const {
  if (!a || !b || a->isFunction() || b->isFunction()) return nullptr;
  if (isSubtype(a, b)) return a;
  if (isSubtype(b, a)) return b;
  return nullptr;
}

TypePtr TypeSystem::join(const TypePtr& a, const TypePtr& b) const {
  if (!a || !b || a->isFunction() || b->isFunction()) return nullptr;
  if (isSubtype(a, b)) return b;
  if (isSubtype(b, a)) return a;
  // Walk up from a until an ancestor is above b (the hierarchy is a tree, so it is the nearest).
  const int start = atomIndex(*a);
  for (int current = start < 0 ? -1 : atoms_[start].parent; current >= 0;
       current = atoms_[current].parent) {
    const TypePtr& ancestor = atoms_[current].type;
    if (isSubtype(b, ancestor)) return ancestor;
  }
  return nullptr;
}

void TypeSystem::addSignature(const std::string& constant, Signature signature) {
  for (TypePtr& argument : signature.arguments) argument = intern(argument);
  signature.result = intern(signature.result);
  Predicate& predicate = predicates_[constant];
  if (predicate.signatures.empty()) {
    TypePtr type = signature.result;
    for (auto it = signature.arguments.rbegin(); it != signature.arguments.rend(); ++it) {
      type = functionType(*it, type);
    }
    predicate.type = std::move(type);
  }
  predicate.signatures.push_back(std::move(signature));
}

const std::vector<Signature>* TypeSystem::signatures(const std::string& constant) const {
  auto it = predicates_.find(constant);
  return it == predicates_.end() ? nullptr : &it->second.signatures;
}

TypePtr TypeSystem::constantType(const std::string& constant) const {
  if (auto it = predicates_.find(constant); it != predicates_.end()) return it->second.type;
  const auto colon = constant.rfind(':');
  if (colon == std::string::npos) return nullptr;
  const int atom = atomIndex(constant.substr(colon + 1));
  if (atom < 0) return nullptr;
  return atoms_[atom].type;
}

namespace {

using detail::SexprToken;

bool expectOuterList(const std::vector<SexprToken>& tokens, const std::string& file,
                     Diagnostics* diagnostics) {
  if (tokens.empty()) {
    diagnostics->error(file, 1, 1, "expected '(' opening the list; the file is empty");
    return false;
  }
  if (tokens.front().kind != SexprToken::Kind::Open) {
    diagnostics->error(
        file, tokens.front().line, tokens.front().column,
        "expected '(' opening the list, found '" + std::string(tokens.front().text) + "'");
    return false;
  }
  return true;
}

// Reads a file that is one list "( entry... )": `readEntry(i)` reads the entry that starts at
// tokens[i] and moves i past it; then a missing ')' (naming the list of `what`) or text after it
// is reported.
template <typename ReadEntry>
void readOuterList(const std::vector<SexprToken>& tokens, const std::string& file,
                   const std::string& what, Diagnostics* diagnostics, ReadEntry readEntry) {
  if (!expectOuterList(tokens, file, diagnostics)) return;
  std::size_t i = 1;
  bool closed = false;
  while (i < tokens.size()) {
    if (tokens[i].kind == SexprToken::Kind::Close) {
      closed = true;
      ++i;
      break;
    }
    readEntry(i);
  }
  if (!closed) {
    // Where the file ends: just after its last token.
    diagnostics->error(file, tokens.back().line,
                       tokens.back().column + static_cast<int>(tokens.back().text.size()),
                       "expected ')' closing the list of " + what + ", found the end of the file");
  } else if (i < tokens.size()) {
    diagnostics->error(file, tokens[i].line, tokens[i].column,
                       "unexpected text after the closing ')'");
  }
}

// Whether `name` can name an atomic type: '<', ',' and '>' would make it a function type's text.
bool isTypeName(std::string_view name) {
  return name.find_first_of("<,>") == std::string_view::npos;
}

// e, t and i are every type system's own: declaring one was "declared twice".
bool isBuiltIn(std::string_view name) { return name == "e" || name == "t" || name == "i"; }
std::string builtInMessage(std::string_view name) {
  return "type '" + std::string(name) + "' is built in (e, t and i need no declaration)";
}

// The first atomic type in `type` that `types` does not know ("" when there is none).
std::string unknownAtom(const TypePtr& type, const TypeSystem& types) {
  if (type->isFunction()) {
    std::string unknown = unknownAtom(type->from, types);
    return unknown.empty() ? unknownAtom(type->to, types) : unknown;
  }
  return types.isKnownAtomic(type->atom) ? "" : type->atom;
}

void readTypes(std::string_view text, const std::string& file, TypeSystem* types,
               Diagnostics* diagnostics) {
  const auto tokens = detail::tokenizeSexpr(text, 1, 1, true);
  readOuterList(tokens, file, "types", diagnostics, [&](std::size_t& i) {
    const SexprToken& token = tokens[i];
    if (token.kind == SexprToken::Kind::Atom) {
      if (!isTypeName(token.text)) {
        diagnostics->error(file, token.line, token.column,
                           "expected a type name (without '<', ',' or '>'), found '" +
                               std::string(token.text) + "'");
      } else if (isBuiltIn(token.text)) {
        diagnostics->error(file, token.line, token.column, builtInMessage(token.text));
      } else if (!types->addAtomic(std::string(token.text), "e")) {
        diagnostics->error(file, token.line, token.column,
                           "type '" + std::string(token.text) + "' is declared twice");
      }
      ++i;
      return;
    }
    // (name parent)
    if (i + 3 < tokens.size() + 0 && tokens[i + 1].kind == SexprToken::Kind::Atom &&
        tokens[i + 2].kind == SexprToken::Kind::Atom &&
        tokens[i + 3].kind == SexprToken::Kind::Close) {
      const std::string name(tokens[i + 1].text);
      const std::string parent(tokens[i + 2].text);
      if (!isTypeName(name)) {
        diagnostics->error(file, tokens[i + 1].line, tokens[i + 1].column,
                           "expected a type name (without '<', ',' or '>'), found '" + name + "'");
      } else if (isBuiltIn(name)) {
        diagnostics->error(file, tokens[i + 1].line, tokens[i + 1].column, builtInMessage(name));
      } else if (!types->isKnownAtomic(parent)) {
        diagnostics->error(
            file, tokens[i + 2].line, tokens[i + 2].column,
            "unknown parent type '" + parent + "' (declare it before '" + name + "')");
      } else if (!types->addAtomic(name, parent)) {
        diagnostics->error(file, tokens[i + 1].line, tokens[i + 1].column,
                           "type '" + name + "' is declared twice");
      }
      i += 4;
      return;
    }
    diagnostics->error(file, token.line, token.column, "expected a type name or '(name parent)'");
    // Skip to the matching ')'.
    int depth = 0;
    for (; i < tokens.size(); ++i) {
      if (tokens[i].kind == SexprToken::Kind::Open) ++depth;
      if (tokens[i].kind == SexprToken::Kind::Close && --depth == 0) {
        ++i;
        break;
      }
    }
  });
}

void readSignatures(std::string_view text, const std::string& file, TypeSystem* types,
                    Diagnostics* diagnostics) {
  const auto tokens = detail::tokenizeSexpr(text, 1, 1, true);
  readOuterList(tokens, file, "signatures", diagnostics, [&](std::size_t& i) {
    const SexprToken& open = tokens[i];
    if (open.kind != SexprToken::Kind::Open) {
      diagnostics->error(file, open.line, open.column,
                         "expected '(constant argument-type... result-type)', found '" +
                             std::string(open.text) + "'");
      ++i;
      return;
    }
    std::size_t j = i + 1;
    std::vector<const SexprToken*> atoms;
    while (j < tokens.size() && tokens[j].kind == SexprToken::Kind::Atom)
      atoms.push_back(&tokens[j++]);
    if (j >= tokens.size()) {
      const SexprToken& last = tokens.back();
      diagnostics->error(file, last.line, last.column + static_cast<int>(last.text.size()),
                         "expected ')' closing the signature, found the end of the file");
      i = j;
      return;
    }
    if (tokens[j].kind != SexprToken::Kind::Close) {
      diagnostics->error(file, open.line, open.column,
                         "expected ')' closing the signature (nested lists are not allowed)");
      i = j;
      return;
    }
    i = j + 1;
    if (atoms.size() < 2) {
      diagnostics->error(file, open.line, open.column,
                         "a signature needs a constant and at least a result type");
      return;
    }
    Signature signature;
    bool ok = true;
    for (std::size_t k = 1; k < atoms.size(); ++k) {
      std::string error;
      TypePtr type = parseType(atoms[k]->text, &error);
      if (!type) {
        diagnostics->error(file, atoms[k]->line, atoms[k]->column, error);
        ok = false;
        continue;
      }
      // Every atomic type in it, in a function type too (`<q,t>` was accepted).
      if (const std::string unknown = unknownAtom(type, *types); !unknown.empty()) {
        diagnostics->error(file, atoms[k]->line, atoms[k]->column,
                           "unknown type '" + unknown + "' (not e, t, i or in the types file)");
        ok = false;
        continue;
      }
      if (k + 1 == atoms.size()) {
        signature.result = type;
      } else {
        signature.arguments.push_back(type);
      }
    }
    if (ok) types->addSignature(std::string(atoms[0]->text), std::move(signature));
  });
}

}  // namespace

TypeSystemLoad readTypeSystem(std::string_view typesText, const std::string& typesFile,
                              std::string_view langText, const std::string& langFile) {
  TypeSystemLoad load;
  // A UTF-16 file would read as tokens of odd bytes ("expected '(' opening the list, found 'ÿþ'").
  for (const auto& [text, file] :
       {std::pair(typesText, &typesFile), std::pair(langText, &langFile)}) {
    if (text::isUtf16(text)) {
      load.diagnostics.error(*file, 1, 1, text::kUtf16Message);
      return load;
    }
  }
  readTypes(text::withoutByteOrderMark(typesText), typesFile, &load.types, &load.diagnostics);
  readSignatures(text::withoutByteOrderMark(langText), langFile, &load.types, &load.diagnostics);
  return load;
}

TypeSystemLoad loadTypeSystem(const std::string& typesPath, const std::string& langPath) {
  std::string typesText;
  std::string langText;
  std::string error;
  TypeSystemLoad load;
  if (!readWholeFile(typesPath, &typesText, &error)) {
    load.diagnostics.error(typesPath, 0, 0, error);
    return load;
  }
  if (!readWholeFile(langPath, &langText, &error)) {
    load.diagnostics.error(langPath, 0, 0, error);
    return load;
  }
  return readTypeSystem(typesText, typesPath, langText, langPath);
}

}  // namespace gwb::ccg
