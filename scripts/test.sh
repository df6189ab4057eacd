#!/usr/bin/env bash
# Installs what is needed (Debian packages), builds everything (Release, GUI on) and runs every
# test. This is the README's test command and the first step of CI.
#   bash scripts/test.sh            # build dir: build/ (or $GWB_BUILD_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
build="${GWB_BUILD_DIR:-build}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGWB_BUILD_GUI=ON -DGWB_BUILD_TESTS=ON
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1200
