#!/usr/bin/env bash
# Records what compute-sanitizer prints on the GPU for the planted programs
# tests/sanitize/programs/mbar.cu, copies.cu and inline.cu (built with
# `nvcc -arch=sm_90 -lineinfo -cudart shared -lcuda`), one run per mode:
#  * $RES/planted/ID.out, ID.rc: the lines of programs.list naming them
#    (mbar.N synccheck, copies.N initcheck, inline.N memcheck or racecheck);
#  * $RES/samples/NAME.K.TOOL.out, .rc: run line K of ptx-samples/NAME (the
#    async copy and mbarrier samples) through gpurun under synccheck and racecheck;
#  * $RES/plain/ID.out: mbar and copies without a sanitizer.
. ../../sanitize_tasks.sh
mkdir -p "$RES/planted" "$RES/samples" "$RES/plain"
$CS --version > "$RES/version.txt" 2>&1
for p in mbar copies inline; do
  (cd "$PROGS" && nvcc -arch=sm_90 -lineinfo -cudart shared -o "$bin/$p" $p.cu -lcuda) > "$RES/build_$p.log" 2>&1 &
done
nvcc -O2 -o "$bin/gpurun" "$ROOT/gpu/gpurun/gpurun.c" -lcuda > "$RES/build_gpurun.log" 2>&1 &
wait
grep -v '^#' "$PROGS/programs.list" | while read -r id tool extra; do
  src=${id%%.*}
  case $src in mbar|copies|inline) ;; *) continue ;; esac
  arg=; [ "$src" = "$id" ] || arg=${id#*.}
  q "$RES/planted/$id" "$bin" 60 $CS --tool "$tool" $extra "./$src" $arg
  [ "$src" = inline ] || q "$RES/plain/$id" "$bin" 30 "./$src" $arg
done
for name in async_copy async_memcpy async_barrier async_bulk; do
  dir=$ROOT/ptx-samples/$name
  k=0
  grep -v '^#' "$dir/run.args" | grep -v '^ *$' | while read -r line; do
    k=$((k + 1))
    read -r -a args <<< "$line"
    for t in synccheck racecheck; do
      work=$bin/w_${name}_${k}_$t; mkdir -p "$work"; cp -r "$dir/." "$work/"
      q "$RES/samples/$name.$k.$t" "$work" 60 $CS --tool $t "$bin/gpurun" "$name.sm_90.ptx" "${args[@]}"
    done
  done
done
echo "$(wc -l < "$tasks") runs"
run_tasks
