#!/usr/bin/env bash
# Renders the workbench window to a PNG on a virtual X server, for docs and visual checks.
#
#   scripts/screenshot.sh OUT.png [arguments for grammar-workbench...]
#
# e.g. scripts/screenshot.sh docs/screenshots/main-window.png samples/pp-attachment.cfg
# The GUI is taken from $GWB_BUILD_DIR (default ./build); needs xvfb-run (package xvfb).
set -euo pipefail

if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
  echo "usage: $0 OUT.png [grammar-workbench arguments...]" >&2
  exit 2
fi

out=$1
shift
build_dir=${GWB_BUILD_DIR:-build}
gui="$build_dir/app/gui/grammar-workbench"
if [[ ! -x "$gui" ]]; then
  echo "$0: $gui not found; build it first or set GWB_BUILD_DIR" >&2
  exit 1
fi
if ! command -v xvfb-run >/dev/null; then
  echo "$0: xvfb-run not found (install the xvfb package)" >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
# Force the X11 platform: an inherited QT_QPA_PLATFORM=offscreen would render without a
# window manager's real fonts/theme setup and defeat the point of looking at it.
# GWB_SCREENSHOT_SIZE=1600x1000 takes it at another size.
size=${GWB_SCREENSHOT_SIZE:-1280x800}
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 ${size}x24" \
  "$gui" --screenshot "$out" --screenshot-size "$size" "$@"
echo "wrote $out"
