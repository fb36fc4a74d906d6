#!/usr/bin/env bash
# Writes NAME.cu for every case of cases.txt with `ptxi eval --emit-cuda`
# (run here, where ptxi is built; the .cu files are committed). PTXI=path/to/ptxi.
set -eu
cd "$(dirname "$0")"
PTXI=${PTXI:-../../../build/bin/ptxi}
grep -v '^#' cases.txt | while IFS=$'\t' read -ra a; do
    "$PTXI" eval "${a[@]:1}" --emit-cuda "${a[0]}.cu"
done
