// sharedDataFolder: a folder of the project's shared data (../shared beside the clone: corpora,
// grammars, GeoQuery; see CONTRIBUTING.md) that a view offers by default — the DS stepper's
// DyLan grammar, the CCG tab's GeoQuery types.
//
// The candidates, in order: $GWB_SHARED_DIR/RELATIVE; ../shared/RELATIVE beside the source tree
// the workbench was built from; ../shared/RELATIVE three folders above the program (a build
// folder inside a clone). The first that holds MARKER (a file the folder must have) is returned,
// cleaned; none: an empty string, and the view goes without.
#pragma once

#include <QString>

namespace gwb::ui {

QString sharedDataFolder(const QString& relative, const QString& marker);

}  // namespace gwb::ui
