#!/bin/bash
# Builds the parser fuzz target with clang (libFuzzer + ASan + UBSan) and runs
# it on a corpus seeded from ptx-samples/ and the front-end test corpus.
# Usage: [FUZZ_OUT=dir] [FUZZ_MAXLEN=bytes] fuzz/run.sh [SECONDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${FUZZ_OUT:-$root/build-fuzz}
secs=${1:-600}
mkdir -p "$out/gen" "$out/corpus" "$out/artifacts"
flex -o "$out/gen/ptx.lex.c" --header-file="$out/gen/ptx.lex.h" "$root/frontend/ptx.l"
bison -o "$out/gen/ptx.tab.c" --defines="$out/gen/ptx.tab.h" "$root/frontend/ptx.y"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/frontend" -I"$out/gen" -I"$root/include" \
  "$here/fuzz_parse.c" "$root"/frontend/*.c "$out/gen/ptx.lex.c" "$out/gen/ptx.tab.c" \
  -lpthread -o "$out/fuzz_parse"
# seed corpus: every sample, plus the malformed-input cases of the tests
find "$root/ptx-samples" "$root/tests/frontend/corpus" "$root/tests/frontend/malformed" "$here/seeds" -name '*.ptx' -size -200k 2>/dev/null | while read -r f; do
  cp "$f" "$out/corpus/$(echo "$f" | md5sum | cut -c1-16).ptx"
done
cd "$out"
exec ./fuzz_parse -max_total_time="$secs" -max_len="${FUZZ_MAXLEN:-65536}" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$out/artifacts/" -dict="$here/ptx.dict" corpus
