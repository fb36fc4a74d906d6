#!/usr/bin/env bash
# Records the expected results of ptx-samples/ on a real GPU. For every line of
# every sample's run.args, runs gpurun on the sample's sm_90 PTX and on its
# older-target PTX; for every sample with a main.cu, builds and runs the whole
# program. Results land in $RES/<sample>/expected/ exactly as they are to be
# copied into ptx-samples/<sample>/expected/; $RES/summary.txt lists every run
# and $RES/diffs.txt every place where the two PTX targets disagree.
set -u
ROOT=$(cd ../../.. && pwd)
SAMPLES=$ROOT/ptx-samples
RES=${RES:-/tmp/samples-res}
mkdir -p "$RES" && RES=$(cd "$RES" && pwd)
GPURUN=$PWD/gpurun
nvcc -O2 -o "$GPURUN" "$ROOT/gpu/gpurun/gpurun.c" -lcuda || { echo "gpurun build failed"; exit 1; }
only=("$@")   # optional: sample names to record (default: all)

# run_one SAMPLE PTX DEST PREFIX ARGS...: runs gpurun in a scratch copy of the
# sample dir; stores DEST/PREFIX.stdout/.stderr/.rc and each --out file.
run_one() {
  local name=$1 ptx=$2 dest=$3 prefix=$4; shift 4
  local work; work=$(mktemp -d)
  cp -r "$SAMPLES/$name/." "$work/"
  rm -rf "$work/expected"
  mkdir -p "$dest"
  (cd "$work" && timeout 30 "$GPURUN" "$ptx" "$@" > "$dest/$prefix.stdout" 2> "$dest/$prefix.stderr"; echo $? > "$dest/$prefix.rc")
  local prev=""
  for a in "$@"; do
    if [ "$prev" = "--out" ] || [ "$prev" = "-o" ]; then
      local f=${a#*=}
      [ -f "$work/$f" ] && cp "$work/$f" "$dest/$prefix.$(basename "$f")"
    fi
    prev=$a
  done
  rm -rf "$work"
}

for dir in "$SAMPLES"/*/; do
  name=$(basename "$dir")
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  exp=$RES/$name/expected
  rm -rf "$RES/$name"          # no leftovers from an earlier recording
  if [ -f "$dir/run.args" ]; then
    i=0
    while IFS= read -r line || [ -n "$line" ]; do
      [[ -z "${line// }" || "$line" == \#* ]] && continue
      read -r -a args <<< "$line"
      run_one "$name" "$name.sm_90.ptx" "$exp" "$i" "${args[@]}"
      echo "$name[$i] sm_90 rc=$(cat "$exp/$i.rc")" >> "$RES/summary.txt"
      # rc 2 is gpurun refusing the command line, never a GPU result
      [ "$(cat "$exp/$i.rc")" = 2 ] && echo "$name[$i] BAD RUN LINE: $(head -c 200 "$exp/$i.stderr")" >> "$RES/summary.txt"
      for ptx in "$dir"/"$name".sm_*.ptx; do
        arch=$(basename "$ptx" .ptx); arch=${arch##*.}
        [ "$arch" = sm_90 ] && continue
        alt=$RES/$name/alt/$arch
        run_one "$name" "$name.$arch.ptx" "$alt" "$i" "${args[@]}"
        same=yes
        for f in "$alt/$i".*; do
          b=$(basename "$f")
          [ "${b##*.}" = stderr ] && continue
          cmp -s "$f" "$exp/$b" || { same=no; echo "$name[$i] $arch differs in $b" >> "$RES/diffs.txt"; }
        done
        # keep the other target's results only where they differ
        if [ $same = yes ]; then rm -rf "$alt"; else mkdir -p "$exp/$arch"; cp "$alt/$i".* "$exp/$arch/"; fi
        echo "$name[$i] $arch rc=$(cat "$alt/$i.rc" 2>/dev/null || cat "$exp/$i.rc") same=$same" >> "$RES/summary.txt"
      done
      i=$((i + 1))
    done < "$dir/run.args"
    rm -rf "$RES/$name/alt"
  fi
  if [ -f "$dir/main.cu" ]; then
    work=$(mktemp -d)
    cp -r "$dir/." "$work/"
    rm -rf "$work/expected"
    mkdir -p "$exp"
    if (cd "$work" && nvcc -arch=sm_90 -cudart shared -o prog main.cu) > "$exp/build.log" 2>&1; then
      rm -f "$exp/build.log"
      (cd "$work" && timeout 60 ./prog > "$exp/prog.stdout" 2> "$exp/prog.stderr"; echo $? > "$exp/prog.rc")
      echo "$name prog rc=$(cat "$exp/prog.rc")" >> "$RES/summary.txt"
    else
      echo "$name prog BUILD FAILED" >> "$RES/summary.txt"
    fi
    rm -rf "$work"
  fi
done
touch "$RES/diffs.txt"
cat "$RES/summary.txt"
echo "--- differences between targets:"
cat "$RES/diffs.txt"
