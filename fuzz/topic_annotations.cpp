// Fuzzes the topic annotation reader (one label per utterance and annotator) and writes back
// what it read: a text that loads without errors must read back from its written form alike.
#include "fuzz_input.h"
#include "gwb/grounded/topic_annotation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gwb::TopicAnnotationsLoad load =
      gwb::readTopicAnnotations(gwb::fuzz::asText(data, size), "in");
  if (!load.ok()) return 0;
  const gwb::TopicAnnotationsLoad again =
      gwb::readTopicAnnotations(gwb::topicAnnotationsText(load.annotations), "written");
  gwb::fuzz::requireInvariant(again.ok(), "written topic annotations read back without errors");
  gwb::fuzz::requireInvariant(again.annotations.labels == load.annotations.labels,
                              "written topic annotations read back to the same labels");
  return 0;
}
