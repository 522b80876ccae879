#!/usr/bin/env bash
# The analysis step of action.yml: runs torch-tidy on the compile database in
# $BUILD_DIR, with $BASELINE or $DIFF if set, writes SARIF, and records the
# SARIF's path and torch-tidy's exit status as step outputs (the job fails in
# a later step, after the upload).
set -uo pipefail
sarif="${RUNNER_TEMP:-/tmp}/torch-tidy.sarif"
args=(-p "$BUILD_DIR" --format=sarif --output="$sarif" --sarif-category="$CATEGORY")
[ -n "${BASELINE:-}" ] && args+=(--baseline="$BASELINE")
[ -n "${DIFF:-}" ] && args+=(--diff="$DIFF")
# ARGS is split on spaces, as a workflow writes several arguments in one line.
read -r -a extra <<< "${ARGS:-}"
status=0
"$TORCH_TIDY" "${args[@]}" "${extra[@]}" || status=$?
echo "sarif=$sarif" >> "$GITHUB_OUTPUT"
echo "exit-code=$status" >> "$GITHUB_OUTPUT"
echo "torch-tidy exited with status $status"
