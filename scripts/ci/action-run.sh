#!/usr/bin/env bash
# The analysis step of action.yml: runs torch-tidy on the compile database in
# $BUILD_DIR, with $BASELINE or $DIFF if set. The log gets the findings that
# count as text and as workflow annotations, and the job summary a table of
# them ($GITHUB_STEP_SUMMARY; --format=github); a second run replays the same
# analyses from the result cache into SARIF. Records the SARIF's path and
# torch-tidy's exit status as step outputs (the job fails in a later step,
# after the upload).
set -uo pipefail
sarif="${RUNNER_TEMP:-/tmp}/torch-tidy.sarif"
args=(-p "$BUILD_DIR")
[ -n "${BASELINE:-}" ] && args+=(--baseline="$BASELINE")
[ -n "${DIFF:-}" ] && args+=(--diff="$DIFF")
# ARGS is split on spaces, as a workflow writes several arguments in one line.
read -r -a extra <<< "${ARGS:-}"
status=0
"$TORCH_TIDY" "${args[@]}" --format=github "${extra[@]}" || status=$?
"$TORCH_TIDY" "${args[@]}" --format=sarif --output="$sarif" \
  --sarif-category="$CATEGORY" --quiet "${extra[@]}" > /dev/null
echo "sarif=$sarif" >> "$GITHUB_OUTPUT"
echo "exit-code=$status" >> "$GITHUB_OUTPUT"
echo "torch-tidy exited with status $status"
