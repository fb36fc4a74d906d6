#!/bin/sh
# run.sh VENV PTXI SCRIPT [ARGS...] — runs a Python test under `ptxi exec` with the test
# environment's python; says `skipped` (exit 77) when that environment could not be made
# or ptxi's libcuda.so.1 was not built (no CUDA headers).
venv=$1 ptxi=$2
shift 2
if [ ! -e "$(dirname "$ptxi")/../lib/libcuda.so.1" ]; then
  echo "skipped: libcuda.so.1 was not built (no CUDA headers)"
  exit 77
fi
if [ ! -f "$venv/python-tests.stamp" ]; then
  echo "skipped: no Python test environment (PyPI could not be reached; see the python_venv test)"
  exit 77
fi
# PTXI_CHILD_PRELOAD: the sanitizer runtime for python (a ThreadSanitizer build)
exec env ${PTXI_CHILD_PRELOAD:+LD_PRELOAD=$PTXI_CHILD_PRELOAD} "$ptxi" exec "$venv/bin/python3" "$@"
