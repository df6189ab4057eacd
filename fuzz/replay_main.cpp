// A main for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once on every file
// named on the command line or found (recursively) in a folder named there, then prints how
// many inputs ran. Exits 1 when there was no input at all, so that an empty or missing folder of
// regression inputs fails its test instead of passing without checking anything.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_input.h"

namespace {

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(path)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
  } else if (std::filesystem::is_regular_file(path)) {
    files.push_back(path);
  } else {
    std::cerr << "replay: no such file or folder: " << path.string() << '\n';
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t ran = 0;
  for (int i = 1; i < argc; ++i) {
    for (const std::filesystem::path& file : inputsOf(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the entry point takes bytes
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++ran;
    }
  }
  std::cout << "replay: ran " << ran << " input(s)\n";
  return ran > 0 ? 0 : 1;
}
