#!/usr/bin/env bash
# The GitHub Action's run step: `vtcode exec` with the action's inputs, then its outputs in GITHUB_OUTPUT.
# The prompt goes in on stdin (any text, even one starting with "-"); the JSON result object is kept in
# $RUNNER_TEMP. Exits with vtcode's exit code. VTCODE names the program (default: vtcode on PATH).
set -uo pipefail
vtcode="${VTCODE:-vtcode}"
temp="${RUNNER_TEMP:-$(mktemp -d)}"
result="$temp/vtcode-result.json"
last="${INPUT_OUTPUT_FILE:-$temp/vtcode-last-message.txt}"
args=(exec --output-format json -o "$last" --approval "${INPUT_APPROVAL:-auto-edit}"
      --sandbox "${INPUT_SANDBOX:-workspace-write}")
[[ -n "${INPUT_MODEL:-}" ]] && args+=(--model "$INPUT_MODEL")
[[ -n "${INPUT_PROVIDER:-}" ]] && args+=(--provider "$INPUT_PROVIDER")
if [[ -z "${INPUT_PROMPT:-}" ]]; then
  echo "vtcode action: the prompt input is empty" >&2
  exit 2
fi
# A word-split VTCODE (e.g. "python -m vtcode") is allowed on purpose.
# shellcheck disable=SC2086
printf '%s' "$INPUT_PROMPT" | $vtcode "${args[@]}" > "$result"
code=$?
session="$(sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p' "$result" | head -n 1)"
delimiter="vtcode_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
{
  echo "exit-code=$code"
  echo "session-id=$session"
  echo "result-file=$result"
  echo "final-message<<$delimiter"
  cat "$last" 2>/dev/null
  echo
  echo "$delimiter"
} >> "${GITHUB_OUTPUT:-/dev/stdout}"
exit "$code"
