// Fuzzes the corpus file reader of the workbench and the CLI (gwb/grounded/corpus_file.h): the
// kind is told from the content (plain sentences, social cues, gold topics), then that kind's
// reader runs; whatever comes back, every sentence holds at least one word.
#include "gwb/grounded/corpus_file.h"

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gwb::CorpusFileLoad load = gwb::readCorpusText(gwb::fuzz::asText(data, size), "in");
  for (const gwb::CorpusSentence& sentence : load.sentences) {
    gwb::fuzz::requireInvariant(!sentence.words.empty() && sentence.line >= 1,
                                "a sentence has words and a line");
  }
  return 0;
}
