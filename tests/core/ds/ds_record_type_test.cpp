#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/common/diagnostic.h"
#include "gwb/ds/formula.h"
#include "gwb/ds/record_type.h"
#include "gwb/ds/semantic_corpus.h"
#include "shared_data.h"
#include "ttr_oracle.h"

namespace gwb::ds {
namespace {

RecordType rt(const std::string& text) {
  FormulaParseError error;
  auto r = RecordType::parse(text, &error);
  EXPECT_TRUE(r.has_value()) << text << ": " << error.message;
  return r.value_or(RecordType());
}

FormulaPtr fo(const std::string& text) {
  FormulaParseError error;
  FormulaPtr f = parseFormula(text, &error);
  EXPECT_TRUE(f) << text << ": " << error.message;
  return f;
}

TEST(DsRecordTypeTest, ParsesAndPrintsCanonically) {
  struct Case {
    std::string input;
    std::string canonical;
  };
  const Case cases[] = {
      {"[]", "[]"},
      {"[ ]", "[]"},
      {"[x==john:e|head==x:e]", "[x==john : e|head==x : e]"},
      {"[x : e|head : x]", "[x : e|head : x]"},
      {"[r : [x7 : e|p2==man(x7) : t|head : x7]|x2==(eps, r.head, r) : e|head==x2 : e]",
       "[r : [x7 : e|p2==man(x7) : t|head : x7]|x2==(eps, r.head, r) : e|head==x2 : e]"},
      {"[e1==like:es|p==subj(e1,x1):t]", "[e1==like : es|p==subj(e1, x1) : t]"},
      {"[x1==iota(r.head, r) : e]", "[x1==iota(r.head, r) : e]"},
      {"[p==f(g(x), y):t]", "[p==f(g(x), y) : t]"},
      {"[pred : cn|head==pred : cn]", "[pred : cn|head==pred : cn]"},
      {"[f : e>t]", "[f : e>t]"},
      {"[f : e>(e>t)|g : (e>t)>t]", "[f : e>(e>t)|g : (e>t)>t]"},
      // Lambda abstracts over record types, and merges.
      {"R^(R ++ [p==man(R.head):t])", "R^(R ++ [p==man(R.head) : t])"},
      {"R1^R2^(R1 ++ (R2 ++ [head:es]))", "R1^R2^(R1 ++ (R2 ++ [head : es]))"},
      {"R^[r:R | x1==(QUANT, r.head, r):e | head==x1:e]",
       "R^[r : R|x1==(QUANT, r.head, r) : e|head==x1 : e]"},
      // The older grammars' plain lambda terms.
      {"y^x^like(x,y)", "y^x^like(x, y)"},
      {"x^(iota,x)", "x^(iota, x)"},
  };
  for (const Case& c : cases) {
    FormulaPtr f = fo(c.input);
    ASSERT_TRUE(f) << c.input;
    EXPECT_EQ(f->text(), c.canonical) << c.input;
    // The canonical text reads back to itself.
    FormulaPtr again = fo(f->text());
    ASSERT_TRUE(again);
    EXPECT_EQ(again->text(), c.canonical);
  }
}

TEST(DsRecordTypeTest, ReportsWhereAndWhatOnBadInput) {
  struct Case {
    std::string input;
    std::size_t offset;
    std::string message;  // a part of it
  };
  const Case cases[] = {
      {"[x:e|", 0, "expected ']'"},
      {"[x e]", 1, "expected 'label : type'"},
      {"[x==john:q]", 9, "expected a DS type"},
      {"[==john:e]", 1, "expected a field label"},
      {"[x:e|x:t]", 5, "duplicate label 'x'"},
      {"[p==f(x:t]", 0, "expected ']'"},
      {"f(x", 3, "expected ')'"},
      {"[x:]", 3, "expected a type"},
      {"", 0, "expected a formula"},
      {"john )", 5, "unexpected ')'"},
  };
  for (const Case& c : cases) {
    FormulaParseError error;
    EXPECT_FALSE(parseFormula(c.input, &error)) << c.input;
    EXPECT_EQ(error.offset, c.offset) << c.input << ": " << error.message;
    EXPECT_NE(error.message.find(c.message), std::string::npos) << c.input << ": " << error.message;
  }
}

TEST(DsRecordTypeTest, RefusesNestingBeyondTheLimit) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "[r:";
  deep += "e";
  for (int i = 0; i < 5000; ++i) deep += "]";
  FormulaParseError error;
  EXPECT_FALSE(parseFormula(deep, &error));
  EXPECT_NE(error.message.find("nested too deeply"), std::string::npos);
}

TEST(DsRecordTypeTest, ChecksSubtypesWithLabelMapping) {
  struct Case {
    std::string sub;
    std::string super;
    bool expected;
  };
  const Case cases[] = {
      // Every record type is a subtype of the empty one and of itself.
      {"[x==john : e]", "[]", true},
      {"[x==john : e|head==x : e]", "[x==john : e|head==x : e]", true},
      // Manifest fields are subtypes of unmanifest ones of the same DS type, not the reverse.
      {"[x==john : e]", "[x : e]", true},
      {"[x : e]", "[x==john : e]", false},
      {"[x : e]", "[x : es]", false},
      // Labels are mapped, consistently in labels and values.
      {"[x7==john : e|head==x7 : e]", "[x1==john : e|head==x1 : e]", true},
      {"[x1 : e|x2 : e|p==like(x1, x2) : t]", "[a : e|b : e|q==like(b, a) : t]", true},
      {"[x1 : e|p==run(x1) : t|q==walk(x1) : t]", "[y : e|p1==run(y) : t|p2==walk(y) : t]", true},
      // ... one to one: two supertype fields need two subtype fields.
      {"[x : e]", "[a : e|b : e]", false},
      {"[x : e|p==like(x, x) : t]", "[a : e|b : e|q==like(a, b) : t]", false},
      // head maps to head only.
      {"[x : e|head==x : e]", "[head : e]", true},
      {"[x : e]", "[head : e]", false},
      // Extra fields in the subtype are fine (the paper's R1 ⊑ R2).
      {"[l1 : e|l2==a : e|l3==p(l2) : t]", "[m1 : e|m2 : e]", true},
      // Nested restrictors, each in its own scope.
      {"[r : [x : e|p==man(x) : t|q==fat(x) : t|head==x : e]|y==(eps, r.head, r) : e]",
       "[s : [z : e|p==man(z) : t|head==z : e]|w==(eps, s.head, s) : e]", true},
      {"[r : [x : e|head==x : e]|y==(eps, r.head, r) : e]",
       "[s : [z : e|p==man(z) : t|head==z : e]|w==(eps, s.head, s) : e]", false},
      // Predicates and atoms must agree.
      {"[e1==like : es|p==subj(e1, x) : t|x : e]", "[e==hate : es]", false},
      {"[e1==like : es|p==pres(e1) : t]", "[e : es|q==past(e) : t]", false},
      {"[e1==like : es|p==pres(e1) : t]", "[e : es|q==pres(e) : t]", true},
  };
  for (const Case& c : cases) {
    LabelMapping mapping;
    EXPECT_EQ(isSubtype(rt(c.sub), rt(c.super), &mapping), c.expected) << c.sub << " ⊑ " << c.super;
    EXPECT_EQ(testing::bruteForceIsSubtype(c.sub, c.super), c.expected)
        << "oracle: " << c.sub << " ⊑ " << c.super;
  }
}

TEST(DsRecordTypeTest, ReportsTheLabelMapping) {
  LabelMapping mapping;
  ASSERT_TRUE(isSubtype(rt("[x5==mary : e|e5==like : es|p4==obj(e5, x5) : t]"),
                        rt("[y : e|e : es|q==obj(e, y) : t]"), &mapping));
  EXPECT_EQ(mapping.size(), 3u);
  const LabelMapping expected = {{"q", "p4"}, {"e", "e5"}, {"y", "x5"}};
  for (const auto& pair : expected)
    EXPECT_NE(std::find(mapping.begin(), mapping.end(), pair), mapping.end()) << pair.first;
}

TEST(DsRecordTypeTest, ComparesUpToRelabelling) {
  struct Case {
    std::string a;
    std::string b;
    bool expected;
  };
  const Case cases[] = {
      {"[x5==mary : e|e5==like : es|x1==john : e|head==e5 : es|p2==pres(e5) : t|"
       "p5==subj(e5, x1) : t|p4==obj(e5, x5) : t]",
       "[head==e2 : es|p5==pres(e2) : t|x1==mary : e|x2==john : e|e2==like : es|"
       "p1==subj(e2, x2) : t|p4==obj(e2, x1) : t]",
       true},
      // Subject and object swapped is a different meaning.
      {"[x1==john : e|x2==mary : e|e==like : es|p==subj(e, x1) : t|q==obj(e, x2) : t]",
       "[x1==john : e|x2==mary : e|e==like : es|p==subj(e, x2) : t|q==obj(e, x1) : t]", false},
      // A subtype is not equal to its supertype.
      {"[x==john : e]", "[x : e]", false},
      {"[x : e|y : e]", "[x : e]", false},
      {"[r1 : [x7 : e|p2==man(x7) : t|head : x7]|x2==(eps, r1.head, r1) : e]",
       "[r : [x : e|p==man(x) : t|head : x]|y==(eps, r.head, r) : e]", true},
      {"[r1 : [x7 : e|p2==man(x7) : t|p3==fat(x7) : t|head : x7]|x2==(eps, r1.head, r1) : e]",
       "[r : [x : e|p==man(x) : t|head : x]|y==(eps, r.head, r) : e]", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(equalUpToRelabelling(rt(c.a), rt(c.b)), c.expected) << c.a << " = " << c.b;
    EXPECT_EQ(equalUpToRelabelling(rt(c.b), rt(c.a)), c.expected) << c.b << " = " << c.a;
  }
}

TEST(DsRecordTypeTest, AgreesWithTheBruteForceOracle) {
  // Random small record types: a supertype, and subtypes made from it by relabelling,
  // adding fields, making fields manifest, and (for negative cases) changing a predicate.
  std::mt19937 random(20130808);
  const std::vector<std::string> predicates = {"run", "like", "man", "subj", "obj"};
  const std::vector<std::string> atoms = {"john", "mary", "like"};
  auto pick = [&](const auto& v) { return v[random() % v.size()]; };
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    // Entities x0..x(n-1), an event e0, propositions over them.
    const int entities = 1 + static_cast<int>(random() % 3);
    std::vector<Field> fields;
    for (int i = 0; i < entities; ++i)
      fields.push_back({"x" + std::to_string(i),
                        random() % 3 == 0 ? Formula::symbol(pick(atoms)) : nullptr,
                        DsType::basic("e")});
    fields.push_back({"e0", random() % 2 ? Formula::symbol("like") : nullptr, DsType::basic("es")});
    const int props = static_cast<int>(random() % 3);
    for (int i = 0; i < props; ++i) {
      std::vector<FormulaPtr> args{Formula::symbol("e0"),
                                   Formula::symbol("x" + std::to_string(random() % entities))};
      fields.push_back(
          {"p" + std::to_string(i), Formula::apply(pick(predicates), args), DsType::basic("t")});
    }
    const RecordType super(fields);
    // The subtype: relabel everything, sometimes add a field, sometimes perturb one.
    std::map<std::string, std::string> renaming;
    for (const Field& f : fields) renaming[f.label] = "k" + f.label;
    RecordType sub = relabel(super, renaming);
    if (random() % 2) sub.put({"extra", Formula::symbol("mary"), DsType::basic("e")});
    if (random() % 3 == 0 && props > 0) {
      Field changed = *sub.find("kp0");
      changed.value = Formula::apply("other", changed.value->args());
      sub.put(changed);
    }
    if (random() % 4 == 0) {
      // Drop a manifest value: the result may stop being a subtype.
      Field f = sub.fields()[static_cast<std::size_t>(random() % sub.size())];
      f.value = nullptr;
      if (f.dsType) sub.put(f);
    }
    const bool expected = testing::bruteForceIsSubtype(sub.toString(), super.toString());
    EXPECT_EQ(isSubtype(sub, super), expected) << sub.toString() << " ⊑ " << super.toString();
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

TEST(DsRecordTypeTest, MergesAsymmetricallyAndExtendsWithRelabelling) {
  struct Case {
    std::string left;
    std::string right;
    std::string merged;    // left ++ right, exactly
    std::string extended;  // extend(left, right), up to relabelling
  };
  const Case cases[] = {
      {"[x==john : e|head==x : e]", "[e1==run : es|head==e1 : es]",
       "[x==john : e|head==e1 : es|e1==run : es]", "[x==john : e|e1==run : es|head==e1 : es]"},
      // The right side wins on shared labels; variables pointing at variables are resolved.
      {"[head : es|p2==pres(head) : t]", "[e5==like : es|head==e5 : es]",
       "[head==e5 : es|p2==pres(e5) : t|e5==like : es]",
       "[head==e5 : es|p2==pres(e5) : t|e5==like : es]"},
      // Extension renames the clashing labels of the extension apart.
      {"[x==john : e]", "[x==mary : e]", "[x==mary : e]", "[x==john : e|x1==mary : e]"},
      // Restrictors with the same label merge recursively.
      {"[r : [x : e|head==x : e]]", "[r : [p==man(x) : t]]",
       "[r : [x : e|head==x : e|p==man(x) : t]]", "[r : [x : e|head==x : e]|r1 : [p==man(x) : t]]"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(asymmetricMerge(rt(c.left), rt(c.right)).toString(), c.merged);
    const RecordType extended = extend(rt(c.left), rt(c.right));
    EXPECT_TRUE(equalUpToRelabelling(extended, rt(c.extended)))
        << extended.toString() << " vs " << c.extended;
  }
}

TEST(DsRecordTypeTest, BetaReducesRecordTypeFunctions) {
  struct Case {
    std::string function;
    std::string argument;
    std::string result;
  };
  const Case cases[] = {
      // A common noun applied to its variable's record type.
      {"R^(R ++ [p==man(R.head):t])", "[x7 : e|head : x7]", "[x7 : e|head : x7|p==man(x7) : t]"},
      // A determiner applied to a common noun's record type: the restrictor.
      {"R^[r:R|x1==(eps, r.head, r):e|head==x1:e]", "[x7 : e|head : x7|p2==man(x7) : t]",
       "[r : [x7 : e|head : x7|p2==man(x7) : t]|x1==(eps, r.head, r) : e|head==x1 : e]"},
      // An intransitive verb applied to its subject; the verb's head wins.
      {"R1^(R1 ++ [e1==run:es|head==e1:es|p==subj(e1, R1.head):t])", "[x==john:e|head==x:e]",
       "[x==john : e|head==e1 : es|e1==run : es|p==subj(e1, x) : t]"},
      // A transitive verb applied to its object is still a function.
      {"R1^R2^(R1 ++ (R2 ++ [e1==like:es|head==e1:es|p==obj(e1, R1.head):t]))",
       "[x==mary:e|head==x:e]",
       "R2^([x==mary : e|head==x : e] ++ (R2 ++ [e1==like : es|head==e1 : es|p==obj(e1, x) : t]))"},
      // Plain lambda terms of the older grammars.
      {"x^run(x)", "john", "run(john)"},
      {"y^x^like(x,y)", "mary", "x^like(x, mary)"},
  };
  for (const Case& c : cases) {
    FormulaPtr reduced = betaReduce(fo(c.function), fo(c.argument));
    ASSERT_TRUE(reduced) << c.function;
    EXPECT_EQ(reduced->text(), c.result) << c.function << " applied to " << c.argument;
  }
  EXPECT_FALSE(betaReduce(fo("[x : e]"), fo("[y : e]")));
}

TEST(DsRecordTypeTest, ConjoinsLinkedContentIntoFormulasAndFunctions) {
  // The tense of a LINKed tree, conjoined into the verb phrase's function, reaches the event
  // once the subject is applied.
  FreshCounters counters;
  FormulaPtr vp = fo("R1^(R1 ++ [e1==arrive:es|head==e1:es|p3==subj(e1, R1.head):t])");
  FormulaPtr tense = fo("[head:es|p2==pres(head):t]");
  FormulaPtr conjoined = conjoin(vp, tense);
  ASSERT_TRUE(conjoined->isLambda());
  FormulaPtr sentence = betaReduce(conjoined, fo("[x1==john:e|head==x1:e]"));
  EXPECT_TRUE(equalUpToRelabelling(
      sentence->recordType(),
      rt("[x1==john : e|e5==arrive : es|head==e5 : es|p2==pres(e5) : t|p3==subj(e5, x1) : t]")))
      << sentence->text();
  // Into a record type: the addition's fields first, the base winning on shared labels.
  EXPECT_EQ(conjoin(fo("[x==ann : e|head==x : e]"), fo("[head : e|p==q(head) : t]"))->text(),
            "[head==x : e|p==q(x) : t|x==ann : e]");
  EXPECT_EQ(conjoin(nullptr, fo("[x : e]"))->text(), "[x : e]");
}

TEST(DsRecordTypeTest, FreshensLabelsButNotHead) {
  FreshCounters counters;
  counters.entity = 4;
  FormulaPtr f = freshen(fo("R^[r:R|x1==(eps, r.head, r):e|head==x1:e]"), counters);
  EXPECT_EQ(f->text(), "R^[r1 : R|x5==(eps, r1.head, r1) : e|head==x5 : e]");
  // A counter value already used as a label in the record type is skipped.
  FreshCounters fresh;
  EXPECT_EQ(freshen(fo("[x1:e|x:e|head==x:e]"), fresh)->text(), "[x2 : e|x3 : e|head==x3 : e]");
  EXPECT_EQ(fresh.entity, 3);
}

TEST(DsRecordTypeTest, ReadsEveryChildesRecordTypeAndPrintsItBack) {
  for (const char* file : {"data/dylan/childes-eve/CHILDESconversion100TestFinal.txt",
                           "data/dylan/childes-eve/CHILDESconversion400Final.txt",
                           "data/dylan/childes-eve/CHILDESconversion800TestFinal.txt",
                           "data/dylan/childes-eve/CHILDESconversion3200TrainFinal.txt"}) {
    GWB_REQUIRE_SHARED(path, file);
    Diagnostics diagnostics;
    const std::vector<SemanticExample> examples = loadSemanticCorpus(path, diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << toString(diagnostics.items().front());
    EXPECT_GE(examples.size(), 100u) << path;
    for (const SemanticExample& e : examples) {
      const std::string text = e.semantics.toString();
      auto again = RecordType::parse(text);
      ASSERT_TRUE(again) << text;
      EXPECT_EQ(again->toString(), text);
      EXPECT_TRUE(equalUpToRelabelling(*again, e.semantics));
      EXPECT_TRUE(isSubtype(e.semantics, e.semantics.withoutHead()));
    }
  }
}

TEST(DsRecordTypeTest, ReadsSemanticCorpusItemsAndReportsBadOnes) {
  const std::string text =
      "Sent : you go\n"
      "Sem : [x==you : e|e1==go : es|p1==subj(e1, x) : t|head==e1 : es]\n"
      "File : 1\n"
      "\n"
      "Sent : broken\n"
      "Sem : [x==you : e|e1==go \n"
      "\n"
      "Sent : no semantics\n"
      "\n"
      "Something else\n"
      "END_OF_CORPUS\n"
      "statistics that are not items\n";
  Diagnostics diagnostics;
  const auto examples = parseSemanticCorpus(text, "c.txt", diagnostics);
  ASSERT_EQ(examples.size(), 1u);
  EXPECT_EQ(examples[0].sentence, "you go");
  EXPECT_EQ(examples[0].transcript, 1);
  ASSERT_EQ(diagnostics.size(), 3u);
  EXPECT_EQ(toString(diagnostics.items()[0]),
            "c.txt:6:7: error: expected ']' to close the record type opened here");
  EXPECT_EQ(diagnostics.items()[1].line, 8);
  EXPECT_EQ(diagnostics.items()[2].line, 10);
}

}  // namespace
}  // namespace gwb::ds
