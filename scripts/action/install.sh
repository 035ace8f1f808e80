#!/usr/bin/env bash
# The GitHub Action's install step: the release archive for this runner, checked against its .sha256,
# unpacked into $RUNNER_TEMP/vtcode and put on PATH (GITHUB_PATH).
set -euo pipefail
version="${INPUT_VERSION:-${VTCODE_ACTION_REF#v}}"
if [[ -z "$version" || "$version" == "main" ]]; then
  echo "vtcode action: set the version input (e.g. 0.1.0) or pin the action to a release tag" >&2
  exit 2
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target="linux-x86_64" ;;
  Linux-aarch64) target="linux-aarch64" ;;
  Darwin-arm64) target="macos-aarch64" ;;
  *) echo "vtcode action: no release archive for $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
archive="vtcode-${version}-${target}.tar.gz"
base="https://github.com/${VTCODE_ACTION_REPOSITORY}/releases/download/v${version}"
dir="${RUNNER_TEMP:-/tmp}/vtcode"
mkdir -p "$dir"
cd "$dir"
curl -fsSL --retry 3 -o "$archive" "$base/$archive"
curl -fsSL --retry 3 -o "$archive.sha256" "$base/$archive.sha256"
sha256sum -c "$archive.sha256"
tar -xzf "$archive"
echo "$dir" >> "$GITHUB_PATH"
"$dir/vtcode" --version
