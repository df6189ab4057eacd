// Fuzzes the workbench's workspace file reader (gwb/common/workspace_file.h) and writes back what
// it read: a text that loads must write a text that reads back to the same workspace, and
// writing that again must give the same text (paths are normalised on the first read).
#include <string>

#include "fuzz_input.h"
#include "gwb/common/workspace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string base = "/fuzz/workspaces";
  const gwb::WorkspaceFileLoad load =
      gwb::readWorkspaceText(gwb::fuzz::asText(data, size), "in", base);
  if (!load.ok()) return 0;
  const std::string text = gwb::workspaceText(load.workspace, base);
  const gwb::WorkspaceFileLoad again = gwb::readWorkspaceText(text, "written", base);
  gwb::fuzz::requireInvariant(again.ok(), "a written workspace reads back without errors");
  gwb::fuzz::requireInvariant(again.workspace == load.workspace,
                              "a written workspace reads back to the same workspace");
  gwb::fuzz::requireInvariant(gwb::workspaceText(again.workspace, base) == text,
                              "writing a workspace read back gives the same text");
  return 0;
}
