#!/usr/bin/env bash
# Runs on the GPU machine: every gpu/jobs/<name>/run.sh (or only the names given),
# each in its own folder with RES=<results>/<name>; packs the results into one
# archive under $OUT. Expected outputs recorded this way are committed next to
# the samples they belong to (see gpu/README.md).
set -u
res=${RES_ROOT:-/tmp/gpu-results}
rm -rf "$res"; mkdir -p "$res"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls gpu/jobs))
nvidia-smi -L > "$res/device.txt" 2>&1
nvcc --version >> "$res/device.txt" 2>&1
for n in "${names[@]}"; do
  [ -x "gpu/jobs/$n/run.sh" ] || continue
  mkdir -p "$res/$n"
  start=$(date +%s)
  ( cd "gpu/jobs/$n" && RES="$res/$n" timeout 300 ./run.sh ) > "$res/$n/job.log" 2>&1
  echo "$n rc=$? $(( $(date +%s) - start ))s" | tee -a "$res/summary.txt"
done
tar czf "${OUT:-/tmp}/results.tgz" -C "$res" .
