#!/bin/bash
# mul/add contraction probes: every kernel of probes.ptx (mul and add/sub) and
# probes2.ptx (div.full/div.approx, neg of a product) on 16 input sets through
# the driver API, and the SASS ptxas makes of each file.
# Results: $RES/contract.txt, $RES/contract2.txt, $RES/probes*.sass
set -e
cd "$(dirname "$0")"
nvcc -O2 -o "$RES/probe" probe.cu -lcuda
"$RES/probe" probes.ptx > "$RES/contract.txt"
"$RES/probe" probes2.ptx > "$RES/contract2.txt"
for p in probes probes2; do
  ptxas -arch=sm_90 $p.ptx -o "$RES/$p.cubin"
  cuobjdump -sass "$RES/$p.cubin" | grep -E "Function|FFMA|FMUL|FADD|MUFU|FCHK|CALL|FSETP|FSEL|DFMA|DMUL|DADD|HFMA|HMUL|HADD" |
    sed 's|/\* 0x[0-9a-f]* \*/||' > "$RES/$p.sass"
done
