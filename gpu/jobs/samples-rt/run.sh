#!/usr/bin/env bash
# Records what the stream-attribute, virtual-memory, driver-texture and programmatic
# dependent launch programs of
# tests/cudart/programs print on the GPU with NVIDIA's libcudart/libcuda: $RES/ID.stdout,
# ID.stderr, ID.rc (copied to tests/cudart/programs/expected/).
set -u
cd "$(dirname "$0")"
# the sources: next to this script when copied for a GPU run, else the test programs
[ -f tex_drv.cu ] || cd ../../../tests/cudart/programs
bin=$(mktemp -d)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L > "$RES/gpu.txt" 2>&1
for id in stream_attrs vmm tex_drv pdl ctx_runtime; do
  if ! nvcc -arch=sm_90 -cudart shared -o "$bin/$id" $id.cu -lcuda > "$RES/$id.build" 2>&1; then
    echo "build of $id failed"; cat "$RES/$id.build"; continue
  fi
  timeout 60 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc"
  echo "$id rc=$(cat "$RES/$id.rc")"
  cat "$RES/$id.stdout" "$RES/$id.stderr"
done
