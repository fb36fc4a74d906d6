#!/usr/bin/env bash
# Records compute-sanitizer's verdicts on the GPU:
#  * $RES/planted/ID.out, ID.rc: each line `ID TOOL OPTIONS...` of
#    programs/programs.list (ID is SRC or SRC.ARG: SRC.cu run with ARG), built with
#    `nvcc -arch=sm_90 -lineinfo -cudart shared`;
#  * $RES/verdicts/TOOL/ID.out, ID.rc for TOOL in memcheck racecheck initcheck
#    synccheck: every tests/cudart program (built as that harness builds them,
#    plus -lineinfo, run in its folder), tests/debug/app's dbg_app and dbg_app2,
#    and the planted programs' clean runs; ptx-samples' first run line through
#    gpurun (sample_NAME) for racecheck, initcheck and synccheck;
#  * $RES/help.txt, version.txt: compute-sanitizer's own options and defaults.
# Runs up to 12 at once (one GPU, many processes).
. ../../sanitize_tasks.sh
mkdir -p "$RES/planted" "$RES/verdicts"
$CS --version > "$RES/version.txt" 2>&1
$CS --help > "$RES/help.txt" 2>&1
for t in memcheck racecheck initcheck synccheck; do
  mkdir -p "$RES/verdicts/$t"
  $CS --tool $t --help > "$RES/help_$t.txt" 2>&1
done

# planted programs
builds=$bin/builds
: > "$builds"
# a build: DIR -- NVCC-ARGUMENTS... (run 16 at once)
b() { printf '%q ' "$@" >> "$builds"; echo >> "$builds"; }
for src in "$PROGS"/*.cu; do
  b "$PROGS" -arch=sm_90 -lineinfo -cudart shared -o "$bin/$(basename "$src" .cu)" "$src"
done
grep -v '^#' "$PROGS/programs.list" | while read -r id tool extra; do
  [ -n "$id" ] || continue
  src=${id%%.*}; arg=; [ "$src" = "$id" ] || arg=${id#*.}
  q "$RES/planted/$id" "$bin" 60 $CS --tool "$tool" $extra "./$src" $arg
done
# every tool on the planted programs' default (clean) runs
for src in clean race initcheck heap spaces many; do
  for t in memcheck racecheck initcheck synccheck; do
    q "$RES/verdicts/$t/sanitize_$src" "$bin" 60 $CS --tool $t "./$src"
  done
done
# tests/cudart programs
src=$ROOT/tests/cudart/programs
grep -v '^#' "$src/programs.list" | while read -r id file flags; do
  [ -n "$id" ] || continue
  b "$src" $flags -lineinfo -cudart shared -o "$bin/c_$id" ${file//,/ }
  for t in memcheck racecheck initcheck synccheck; do
    q "$RES/verdicts/$t/cudart_$id" "$src" 60 $CS --tool $t "$bin/c_$id"
  done
done
# tests/debug/app
dbg=$ROOT/tests/debug/app
b "$dbg" -arch=sm_90 -lineinfo -cudart shared -o "$bin/dbg_app" dbg_app.cu
b "$dbg" -arch=sm_90 -lineinfo -cudart shared -o "$bin/dbg_app2" dbg_app.cu dbg_more.cu
for id in dbg_app dbg_app2; do
  for t in memcheck racecheck initcheck synccheck; do
    q "$RES/verdicts/$t/debug_$id" "$dbg" 60 $CS --tool $t "$bin/$id"
  done
done
# ptx-samples: the first run line of each, through gpurun, in a copy of its folder
b "$bin" -O2 -o "$bin/gpurun" "$ROOT/gpu/gpurun/gpurun.c" -lcuda
for dir in "$ROOT"/ptx-samples/*/; do
  name=$(basename "$dir")
  [ -f "$dir/run.args" ] || continue
  line=$(grep -v '^#' "$dir/run.args" | grep -v '^ *$' | head -1)
  read -r -a args <<< "$line"
  for t in racecheck initcheck synccheck; do
    work=$bin/w_${name}_$t; mkdir -p "$work"; cp -r "$dir/." "$work/"
    q "$RES/verdicts/$t/sample_$name" "$work" 40 $CS --tool $t "$bin/gpurun" "$name.sm_90.ptx" "${args[@]}"
  done
done
echo "$(wc -l < "$tasks") runs, $(wc -l < "$builds") builds"
build() {
  dir=$1; shift
  (cd "$dir" && nvcc "$@") > /dev/null 2>&1 || echo "build failed: $*"
}
export -f build
start=$(date +%s)
xargs -P 16 -d '\n' -n 1 bash -c 'eval "build $1"' _ < "$builds"
echo "builds: $(( $(date +%s) - start ))s"
run_tasks
