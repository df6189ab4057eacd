#include "geo_workload.h"

#include <fstream>
#include <set>
#include <utility>

namespace gwb::testing {

namespace {

using namespace gwb::ccg;

const char* const kTemplates[] = {
    "template -0.1 S|NP : (lambda $0 e (#0 $0))",
    "template -0.2 (S|NP)/(S|NP) : (lambda $0 <e,t> (lambda $1 e (and (#0 $1) ($0 $1))))",
    "template -0.2 (S|NP)\\(S|NP) : (lambda $0 <e,t> (lambda $1 e (and ($0 $1) (#0 $1))))",
    "template -0.2 (S|NP)/NP : (lambda $0 e (lambda $1 e (#0 $1 $0)))",
    "template -0.2 (S|NP)\\NP : (lambda $0 e (lambda $1 e (#0 $0 $1)))",
    "template -0.3 ((S|NP)\\(S|NP))/NP : (lambda $0 e (lambda $1 <e,t> (lambda $2 e (and ($1 $2) "
    "(#0 $2 $0)))))",
    "template -0.1 NP/NP : (lambda $0 e (#0 $0))",
    "template -0.1 S/(S|NP) : (lambda $0 <e,t> $0)",
    "template -0.1 NP/NP : (lambda $0 e $0)",
    "template -0.1 S/NP : (lambda $0 e $0)",
};

enum File { Types, Lang, Fixed, Giza, Test };

std::vector<std::string> splitOn(const std::string& line, const std::string& separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t pos = line.find(separator, start); pos != std::string::npos;
       pos = line.find(separator, start)) {
    out.push_back(line.substr(start, pos - start));
    start = pos + separator.size();
  }
  out.push_back(line.substr(start));
  return out;
}

std::string firstError(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) return toString(d);
  }
  return {};
}

}  // namespace

const std::vector<std::string>& geoWorkloadFiles() {
  static const std::vector<std::string> files = {
      "data/geoquery/geo-lambda.types", "data/geoquery/geo-lambda.lang",
      "data/geoquery/np-fixedlex.geo", "data/geoquery/geo600.dev.giza_probs",
      "data/geoquery/geosents280-typed.ccg.test"};
  return files;
}

std::optional<GeoWorkload> loadGeoWorkload(const std::string& sharedDir, std::string* error) {
  std::vector<std::string> paths;
  for (const std::string& file : geoWorkloadFiles()) paths.push_back(sharedDir + "/" + file);
  const auto fail = [error](const std::string& why) {
    if (error != nullptr) *error = why;
    return std::nullopt;
  };
  TypeSystemLoad types = loadTypeSystem(paths[Types], paths[Lang]);
  if (types.diagnostics.hasErrors()) return fail(firstError(types.diagnostics));
  LexiconLoad fixed = loadFixedLexicon(paths[Fixed]);
  if (fixed.diagnostics.hasErrors()) return fail(firstError(fixed.diagnostics));
  SemanticExamplesLoad test = loadSemanticExamples(paths[Test]);
  if (test.diagnostics.hasErrors()) return fail(firstError(test.diagnostics));
  std::ifstream giza(paths[Giza]);
  if (!giza) return fail(paths[Giza] + ": cannot be read");

  GeoWorkload workload;
  workload.types = std::move(types.types);
  workload.lexicon = std::move(fixed.lexicon);
  workload.test = std::move(test.examples);
  std::string templates;
  for (const char* line : kTemplates) templates += std::string(line) + "\n";
  mergeLexicon(&workload.lexicon, readFactoredLexicon(templates, "templates").lexicon);
  for (std::string line; std::getline(giza, line);) {
    const std::vector<std::string> fields = splitOn(line, "  ::  ");
    if (fields.size() != 3 || fields[1] == "null") continue;
    const double score = std::stod(fields[2]);
    if (score < 0.02 || fields[0].find(':') == std::string::npos) continue;
    const int index = workload.lexicon.addLexeme({{fields[1]}, {fields[0]}});
    workload.lexicon.setWeight(lexemeFeature(workload.lexicon.lexemes()[index]), 10 * score);
  }
  std::set<std::string> words;
  for (const SemanticExample& example : workload.test) {
    words.insert(example.words.begin(), example.words.end());
  }
  for (const std::string& word : words) workload.lexicon.addLexeme({{word}, {}});
  workload.entries = workload.lexicon.buildEntries(&workload.types);
  return workload;
}

}  // namespace gwb::testing
