#!/usr/bin/env bash
# cuda-gdb's wording for the debugger's C-level commands: dbg_vars.cu built
# with -G (scripts s1-s3) and with -lineinfo (s4), each script in batch mode.
# Output: $RES/*.txt (the transcripts) and the PTX nvcc made.
set -u
cd "$(dirname "$0")"
RES=${RES:-.}
mkdir -p "$RES"
nvcc -G -arch=sm_90 -o vars_g dbg_vars.cu > "$RES/build.txt" 2>&1
nvcc -lineinfo -arch=sm_90 -o vars_l dbg_vars.cu >> "$RES/build.txt" 2>&1
nvcc -G -arch=sm_90 -ptx -o "$RES/dbg_vars.G.ptx" dbg_vars.cu
./vars_g > "$RES/plain.txt" 2>&1
cuda-gdb --version > "$RES/version.txt" 2>&1
for s in s1 s2 s3; do
  timeout 17 cuda-gdb -nx -batch -x $s.gdb ./vars_g > "$RES/$s.txt" 2>&1
  echo "exit $?" >> "$RES/$s.txt"
done
timeout 15 cuda-gdb -nx -batch -x s4.gdb ./vars_l > "$RES/s4.txt" 2>&1
echo "exit $?" >> "$RES/s4.txt"
rm -f vars_g vars_l
exit 0
