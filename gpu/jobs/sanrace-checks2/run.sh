#!/usr/bin/env bash
# Records what compute-sanitizer's racecheck and synccheck print on the GPU for
# the programs of this folder (copies of tests/sanitize/programs/race*.cu and
# sync*.cu, and a probe), each built with `nvcc -arch=sm_90 -lineinfo -cudart shared`:
#  * $RES/ID.out, ID.rc: `compute-sanitizer --tool racecheck|synccheck ./ID`
#    (race* racecheck, sync* synccheck), the default options; ID.again.out: a
#    second run (do the counts depend on the run?);
#  * $RES/ID.all.out: racecheck with --racecheck-report all (every hazard);
#  * $RES/ID.plain.out: the program without a sanitizer;
#  * $RES/sync_two_bars.limit0.out: synccheck with --print-limit 0;
#  * $RES/sass/ID.sass: cuobjdump -sass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# the programs that are also tests come from tests/sanitize/programs
for n in race race_blocks race_war race_warp sync_bar_count sync_two_bars sync_warp_branch sync_warp_mask; do cp "$here/../../../tests/sanitize/programs/$n.cu" "$here/"; done
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
bin=$(mktemp -d)
mkdir -p "$RES/sass"
for src in "$here"/*.cu; do
  id=$(basename "$src" .cu)
  (nvcc -arch=sm_90 -lineinfo -cudart shared -o "$bin/$id" "$src" > "$RES/build_$id.log" 2>&1 || echo "build of $id failed"
   "$(dirname "$(command -v nvcc)")/cuobjdump" -sass "$bin/$id" > "$RES/sass/$id.sass" 2>&1) &
done
wait
tasks=$bin/tasks
: > "$tasks"
q() { printf '%q ' "$@" >> "$tasks"; echo >> "$tasks"; }
for src in "$here"/*.cu; do
  id=$(basename "$src" .cu)
  case $id in race*) tool=racecheck ;; *) tool=synccheck ;; esac
  q "$RES/$id" 40 $CS --tool $tool "./$id"
  q "$RES/$id.again" 40 $CS --tool $tool "./$id"
  q "$RES/$id.plain" 20 "./$id"
  [ $tool = racecheck ] && q "$RES/$id.all" 40 $CS --tool racecheck --racecheck-report all "./$id"
done
q "$RES/sync_two_bars.limit0" 40 $CS --tool synccheck --print-limit 0 ./sync_two_bars
echo "$(wc -l < "$tasks") runs"
one() {
  out=$1 lim=$2; shift 2
  start=$(date +%s)
  (cd "$bin" && timeout "$lim" "$@" > "$out.out" 2>&1 < /dev/null; echo $? > "$out.rc")
  echo "$(basename "$out") rc=$(cat "$out.rc") $(( $(date +%s) - start ))s $(grep -h 'SUMMARY' "$out.out" | tr '\n' ' ')"
}
export -f one
export bin
start=$(date +%s)
xargs -P 12 -d '\n' -n 1 bash -c 'eval "one $1"' _ < "$tasks"
echo "all runs: $(( $(date +%s) - start ))s"
