#!/usr/bin/env bash
# Records ptx-samples/movmatrix/expected/ on a GPU: the samples job run on
# this one sample, from the repository, or from a copy of the files it needs
# under root/ (ptx-samples/movmatrix, gpu/gpurun, gpu/jobs/samples) where the
# job folder travels alone. Also dumps the output words.
set -u
cd "$(dirname "$0")"
RES=${RES:-/tmp/table-movmatrix-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
export RES
ROOT=root
[ -d root ] || ROOT=../../..
(cd "$ROOT/gpu/jobs/samples" && ./run.sh movmatrix)
cat "$RES/summary.txt" 2>/dev/null
for f in "$RES"/movmatrix/expected/*.out.bin "$RES"/movmatrix/alt/*/*.out.bin; do
  [ -f "$f" ] && { echo "== $f"; od -An -tx4 -w8 "$f"; }
done > "$RES/words.txt"
head -20 "$RES/words.txt"
cat "$RES"/movmatrix/expected/*.stderr 2>/dev/null | head
cat "$RES/diffs.txt" 2>/dev/null
exit 0
