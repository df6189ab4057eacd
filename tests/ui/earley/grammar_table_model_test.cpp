// GrammarTableModel and GrammarFilterProxyModel on a small grammar built in the test: every
// column's text, the RuleId role, numeric sorting through the proxy, and filtering.
#include "ui/earley/grammar_table_model.h"

#include <array>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "qt_printers.h"
#include "ui/earley/grammar_filter_proxy_model.h"
#include "ui/earley/nonterminal_table_model.h"

namespace gwb::ui {
namespace {

using Column = GrammarTableModel::Column;

// Rule ids (= source rows) of the test grammar, in the order they are added.
enum TestRule : int {
  SNpVp,     // S -> NP VP        1.0            line 1
  NpDetN,    // NP -> Det N       0.6  prior 0.5 line 2
  NpJohn,    // NP -> 'john'      0.3            line 3  (NP sums to 0.9)
  VpVNp,     // VP -> V NP        0.25           line 4
  VpV,       // VP -> V           0.5            line 4  (two rules on one line)
  VpVUp,     // VP -> V 'up'      0.25 prior 2   line 5
  DetThe,    // Det -> 'the'      1.0            line 6
  NDog,      // N -> 'dog'        0.99999        line 7
  NCat,      // N -> 'cat'        1e-05          line 8
  OptEmpty,  // Opt -> ε          1.0            line 9
  RuleCount
};

std::shared_ptr<gwb::Grammar> makeGrammar() {
  auto grammar = std::make_shared<gwb::Grammar>();
  gwb::SymbolTable& symbols = grammar->symbols();
  // Interned one by one, so symbol ids follow this order.
  const auto nt = [&](const char* name) {
    return symbols.intern(name, gwb::SymbolKind::Nonterminal);
  };
  const auto t = [&](const char* name) { return symbols.intern(name, gwb::SymbolKind::Terminal); };
  const gwb::SymbolId s = nt("S");
  const gwb::SymbolId np = nt("NP");
  const gwb::SymbolId vp = nt("VP");
  const gwb::SymbolId det = nt("Det");
  const gwb::SymbolId n = nt("N");
  const gwb::SymbolId v = nt("V");
  const gwb::SymbolId opt = nt("Opt");
  const gwb::SymbolId john = t("john");
  const gwb::SymbolId up = t("up");
  const gwb::SymbolId the = t("the");
  const gwb::SymbolId dog = t("dog");
  const gwb::SymbolId cat = t("cat");
  const auto add = [&](gwb::SymbolId lhs, std::vector<gwb::SymbolId> rhs, double p,
                       std::optional<double> prior, int line) {
    grammar->addRule(gwb::Rule{lhs, std::move(rhs), p, prior, line});
  };
  add(s, {np, vp}, 1.0, std::nullopt, 1);
  add(np, {det, n}, 0.6, 0.5, 2);
  add(np, {john}, 0.3, std::nullopt, 3);
  add(vp, {v, np}, 0.25, std::nullopt, 4);
  add(vp, {v}, 0.5, std::nullopt, 4);
  add(vp, {v, up}, 0.25, 2.0, 5);
  add(det, {the}, 1.0, std::nullopt, 6);
  add(n, {dog}, 0.99999, std::nullopt, 7);
  add(n, {cat}, 1e-05, std::nullopt, 8);
  add(opt, {}, 1.0, std::nullopt, 9);
  grammar->setStart(s);
  return grammar;
}

class GrammarTableModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grammar_ = makeGrammar();
    model_.setGrammar(grammar_);
    proxy_.setSourceModel(&model_);
  }

  QString text(int row, int column) const {
    return model_.index(row, column).data(Qt::DisplayRole).toString();
  }
  // The rule ids of the proxy's rows, top to bottom.
  std::vector<int> proxyRules() const {
    std::vector<int> rules;
    for (int row = 0; row < proxy_.rowCount(); ++row)
      rules.push_back(proxy_.index(row, 0).data(GrammarTableModel::RuleIdRole).toInt());
    return rules;
  }

  std::shared_ptr<gwb::Grammar> grammar_;
  GrammarTableModel model_;
  GrammarFilterProxyModel proxy_;
};

TEST_F(GrammarTableModelTest, HasOneRowPerRuleAndOneColumnPerEnumValue) {
  EXPECT_EQ(model_.rowCount(), RuleCount);
  EXPECT_EQ(model_.columnCount(), GrammarTableModel::ColumnCount);
  EXPECT_EQ(model_.rowCount(model_.index(0, 0)), 0);  // a flat table
  for (int column = 0; column < GrammarTableModel::ColumnCount; ++column)
    EXPECT_FALSE(model_.headerData(column, Qt::Horizontal).toString().isEmpty()) << column;
}

TEST_F(GrammarTableModelTest, EmptyWithoutGrammar) {
  GrammarTableModel empty;
  EXPECT_EQ(empty.rowCount(), 0);
  model_.setGrammar(nullptr);
  EXPECT_EQ(model_.rowCount(), 0);
}

TEST_F(GrammarTableModelTest, ShowsEveryCellOfEveryRule) {
  struct Case {
    int rule;
    std::array<const char*, GrammarTableModel::ColumnCount> cells;
  };
  // Cells in column order: LHS, RHS, Kind, Probability, Prior, LHS Sum, Line.
  const Case cases[] = {
      {SNpVp, {"S", "NP VP", "phrasal", "1", "", "1", "1"}},
      {NpDetN, {"NP", "Det N", "phrasal", "0.6", "0.5", "0.9", "2"}},
      {NpJohn, {"NP", "'john'", "lexical", "0.3", "", "0.9", "3"}},
      {VpVNp, {"VP", "V NP", "phrasal", "0.25", "", "1", "4"}},
      {VpV, {"VP", "V", "phrasal", "0.5", "", "1", "4"}},
      {VpVUp, {"VP", "V 'up'", "fragment", "0.25", "2", "1", "5"}},
      {DetThe, {"Det", "'the'", "lexical", "1", "", "1", "6"}},
      {NDog, {"N", "'dog'", "lexical", "0.99999", "", "1", "7"}},
      {NCat, {"N", "'cat'", "lexical", "1e-05", "", "1", "8"}},
      {OptEmpty, {"Opt", "\u03b5", "epsilon", "1", "", "1", "9"}},
  };
  ASSERT_EQ(std::size(cases), static_cast<std::size_t>(RuleCount));
  for (const Case& c : cases) {
    for (int column = 0; column < GrammarTableModel::ColumnCount; ++column) {
      EXPECT_EQ(text(c.rule, column), QString::fromUtf8(c.cells[static_cast<std::size_t>(column)]))
          << "rule " << c.rule << ", column " << column;
    }
  }
}

TEST_F(GrammarTableModelTest, RuleIdRoleNamesTheRuleInEveryColumn) {
  for (int row = 0; row < model_.rowCount(); ++row) {
    for (int column = 0; column < GrammarTableModel::ColumnCount; ++column) {
      const QVariant id = model_.index(row, column).data(GrammarTableModel::RuleIdRole);
      ASSERT_TRUE(id.isValid());
      EXPECT_EQ(id.toInt(), row);
    }
    const gwb::Rule& rule = grammar_->rule(static_cast<gwb::RuleId>(row));
    EXPECT_EQ(text(row, Column::Lhs).toStdString(), grammar_->symbols().name(rule.lhs));
  }
  EXPECT_EQ(model_.indexForRule(VpVUp, Column::Rhs), model_.index(VpVUp, Column::Rhs));
  EXPECT_FALSE(model_.indexForRule(RuleCount).isValid());
}

TEST_F(GrammarTableModelTest, ToolTipsShowTheWholeRule) {
  const QString tip = model_.index(VpVNp, Column::Rhs).data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains(QStringLiteral("VP"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("V NP"))) << tip.toStdString();
  const QString sumTip = model_.index(NpJohn, Column::LhsSum).data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(sumTip.contains(QStringLiteral("2 rules"))) << sumTip.toStdString();
}

TEST_F(GrammarTableModelTest, FlagsLhsSumsThatAreNotOne) {
  EXPECT_TRUE(model_.index(NpJohn, Column::LhsSum).data(Qt::ForegroundRole).isValid());
  EXPECT_FALSE(model_.index(SNpVp, Column::LhsSum).data(Qt::ForegroundRole).isValid());
  EXPECT_FALSE(model_.index(NDog, Column::LhsSum).data(Qt::ForegroundRole).isValid());
  EXPECT_FALSE(model_.index(NpJohn, Column::Lhs).data(Qt::ForegroundRole).isValid());
}

TEST_F(GrammarTableModelTest, FindsRulesByLine) {
  EXPECT_EQ(model_.rulesAtLine(2), std::vector<gwb::RuleId>({NpDetN}));
  EXPECT_EQ(model_.rulesAtLine(4), std::vector<gwb::RuleId>({VpVNp, VpV}));
  EXPECT_TRUE(model_.rulesAtLine(42).empty());
  EXPECT_TRUE(model_.rulesAtLine(0).empty());
}

TEST_F(GrammarTableModelTest, SortsProbabilitiesAsNumbersNotText) {
  proxy_.sort(Column::Probability, Qt::AscendingOrder);
  const std::vector<int> rules = proxyRules();
  ASSERT_EQ(rules.size(), static_cast<std::size_t>(RuleCount));
  // As text "1e-05" would sort after "0.99999"; as a number it is the smallest.
  EXPECT_EQ(rules.front(), NCat);
  for (std::size_t i = 1; i < rules.size(); ++i)
    EXPECT_LE(grammar_->rule(rules[i - 1]).probability, grammar_->rule(rules[i]).probability);

  proxy_.sort(Column::Probability, Qt::DescendingOrder);
  const std::vector<int> descending = proxyRules();
  EXPECT_EQ(descending.back(), NCat);
  EXPECT_EQ(grammar_->rule(descending.front()).probability, 1.0);
}

TEST_F(GrammarTableModelTest, SortsMissingPriorsLast) {
  proxy_.sort(Column::Prior, Qt::AscendingOrder);
  const std::vector<int> rules = proxyRules();
  ASSERT_GE(rules.size(), 2U);
  EXPECT_EQ(rules[0], NpDetN);  // prior 0.5
  EXPECT_EQ(rules[1], VpVUp);   // prior 2
  for (std::size_t i = 2; i < rules.size(); ++i) EXPECT_FALSE(grammar_->rule(rules[i]).prior);
}

TEST_F(GrammarTableModelTest, SortsLinesNumerically) {
  proxy_.sort(Column::Line, Qt::DescendingOrder);
  EXPECT_EQ(proxyRules().front(), OptEmpty);
}

TEST_F(GrammarTableModelTest, Filters) {
  using Scope = GrammarFilterProxyModel::Scope;
  struct Case {
    const char* pattern;
    bool isRegex;
    Scope scope;
    std::vector<int> rules;
  };
  const std::vector<int> everyRule = {SNpVp, NpDetN, NpJohn, VpVNp, VpV,
                                      VpVUp, DetThe, NDog,   NCat,  OptEmpty};
  const Case cases[] = {
      {"", false, Scope::LhsOrRhs, everyRule},
      {"np", false, Scope::LhsOrRhs, {SNpVp, NpDetN, NpJohn, VpVNp}},  // case-insensitive
      {"np", false, Scope::Lhs, {NpDetN, NpJohn}},
      {"np", false, Scope::Rhs, {SNpVp, VpVNp}},
      {"NP -> Det", false, Scope::LhsOrRhs, {NpDetN}},  // the whole rule's text
      {"'up'", false, Scope::Rhs, {VpVUp}},
      {"^(vp|n)$", true, Scope::Lhs, {VpVNp, VpV, VpVUp, NDog, NCat}},
      {"^(vp|n)$", false, Scope::Lhs, {}},  // literal: metacharacters are escaped
      {"^v\\b", true, Scope::Rhs, {VpVNp, VpV, VpVUp}},
  };
  for (const Case& c : cases) {
    proxy_.setScope(c.scope);
    ASSERT_TRUE(proxy_.setPattern(QString::fromUtf8(c.pattern), c.isRegex)) << c.pattern;
    EXPECT_EQ(proxyRules(), c.rules) << c.pattern << " (scope " << static_cast<int>(c.scope) << ")";
  }
}

TEST_F(GrammarTableModelTest, InvalidRegularExpressionKeepsThePreviousFilter) {
  ASSERT_TRUE(proxy_.setPattern(QStringLiteral("john"), false));
  QString error;
  EXPECT_FALSE(proxy_.setPattern(QStringLiteral("(unclosed"), true, &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_EQ(proxyRules(), std::vector<int>({NpJohn}));
  ASSERT_TRUE(proxy_.setPattern(QString(), false));
  EXPECT_EQ(proxy_.rowCount(), RuleCount);
}

TEST(NonterminalTableModelTest, ListsEveryNonterminalWithRulesAndSum) {
  NonterminalTableModel model;
  model.setGrammar(makeGrammar());
  // S NP VP Det N V Opt: V is used but has no rules.
  ASSERT_EQ(model.rowCount(), 7);
  QStringList names;
  for (int row = 0; row < model.rowCount(); ++row)
    names << model.index(row, NonterminalTableModel::Symbol).data().toString();
  EXPECT_EQ(names, QStringList({QStringLiteral("S"), QStringLiteral("NP"), QStringLiteral("VP"),
                                QStringLiteral("Det"), QStringLiteral("N"), QStringLiteral("V"),
                                QStringLiteral("Opt")}));
  const int vp = static_cast<int>(names.indexOf(QStringLiteral("VP")));
  EXPECT_EQ(model.index(vp, NonterminalTableModel::Rules).data().toInt(), 3);
  EXPECT_EQ(model.index(vp, NonterminalTableModel::ProbabilitySum).data().toString(),
            QStringLiteral("1"));
  const int v = static_cast<int>(names.indexOf(QStringLiteral("V")));
  EXPECT_EQ(model.index(v, NonterminalTableModel::Rules).data().toInt(), 0);
  EXPECT_TRUE(model.index(v, NonterminalTableModel::Rules).data(Qt::ForegroundRole).isValid());
}

}  // namespace
}  // namespace gwb::ui
