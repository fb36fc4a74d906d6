#!/usr/bin/env bash
# Records, on a real GPU with CUDA 13: limit defaults and how set/get behave,
# device properties, printf formatting corner cases and return values, printf
# FIFO overflow, and device heap behaviour (malloc(0), alignment, exhaustion,
# bad and double free). Results: one text file per mode under $RES.
set -u
RES=${RES:-/tmp/rt_defaults}
mkdir -p "$RES"
nvcc -arch=sm_90 -O2 -o rt rt.cu -diag-suppress 181,226 || exit 1
run() { local out=$1; shift; timeout 60 ./rt "$@" > "$RES/$out.txt" 2> "$RES/$out.err"; echo "rc=$?" >> "$RES/$out.txt"; }
run limits limits
run setlimits setlimits
run formats formats
run badstr_null badstr 0
run badstr_0x10 badstr 0x10
run badstr_wild badstr 0x7f0000001000
for kind in 0 1 2 3 4; do
  run fifo_4096_k${kind} fifo 4096 $kind 1 1 400
done
run fifo_8192_k1 fifo 8192 1 1 1 800
run fifo_65536_k1 fifo 65536 1 1 1 5000
run fifo_4096_k1_par fifo 4096 1 8 64 2
# The default FIFO overflowed by many threads: keep a summary only.
timeout 120 ./rt fifo 0 1 512 256 1 > /tmp/rt_fifo_big.txt 2>&1
{ echo "lines $(wc -l < /tmp/rt_fifo_big.txt)"; head -3 /tmp/rt_fifo_big.txt; tail -3 /tmp/rt_fifo_big.txt; } > "$RES/fifo_default_big.txt"
# Overflowing the smallest FIFO (512 KiB) from one thread: which records survive,
# as ranges of the record index (thread index, record index on each line).
for kind in 0 1 2 3 4; do
  timeout 60 ./rt fifo 524288 $kind 1 1 5000 > /tmp/rt_fifo.txt 2>&1
  { grep -c . /tmp/rt_fifo.txt; tail -2 /tmp/rt_fifo.txt
    grep -n . /tmp/rt_fifo.txt | sed -n '2,$p' | grep -v -e END -e rc= | awk -F: '{print $1}' | head -1
    [ $kind = 0 ] || awk '$1=="line"||$1=="0"{i=($1=="line")?$3:$2; if(i!=p+1) printf "%s%d-", (NR>2?p"\n":""), i; p=i} END{print p}' /tmp/rt_fifo.txt
  } > "$RES/fifo_512k_k${kind}_ranges.txt"
done
run strlate strlate
run heap0 heap 0
run heap1_1m heap 1 1048576 8388608
run heap1_64k heap 1 65536 4194304
run heap1_4000 heap 1 4000 4194304
run heap1_16 heap 1 16 8388608
run heap2_foreign heap 2 0x1234
run heap3_double heap 3
run brkpt brkpt
ls -l "$RES"
