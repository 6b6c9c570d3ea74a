#!/usr/bin/env bash
# One-shot setup: Debian packages the assistant needs, then .venv with everything from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBS=(espeak-ng sox libportaudio2 chromium chromium-driver)  # the last two: the review page's browser test
missing=()
for p in "${DEBS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    echo "setup: could not install ${missing[*]} (audio devices, test speech and the browser test need them); continuing" >&2
  fi
fi

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for c in python3.11 python3; do
    if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then PY=$c; break; fi
  done
fi
[ -n "$PY" ] || { echo "setup: Python 3.11 is required (set PYTHON=/path/to/python3.11)" >&2; exit 1; }

[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'
touch .venv/.installed
echo "setup: ready — .venv/bin/assistant"
