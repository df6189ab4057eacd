// Fuzzes the CCG type-system reader (gwb/ccg/lambda_type.h: geo-lambda.types and
// geo-lambda.lang, `--types` and `--lang`), the type reader and the category reader
// (gwb/ccg/category.h). The input is a types text and a lang text separated by a line "%%"
// (all of it is the types text without one). A type or category read prints to a text that
// reads back to the same print; a type system read answers its questions on every type it named.
#include <string>
#include <string_view>

#include "fuzz_input.h"
#include "gwb/ccg/category.h"
#include "gwb/ccg/lambda_type.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gwb::ccg;
  const std::string_view text = gwb::fuzz::asText(data, size);
  const std::size_t separator = text.find("\n%%\n");
  const std::string_view typesText = text.substr(0, separator);
  const std::string_view langText =
      separator == std::string_view::npos ? std::string_view() : text.substr(separator + 4);
  const TypeSystemLoad load = readTypeSystem(typesText, "types", langText, "lang");
  if (!load.diagnostics.hasErrors()) {
    const TypePtr types[] = {load.types.entityType(), load.types.truthType(),
                             load.types.numberType()};
    for (const TypePtr& a : types) {
      for (const TypePtr& b : types) load.types.isSubtype(a, b);
    }
  }
  std::string error;
  if (const TypePtr type = parseType(text, &error)) {
    const std::string printed = toString(type);
    const TypePtr again = parseType(printed, &error);
    gwb::fuzz::requireInvariant(again && toString(again) == printed,
                                "a printed type reads back to itself");
  }
  if (const Category category = parseCategory(text, &error)) {
    const std::string printed = toString(category);
    const Category again = parseCategory(printed, &error);
    gwb::fuzz::requireInvariant(again && toString(again) == printed,
                                "a printed category reads back to itself");
  }
  return 0;
}
