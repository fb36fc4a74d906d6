#!/usr/bin/env bash
# Records the tensor-core samples (wmma_types, wmma_guide, mma_subbyte,
# mma_sparse): every run.args line through gpurun on the sample's sm_90 PTX,
# as gpu/jobs/samples does. Takes each sample from ./samples/<name> when the
# job folder carries a copy, else from ptx-samples/. Results land in
# $RES/<name>/expected/, to be copied into ptx-samples/<name>/expected/.
set -u
ROOT=$(cd ../../.. && pwd)
RES=${RES:-/tmp/tensor-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
GPURUN=$PWD/gpurun
nvcc -O2 -o "$GPURUN" "$ROOT/gpu/gpurun/gpurun.c" -lcuda || { echo "gpurun build failed"; exit 1; }
for name in wmma_types wmma_guide mma_subbyte mma_sparse; do
  src=$PWD/samples/$name
  [ -d "$src" ] || src=$ROOT/ptx-samples/$name
  exp=$RES/$name/expected
  mkdir -p "$exp"
  i=0
  while IFS= read -r line || [ -n "$line" ]; do
    [[ -z "${line// }" || "$line" == \#* ]] && continue
    read -r -a args <<< "$line"
    work=$(mktemp -d)
    cp -r "$src/." "$work/"
    rm -rf "$work/expected"
    (cd "$work" && timeout 60 "$GPURUN" "$name.sm_90.ptx" "${args[@]}" > "$exp/$i.stdout" 2> "$exp/$i.stderr"; echo $? > "$exp/$i.rc")
    prev=""
    for a in "${args[@]}"; do
      if [ "$prev" = "--out" ]; then f=${a#*=}; [ -f "$work/$f" ] && cp "$work/$f" "$exp/$i.$(basename "$f")"; fi
      prev=$a
    done
    rm -rf "$work"
    echo "$name[$i] rc=$(cat "$exp/$i.rc")" >> "$RES/summary.txt"
    i=$((i + 1))
  done < "$src/run.args"
done
