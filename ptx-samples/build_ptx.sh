#!/usr/bin/env bash
# Regenerates the committed PTX of every sample (or of the samples named):
# <name>.sm_90.ptx and one older target (sm_75, or what the file `alt_arch` in
# the sample names; `none` for sm_90-only features), with -lineinfo so the .loc lines stay. The .file path of
# the sample's own source is made relative so the PTX does not name this machine.
# A sample's optional `ptx.grep` lists patterns its sm_90 PTX must contain, and
# its optional `nvcc.flags` adds options to nvcc; its optional `sm90_arch` names
# the architecture its sm_90 PTX is made for (sm_90a for wgmma).
set -eu
cd "$(dirname "$0")"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(for d in */; do echo "${d%/}"; done))
for name in "${names[@]}"; do
  [ -f "$name/$name.cu" ] || continue
  alt=$(cat "$name/alt_arch" 2>/dev/null || echo sm_75)
  flags=$(cat "$name/nvcc.flags" 2>/dev/null || true)
  sm90=$(cat "$name/sm90_arch" 2>/dev/null || echo sm_90)
  (
    cd "$name"
    rm -f "$name".sm_*.ptx
    for arch in sm_90 ${alt/none/}; do
      target=$arch; [ "$arch" = sm_90 ] && target=$sm90
      nvcc -ptx -arch=$target -lineinfo $flags -o "$name.$arch.ptx" "$name.cu"
      sed -i "s|\"$PWD/$name.cu\"|\"$name.cu\"|" "$name.$arch.ptx"
      ptxas -arch=$target -o /dev/null "$name.$arch.ptx"   # inline asm is only checked here
    done
    if [ -f ptx.grep ]; then
      while read -r pat; do
        grep -q -- "$pat" "$name.sm_90.ptx" || { echo "$name: PTX lacks '$pat'" >&2; exit 1; }
      done < ptx.grep
    fi
  )
  echo "$name: sm_90 $alt"
done
