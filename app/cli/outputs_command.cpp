// `gwb outputs verify MANIFEST`: is a set of output files whole? (atomic_file.h: the manifest
// is written last, with each file's size and hash, by parse --out, induce --out and
// experiment social --out.)
#include <iostream>
#include <memory>

#include "commands.h"
#include "gwb/common/atomic_file.h"

namespace gwb::cli {

void addOutputsCommand(CLI::App& app, int& exitStatus) {
  CLI::App* outputs = app.add_subcommand("outputs", "check the files a run wrote");
  outputs->require_subcommand(1);
  auto manifest = std::make_shared<std::string>();
  CLI::App* verify = outputs->add_subcommand(
      "verify",
      "exit 0 when every file the manifest lists has its recorded size and hash (a whole set "
      "from one run); else name the file and exit 1");
  verify->add_option("manifest", *manifest, "PREFIX.manifest or FOLDER/manifest")->required();
  verify->callback([manifest, &exitStatus] {
    std::string error;
    if (!verifyOutputSet(*manifest, &error)) {
      std::cerr << "gwb: " << error << '\n';
      exitStatus = 1;
      return;
    }
    std::cout << *manifest << ": whole\n";
    exitStatus = 0;
  });
}

}  // namespace gwb::cli
