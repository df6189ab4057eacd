#include "synthetic_geography.h"

#include <cstddef>
#include <vector>

namespace gwb::testing {

SyntheticGeography syntheticGeography() {
  SyntheticGeography language;
  language.types = "((s e) (r e))";
  language.lang = "((state:t s t) (river:t r t) (next_to:t s s t) (loc:t r s t) (capital:c s e))";
  language.fixedLexicon =
      "texas :- NP : texas:s\nohio :- NP : ohio:s\nutah :- NP : utah:s\n"
      "iowa :- NP : iowa:s\n";
  const std::vector<std::string> states = {"texas", "ohio", "utah", "iowa"};
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string& s = states[i];
    const std::string pairs[3] = {
        "states bordering " + s + "\n(lambda $0 e (and (state:t $0) (next_to:t $0 " + s +
            ":s)))\n\n",
        "rivers in " + s + "\n(lambda $0 e (and (river:t $0) (loc:t $0 " + s + ":s)))\n\n",
        "the capital of " + s + "\n(capital:c " + s + ":s)\n\n"};
    for (std::size_t j = 0; j < 3; ++j) {
      ((i + j) % 4 == 3 ? language.test : language.train) += pairs[j];
    }
  }
  return language;
}

}  // namespace gwb::testing
