#!/usr/bin/env bash
# Installs exactly the Debian packages Grammar Workbench needs to build, test and run.
# Idempotent: packages already installed are skipped; `apt-get update` runs only when
# something is missing. Run as root (or with sudo) on Debian 12.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git lld
  # core
  libeigen3-dev libboost-math-dev libcli11-dev nlohmann-json3-dev
  # ui
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev libgraphviz-dev
  # MPI scale-out (optional component GWB_WITH_MPI; mpirun for its tests)
  libopenmpi-dev openmpi-bin
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # fuzzing (scripts/fuzz.sh, CI): Clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # style checks (scripts/lint.sh, CI)
  clang-format clang-tidy
  # screenshots under a virtual X server
  xvfb xauth x11-apps fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
