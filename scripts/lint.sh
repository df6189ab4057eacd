#!/usr/bin/env bash
# The house style, checked (CONTRIBUTING.md, "Formatting and linting"):
#
#   scripts/lint.sh format             every C++ file in core/ ui/ app/ tests/ bench/ fuzz/ is as
#                                      clang-format writes it (no file is changed); lists the
#                                      ones that are not. A few seconds.
#   scripts/lint.sh tidy [BUILD_DIR]   clang-tidy (.clang-tidy's checks, every warning an error)
#                                      on the C++ files this change touches: those that differ
#                                      from the merge base with origin/main, or from HEAD~1 when
#                                      there is no origin/main or HEAD is on it. A touched header
#                                      is checked through the source file of the same name, and
#                                      only touched headers are reported on. BUILD_DIR (default
#                                      build) must hold a compile_commands.json.
#
# GWB_TIDY_BASE=REV compares with REV instead; GWB_TIDY_MAX_FILES=N checks at most N files. clang-tidy takes about 15 s of CPU a file (the Qt
# headers), so linting all ~250 files would take half an hour on two cores; a change's files
# take a minute or two.
set -euo pipefail
cd "$(dirname "$0")/.."

cxx_files() {
  git ls-files -- "$@" | grep -E '\.(cpp|h)$' || true
}

check_format() {
  local bad=()
  local file
  while IFS= read -r file; do
    if ! clang-format --dry-run --Werror "$file" > /dev/null 2>&1; then bad+=("$file"); fi
  done < <(cxx_files core ui app tests bench fuzz)
  if [ ${#bad[@]} -gt 0 ]; then
    printf 'not clang-formatted (run clang-format -i on it):\n'
    printf '  %s\n' "${bad[@]}"
    return 1
  fi
  echo "clang-format: every C++ file is formatted"
}

changed_base() {
  if [ -n "${GWB_TIDY_BASE:-}" ]; then echo "$GWB_TIDY_BASE"; return; fi
  local head base=""
  head=$(git rev-parse HEAD)
  if git rev-parse -q --verify origin/main > /dev/null; then
    base=$(git merge-base HEAD origin/main || true)
  fi
  if [ -z "$base" ] || [ "$base" = "$head" ]; then
    base=$(git rev-parse -q --verify HEAD~1 || true)
  fi
  echo "$base"
}

check_tidy() {
  local build=${1:-build}
  local database="$build/compile_commands.json"
  if [ ! -f "$database" ]; then
    echo "clang-tidy: $database not found; configure a build first" >&2
    return 1
  fi
  local base
  base=$(changed_base)
  if [ -z "$base" ]; then
    echo "clang-tidy: no commit to compare with (a shallow clone?); set GWB_TIDY_BASE" >&2
    return 1
  fi
  local changed
  changed=$(git diff --name-only --diff-filter=d "$base" -- core ui app tests bench fuzz |
    grep -E '\.(cpp|h)$' || true)
  if [ -z "$changed" ]; then
    echo "clang-tidy: no C++ file changed since $(git rev-parse --short "$base")"
    return 0
  fi
  # The translation units: the changed sources, and for each changed header the source of the
  # same name; only those the compile database knows (fuzz/ is not in a normal build).
  local units=() headers=() file stem unit
  while IFS= read -r file; do
    case "$file" in
      *.cpp) units+=("$file") ;;
      *.h)
        headers+=("$file")
        stem=$(basename "$file" .h)
        while IFS= read -r unit; do units+=("$unit"); done < <(cxx_files "*/$stem.cpp")
        ;;
    esac
  done <<< "$changed"
  local known=()
  for unit in $(printf '%s\n' "${units[@]}" | sort -u); do
    if grep -q "\"file\": \".*/$unit\"" "$database"; then known+=("$unit"); fi
  done
  # Report on the changed headers only: a warning in an untouched header is not this change's.
  local filter='^$'
  if [ ${#headers[@]} -gt 0 ]; then
    filter="($(printf '%s\n' "${headers[@]}" | sed 's/[.]/[.]/g' | paste -sd '|'))\$"
  fi
  if [ ${#known[@]} -eq 0 ]; then
    echo "clang-tidy: none of the changed files is in $database"
    return 0
  fi
  echo "clang-tidy: ${#known[@]} file(s) changed since $(git rev-parse --short "$base")"
  # GWB_TIDY_MAX_FILES bounds the time (about 15 s of CPU a file): only the first N are checked.
  local max=${GWB_TIDY_MAX_FILES:-0}
  if [ "$max" -gt 0 ] && [ ${#known[@]} -gt "$max" ]; then
    echo "clang-tidy: checking the first $max of them (GWB_TIDY_MAX_FILES)"
    known=("${known[@]:0:$max}")
  fi
  local log status=0 tidyDb
  log=$(mktemp)
  # The database without the precompiled header (GWB_PRECOMPILE_HEADERS): Clang cannot read
  # GCC's .gch, and each file should include what it uses anyway.
  tidyDb=$(mktemp -d)
  sed -E 's# -Winvalid-pch##g; s# -include [^ ]*/cmake_pch\.hxx##g' "$database" > "$tidyDb/compile_commands.json"
  printf '%s\n' "${known[@]}" |
    xargs -P "$(nproc)" -n 1 clang-tidy -p "$tidyDb" --quiet --warnings-as-errors='*' \
      --header-filter="$filter" > "$log" 2>&1 || status=$?
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' "$log" || true
  rm -rf "$log" "$tidyDb"
  if [ "$status" -ne 0 ]; then
    echo "clang-tidy: warnings in the changed files (see above)"
    return 1
  fi
  echo "clang-tidy: the changed files are clean"
}

case "${1:-}" in
  format) check_format ;;
  tidy) check_tidy "${2:-build}" ;;
  *)
    echo "usage: $0 format | tidy [BUILD_DIR]" >&2
    exit 2
    ;;
esac
