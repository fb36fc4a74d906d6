#!/usr/bin/env bash
# Records what compute-sanitizer prints on the GPU: for each program of
# tests/sanitize/programs/programs.list, $RES/ID.out and ID.rc;
# for the clean cudart test programs and the first run line of every ptx-sample,
# $RES/clean/NAME.out with compute-sanitizer's memcheck verdict.
set -u
ROOT=$(cd ../../.. && pwd)
PROGS=$ROOT/tests/sanitize/programs
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
bin=$(mktemp -d)
mkdir -p "$RES/clean"
grep -v '^#' "$PROGS/programs.list" | while read -r id tool extra; do
  [ -n "$id" ] || continue
  nvcc -arch=sm_90 -lineinfo -cudart shared -o "$bin/$id" "$PROGS/$id.cu" || { echo "build of $id failed"; continue; }
  (cd "$bin" && timeout 60 $CS --tool "$tool" $extra "./$id" > "$RES/$id.out" 2>&1; echo $? > "$RES/$id.rc")
  echo "$id rc=$(cat "$RES/$id.rc")"
done
# clean programs of tests/cudart: built as that harness builds them
src=$ROOT/tests/cudart/programs
for id in vadd memcpy symbols streams launch managed device attrs; do
  line=$(grep "^$id " "$src/programs.list") || continue
  read -r _ file flags <<< "$line"
  (cd "$src" && nvcc $flags -lineinfo -cudart shared -o "$bin/c_$id" ${file//,/ }) || continue
  (cd "$src" && timeout 60 $CS --tool memcheck "$bin/c_$id" > "$RES/clean/cudart_$id.out" 2>&1 < /dev/null; echo $? > "$RES/clean/cudart_$id.rc")
  echo "cudart $id: $(grep 'ERROR SUMMARY' "$RES/clean/cudart_$id.out")"
done
# ptx-samples: the first run line of each, through gpurun
nvcc -O2 -o "$bin/gpurun" "$ROOT/gpu/gpurun/gpurun.c" -lcuda || exit 0
for dir in "$ROOT"/ptx-samples/*/; do
  name=$(basename "$dir")
  [ -f "$dir/run.args" ] || continue
  line=$(grep -v '^#' "$dir/run.args" | grep -v '^ *$' | head -1)
  read -r -a args <<< "$line"
  work=$(mktemp -d); cp -r "$dir/." "$work/"
  (cd "$work" && timeout 30 $CS --tool memcheck "$bin/gpurun" "$name.sm_90.ptx" "${args[@]}" > "$RES/clean/sample_$name.out" 2>&1; echo $? > "$RES/clean/sample_$name.rc")
  rm -rf "$work"
  echo "sample $name: $(grep 'ERROR SUMMARY' "$RES/clean/sample_$name.out")"
done
