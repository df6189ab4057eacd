#include "gwb/ccg/lambda_type.h"

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
    if (error) *error = "expected a type";
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
  parent_["e"] = "";
  parent_["t"] = "";
  parent_["i"] = "e";
  for (const char* name : {"e", "t", "i"}) noteAncestors(name);
}

bool TypeSystem::addAtomic(const std::string& name, const std::string& parent) {
  if (parent_.count(name) > 0 || parent_.count(parent) == 0) return false;
  parent_[name] = parent;
  noteAncestors(name);
  return true;
}

void TypeSystem::noteAncestors(const std::string& name) {
  // The parent is known before its children (addAtomic), so its list is complete.
  std::vector<std::string> line = {name};
  const std::string& parent = parent_.at(name);
  if (!parent.empty()) {
    const std::vector<std::string>& above = ancestors_.at(parent);
    line.insert(line.end(), above.begin(), above.end());
  }
  ancestors_[name] = std::move(line);
}

bool TypeSystem::isSubtype(const TypePtr& a, const TypePtr& b) const {
  if (!a || !b) return false;
  if (a->isFunction() || b->isFunction()) {
    if (a->isFunction() != b->isFunction()) return false;
    return isSubtype(a->from, b->from) && isSubtype(a->to, b->to);
  }
  if (a->atom == b->atom) return true;  // reflexive, declared or not
  const auto found = ancestors_.find(a->atom);
  if (found == ancestors_.end()) return false;
  for (const std::string& ancestor : found->second) {
    if (ancestor == b->atom) return true;
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
  std::string current = a->atom;
  for (int guard = 0; guard < 1000; ++guard) {
    auto it = parent_.find(current);
    if (it == parent_.end() || it->second.empty()) return nullptr;
    current = it->second;
    TypePtr ancestor = atomicType(current);
    if (isSubtype(b, ancestor)) return ancestor;
  }
  return nullptr;
}

void TypeSystem::addSignature(const std::string& constant, Signature signature) {
  signatures_[constant].push_back(std::move(signature));
}

const std::vector<Signature>* TypeSystem::signatures(const std::string& constant) const {
  auto it = signatures_.find(constant);
  return it == signatures_.end() ? nullptr : &it->second;
}

TypePtr TypeSystem::constantType(const std::string& constant) const {
  if (const auto* list = signatures(constant); list != nullptr && !list->empty()) {
    const Signature& signature = list->front();
    TypePtr type = signature.result;
    for (auto it = signature.arguments.rbegin(); it != signature.arguments.rend(); ++it) {
      type = functionType(*it, type);
    }
    return type;
  }
  const auto colon = constant.rfind(':');
  if (colon == std::string::npos) return nullptr;
  const std::string suffix = constant.substr(colon + 1);
  if (!isKnownAtomic(suffix)) return nullptr;
  return atomicType(suffix);
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
    diagnostics->error(file, tokens.back().line, tokens.back().column,
                       "expected ')' closing the list of " + what);
  } else if (i < tokens.size()) {
    diagnostics->error(file, tokens[i].line, tokens[i].column,
                       "unexpected text after the closing ')'");
  }
}

void readTypes(std::string_view text, const std::string& file, TypeSystem* types,
               Diagnostics* diagnostics) {
  const auto tokens = detail::tokenizeSexpr(text, 1, 1, true);
  readOuterList(tokens, file, "types", diagnostics, [&](std::size_t& i) {
    const SexprToken& token = tokens[i];
    if (token.kind == SexprToken::Kind::Atom) {
      if (!types->addAtomic(std::string(token.text), "e")) {
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
      if (!types->isKnownAtomic(parent)) {
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
                         "expected '(constant argument-type... result-type)'");
      ++i;
      return;
    }
    std::size_t j = i + 1;
    std::vector<const SexprToken*> atoms;
    while (j < tokens.size() && tokens[j].kind == SexprToken::Kind::Atom)
      atoms.push_back(&tokens[j++]);
    if (j >= tokens.size() || tokens[j].kind != SexprToken::Kind::Close) {
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
      if (!type->isFunction() && !types->isKnownAtomic(type->atom)) {
        diagnostics->error(file, atoms[k]->line, atoms[k]->column,
                           "unknown type '" + type->atom + "' (not e, t, i or in the types file)");
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
