// Fuzzes the gold topic annotation reader (gold.topic.ortho.yld).
#include "fuzz_input.h"
#include "gwb/grounded/social_corpus.h"
#include "gwb/grounded/topic_annotation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gwb::GoldAnnotationLoad load = gwb::readGoldAnnotation(gwb::fuzz::asText(data, size), "in");
  load.gold.topicLabelCount();
  load.gold.topicalWordCount();
  gwb::goldTopicLabels(load.gold);
  return 0;
}
