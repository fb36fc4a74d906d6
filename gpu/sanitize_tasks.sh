# sanitize_tasks.sh — sourced by the compute-sanitizer GPU jobs (gpu/jobs/sanitize_verdicts,
# gpu/jobs/sanitize-more) in their folder: sets ROOT (the repository), PROGS (the
# planted programs: the job's programs/ when it has one, else tests/sanitize/programs),
# CS (compute-sanitizer) and bin (a scratch folder, removed at exit).
# `q OUT-BASE DIR TIMEOUT COMMAND...` adds a run to the file $tasks; run_tasks runs
# them 12 at once (one GPU, many processes), each in DIR with its output in
# OUT-BASE.out and its exit status in OUT-BASE.rc.
set -u
here=$(pwd)
ROOT=$(cd ../../.. && pwd)
PROGS=$here/programs; [ -d "$PROGS" ] || PROGS=$ROOT/tests/sanitize/programs
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CS=compute-sanitizer
command -v $CS >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
export CS
bin=$(mktemp -d)
export bin
trap 'rm -rf "$bin"' EXIT
tasks=$bin/tasks
: > "$tasks"
q() { printf '%q ' "$@" >> "$tasks"; echo >> "$tasks"; }
one() {
  out=$1 dir=$2 lim=$3; shift 3
  start=$(date +%s)
  (cd "$dir" && timeout "$lim" "$@" > "$out.out" 2>&1 < /dev/null; echo $? > "$out.rc")
  echo "$(basename "$(dirname "$out")")/$(basename "$out") rc=$(cat "$out.rc") $(( $(date +%s) - start ))s $(grep -h 'SUMMARY' "$out.out" | tr '\n' ' ')"
}
run_tasks() {
  export -f one
  local start=$(date +%s)
  xargs -P 12 -d '\n' -n 1 bash -c 'eval "one $1"' _ < "$tasks"
  echo "all runs: $(( $(date +%s) - start ))s"
}
