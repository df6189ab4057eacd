// Fuzzes the social-cue corpus reader (socialall.ortho.yld and the per-recording .concat files).
#include "gwb/grounded/social_corpus.h"

#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gwb::SocialCorpusLoad load = gwb::readSocialCorpus(gwb::fuzz::asText(data, size), "in");
  // The derived views every consumer asks for next.
  load.corpus.topics();
  load.corpus.vocabulary();
  for (const gwb::SocialUtterance& u : load.corpus.utterances)
    gwb::socialTokens(u, load.corpus.cueOrder);
  return 0;
}
