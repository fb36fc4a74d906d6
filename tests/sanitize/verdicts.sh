#!/bin/bash
# verdicts.sh PTXI [FILTER] — no false positives, no missed records: every test
# program under every tool ptxi has, against compute-sanitizer's verdict on an
# H100 (expected/verdicts/TOOL/ID.out, recorded by gpu/jobs/sanitize_verdicts).
# ID names the program:
#   cudart_X   tests/cudart/programs' X (its programs.list line; run in that folder)
#   debug_X    tests/debug/app's dbg_app (dbg_app.cu) or dbg_app2 (with dbg_more.cu)
#   sanitize_X tests/sanitize/programs/X.cu run without arguments
#   sample_X   ptx-samples/X's first run line, under `ptxi run --sanitize TOOL`
#   sample_X.K its run line K (gpu/jobs/sanitize-more: the async samples)
# The verdict is the list of the first lines of the kernels' records
# (addresses masked, sorted): the kinds, sizes and counts of what was found.
# expected/verdicts/KNOWN lists `TOOL ID why` for
# the few that differ for a reason of the GPU's own. FILTER (a grep -E
# expression on TOOL/ID) runs only some. Exit 77 (skipped) without nvcc.
set -u
. "$(dirname "$0")/common.sh"
# built programs are kept between runs, next to ptxi
bin=$(dirname "$ptxi")/../sanitize-verdicts
mkdir -p "$bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tools=
for t in memcheck racecheck initcheck synccheck; do
  "$ptxi" sanitize --tool $t -- true > /dev/null 2>&1 && tools="$tools $t"
done
echo "tools:$tools"

# The first lines of the records of what kernels did (accesses, frees,
# leaks, hazards, barriers), addresses masked, sorted. Records of failed API
# calls (`Program hit ...`) and the summaries that count them are left out:
# they follow the program's API calls, which check.sh's planted programs test.
verdict() {
  grep -a '^========= [^ ]' "$1" |
    grep -v -e '^========= COMPUTE-SANITIZER' -e '^========= Saved host' -e '^========= Program hit' \
      -e '^========= Target application' -e 'SUMMARY' |
    sed -e 's/0x[0-9a-f]*/0x?/g' | sort
}

# build ID OUT SOURCES... -- FLAGS...: nvcc once (again when a source is newer)
build() {
  local out=$1 dir=$2; shift 2
  local srcs=() flags=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs+=("$1"); shift; done
  shift
  flags=("$@")
  local newer=0
  for s in "${srcs[@]}"; do [ "$dir/$s" -nt "$out" ] && newer=1; done
  [ -x "$out" ] && [ $newer = 0 ] && return 0
  # -L: -lcuda finds ptxi's libcuda.so where no CUDA toolkit is installed
  (cd "$dir" && nvcc "${flags[@]}" -lineinfo -cudart shared -o "$out" "${srcs[@]}" -L"$(dirname "$ptxi")/../lib") > "$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; return 1; }
}

# run TOOL ID OUT: runs the program ID names under `ptxi sanitize --tool TOOL`
run() {
  local tool=$1 id=$2 out=$3 kind=${2%%_*} name=${2#*_}
  case $kind in
  cudart)
    local src=$root/tests/cudart/programs line
    line=$(grep "^$name " "$src/programs.list") || return 1
    set -- $line
    local files=$2; shift 2
    build "$bin/cudart_$name" "$src" $(echo "$files" | tr , ' ') -- "$@" || return 1
    (cd "$src" && timeout 300 "$ptxi" sanitize --tool "$tool" "$bin/cudart_$name" > "$out" 2>&1 < /dev/null) ;;
  debug)
    local src=$root/tests/debug/app files=dbg_app.cu
    [ "$name" = dbg_app2 ] && files="dbg_app.cu dbg_more.cu"
    build "$bin/debug_$name" "$src" $files -- -arch=sm_90 || return 1
    (cd "$src" && timeout 300 "$ptxi" sanitize --tool "$tool" "$bin/debug_$name" > "$out" 2>&1 < /dev/null) ;;
  sanitize)
    build "$bin/sanitize_$name" "$here/programs" "$name.cu" -- -arch=sm_90 || return 1
    (cd "$bin" && timeout 300 "$ptxi" sanitize --tool "$tool" "./sanitize_$name" > "$out" 2>&1 < /dev/null) ;;
  sample)
    # sample_NAME: the first run line; sample_NAME.K: run line K
    local k=1
    case $name in *.*) k=${name##*.}; name=${name%.*} ;; esac
    local dir=$root/ptx-samples/$name line
    [ -f "$dir/run.args" ] || return 1
    line=$(grep -v '^#' "$dir/run.args" | grep -v '^ *$' | sed -n "${k}p")
    rm -rf "$tmp/work"; cp -r "$dir" "$tmp/work"
    # ptxi run prints the banner and the summary itself
    (cd "$tmp/work" && eval "timeout 300 \"$ptxi\" run $name.sm_90.ptx --sanitize $tool $line" > "$out" 2>&1 < /dev/null) ;;
  *) return 1 ;;
  esac
  return 0
}

fail=0 n=0 known=0
for tool in $tools; do
  for want in "$here"/expected/verdicts/$tool/*.out; do
    [ -f "$want" ] || continue
    id=$(basename "$want" .out)
    echo "$tool/$id" | grep -Eq "$filter" || continue
    n=$((n + 1))
    if ! run "$tool" "$id" "$tmp/got"; then
      echo "FAIL $tool $id: cannot build or run"; fail=$((fail + 1)); continue
    fi
    verdict "$want" > "$tmp/want.v"
    verdict "$tmp/got" > "$tmp/got.v"
    if cmp -s "$tmp/want.v" "$tmp/got.v"; then
      echo "ok   $tool $id"
    elif grep -q "^$tool $id " "$here/expected/verdicts/KNOWN" 2>/dev/null; then
      echo "known $tool $id: $(grep "^$tool $id " "$here/expected/verdicts/KNOWN" | cut -d' ' -f3-)"
      known=$((known + 1))
    else
      echo "FAIL $tool $id"; diff "$tmp/want.v" "$tmp/got.v" | head -20
      fail=$((fail + 1))
    fi
  done
done
echo "$n checked, $fail failed, $known known differences"
[ $fail = 0 ]
