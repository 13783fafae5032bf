#!/usr/bin/env bash
# Step of the GitHub Action (action.yml) that runs the harness: builds the wfcheck command line from
# the inputs, runs it in the working directory and records its exit code as the step output
# `exit-code`. The step itself succeeds whatever the verdict, so that the verdict, the history and the
# reports are still written and uploaded by the steps after it; the action's last step ends with the
# harness's exit code.
#
# The keys reach the harness only as BASE_URL / API_KEY / API_KEY_B in its environment; this script
# never prints them, and nothing here is passed through eval.
set -uo pipefail

: "${GITHUB_OUTPUT:?}" "${GITHUB_ACTION_PATH:?}" "${INPUT_MODE:?}" "${INPUT_WORK_DIR:?}" "${INPUT_REPORT_DIR:?}"
cd "$INPUT_WORK_DIR" || exit 1

# An empty base URL means the reference target, which the harness boots when BASE_URL is unset.
for name in BASE_URL API_KEY API_KEY_B; do
  [ -n "${!name:-}" ] || unset "$name"
done

extra=()
# Extra arguments are split on whitespace (newlines too), never evaluated (no quotes, no expansions).
[ -n "${INPUT_ARGS:-}" ] && read -r -d '' -a extra <<<"$INPUT_ARGS"

case "$INPUT_MODE" in
conformance)
  argv=(conformance --out "$INPUT_REPORT_DIR")
  [ -n "${INPUT_NAME:-}" ] && argv+=(--name "$INPUT_NAME")
  [ -n "${INPUT_TARGET_VERSION:-}" ] && argv+=(--target-version "$INPUT_TARGET_VERSION")
  [ -n "${INPUT_SHARD:-}" ] && argv+=(--shard "$INPUT_SHARD")
  [ -n "${INPUT_WAIVERS:-}" ] && argv+=(--waivers "$INPUT_WAIVERS")
  [ "${INPUT_STRICT:-}" = true ] && argv+=(--strict)
  ;;
load)
  # No profile: the harness runs its default one.
  argv=(load)
  [ -n "${INPUT_PROFILE:-}" ] && argv+=(--profile "$INPUT_PROFILE")
  argv+=(--out "$INPUT_REPORT_DIR")
  ;;
explore)
  # Seed and budget were checked by prepare.mjs; without a seed the harness picks one and reports it.
  argv=(explore --out "$INPUT_REPORT_DIR")
  [ -n "${INPUT_NAME:-}" ] && argv+=(--name "$INPUT_NAME")
  [ -n "${INPUT_TARGET_VERSION:-}" ] && argv+=(--target-version "$INPUT_TARGET_VERSION")
  [ -n "${INPUT_SEED:-}" ] && argv+=(--seed "$INPUT_SEED")
  [ -n "${INPUT_BUDGET_S:-}" ] && argv+=(--budget-s "$INPUT_BUDGET_S")
  ;;
merge)
  # Shard directories: whitespace-separated paths or glob patterns, relative to the working directory.
  shopt -s nullglob
  dirs=()
  read -r -d '' -a patterns <<<"$INPUT_SHARDS"
  for pattern in "${patterns[@]}"; do
    for dir in $pattern; do [ -d "$dir" ] && dirs+=("$dir"); done
  done
  shopt -u nullglob
  if [ "${#dirs[@]}" -eq 0 ]; then
    echo "::error title=wfcheck action::no shard directory matches: $INPUT_SHARDS"
    echo "exit-code=2" >>"$GITHUB_OUTPUT"
    exit 0
  fi
  argv=(report merge "${dirs[@]}" --out "$INPUT_REPORT_DIR")
  ;;
matrix)
  # Reports made tonight (report.json files, or the directories holding them; paths or globs) are
  # recorded in the cached history first, each under the name its run was given; then the site is
  # built from the whole history. A file that is not a report is refused and fails the step, after the
  # site is built from what the history holds.
  shopt -s nullglob
  files=()
  if [ -n "${INPUT_REPORTS:-}" ]; then
    read -r -d '' -a patterns <<<"$INPUT_REPORTS"
    for pattern in "${patterns[@]}"; do
      for path in $pattern; do
        if [ -d "$path" ]; then [ -f "$path/report.json" ] && files+=("$path/report.json"); else files+=("$path"); fi
      done
    done
    [ "${#files[@]}" -eq 0 ] && echo "::warning title=wfcheck action::no report matches: $INPUT_REPORTS"
  fi
  shopt -u nullglob
  imported=0
  for file in "${files[@]}"; do
    echo "wfcheck history import $file"
    node "$GITHUB_ACTION_PATH/bin/wfcheck.mjs" history import "$file" || imported=2
  done
  argv=(matrix --out "$INPUT_REPORT_DIR")
  ;;
*)
  echo "::error title=wfcheck action::unknown mode $INPUT_MODE"
  echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 0
  ;;
esac
argv+=("${extra[@]}")

# A report left by an earlier run in the same directory must not be read as this run's verdict.
rm -f "$INPUT_REPORT_DIR/report.json" "$INPUT_REPORT_DIR/report.md" "$INPUT_REPORT_DIR/report.txt" "$INPUT_REPORT_DIR/summary.md" "$INPUT_REPORT_DIR/matrix.json"
[ "$INPUT_MODE" = explore ] && rm -rf "$INPUT_REPORT_DIR/bodies"

echo "wfcheck ${argv[*]}"
node "$GITHUB_ACTION_PATH/bin/wfcheck.mjs" "${argv[@]}"
code=$?
# A refused import fails the matrix step even when the site was built.
[ "$INPUT_MODE" = matrix ] && [ "$code" -eq 0 ] && [ "${imported:-0}" -ne 0 ] && code=$imported
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
echo "wfcheck exited with $code"
