#include "gwb/common/diagnostic.h"

#include <gtest/gtest.h>

namespace gwb {
namespace {

TEST(DiagnosticTest, FormatsEveryKnownPart) {
  struct Case {
    Diagnostic diagnostic;
    std::string expected;
  };
  const Case cases[] = {
      {{Severity::Error, "g.grammar", 3, 7, "bad"}, "g.grammar:3:7: error: bad"},
      {{Severity::Warning, "g.grammar", 3, 0, "sum"}, "g.grammar:3: warning: sum"},
      {{Severity::Note, "g.grammar", 0, 0, "start"}, "g.grammar: note: start"},
      {{Severity::Error, "", 0, 0, "no file"}, "error: no file"},
  };
  for (const Case& c : cases) EXPECT_EQ(toString(c.diagnostic), c.expected);
}

TEST(DiagnosticTest, CountsBySeverity) {
  Diagnostics d;
  d.error("f", 1, 1, "e");
  d.warning("f", 2, 1, "w");
  d.warning("f", 3, 1, "w");
  d.note("f", 0, 0, "n");
  EXPECT_TRUE(d.hasErrors());
  EXPECT_EQ(d.errorCount(), 1);
  EXPECT_EQ(d.warningCount(), 2);
  EXPECT_EQ(d.size(), 4u);
  Diagnostics copy;
  copy.append(d);
  EXPECT_EQ(copy.errorCount(), 1);
  EXPECT_EQ(copy.items()[2].line, 3);
}

}  // namespace
}  // namespace gwb
