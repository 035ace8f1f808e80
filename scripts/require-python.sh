# Sourced by scripts/install and scripts/test (from the checkout root): picks the interpreter
# ($PYTHON, default python3), refuses one older than 3.11 before anything is created, and rebuilds a
# .venv left by an older or broken interpreter (a failed install with 3.10 used to leave one behind).
PY=${PYTHON:-python3}
py_path=$(command -v "$PY" || true)
if [ -z "$py_path" ]; then
  echo "vtcode needs Python ≥ 3.11; '$PY' was not found (set PYTHON=/path/to/python3.11 or newer)" >&2
  exit 1
fi

# "3.10" for a working interpreter, nothing for a broken one.
python_version() {
  "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}

# Whether a "MAJOR.MINOR" version is at least 3.11.
recent_enough() {
  local major=${1%%.*} minor=${1#*.}
  [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] || return 1
  [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 11 ]; }
}

py_version=$(python_version "$py_path")
if ! recent_enough "$py_version"; then
  echo "vtcode needs Python ≥ 3.11; found ${py_version:-an interpreter that does not run} at $py_path" \
    "(set PYTHON=/path/to/python3.11 or newer)" >&2
  exit 1
fi

if [ -e .venv ]; then
  venv_version=$(python_version .venv/bin/python)
  if ! recent_enough "$venv_version"; then
    echo "rebuilding .venv: it was made with ${venv_version:+Python }${venv_version:-a broken interpreter}," \
      "vtcode needs Python ≥ 3.11" >&2
    rm -rf .venv
  fi
fi
if [ ! -x .venv/bin/python ]; then
  "$py_path" -m venv .venv
fi
