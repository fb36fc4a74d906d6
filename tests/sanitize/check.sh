#!/bin/sh
# check.sh PTXI — `ptxi sanitize` against what compute-sanitizer printed on an H100
# (expected/, recorded by gpu/jobs/sanitize):
#  1. each memcheck, racecheck and synccheck program of programs/programs.list, built with
#     `nvcc -arch=sm_90 -lineinfo -cudart shared`: the same records line by line
#     (addresses and offsets masked, host frames left out) and the same exit status;
#  2. no false positives: the first run line of every ptx-sample under
#     `ptxi run --sanitize memcheck`, and the clean tests/cudart programs under
#     `ptxi sanitize`, give no kernel record (compute-sanitizer gave none either).
# Exit 77 (skipped) without nvcc.
set -u
ptxi=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v nvcc > /dev/null || { echo "no nvcc: skipped"; exit 77; }
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

grep -v '^#' "$here/programs/programs.list" | while read -r id tool extra; do
  [ -n "$id" ] || continue
  case $tool in memcheck|racecheck|synccheck) ;; *) continue ;; esac
  nvcc -arch=sm_90 -lineinfo -cudart shared -o "$tmp/$id" "$here/programs/$id.cu" || { echo "FAIL $id: build"; echo x >> "$tmp/failed"; continue; }
  (cd "$tmp" && "$ptxi" sanitize --tool "$tool" $extra "./$id" > "$tmp/$id.out" 2>&1; echo $? > "$tmp/$id.rc")
  mask=$(cat "$here/programs/$id.mask" 2>/dev/null || echo 's/^//')
  norm "$here/expected/$id.out" "$mask" > "$tmp/$id.want"
  norm "$tmp/$id.out" "$mask" > "$tmp/$id.got"
  if ! diff -u "$tmp/$id.want" "$tmp/$id.got" || ! cmp -s "$here/expected/$id.rc" "$tmp/$id.rc"; then
    echo "FAIL $id"; echo x >> "$tmp/failed"
  else
    echo "ok   $id"
  fi
done

for dir in "$root"/ptx-samples/*/; do
  name=$(basename "$dir")
  [ -f "$dir/run.args" ] || continue
  # compute-sanitizer's verdict on the GPU: no kernel record
  grep -q '^========= Invalid ' "$here/expected/clean/sample_$name.out" 2>/dev/null && continue
  line=$(grep -v '^#' "$dir/run.args" | grep -v '^ *$' | head -1)
  rm -rf "$tmp/work"; cp -r "$dir" "$tmp/work"
  out=$(cd "$tmp/work" && eval "timeout 120 \"$ptxi\" run $name.sm_90.ptx --sanitize memcheck $line" 2>&1)
  if echo "$out" | grep -q '^========= Invalid'; then
    echo "FAIL sample $name: a false positive"; echo "$out" | head -20; echo x >> "$tmp/failed"
  fi
done
echo "ptx-samples checked"

src=$root/tests/cudart/programs
for id in vadd memcpy symbols streams launch managed device attrs; do
  grep -q '^========= Invalid ' "$here/expected/clean/cudart_$id.out" && continue
  line=$(grep "^$id " "$src/programs.list") || continue
  set -- $line
  file=$2; shift 2
  (cd "$src" && nvcc "$@" -lineinfo -cudart shared -o "$tmp/c_$id" $(echo "$file" | tr , ' ')) || continue
  (cd "$src" && timeout 120 "$ptxi" sanitize "$tmp/c_$id" > "$tmp/c_$id.out" 2>&1 < /dev/null)
  if grep -q '^========= Invalid' "$tmp/c_$id.out"; then
    echo "FAIL cudart $id: a false positive"; grep -A6 '^========= Invalid' "$tmp/c_$id.out" | head -20; echo x >> "$tmp/failed"
  else
    echo "ok   cudart $id"
  fi
done
[ ! -f "$tmp/failed" ]
