#include "gwb/ds/formula.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include "gwb/ds/record_type.h"

namespace gwb::ds {

// ---------------------------------------------------------------------------------------
// Construction and text

namespace {

std::string joinTexts(const std::vector<FormulaPtr>& items, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i]->text();
  }
  return out;
}

bool allDigits(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

bool isVariableName(std::string_view name) {
  if (name.empty()) return false;
  if (name == "head" || name == "reftime") return true;
  if (name.substr(0, 4) == "pred" && allDigits(name.substr(4))) return true;
  const char c = name[0];
  const bool letter = (c >= 'a' && c <= 'z' && c != 'i' && c != 'o') || c == 'R';
  return letter && allDigits(name.substr(1));
}

bool isRecordVariableName(std::string_view name) {
  return !name.empty() && name[0] == 'R' && allDigits(name.substr(1));
}

bool isFormulaMetaName(std::string_view name) {
  if (name.size() == 1) return name[0] >= 'A' && name[0] <= 'Z' && name[0] != 'R';
  if (name[0] == 'U' && allDigits(name.substr(1))) return true;
  return name.substr(0, 3) == "REC" && allDigits(name.substr(3));
}

void Formula::computeText() {
  depth_ = 1;
  for (const FormulaPtr& a : args_) depth_ = std::max(depth_, a->depth() + 1);
  if (record_)
    for (const Field& field : record_->fields())
      if (field.value) depth_ = std::max(depth_, field.value->depth() + 1);
  switch (kind_) {
    case FormulaKind::Symbol:
    case FormulaKind::Meta: text_ = name_; break;
    case FormulaKind::Apply: text_ = name_ + "(" + joinTexts(args_, ", ") + ")"; break;
    case FormulaKind::Tuple: text_ = "(" + joinTexts(args_, ", ") + ")"; break;
    case FormulaKind::Path: {
      text_ = name_;
      for (const std::string& l : labels_) text_ += "." + l;
      break;
    }
    case FormulaKind::Lambda: text_ = name_ + "^" + args_[0]->text(); break;
    case FormulaKind::Infix:
      text_ = "(" + args_[0]->text() + " " + name_ + " " + args_[1]->text() + ")";
      break;
    case FormulaKind::Record: text_ = record_->toString(); break;
  }
}

FormulaPtr Formula::symbol(std::string name) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Symbol;
  f->name_ = std::move(name);
  f->computeText();
  return f;
}

FormulaPtr Formula::meta(std::string name) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Meta;
  f->name_ = std::move(name);
  f->computeText();
  return f;
}

FormulaPtr Formula::apply(std::string functor, std::vector<FormulaPtr> args) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Apply;
  f->name_ = std::move(functor);
  f->args_ = std::move(args);
  f->computeText();
  return f;
}

FormulaPtr Formula::tuple(std::vector<FormulaPtr> items) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Tuple;
  f->args_ = std::move(items);
  f->computeText();
  return f;
}

FormulaPtr Formula::path(std::string base, std::vector<std::string> labels) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Path;
  f->name_ = std::move(base);
  f->labels_ = std::move(labels);
  f->computeText();
  return f;
}

FormulaPtr Formula::lambda(std::string variable, FormulaPtr body) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Lambda;
  f->name_ = std::move(variable);
  f->args_.push_back(std::move(body));
  f->computeText();
  return f;
}

FormulaPtr Formula::infix(std::string op, FormulaPtr left, FormulaPtr right) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Infix;
  f->name_ = std::move(op);
  f->args_.push_back(std::move(left));
  f->args_.push_back(std::move(right));
  f->computeText();
  return f;
}

FormulaPtr Formula::record(RecordType record) {
  std::shared_ptr<Formula> f(new Formula());
  f->kind_ = FormulaKind::Record;
  f->record_ = std::make_shared<const RecordType>(std::move(record));
  f->computeText();
  return f;
}

bool Formula::isVariable() const { return kind_ == FormulaKind::Symbol && isVariableName(name_); }

bool Formula::isAbsolutePath() const {
  return kind_ == FormulaKind::Path && isRecordVariableName(name_);
}

bool Formula::isTtr() const {
  switch (kind_) {
    case FormulaKind::Record: return true;
    case FormulaKind::Lambda: return lambdaCore(args_[0])->isTtr() || args_[0]->isVariable();
    case FormulaKind::Infix: return name_ == "++";
    default: return false;
  }
}

// ---------------------------------------------------------------------------------------
// Parsing

namespace {

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '\'' || c == '-';
}

class FormulaParser {
 public:
  explicit FormulaParser(std::string_view text) : s_(text), end_(text.size()) {}

  FormulaPtr parseAll(FormulaParseError* error) {
    FormulaPtr f = parseSequence(0);
    if (f) {
      skipSpaces();
      if (pos_ < end_) f = fail(std::string("unexpected '") + s_[pos_] + "' after the formula");
    }
    if (!f && error) *error = error_;
    return f;
  }

 private:
  FormulaPtr fail(std::string message) { return failAt(pos_, std::move(message)); }
  FormulaPtr failAt(std::size_t at, std::string message) {
    if (!failed_) {
      failed_ = true;
      error_.offset = at;
      error_.message = std::move(message);
    }
    return nullptr;
  }

  void skipSpaces() {
    while (pos_ < end_ && std::isspace(static_cast<unsigned char>(s_[pos_])) != 0) ++pos_;
  }
  bool at(char c) {
    skipSpaces();
    return pos_ < end_ && s_[pos_] == c;
  }
  bool atOperator(std::string_view* op) {
    skipSpaces();
    for (std::string_view candidate : {"++", "||", "+restr"}) {
      if (s_.substr(pos_, candidate.size()) == candidate && pos_ + candidate.size() <= end_) {
        *op = candidate;
        return true;
      }
    }
    return false;
  }

  // item (',' item)*; several items make a tuple.
  FormulaPtr parseSequence(int depth) {
    FormulaPtr first = parseItem(depth);
    if (!first) return nullptr;
    if (!at(',')) return first;
    std::vector<FormulaPtr> items{first};
    while (at(',')) {
      ++pos_;
      FormulaPtr next = parseItem(depth);
      if (!next) return nullptr;
      items.push_back(next);
    }
    return Formula::tuple(std::move(items));
  }

  FormulaPtr parseItem(int depth) {
    if (depth > kMaxFormulaDepth) return fail("formula nested too deeply");
    skipSpaces();
    if (pos_ >= end_) return fail("expected a formula");
    const char c = s_[pos_];
    if (c == '[') return parseRecord(depth + 1);
    if (c == '(') return parseParen(depth + 1);
    if (!isIdentChar(c)) return fail(std::string("expected a formula, found '") + c + "'");
    const std::size_t start = pos_;
    while (pos_ < end_ && isIdentChar(s_[pos_])) ++pos_;
    std::string ident(s_.substr(start, pos_ - start));
    if (pos_ < end_ && s_[pos_] == '^') {
      ++pos_;
      FormulaPtr body = parseSequence(depth + 1);
      if (!body) return nullptr;
      return Formula::lambda(std::move(ident), std::move(body));
    }
    if (pos_ < end_ && s_[pos_] == '(') {
      const std::size_t open = pos_;
      ++pos_;
      std::vector<FormulaPtr> args;
      if (!at(')')) {
        while (true) {
          FormulaPtr arg = parseItem(depth + 1);
          if (!arg) return nullptr;
          args.push_back(arg);
          if (at(',')) {
            ++pos_;
            continue;
          }
          break;
        }
      }
      if (!at(')'))
        return failAt(pos_, "expected ')' to close the '(' at offset " + std::to_string(open + 1));
      ++pos_;
      return Formula::apply(std::move(ident), std::move(args));
    }
    if (pos_ + 1 < end_ && s_[pos_] == '.' && isIdentChar(s_[pos_ + 1])) {
      std::vector<std::string> labels;
      while (pos_ + 1 < end_ && s_[pos_] == '.' && isIdentChar(s_[pos_ + 1])) {
        ++pos_;
        const std::size_t ls = pos_;
        while (pos_ < end_ && isIdentChar(s_[pos_])) ++pos_;
        labels.emplace_back(s_.substr(ls, pos_ - ls));
      }
      return Formula::path(std::move(ident), std::move(labels));
    }
    if (isFormulaMetaName(ident)) return Formula::meta(std::move(ident));
    return Formula::symbol(std::move(ident));
  }

  // '(' sequence ')' | '(' item op item ')'
  FormulaPtr parseParen(int depth) {
    const std::size_t open = pos_;
    ++pos_;
    FormulaPtr inner = parseSequence(depth);
    if (!inner) return nullptr;
    std::string_view op;
    if (atOperator(&op)) {
      pos_ += op.size();
      FormulaPtr right = parseSequence(depth);
      if (!right) return nullptr;
      inner = Formula::infix(std::string(op), inner, right);
    }
    if (!at(')'))
      return failAt(pos_, "expected ')' to close the '(' at offset " + std::to_string(open + 1));
    ++pos_;
    return inner;
  }

  // The index of the bracket closing the one at `open`, or npos.
  std::size_t matchingClose(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < end_; ++i) {
      const char c = s_[i];
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') {
        --depth;
        if (depth == 0) return s_[i] == ']' ? i : std::string_view::npos;
      }
    }
    return std::string_view::npos;
  }

  FormulaPtr parseRecord(int depth) {
    const std::size_t open = pos_;
    const std::size_t close = matchingClose(open);
    if (close == std::string_view::npos)
      return failAt(open, "expected ']' to close the record type opened here");
    std::vector<Field> fields;
    std::size_t fieldStart = open + 1;
    int nesting = 0;
    bool onlySpaces = true;
    for (std::size_t i = open + 1; i <= close; ++i) {
      const char c = s_[i];
      if (i < close && std::isspace(static_cast<unsigned char>(c)) == 0) onlySpaces = false;
      if (i < close && (c == '[' || c == '(')) ++nesting;
      if (i < close && (c == ']' || c == ')')) --nesting;
      if (i == close || (c == '|' && nesting == 0)) {
        if (i == close && onlySpaces && fields.empty()) break;  // "[]"
        Field field;
        if (!parseField(fieldStart, i, depth, &field)) return nullptr;
        for (const Field& other : fields)
          if (other.label == field.label)
            return failAt(fieldStart, "duplicate label '" + field.label + "' in record type");
        fields.push_back(std::move(field));
        fieldStart = i + 1;
      }
    }
    pos_ = close + 1;
    return Formula::record(RecordType(std::move(fields)));
  }

  // One field in [from, to): label ':' type | label '==' value ':' type | label ':' formula.
  bool parseField(std::size_t from, std::size_t to, int depth, Field* field) {
    std::size_t colon = std::string_view::npos;
    std::size_t equals = std::string_view::npos;
    int nesting = 0;
    for (std::size_t i = from; i < to; ++i) {
      const char c = s_[i];
      if (c == '[' || c == '(') ++nesting;
      if (c == ']' || c == ')') --nesting;
      if (nesting != 0) continue;
      if (c == '=' && i + 1 < to && s_[i + 1] == '=' && equals == std::string_view::npos &&
          colon == std::string_view::npos) {
        equals = i;
        ++i;
        continue;
      }
      if (c == ':' && colon == std::string_view::npos) colon = i;
    }
    if (colon == std::string_view::npos) {
      failAt(from, "expected 'label : type' in a record field");
      return false;
    }
    const std::size_t labelEnd = equals != std::string_view::npos ? equals : colon;
    std::string_view label = trimView(s_.substr(from, labelEnd - from));
    bool labelOk = !label.empty();
    for (char c : label) labelOk = labelOk && isIdentChar(c);
    if (!labelOk) {
      failAt(from, "expected a field label before '" +
                       std::string(equals != std::string_view::npos ? "==" : ":") + "'");
      return false;
    }
    field->label = std::string(label);
    std::string_view typeText = trimView(s_.substr(colon + 1, to - colon - 1));
    if (equals != std::string_view::npos) {
      field->value = parseRange(equals + 2, colon, depth);
      if (!field->value) return false;
      std::string typeError;
      field->dsType = DsType::parse(typeText, &typeError);
      if (!field->dsType) {
        failAt(colon + 1,
               "expected a DS type (e, t, es, cn or a function type) after ':': " + typeError);
        return false;
      }
      return true;
    }
    if (typeText.empty()) {
      failAt(colon + 1, "expected a type after ':'");
      return false;
    }
    field->dsType = DsType::parse(typeText);
    if (field->dsType) return true;
    field->value = parseRange(colon + 1, to, depth);
    return field->value != nullptr;
  }

  FormulaPtr parseRange(std::size_t from, std::size_t to, int depth) {
    const std::size_t savedPos = pos_;
    const std::size_t savedEnd = end_;
    pos_ = from;
    end_ = to;
    FormulaPtr f = parseSequence(depth);
    if (f) {
      skipSpaces();
      if (pos_ < end_) f = fail(std::string("unexpected '") + s_[pos_] + "' in a field value");
    }
    pos_ = savedPos;
    end_ = savedEnd;
    return f;
  }

  static std::string_view trimView(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0)
      s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0)
      s.remove_suffix(1);
    return s;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t end_;
  bool failed_ = false;
  FormulaParseError error_;
};

}  // namespace

FormulaPtr parseFormula(std::string_view text, FormulaParseError* error) {
  FormulaParser parser(text);
  return parser.parseAll(error);
}

// ---------------------------------------------------------------------------------------
// Structural operations

namespace {

// Rebuilds `f` with new children; returns `f` itself when nothing changed.
FormulaPtr withArgs(const FormulaPtr& f, std::vector<FormulaPtr> args, bool changed) {
  if (!changed) return f;
  switch (f->kind()) {
    case FormulaKind::Apply: return Formula::apply(f->name(), std::move(args));
    case FormulaKind::Tuple: return Formula::tuple(std::move(args));
    case FormulaKind::Lambda: return Formula::lambda(f->name(), args[0]);
    case FormulaKind::Infix: return Formula::infix(f->name(), args[0], args[1]);
    default: return f;
  }
}

// Value of an absolute path `labels` into `record`: the field's value (one variable step
// dereferenced inside `record`), or the last label itself when the field is unmanifest.
FormulaPtr evaluateIn(const FormulaPtr& f, const RecordType* scope);

FormulaPtr resolvePath(const RecordType& record, const std::vector<std::string>& labels) {
  const RecordType* current = &record;
  for (std::size_t i = 0; i + 1 < labels.size(); ++i) {
    const Field* field = current->find(labels[i]);
    if (field == nullptr || !field->value || !field->value->isRecord()) return nullptr;
    current = &field->value->recordType();
  }
  const Field* last = current->find(labels.back());
  if (last == nullptr || !last->value) return Formula::symbol(labels.back());
  return evaluateIn(last->value, current);
}

RecordType mapFields(const RecordType& record, const std::function<Field(const Field&)>& mapField,
                     bool* changed) {
  std::vector<Field> fields;
  fields.reserve(record.size());
  for (const Field& field : record.fields()) {
    Field mapped = mapField(field);
    if (mapped.label != field.label || mapped.value != field.value) *changed = true;
    fields.push_back(std::move(mapped));
  }
  return RecordType(std::move(fields));
}

// `f` (Apply, Tuple, Lambda or Infix) with `map` applied to each argument; `f` itself when no
// argument changed.
template <typename Map>
FormulaPtr mapArgs(const FormulaPtr& f, Map map) {
  bool changed = false;
  std::vector<FormulaPtr> args;
  args.reserve(f->args().size());
  for (const FormulaPtr& a : f->args()) {
    args.push_back(map(a));
    changed = changed || args.back() != a;
  }
  return withArgs(f, std::move(args), changed);
}

// The record formula `f` with `mapField` applied to each field; `f` itself when none changed.
FormulaPtr mapRecord(const FormulaPtr& f, const std::function<Field(const Field&)>& mapField) {
  bool changed = false;
  RecordType r = mapFields(f->recordType(), mapField, &changed);
  return changed ? Formula::record(std::move(r)) : f;
}

}  // namespace

FormulaPtr substitute(const FormulaPtr& f, const std::string& name, const FormulaPtr& value) {
  if (!f) return f;
  switch (f->kind()) {
    case FormulaKind::Symbol:
    case FormulaKind::Meta: return f->name() == name ? value : f;
    case FormulaKind::Path: {
      if (f->name() != name) return f;
      if (value->isRecord()) {
        FormulaPtr resolved = resolvePath(value->recordType(), f->pathLabels());
        return resolved ? resolved : f;
      }
      if (value->kind() == FormulaKind::Symbol)
        return Formula::path(value->name(), f->pathLabels());
      return f;
    }
    case FormulaKind::Lambda: {
      if (f->name() == name) return f;
      FormulaPtr body = substitute(f->body(), name, value);
      return body == f->body() ? f : Formula::lambda(f->name(), body);
    }
    case FormulaKind::Apply:
    case FormulaKind::Tuple:
    case FormulaKind::Infix: {
      const FormulaPtr mapped =
          mapArgs(f, [&](const FormulaPtr& a) { return substitute(a, name, value); });
      if (f->kind() == FormulaKind::Apply && f->name() == name &&
          value->kind() == FormulaKind::Symbol)
        return Formula::apply(value->name(), mapped->args());
      return mapped;
    }
    case FormulaKind::Record: {
      const bool renameLabels = value->kind() == FormulaKind::Symbol;
      return mapRecord(f, [&](const Field& field) {
        Field out = field;
        if (renameLabels && field.label == name) out.label = value->name();
        if (field.value) out.value = substitute(field.value, name, value);
        return out;
      });
    }
  }
  return f;
}

FormulaPtr rename(const FormulaPtr& f, const std::map<std::string, std::string>& renaming) {
  if (!f || renaming.empty()) return f;
  switch (f->kind()) {
    case FormulaKind::Symbol: {
      auto it = renaming.find(f->name());
      return it == renaming.end() ? f : Formula::symbol(it->second);
    }
    case FormulaKind::Meta: return f;
    case FormulaKind::Path: {
      auto it = renaming.find(f->name());
      return it == renaming.end() ? f : Formula::path(it->second, f->pathLabels());
    }
    case FormulaKind::Lambda:
    case FormulaKind::Apply:
    case FormulaKind::Tuple:
    case FormulaKind::Infix:
      return mapArgs(f, [&](const FormulaPtr& a) { return rename(a, renaming); });
    case FormulaKind::Record:
      return mapRecord(f, [&](const Field& field) {
        Field out = field;
        auto it = renaming.find(field.label);
        if (it != renaming.end()) out.label = it->second;
        if (field.value) out.value = rename(field.value, renaming);
        return out;
      });
  }
  return f;
}

FormulaPtr instantiate(const FormulaPtr& f,
                       const std::function<FormulaPtr(const std::string&)>& value) {
  if (!f) return f;
  switch (f->kind()) {
    case FormulaKind::Meta: {
      FormulaPtr v = value(f->name());
      return v ? v : f;
    }
    case FormulaKind::Symbol:
    case FormulaKind::Path: return f;
    case FormulaKind::Lambda:
    case FormulaKind::Apply:
    case FormulaKind::Tuple:
    case FormulaKind::Infix:
      return mapArgs(f, [&](const FormulaPtr& a) { return instantiate(a, value); });
    case FormulaKind::Record:
      return mapRecord(f, [&](const Field& field) {
        Field out = field;
        if (field.value) out.value = instantiate(field.value, value);
        return out;
      });
  }
  return f;
}

bool hasMetas(const FormulaPtr& f) {
  if (!f) return false;
  switch (f->kind()) {
    case FormulaKind::Meta: return true;
    case FormulaKind::Record:
      for (const Field& field : f->recordType().fields())
        if (hasMetas(field.value)) return true;
      return false;
    default:
      for (const FormulaPtr& a : f->args())
        if (hasMetas(a)) return true;
      return false;
  }
}

const FormulaPtr& lambdaCore(const FormulaPtr& f) {
  const FormulaPtr* current = &f;
  while ((*current)->isLambda()) current = &(*current)->body();
  return *current;
}

FormulaPtr replaceLambdaCore(const FormulaPtr& f, const FormulaPtr& core) {
  if (!f->isLambda()) return core;
  // Iteratively: collect the chain of variables, then rebuild from the inside out.
  std::vector<std::string> variables;
  const Formula* current = f.get();
  while (current->isLambda()) {
    variables.push_back(current->name());
    current = current->body().get();
  }
  FormulaPtr result = core;
  for (auto it = variables.rbegin(); it != variables.rend(); ++it)
    result = Formula::lambda(*it, result);
  return result;
}

// ---------------------------------------------------------------------------------------
// Evaluation, merge, conjunction, beta-reduction

namespace {

RecordType evaluateRecord(const RecordType& record, bool* changed) {
  return mapFields(
      record,
      [&](const Field& field) {
        Field f = field;
        if (field.value) f.value = evaluateIn(field.value, &record);
        return f;
      },
      changed);
}

FormulaPtr mergeFormulas(const FormulaPtr& l, const FormulaPtr& r) {
  if (l->isRecord() && r->isRecord())
    return Formula::record(asymmetricMerge(l->recordType(), r->recordType()));
  if (l->isRecord() && r->isLambda())
    return replaceLambdaCore(r, evaluate(Formula::merge(l, lambdaCore(r))));
  if (l->isLambda() && r->isRecord())
    return replaceLambdaCore(l, evaluate(Formula::merge(lambdaCore(l), r)));
  return Formula::merge(l, r);
}

FormulaPtr evaluateIn(const FormulaPtr& f, const RecordType* scope) {
  switch (f->kind()) {
    case FormulaKind::Symbol: {
      if (scope == nullptr || !f->isVariable()) return f;
      const Field* field = scope->find(f->name());
      if (field != nullptr && field->value && field->value->isVariable()) return field->value;
      return f;
    }
    case FormulaKind::Meta:
    case FormulaKind::Path: return f;
    case FormulaKind::Apply:
    case FormulaKind::Tuple:
      // Relative paths are kept as written (DyLan evaluates them only on demand).
      return mapArgs(f, [&](const FormulaPtr& a) {
        return a->kind() == FormulaKind::Path ? a : evaluateIn(a, scope);
      });
    case FormulaKind::Lambda: {
      FormulaPtr body = evaluateIn(f->body(), scope);
      return body == f->body() ? f : Formula::lambda(f->name(), body);
    }
    case FormulaKind::Infix: {
      FormulaPtr l = evaluateIn(f->left(), scope);
      FormulaPtr r = evaluateIn(f->right(), scope);
      if (f->name() == "++") return mergeFormulas(l, r);
      return withArgs(f, {l, r}, l != f->left() || r != f->right());
    }
    case FormulaKind::Record: {
      bool changed = false;
      RecordType r = evaluateRecord(f->recordType(), &changed);
      return changed ? Formula::record(std::move(r)) : f;
    }
  }
  return f;
}

}  // namespace

FormulaPtr evaluate(const FormulaPtr& f) { return f ? evaluateIn(f, nullptr) : f; }

RecordType asymmetricMerge(const RecordType& left, const RecordType& right) {
  RecordType merged = left;
  for (const Field& g : right.fields()) {
    const Field* existing = merged.find(g.label);
    if (existing != nullptr && existing->value && existing->value->isRecord() && g.value &&
        g.value->isRecord()) {
      Field f{
          g.label,
          Formula::record(asymmetricMerge(existing->value->recordType(), g.value->recordType())),
          g.dsType};
      merged.put(std::move(f));
    } else {
      merged.put(g);
    }
  }
  bool changed = false;
  RecordType evaluated = evaluateRecord(merged, &changed);
  return changed ? evaluated : merged;
}

FormulaPtr asymmetricMerge(const FormulaPtr& left, const FormulaPtr& right) {
  return evaluate(Formula::merge(left, right));
}

FormulaPtr conjoin(const FormulaPtr& base, const FormulaPtr& addition) {
  if (!addition) return base;
  if (!base) return addition;
  if (!base->isTtr() || !addition->isTtr()) return Formula::infix("&", base, addition);
  if (addition->isRecord()) {
    if (base->isRecord()) {
      if (base->recordType().empty()) return addition;
      if (addition->recordType().empty()) return base;
      return Formula::record(asymmetricMerge(addition->recordType(), base->recordType()));
    }
    if (base->isLambda())
      return replaceLambdaCore(base, evaluate(Formula::merge(addition, lambdaCore(base))));
    return evaluate(Formula::merge(addition, base));
  }
  if (addition->isLambda())
    return replaceLambdaCore(addition, evaluate(Formula::merge(lambdaCore(addition), base)));
  return evaluate(Formula::merge(addition, base));
}

FormulaPtr betaReduce(const FormulaPtr& function, const FormulaPtr& argument) {
  if (!function || !function->isLambda() || !argument) return nullptr;
  return evaluate(substitute(function->body(), function->name(), argument));
}

// ---------------------------------------------------------------------------------------
// Fresh labels

std::string FreshCounters::next(const std::optional<DsType>& type) {
  if (!type) return "r" + std::to_string(++record);
  const std::string& t = type->toString();
  if (t == "e") return "x" + std::to_string(++entity);
  if (t == "es") return "e" + std::to_string(++event);
  if (t == "t") return "p" + std::to_string(++proposition);
  return "pred" + std::to_string(++predicate);
}

FormulaPtr freshen(const FormulaPtr& f, FreshCounters& counters) {
  if (!f) return f;
  switch (f->kind()) {
    case FormulaKind::Record: {
      const RecordType& record = f->recordType();
      std::map<std::string, std::string> renaming;
      std::set<std::string> taken;
      for (const Field& field : record.fields()) {
        if (field.label == "head" || field.label == "reftime") continue;
        std::string label = counters.next(field.dsType);
        while (record.hasLabel(label) || taken.count(label) > 0)
          label = counters.next(field.dsType);
        taken.insert(label);
        renaming[field.label] = label;
      }
      return rename(f, renaming);
    }
    case FormulaKind::Lambda: return replaceLambdaCore(f, freshen(lambdaCore(f), counters));
    case FormulaKind::Infix: {
      FormulaPtr l = freshen(f->left(), counters);
      FormulaPtr r = freshen(f->right(), counters);
      return Formula::infix(f->name(), l, r);
    }
    default: return f;
  }
}

}  // namespace gwb::ds
