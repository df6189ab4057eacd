#include "gwb/earley/induction_options.h"

namespace gwb {

const char* inductionMethodName(InductionMethod method) {
  return method == InductionMethod::Em ? "em" : "vb";
}

std::optional<InductionMethod> parseInductionMethod(std::string_view name) {
  if (name == "em") return InductionMethod::Em;
  if (name == "vb") return InductionMethod::Vb;
  return std::nullopt;
}

InductionOptions InductionOptions::earleyx(InductionMethod method) {
  InductionOptions options;
  options.method = method;
  options.tolerance = 1e-7;
  options.defaultPrior = 1.0;
  options.specialFunctions = SpecialFunctions::Earleyx;
  options.unobservedRules = UnobservedRules::Keep;
  options.vbObjective = VbObjective::Earleyx;
  return options;
}

}  // namespace gwb
