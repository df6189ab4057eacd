#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gwb/ds/max_mapping.h"
#include "gwb/ds/record_type.h"
#include "max_mapping_oracle.h"

namespace gwb::ds {
namespace {

RecordType rt(const std::string& text) {
  std::optional<RecordType> r = RecordType::parse(text);
  EXPECT_TRUE(r.has_value()) << text;
  return r.value_or(RecordType());
}

TEST(DsMaxMappingTest, HandMadePairs) {
  struct Case {
    const char* hypothesis;
    const char* gold;
    double score;
    double hypothesisSize;
    double goldSize;
  };
  const std::vector<Case> cases = {
      // Equal up to relabelling: every field scores 1; head is not counted.
      {"[x==john : e|head==x : e]", "[x5==john : e|head==x5 : e]", 1, 1, 1},
      {"[x1==you : e|e1==go : es|p1==subj(e1, x1) : t|head==e1 : es]",
       "[x==you : e|e2==go : es|p==subj(e2, x) : t|head==e2 : es]", 3, 3, 3},
      // A wrong atom loses the value part: 1 of 2.
      {"[x==mary : e]", "[x==john : e]", 0.5, 1, 1},
      // An unmanifest hypothesis field gets the type of a manifest gold field only.
      {"[x : e]", "[x==john : e]", 0.5, 1, 1},
      // ... and a manifest one gets all of an unmanifest gold field.
      {"[x==john : e]", "[x : e]", 1, 1, 1},
      // Predicate with a wrong argument: type, functor, one of two arguments = 3 of 4.
      {"[x==a : e|y==b : e|e1==go : es|p==subj(e1, x) : t]",
       "[x==a : e|y==b : e|e1==go : es|p==subj(e1, y) : t]", 3.75, 4, 4},
      // Arity differs: type and functor only (2 of 3 on the gold side).
      {"[e1==go : es|p==on(e1) : t]", "[e1==go : es|p==on(e1, e1) : t]", 1 + 2.0 / 4, 2, 2},
      // Restrictors: 1 + the nested maxMapping (its head not counted); the path r.head follows
      // the pairing of r.
      {"[r : [x : e|p==milk(x) : t|head==x : e]|x2==your(r.head, r) : e]",
       "[r1 : [x3 : e|p7==milk(x3) : t|head==x3 : e]|x==your(r1.head, r1) : e]", 4, 4, 4},
      // Nothing in common but the DS type.
      {"[e1 : es]", "[x==john : e]", 0, 1, 1},
      {"[]", "[x==john : e|head==x : e]", 0, 0, 1},
  };
  for (const Case& c : cases) {
    const MaxMappingResult r = maxMapping(rt(c.hypothesis), rt(c.gold));
    EXPECT_NEAR(r.score, c.score, 1e-9) << c.hypothesis << " vs " << c.gold;
    EXPECT_EQ(r.hypothesisSize, c.hypothesisSize) << c.hypothesis;
    EXPECT_EQ(r.goldSize, c.goldSize) << c.gold;
    EXPECT_NEAR(r.score, testing::bruteForceMaxMapping(c.hypothesis, c.gold), 1e-9)
        << c.hypothesis << " vs " << c.gold;
    EXPECT_EQ(r.hypothesisSize, testing::bruteForceRecordSize(c.hypothesis));
  }
}

TEST(DsMaxMappingTest, ReportsTheBestPairs) {
  const MaxMappingResult r = maxMapping(rt("[x1==you : e|e1==go : es|p1==subj(e1, x1) : t]"),
                                        rt("[e9==go : es|x==you : e|p==subj(e9, x) : t]"));
  ASSERT_EQ(r.pairs.size(), 3u);
  EXPECT_EQ(std::get<0>(r.pairs[0]), "x1");
  EXPECT_EQ(std::get<1>(r.pairs[0]), "x");
  EXPECT_EQ(std::get<1>(r.pairs[1]), "e9");
  EXPECT_EQ(std::get<1>(r.pairs[2]), "p");
  EXPECT_DOUBLE_EQ(r.precision(), 1.0);
  EXPECT_DOUBLE_EQ(r.f(), 1.0);
}

// Random small record types over a shared vocabulary, so that many pairings compete.
std::string randomRecord(std::mt19937& rng, int depth) {
  const std::vector<std::string> entities = {"x", "x1", "x2"};
  const std::vector<std::string> events = {"e", "e1"};
  const std::vector<std::string> props = {"p", "p1", "p2"};
  const std::vector<std::string> atoms = {"john", "mary", "you", "go", "eq"};
  const std::vector<std::string> predicates = {"subj", "obj", "on", "milk"};
  auto pick = [&](const std::vector<std::string>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
  };
  std::vector<std::string> labels;
  std::vector<std::string> fields;
  const int n = std::uniform_int_distribution<int>(0, 5)(rng);
  for (int i = 0; i < n; ++i) {
    const int kind = std::uniform_int_distribution<int>(0, depth == 0 ? 3 : 2)(rng);
    std::string label;
    std::string field;
    if (kind == 3) {
      label = "r";
      if (std::find(labels.begin(), labels.end(), label) != labels.end()) continue;
      field = "r : " + randomRecord(rng, depth + 1);
    } else {
      label = pick(kind == 0 ? entities : kind == 1 ? events : props);
      if (std::find(labels.begin(), labels.end(), label) != labels.end()) continue;
      const std::string type = kind == 0 ? "e" : kind == 1 ? "es" : "t";
      std::string value;
      const int v = std::uniform_int_distribution<int>(0, 2)(rng);
      if (v == 1 && kind != 2) value = pick(atoms);
      if (v >= 1 && kind == 2) {
        std::vector<std::string> args;
        const int arity = std::uniform_int_distribution<int>(1, 2)(rng);
        for (int a = 0; a < arity; ++a)
          args.push_back(
              labels.empty()
                  ? pick(atoms)
                  : labels[std::uniform_int_distribution<std::size_t>(0, labels.size() - 1)(rng)]);
        value = pick(predicates) + "(" + args[0] + (arity == 2 ? ", " + args[1] : "") + ")";
      }
      if (v == 2 && kind == 0 && std::find(labels.begin(), labels.end(), "r") != labels.end())
        value = "your(r.head, r)";
      field = label + (value.empty() ? "" : "==" + value) + " : " + type;
    }
    labels.push_back(label);
    fields.push_back(field);
  }
  if (!labels.empty() && labels.front() != "r") {
    const std::string& l = labels.front();
    const std::string type = l[0] == 'x' ? "e" : l[0] == 'e' ? "es" : "t";
    fields.push_back("head==" + l + " : " + type);
  }
  std::string out = "[";
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i > 0 ? "|" : "") + fields[i];
  return out + "]";
}

TEST(DsMaxMappingTest, AgreesWithTheBruteForceOracleOnRandomPairs) {
  std::mt19937 rng(20130817);
  for (int trial = 0; trial < 400; ++trial) {
    const std::string h = randomRecord(rng, 0);
    const std::string g = randomRecord(rng, 0);
    const std::optional<RecordType> hr = RecordType::parse(h);
    const std::optional<RecordType> gr = RecordType::parse(g);
    ASSERT_TRUE(hr && gr) << h << " / " << g;
    // The oracle reads the texts as written; core's canonical text must be the same.
    ASSERT_EQ(hr->toString(), h);
    ASSERT_EQ(gr->toString(), g);
    const MaxMappingResult r = maxMapping(*hr, *gr);
    EXPECT_NEAR(r.score, testing::bruteForceMaxMapping(h, g), 1e-9) << h << " vs " << g;
    EXPECT_EQ(r.hypothesisSize, testing::bruteForceRecordSize(h)) << h;
    EXPECT_LE(r.score, std::min(r.hypothesisSize, r.goldSize) + 1e-9);
  }
}

// The alignment lists every field of both sides with the pairs of the best mapping.
TEST(DsMaxMappingTest, AlignsFieldsByTheBestMapping) {
  const RecordType h =
      rt("[x5==you : e|e2==run : es|p==subj(e2, x5) : t|q==fast(e2) : t|head==e2 : es]");
  const RecordType g =
      rt("[x==you : e|e1==go : es|p1==subj(e1, x) : t|r : [y : e|head==y : e]|head==e1 : es]");
  const MaxMappingResult m = maxMapping(h, g);
  const FieldAlignment a = alignFields(h, g, m);
  auto show = [](const std::vector<AlignedField>& side) {
    std::string out;
    for (const AlignedField& f : side)
      out += f.label + ":" + fieldMatchName(f.match) + (f.partner.empty() ? "" : ">" + f.partner) +
             " ";
    return out;
  };
  EXPECT_EQ(show(a.hypothesis), "x5:matched>x e2:partial>e1 p:matched>p1 q:extra ");
  EXPECT_EQ(show(a.gold), "x:matched>x5 e1:partial>e2 p1:matched>p r:missing r.y:missing ");
  // Every pair of the mapping shows on both sides, with its score.
  double total = 0;
  for (const AlignedField& f : a.hypothesis) total += f.score;
  EXPECT_DOUBLE_EQ(total, m.score);
  ASSERT_EQ(a.hypothesis.size(), 4u);
  EXPECT_EQ(a.hypothesis[3].text, "q==fast(e2) : t");
  EXPECT_DOUBLE_EQ(a.hypothesis[1].score, 0.5);  // the type right, the value wrong
}

}  // namespace
}  // namespace gwb::ds
