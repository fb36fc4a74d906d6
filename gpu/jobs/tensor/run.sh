#!/usr/bin/env bash
# Records the tensor-core samples (wmma_types, wmma_guide, wmma_frag,
# mma_subbyte, mma_sparse, mma_f64): every run.args line through gpurun on the
# sample's sm_90 PTX, as gpu/jobs/samples does. When the job folder carries
# copies in ./samples/<name>, records those only, else all from ptx-samples/. Results land in
# $RES/<name>/expected/, to be copied into ptx-samples/<name>/expected/.
set -u
ROOT=$(cd ../../.. && pwd)
RES=${RES:-/tmp/tensor-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
GPURUN=$PWD/gpurun
nvcc -O2 -o "$GPURUN" "$ROOT/gpu/gpurun/gpurun.c" -lcuda || { echo "gpurun build failed"; exit 1; }
names=(wmma_types wmma_guide wmma_frag mma_subbyte mma_sparse mma_f64)
[ -d samples ] && names=($(ls samples))
for name in "${names[@]}"; do
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
