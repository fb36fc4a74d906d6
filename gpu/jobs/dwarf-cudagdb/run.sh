#!/usr/bin/env bash
# cuda-gdb's wording for the debugger's C-level commands: dbg_vars.cu built
# with -G (scripts s1-s3) and with -lineinfo (s4), each script in batch mode.
# Output: $RES/*.txt (the transcripts) and the PTX nvcc made.
set -u
cd "$(dirname "$0")"
RES=${RES:-.}
# the program the debugger tests use, copied at run time (one copy in the tree)
[ -f dbg_vars.cu ] || cp ../../../tests/debug/vars/dbg_vars.cu .
mkdir -p "$RES"
nvcc -G -arch=sm_90 -o vars_g dbg_vars.cu > "$RES/build.txt" 2>&1
nvcc -lineinfo -arch=sm_90 -o vars_l dbg_vars.cu >> "$RES/build.txt" 2>&1
nvcc -G -arch=sm_90 -ptx -o "$RES/dbg_vars.G.ptx" dbg_vars.cu
./vars_g > "$RES/plain.txt" 2>&1
cuda-gdb --version > "$RES/version.txt" 2>&1
# each line as its own -ex: an error in one does not end the script (as -x does)
gdb_run() {   # SCRIPT PROGRAM SECONDS
  local args=()
  while IFS= read -r l; do args+=(-ex "$l"); done < "$1"
  timeout "$3" cuda-gdb -nx -batch "${args[@]}" "$2" > "$RES/${1%.gdb}.txt" 2>&1
  echo "exit $?" >> "$RES/${1%.gdb}.txt"
}
gdb_run s1.gdb ./vars_g 17
gdb_run s2.gdb ./vars_g 17
gdb_run s3.gdb ./vars_g 17
gdb_run s4.gdb ./vars_l 15
rm -f vars_g vars_l
exit 0
