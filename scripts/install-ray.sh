#!/usr/bin/env bash
# Installs the Ray backend of `vtcode batch` (the `ray` extra) into the project's .venv from the
# hash-locked requirements/ray.lock; the packages it shares with the dev lock are pinned to the same
# versions, so the dev environment is left as it was. Usage: scripts/install-ray.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/require-python.sh
stamp=.venv/.vtcode-ray.lock
if ! cmp -s requirements/ray.lock "$stamp"; then
  .venv/bin/python -m pip install -q --disable-pip-version-check --require-hashes -r requirements/ray.lock
  cp requirements/ray.lock "$stamp"
fi
echo "ray installed: $(.venv/bin/python -c 'import ray; print(ray.__version__)')" >&2
