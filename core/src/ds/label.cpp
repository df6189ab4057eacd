#include "gwb/ds/label.h"

#include <cctype>
#include <utility>

namespace gwb::ds {

namespace {

constexpr std::string_view kNot = "\xC2\xAC";  // ¬

std::string joinTexts(const std::vector<LabelPtr>& items, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i]->text();
  }
  return out;
}

}  // namespace

void Label::computeText() {
  switch (kind_) {
    case LabelKind::Type: text_ = "ty(" + (type_.valid() ? type_.toString() : name_) + ")"; break;
    case LabelKind::Formula: text_ = "fo(" + (formula_ ? formula_->text() : name_) + ")"; break;
    case LabelKind::Feature: text_ = "+" + name_; break;
    case LabelKind::Predicate: {
      text_ = name_;
      if (!args_.empty()) {
        text_ += "(";
        for (std::size_t i = 0; i < args_.size(); ++i) text_ += (i > 0 ? ", " : "") + args_[i];
        text_ += ")";
      }
      break;
    }
    case LabelKind::Bottom: text_ = "!"; break;
    case LabelKind::Requirement: text_ = "?" + children_[0]->text(); break;
    case LabelKind::Modal: text_ = modality_.toString() + children_[0]->text(); break;
    case LabelKind::Exists: text_ = "Ex." + children_[0]->text(); break;
    case LabelKind::Not: text_ = std::string(kNot) + children_[0]->text(); break;
    case LabelKind::Or: text_ = "(" + joinTexts(children_, " || ") + ")"; break;
    case LabelKind::And: text_ = "(" + joinTexts(children_, " & ") + ")"; break;
    case LabelKind::Address: text_ = "tn(" + name_ + ")"; break;
    case LabelKind::Subsumes: text_ = "subsumes(" + modality_.opsString() + ")"; break;
    case LabelKind::Meta:
    case LabelKind::Wildcard: text_ = name_; break;
  }
}

std::shared_ptr<Label> Label::create(LabelKind kind) {
  std::shared_ptr<Label> l(new Label());
  l->kind_ = kind;
  return l;
}

LabelPtr Label::type(DsType type) {
  std::shared_ptr<Label> l = create(LabelKind::Type);
  l->type_ = std::move(type);
  l->computeText();
  return l;
}

LabelPtr Label::typeWildcard(std::string variable) {
  std::shared_ptr<Label> l = create(LabelKind::Type);
  l->name_ = std::move(variable);
  l->computeText();
  return l;
}

LabelPtr Label::formula(FormulaPtr formula) {
  std::shared_ptr<Label> l = create(LabelKind::Formula);
  l->formula_ = std::move(formula);
  l->computeText();
  return l;
}

LabelPtr Label::formulaWildcard(std::string variable) {
  std::shared_ptr<Label> l = create(LabelKind::Formula);
  l->name_ = std::move(variable);
  l->computeText();
  return l;
}

LabelPtr Label::feature(std::string name) {
  std::shared_ptr<Label> l = create(LabelKind::Feature);
  l->name_ = std::move(name);
  l->computeText();
  return l;
}

LabelPtr Label::predicate(std::string functor, std::vector<std::string> args) {
  std::shared_ptr<Label> l = create(LabelKind::Predicate);
  l->name_ = std::move(functor);
  l->args_ = std::move(args);
  l->computeText();
  return l;
}

LabelPtr Label::bottom() {
  static const LabelPtr kBottom = [] {
    std::shared_ptr<Label> l = create(LabelKind::Bottom);
    l->computeText();
    return LabelPtr(l);
  }();
  return kBottom;
}

LabelPtr Label::requirement(LabelPtr inner) {
  std::shared_ptr<Label> l = create(LabelKind::Requirement);
  l->children_.push_back(std::move(inner));
  l->computeText();
  return l;
}

LabelPtr Label::modal(Modality modality, LabelPtr inner) {
  std::shared_ptr<Label> l = create(LabelKind::Modal);
  l->modality_ = std::move(modality);
  l->children_.push_back(std::move(inner));
  l->computeText();
  return l;
}

LabelPtr Label::exists(LabelPtr inner) {
  std::shared_ptr<Label> l = create(LabelKind::Exists);
  l->children_.push_back(std::move(inner));
  l->computeText();
  return l;
}

LabelPtr Label::negation(LabelPtr inner) {
  std::shared_ptr<Label> l = create(LabelKind::Not);
  l->children_.push_back(std::move(inner));
  l->computeText();
  return l;
}

LabelPtr Label::disjunction(std::vector<LabelPtr> items) {
  std::shared_ptr<Label> l = create(LabelKind::Or);
  l->children_ = std::move(items);
  l->computeText();
  return l;
}

LabelPtr Label::conjunction(std::vector<LabelPtr> items) {
  std::shared_ptr<Label> l = create(LabelKind::And);
  l->children_ = std::move(items);
  l->computeText();
  return l;
}

LabelPtr Label::address(std::string address) {
  std::shared_ptr<Label> l = create(LabelKind::Address);
  l->name_ = std::move(address);
  l->computeText();
  return l;
}

LabelPtr Label::subsumes(Modality modality) {
  std::shared_ptr<Label> l = create(LabelKind::Subsumes);
  l->modality_ = std::move(modality);
  l->computeText();
  return l;
}

LabelPtr Label::meta(std::string name) {
  std::shared_ptr<Label> l = create(LabelKind::Meta);
  l->name_ = std::move(name);
  l->computeText();
  return l;
}

LabelPtr Label::wildcard(std::string variable) {
  std::shared_ptr<Label> l = create(LabelKind::Wildcard);
  l->name_ = std::move(variable);
  l->computeText();
  return l;
}

bool Label::isWildcard() const {
  switch (kind_) {
    case LabelKind::Wildcard: return true;
    case LabelKind::Type: return !type_.valid();
    case LabelKind::Formula: return !formula_;
    case LabelKind::Address: return name_.size() == 1 && name_[0] >= 'x' && name_[0] <= 'z';
    default: return false;
  }
}

// ---------------------------------------------------------------------------------------
// Parsing

namespace {

bool isBoundVariable(std::string_view s) { return s.size() == 1 && s[0] >= 'x' && s[0] <= 'z'; }
bool isLabelMeta(std::string_view s) { return s.size() == 1 && s[0] >= 'V' && s[0] <= 'Z'; }

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

class LabelParser {
 public:
  explicit LabelParser(std::string_view text) : text_(text) {}

  LabelPtr parseAll(LabelParseError* error) {
    LabelPtr l = parse(0, text_.size(), false, 0);
    if (!l && error) *error = error_;
    return l;
  }

 private:
  LabelPtr fail(std::size_t at, std::string message) {
    if (!failed_) {
      failed_ = true;
      error_.offset = at;
      error_.message = std::move(message);
    }
    return nullptr;
  }

  void trim(std::size_t& from, std::size_t& to) const {
    while (from < to && std::isspace(static_cast<unsigned char>(text_[from])) != 0) ++from;
    while (to > from && std::isspace(static_cast<unsigned char>(text_[to - 1])) != 0) --to;
  }

  // Index of the bracket closing the one at `open` within [open, to), or npos.
  std::size_t matching(std::size_t open, std::size_t to) const {
    int depth = 0;
    for (std::size_t i = open; i < to; ++i) {
      const char c = text_[i];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') {
        if (--depth == 0) return i;
      }
    }
    return std::string_view::npos;
  }

  // Splits [from, to) at top-level occurrences of `separator`; empty if there are none.
  std::vector<std::pair<std::size_t, std::size_t>> splitTop(std::size_t from, std::size_t to,
                                                            std::string_view separator) const {
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    int depth = 0;
    std::size_t start = from;
    for (std::size_t i = from; i < to; ++i) {
      const char c = text_[i];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (depth == 0 && text_.compare(i, separator.size(), separator) == 0 &&
          i + separator.size() <= to) {
        // "&" must not be part of "&&"; "||" is matched whole.
        parts.emplace_back(start, i);
        i += separator.size() - 1;
        start = i + 1;
      }
    }
    if (parts.empty()) return parts;
    parts.emplace_back(start, to);
    return parts;
  }

  LabelPtr parse(std::size_t from, std::size_t to, bool inExists, int depth) {
    if (depth > kMaxFormulaDepth) return fail(from, "label nested too deeply");
    trim(from, to);
    if (from >= to) return fail(from, "expected a label");
    const std::string_view s = text_.substr(from, to - from);

    if (s.substr(0, kNot.size()) == kNot) {
      LabelPtr inner = parse(from + kNot.size(), to, inExists, depth + 1);
      return inner ? Label::negation(inner) : nullptr;
    }
    if (isLabelMeta(s)) return Label::meta(std::string(s));
    if (isBoundVariable(s)) return Label::wildcard(std::string(s));
    if (s[0] == '?') {
      LabelPtr inner = parse(from + 1, to, inExists, depth + 1);
      return inner ? Label::requirement(inner) : nullptr;
    }
    if (startsWithIgnoreCase(s, "Ex.")) {
      LabelPtr inner = parse(from + 3, to, true, depth + 1);
      return inner ? Label::exists(inner) : nullptr;
    }
    if (s[0] == '(') {
      const std::size_t close = matching(from, to);
      if (close == std::string_view::npos) return fail(from, "expected ')' to close this '('");
      if (close == to - 1) return parseGroup(from + 1, to - 1, inExists, depth + 1);
    }
    if (s[0] == '<' || s[0] == '[' || s.substr(0, 2) == "\\/" || s.substr(0, 2) == "/\\")
      return parseModal(from, to, inExists, depth);
    if (s[0] == '+') {
      std::string name(s.substr(1));
      if (name.empty()) return fail(from + 1, "expected a feature name after '+'");
      return Label::feature(std::move(name));
    }
    if (s == "!") return Label::bottom();
    return parseFunctor(from, to, inExists);
  }

  // (a || b), (a & b & c), or a parenthesised label.
  LabelPtr parseGroup(std::size_t from, std::size_t to, bool inExists, int depth) {
    for (std::string_view separator : {std::string_view("||"), std::string_view("&")}) {
      auto parts = splitTop(from, to, separator);
      if (parts.empty()) continue;
      std::vector<LabelPtr> items;
      for (auto [a, b] : parts) {
        LabelPtr item = parse(a, b, inExists, depth + 1);
        if (!item) return nullptr;
        items.push_back(item);
      }
      return separator == "||" ? Label::disjunction(std::move(items))
                               : Label::conjunction(std::move(items));
    }
    return parse(from, to, inExists, depth + 1);
  }

  LabelPtr parseModal(std::size_t from, std::size_t to, bool inExists, int depth) {
    std::size_t end = from;  // one past the modality
    if (text_[from] == '<' || text_[from] == '[') {
      const char close = text_[from] == '<' ? '>' : ']';
      end = text_.find(close, from);
      if (end == std::string_view::npos || end >= to)
        return fail(from, std::string("expected '") + close + "' to close the modality");
      ++end;
    } else {
      while (end + 1 < to &&
             (text_.compare(end, 2, "\\/") == 0 || text_.compare(end, 2, "/\\") == 0)) {
        end += 2;
        while (end < to && std::string_view("01L*UC").find(text_[end]) != std::string_view::npos)
          ++end;
      }
    }
    std::string error;
    auto modality = Modality::parse(text_.substr(from, end - from), &error);
    if (!modality) return fail(from, error);
    LabelPtr inner = parse(end, to, inExists, depth + 1);
    return inner ? Label::modal(*modality, inner) : nullptr;
  }

  LabelPtr parseFunctor(std::size_t from, std::size_t to, bool inExists) {
    std::size_t i = from;
    while (i < to && (std::isalnum(static_cast<unsigned char>(text_[i])) != 0 || text_[i] == '_' ||
                      text_[i] == '-' || text_[i] == '\''))
      ++i;
    if (i == from)
      return fail(from, std::string("expected a label (ty(...), fo(...), ?..., <...>..., "
                                    "Ex...., +feature, !), found '") +
                            text_[from] + "'");
    const std::string functor(text_.substr(from, i - from));
    if (i == to) return Label::predicate(functor, {});
    if (text_[i] != '(') return fail(i, "expected '(' after '" + functor + "'");
    const std::size_t close = matching(i, to);
    if (close == std::string_view::npos) return fail(i, "expected ')' to close this '('");
    if (close != to - 1) return fail(close + 1, "unexpected text after '" + functor + "(...)'");
    std::size_t argFrom = i + 1;
    std::size_t argTo = close;
    trim(argFrom, argTo);
    const std::string_view arg = text_.substr(argFrom, argTo - argFrom);
    std::string lower;
    for (char c : functor) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));

    if (lower == "ty") {
      if (inExists && isBoundVariable(arg)) return Label::typeWildcard(std::string(arg));
      std::string typeError;
      auto type = DsType::parse(arg, &typeError);
      if (!type)
        return fail(argFrom,
                    "expected a DS type (e, t, es, cn, X, e>t, ...) in ty(...): " + typeError);
      return Label::type(*type);
    }
    if (lower == "fo") {
      if (inExists && isBoundVariable(arg)) return Label::formulaWildcard(std::string(arg));
      if (arg == "null") {
        // DyLan's text dumps print an unbound metavariable as `null`.
        return inExists ? Label::formulaWildcard("x") : Label::formula(Formula::meta("X"));
      }
      FormulaParseError ferror;
      FormulaPtr f = parseFormula(arg, &ferror);
      if (!f) return fail(argFrom + ferror.offset, ferror.message);
      return Label::formula(f);
    }
    if (lower == "tn") {
      if (arg.empty()) return fail(argFrom, "expected a tree address in tn(...)");
      if (!(isBoundVariable(arg) || isLabelMeta(arg) || NodeAddress::isValid(arg)))
        return fail(argFrom, "expected a tree address (0, 01, 0L, 0*, ...) in tn(...)");
      return Label::address(std::string(arg));
    }
    if (lower == "subsumes") {
      std::string error;
      auto modality = Modality::parse(arg, &error);
      if (!modality) return fail(argFrom, error);
      return Label::subsumes(*modality);
    }
    std::vector<std::string> args;
    if (!arg.empty()) {
      auto parts = splitTop(argFrom, argTo, ",");
      if (parts.empty()) parts.emplace_back(argFrom, argTo);
      for (auto [a, b] : parts) {
        trim(a, b);
        args.emplace_back(text_.substr(a, b - a));
      }
    }
    return Label::predicate(functor, std::move(args));
  }

  std::string_view text_;
  bool failed_ = false;
  LabelParseError error_;
};

}  // namespace

LabelPtr parseLabel(std::string_view text, LabelParseError* error) {
  LabelParser parser(text);
  return parser.parseAll(error);
}

}  // namespace gwb::ds
