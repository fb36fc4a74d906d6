#!/bin/sh
# setup_venv.sh VENV PYTHON PACKAGE... — the Python tests' environment, made once in the
# build tree: a venv with the pinned packages from PyPI. A stamp names what was installed,
# so later runs only check it. Exit 77 (ctest's skip) when PyPI cannot be reached.
set -u
venv=$1 py=$2
shift 2
stamp=$venv/python-tests.stamp
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$*" ]; then
  echo "Python test environment ready: $venv"
  exit 0
fi
start=$(date +%s)
if [ ! -x "$venv/bin/python3" ] && ! "$py" -m venv "$venv"; then
  echo "FAILED: $py -m venv $venv (on Debian: apt-get install python3-venv)"
  exit 1
fi
log=$venv/pip.log
if ! "$venv/bin/python3" -m pip install --disable-pip-version-check --retries 2 --timeout 30 "$@" > "$log" 2>&1; then
  if grep -qiE "Failed to establish|NewConnectionError|name resolution|Network is unreachable|No route to host|timed out|ProxyError|Max retries exceeded" "$log"; then
    echo "skipped: PyPI cannot be reached ($log)"
    exit 77
  fi
  tail -n 30 "$log"
  echo "FAILED: pip install (see $log)"
  exit 1
fi
printf '%s' "$*" > "$stamp"
echo "Python test environment made in $(( $(date +%s) - start )) s: $venv"
