#!/usr/bin/env bash
# GPU behaviour for the fidelity fixes: the test programs stack_overflow, assert64,
# partial_warp, atomic128, nan_limits and tex_border of tests/cudart/programs, built
# with `nvcc -arch=sm_90 -cudart shared` and run twice each with NVIDIA's libcudart
# ($RES/ID.stdout, .stderr, .rc, copied to tests/cudart/programs/expected/, and
# ID.run2.* to compare); the warp_probe questions, one mode per process
# ($RES/warp_probe.MODE.*); and how many of 4096 failed asserts the GPU prints.
set -u
src=$(cd ../../../tests/cudart/programs && pwd)
bin=$(mktemp -d)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for id in stack_overflow assert64 partial_warp atomic128 nan_limits tex_border; do
  nvcc -arch=sm_90 -cudart shared -o "$bin/$id" "$src/$id.cu" || { echo "build of $id failed"; continue; }
  timeout 60 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc"
  timeout 60 "$bin/$id" > "$RES/$id.run2.stdout" 2> "$RES/$id.run2.stderr" < /dev/null; echo $? > "$RES/$id.run2.rc"
  echo "$id rc=$(cat "$RES/$id.rc") $(cat "$RES/$id.run2.rc")"
done
for id in warp_probe assert_many; do
  nvcc -arch=sm_90 -cudart shared -o "$bin/$id" $id.cu || echo "build of $id failed"
done
for m in 0 1 2 3 4; do
  timeout 20 "$bin/warp_probe" $m > "$RES/warp_probe.$m.stdout" 2> "$RES/warp_probe.$m.stderr" < /dev/null
  echo "warp_probe $m rc=$?"
done
timeout 60 "$bin/assert_many" > "$RES/assert_many.stdout" 2> "$RES/assert_many.stderr" < /dev/null
echo "assert_many rc=$? messages $(grep -c 'Assertion' "$RES/assert_many.stderr")"
