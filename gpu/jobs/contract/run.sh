#!/bin/bash
# mul/add contraction probes (probes.ptx, SASS in probes.sass): every kernel on
# 16 input sets through the driver API. Result: $RES/contract.txt
set -e
cd "$(dirname "$0")"
nvcc -O2 -o "$RES/probe" probe.cu -lcuda
"$RES/probe" probes.ptx > "$RES/contract.txt"
