#!/usr/bin/env bash
# cuda-gdb's output for what the debugger tests compare against, second set:
# dbg_vars.cu (-G: g1 types with their @space qualifiers, g2 variables read
# before their first assignment; -lineinfo: l1 finish out of inlined code),
# dbg_order.cu (-G: o1 the order of info locals in blocks of 1 to 12
# variables, ptype/whatis in every space; o2 watchpoints across a second run),
# and a session at a pseudo-terminal (tty: quit, run and kill confirmations,
# run again after the program exits). Each gdb script in batch mode.
set -u
cd "$(dirname "$0")"
RES=${RES:-.}
# the programs the debugger tests use, copied at run time (one copy in the tree)
[ -f dbg_vars.cu ] || cp ../../../tests/debug/vars/dbg_vars.cu .
[ -f dbg_order.cu ] || cp ../../../tests/debug/order/dbg_order.cu .
mkdir -p "$RES"
{
  nvcc -G -arch=sm_90 -o vars_g dbg_vars.cu
  nvcc -lineinfo -arch=sm_90 -o vars_l dbg_vars.cu
  nvcc -G -arch=sm_90 -o order_g dbg_order.cu
  nvcc -G -arch=sm_90 -ptx -o "$RES/dbg_order.G.sm_90.ptx" dbg_order.cu
  nvcc -lineinfo -arch=sm_90 -ptx -o "$RES/dbg_vars.lineinfo.sm_90.ptx" dbg_vars.cu
} > "$RES/build.txt" 2>&1
./vars_g > "$RES/plain_vars.txt" 2>&1
./order_g > "$RES/plain_order.txt" 2>&1
cuda-gdb --version > "$RES/version.txt" 2>&1
# each line as its own -ex: an error in one does not end the script (as -x does)
gdb_run() {   # SCRIPT PROGRAM SECONDS
  local args=()
  while IFS= read -r l; do args+=(-ex "$l"); done < "$1"
  timeout "$3" cuda-gdb -nx -batch "${args[@]}" "$2" > "$RES/${1%.gdb}.txt" 2>&1
  echo "exit $?" >> "$RES/${1%.gdb}.txt"
}
gdb_run g1.gdb ./vars_g 25
gdb_run g2.gdb ./vars_g 25
gdb_run l1.gdb ./vars_l 25
gdb_run o1.gdb ./order_g 40
gdb_run o2.gdb ./order_g 40
# at a terminal: tty.keys lines typed one by one, "@N" waits N seconds
if command -v script > /dev/null; then
  feed() { while IFS= read -r l; do case $l in @*) sleep "${l#@}" ;; *) printf '%s\n' "$l"; sleep 0.5 ;; esac; done < tty.keys; sleep 3; }
  feed | timeout 90 script -q -c "cuda-gdb -nx -q ./vars_g" /dev/null > "$RES/tty.txt" 2>&1
  echo "exit $?" >> "$RES/tty.txt"
fi
rm -f vars_g vars_l order_g
exit 0
