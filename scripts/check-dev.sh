#!/usr/bin/env bash
# Format check, lint, strict types, layer contracts and tests.
#   scripts/check-dev.sh            everything, full suite
#   scripts/check-dev.sh --changed  lint/types on files changed against main, and the related tests
# The full suite runs in VTCODE_TEST_WORKERS pytest-xdist workers (default 4): its tests mostly wait on
# processes, PTYs and loopback servers, so more workers than cores overlap that waiting.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
changed=0
if [ "${1:-}" = "--changed" ]; then changed=1; shift; fi

if [ "$changed" = 1 ]; then
  base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
  mapfile -t files < <( { git diff --name-only "$base"; git ls-files --others --exclude-standard; } \
    | sort -u | grep -E '\.py$' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
  if [ "${#files[@]}" = 0 ]; then echo "check-dev: no Python files changed against main"; exit 0; fi
  "$BIN/ruff" format --check "${files[@]}"
  "$BIN/ruff" check "${files[@]}"
  # integrations/* are separate distributions (their own Python and locks): integrations/harbor/scripts/test
  # type-checks them in their own venv.
  mapfile -t typed < <(printf '%s\n' "${files[@]}" | grep -v '^integrations/' || true)
  if [ "${#typed[@]}" != 0 ]; then "$BIN/mypy" "${typed[@]}"; fi
  "$BIN/lint-imports"
  # Related tests: changed tests, plus the test folder named after each changed package.
  tests=()
  for f in "${files[@]}"; do
    case "$f" in
      tests/*) tests+=("$f") ;;
      scripts/*) tests+=("tests/release") ;;
      src/vtcode/*)
        pkg=$(echo "$f" | cut -d/ -f3)
        [ -d "tests/$pkg" ] && tests+=("tests/$pkg") ;;
    esac
  done
  if [ "${#tests[@]}" = 0 ]; then echo "check-dev: no related tests"; exit 0; fi
  mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sort -u)
  exec "$BIN/pytest" -q "${tests[@]}" "$@"
fi

"$BIN/ruff" format --check .
"$BIN/ruff" check .
"$BIN/mypy"
"$BIN/lint-imports"
exec "$BIN/pytest" -q -n "${VTCODE_TEST_WORKERS:-4}" --dist worksteal "$@"
