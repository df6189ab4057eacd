#include "gwb/grounded/topic_annotation.h"

#include <gtest/gtest.h>

#include "gwb/grounded/social_corpus.h"

namespace gwb {
namespace {

std::string firstDiagnostic(const Diagnostics& diagnostics) {
  return diagnostics.empty() ? std::string() : toString(diagnostics.items().front());
}

TEST(TopicAnnotationTest, ReadsOneColumnPerAnnotator) {
  const TopicAnnotationsLoad load = readTopicAnnotations(
      "# annotators: h1 h2\n# a comment\ncar\tcar\nnone .car\n?\tNA\n##\t-\n", "a.tsv");
  ASSERT_TRUE(load.ok()) << firstDiagnostic(load.diagnostics);
  const TopicAnnotations& a = load.annotations;
  EXPECT_EQ(a.annotators, (std::vector<std::string>{"h1", "h2"}));
  ASSERT_EQ(a.utteranceCount(), 4u);
  using Labels = std::vector<std::optional<std::string>>;
  EXPECT_EQ(a.labels[0], (Labels{"car", kNullTopic, std::nullopt, kNullTopic}));
  EXPECT_EQ(a.labels[1], (Labels{"car", "car", std::nullopt, kNullTopic}));
  EXPECT_EQ(a.lines, (std::vector<int>{3, 4, 5, 6}));
  EXPECT_EQ(a.annotatorIndex("h2"), std::optional<std::size_t>(1));
  EXPECT_EQ(a.annotatorIndex("2"), std::optional<std::size_t>(1));
  EXPECT_EQ(a.annotatorIndex("3"), std::nullopt);
  EXPECT_EQ(a.annotatorIndex("h3"), std::nullopt);
  EXPECT_EQ(topicAnnotationsText(a),
            "# annotators: h1 h2\ncar\tcar\nNone\tcar\n?\t?\nNone\tNone\n");
}

TEST(TopicAnnotationTest, UnnamedColumnsAreNumbered) {
  const TopicAnnotationsLoad load = readTopicAnnotations("dog\npig\r\n", "a");
  ASSERT_TRUE(load.ok());
  EXPECT_EQ(load.annotations.annotators, std::vector<std::string>{"1"});
  EXPECT_EQ(topicAnnotationsText(load.annotations), "dog\npig\n");
}

// Found by fuzz_topic_annotations: an indented "# ..." line was read as labels, the first one
// "#", which topicAnnotationsText then wrote at the start of a line, as a comment.
TEST(TopicAnnotationTest, AnIndentedHashLineIsACommentAndLabelsWriteBackAlike) {
  const TopicAnnotationsLoad load = readTopicAnnotations("car dog\n  # car dog\n\t##\tpig\n", "a");
  ASSERT_TRUE(load.ok()) << firstDiagnostic(load.diagnostics);
  EXPECT_EQ(load.annotations.lines, (std::vector<int>{1, 3}));
  const TopicAnnotationsLoad again =
      readTopicAnnotations(topicAnnotationsText(load.annotations), "b");
  ASSERT_TRUE(again.ok()) << firstDiagnostic(again.diagnostics);
  EXPECT_EQ(again.annotations.labels, load.annotations.labels);
}

// Found by fuzz_topic_annotations: topics the reader would change ("..x" loses a dot, ".NA" is a
// topic named NA, a first "#x" is a comment) are written with a leading dot, so that they read
// back as they were.
TEST(TopicAnnotationTest, TopicsThatLookLikeMarkersWriteBackAlike) {
  const TopicAnnotationsLoad load = readTopicAnnotations(".#x ..dog .NA .? .- .none ##\n", "a");
  ASSERT_TRUE(load.ok()) << firstDiagnostic(load.diagnostics);
  const std::string written = topicAnnotationsText(load.annotations);
  EXPECT_EQ(written, "# annotators: 1 2 3 4 5 6 7\n.#x\t..dog\t.NA\t.?\t.-\t.none\tNone\n");
  const TopicAnnotationsLoad again = readTopicAnnotations(written, "b");
  ASSERT_TRUE(again.ok()) << firstDiagnostic(again.diagnostics);
  EXPECT_EQ(again.annotations.labels, load.annotations.labels);
  // A topic that is a byte-order mark, first in the text, would be dropped as one.
  const TopicAnnotationsLoad bom = readTopicAnnotations("\xEF\xBB\xBF  \xEF\xBB\xBF\n", "c");
  ASSERT_TRUE(bom.ok()) << firstDiagnostic(bom.diagnostics);
  const TopicAnnotationsLoad bomAgain =
      readTopicAnnotations(topicAnnotationsText(bom.annotations), "d");
  ASSERT_TRUE(bomAgain.ok()) << firstDiagnostic(bomAgain.diagnostics);
  EXPECT_EQ(bomAgain.annotations.labels, bom.annotations.labels);
}

TEST(TopicAnnotationTest, ErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"car car\ncar\n", "a.tsv:2: error: expected 2 label(s), one per annotator, found 1"},
      {"car\n\ncar\n", "a.tsv:2: error: expected 1 label(s), one per annotator, found 0"},
      {"\ncar\n", "a.tsv:1: error: empty line: expected one topic label per annotator"},
      {"# annotators: a b c\ncar car\n",
       "a.tsv:1: error: the header names 3 annotator(s) but the lines have 2 column(s)"},
      {"car\n# annotators: a\n",
       "a.tsv:2:1: error: the annotators header must come before the first label"},
      {"# only a comment\n", "a.tsv: error: no topic labels"},
  };
  for (const Case& c : cases) {
    const TopicAnnotationsLoad load = readTopicAnnotations(c.text, "a.tsv");
    EXPECT_EQ(firstDiagnostic(load.diagnostics), c.expected) << c.text;
  }
}

TEST(TopicAnnotationTest, GoldTopicsBecomeLabels) {
  const GoldAnnotationLoad gold = readGoldAnnotation(".dog ## a\n## b\n.dog .pig ## c\n", "g");
  ASSERT_TRUE(gold.ok());
  EXPECT_EQ(goldTopicLabels(gold.gold),
            (std::vector<std::optional<std::string>>{"dog", kNullTopic, "dog+pig"}));
}

}  // namespace
}  // namespace gwb
