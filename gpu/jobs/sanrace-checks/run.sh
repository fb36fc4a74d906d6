#!/usr/bin/env bash
# Records what compute-sanitizer's racecheck and synccheck print on the GPU for
# the programs of this folder (copies of tests/sanitize/programs/race*.cu and
# sync*.cu, and two probes), each built with `nvcc -arch=sm_90 -lineinfo -cudart shared`:
#  * $RES/ID.out, ID.rc: `compute-sanitizer --tool racecheck|synccheck ./ID`
#    (race* racecheck, sync* synccheck), the default options;
#  * $RES/ID.all.out: racecheck with --racecheck-report all (every hazard, with
#    threads and addresses); ID.info.out: also --racecheck-detect-level info;
#  * $RES/sync_probe.K.out: synccheck on `./sync_probe K` for K in a..h;
#  * $RES/ID.plain.out: the program without a sanitizer; ID.other.out: the other tool;
#  * $RES/sass/ID.sass: cuobjdump -sass; $RES/help_TOOL.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# the programs that are also tests come from tests/sanitize/programs
for n in race race_blocks race_clean race_war race_warp sync_bar_count sync_clean sync_div_block sync_div_warp sync_shfl_exited sync_warp_mask; do cp "$here/../../../tests/sanitize/programs/$n.cu" "$here/"; done
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
bin=$(mktemp -d)
export bin
mkdir -p "$RES/sass"
nvidia-smi -L > "$RES/device.txt" 2>&1; nvcc --version >> "$RES/device.txt" 2>&1; $CS --version >> "$RES/device.txt" 2>&1
for t in racecheck synccheck; do $CS --tool $t --help > "$RES/help_$t.txt" 2>&1; done
for src in "$here"/*.cu; do
  id=$(basename "$src" .cu)
  (nvcc -arch=sm_90 -lineinfo -cudart shared -o "$bin/$id" "$src" > "$RES/build_$id.log" 2>&1 || echo "build of $id failed"
   "$(dirname "$(command -v nvcc)")/cuobjdump" -sass "$bin/$id" > "$RES/sass/$id.sass" 2>&1) &
done
wait
tasks=$bin/tasks
: > "$tasks"
q() { printf '%q ' "$@" >> "$tasks"; echo >> "$tasks"; }
for src in "$here"/race*.cu; do
  id=$(basename "$src" .cu)
  q "$RES/$id" 40 $CS --tool racecheck "./$id"
  q "$RES/$id.all" 40 $CS --tool racecheck --racecheck-report all "./$id"
  q "$RES/$id.plain" 20 "./$id"
  q "$RES/$id.other" 40 $CS --tool synccheck "./$id"
done
for id in race_probe race_warp race; do
  q "$RES/$id.info" 40 $CS --tool racecheck --racecheck-report all --racecheck-detect-level info "./$id"
done
for src in "$here"/sync_*.cu; do
  id=$(basename "$src" .cu)
  [ "$id" = sync_probe ] && continue
  q "$RES/$id" 40 $CS --tool synccheck "./$id"
  q "$RES/$id.plain" 20 "./$id"
  q "$RES/$id.other" 40 $CS --tool racecheck "./$id"
done
for k in a b c d e f g h; do
  q "$RES/sync_probe.$k" 40 $CS --tool synccheck ./sync_probe $k
  q "$RES/sync_probe.$k.plain" 20 ./sync_probe $k
done
echo "$(wc -l < "$tasks") runs"
one() {
  out=$1 lim=$2; shift 2
  start=$(date +%s)
  (cd "$bin" && timeout "$lim" "$@" > "$out.out" 2>&1 < /dev/null; echo $? > "$out.rc")
  echo "$(basename "$out") rc=$(cat "$out.rc") $(( $(date +%s) - start ))s $(grep -h 'SUMMARY' "$out.out" | tr '\n' ' ')"
}
export -f one
start=$(date +%s)
xargs -P 12 -d '\n' -n 1 bash -c 'eval "one $1"' _ < "$tasks"
echo "all runs: $(( $(date +%s) - start ))s"
