#!/bin/sh
# check.sh PTXI [FILTER] — `ptxi sanitize` against what compute-sanitizer printed on
# an H100 (expected/, recorded by gpu/jobs/sanitize and sanitize_verdicts): each
# program of programs/programs.list whose tool ptxi has (FILTER, a grep -E
# expression, picks some), built with `nvcc -arch=sm_90 -lineinfo -cudart shared -lcuda`:
# the same records line by line (addresses and offsets masked, host frames left
# out) and the same exit status. verdicts.sh checks every other test program.
# Exit 77 (skipped) without nvcc.
set -u
. "$(dirname "$0")/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The records only, addresses and offsets masked. Where a line can only differ
# (the nearest allocation to a freed one or to a null pointer is one the driver
# made on the GPU; ptxi names the freed allocation), ID.mask lists it as a sed
# expression applied to both.
norm() {
  grep '^=========' "$1" | grep -v 'Host Frame' | sed -e 's/0x[0-9a-f]*/0x?/g' -e "${2:-s/^//}"
}

# Records of different blocks come in the order their host threads print them: one
# host thread runs the blocks in order, as the GPU recordings list them.
export PTXI_THREADS=1
# the tools this ptxi has (`ptxi sanitize --tool T` refuses the others)
tools=
for t in memcheck racecheck initcheck synccheck; do
  "$ptxi" sanitize --tool $t -- true > /dev/null 2>&1 && tools="$tools $t "
done

grep -v '^#' "$here/programs/programs.list" | while read -r id tool extra; do
  [ -n "$id" ] && echo "$id" | grep -Eq "$filter" || continue
  case "$tools" in *" $tool "*) ;; *) continue ;; esac
  # ID is SRC or SRC.ARG: SRC.cu run with the argument ARG
  src=${id%%.*}; arg=; [ "$src" = "$id" ] || arg=${id#*.}
  [ -x "$tmp/$src" ] || nvcc -arch=sm_90 -lineinfo -cudart shared -o "$tmp/$src" "$here/programs/$src.cu" -L"$(dirname "$ptxi")/../lib" -lcuda || { echo "FAIL $id: build"; echo x >> "$tmp/failed"; continue; }
  (cd "$tmp" && "$ptxi" sanitize --tool "$tool" $extra "./$src" $arg > "$tmp/$id.out" 2>&1; echo $? > "$tmp/$id.rc")
  mask=$(cat "$here/programs/$id.mask" 2>/dev/null || echo 's/^//')
  norm "$here/expected/$id.out" "$mask" > "$tmp/$id.want"
  norm "$tmp/$id.out" "$mask" > "$tmp/$id.got"
  if ! diff -u "$tmp/$id.want" "$tmp/$id.got" || ! cmp -s "$here/expected/$id.rc" "$tmp/$id.rc"; then
    echo "FAIL $id"; echo x >> "$tmp/failed"
  else
    echo "ok   $id"
  fi
done

[ ! -f "$tmp/failed" ]
