#!/usr/bin/env bash
# Records what each program of tests/cudart/programs/programs.list prints, and its exit
# status, when built with `nvcc -cudart shared` and run on the GPU with NVIDIA's own
# libcudart: $RES/ID.stdout, ID.stderr, ID.rc (copied to tests/cudart/programs/expected/).
set -u
src=$(cd ../../../tests/cudart/programs && pwd)
bin=$(mktemp -d)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
grep -v '^#' "$src/programs.list" | while read -r id file flags; do
  [ -n "$id" ] || continue
  if ! (cd "$src" && nvcc $flags -cudart shared -o "$bin/$id" ${file//,/ }); then
    echo "build of $id failed"
    continue
  fi
  (cd "$src" && timeout 60 "$bin/$id" > "$RES/$id.stdout" 2> "$RES/$id.stderr" < /dev/null; echo $? > "$RES/$id.rc")
  echo "$id rc=$(cat "$RES/$id.rc")"
done
