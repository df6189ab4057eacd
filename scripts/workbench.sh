#!/usr/bin/env bash
# Installs what is needed (Debian packages), builds the workbench (Release) and opens it on the
# bundled teaching sample. Extra arguments go to grammar-workbench instead of the sample.
#   bash scripts/workbench.sh [FILE...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
build="${GWB_BUILD_DIR:-build}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGWB_BUILD_GUI=ON
cmake --build "$build" --parallel "$(nproc)" --target grammar-workbench gwb
if [ $# -eq 0 ]; then set -- samples/pp-attachment.cfg; fi
exec "$build/app/gui/grammar-workbench" "$@"
