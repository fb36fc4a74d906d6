# common.sh — sourced by check.sh and verdicts.sh (arguments PTXI [FILTER]): ptxi's
# absolute path, the filter, this folder and the repository's root; exits 77
# (skipped) without nvcc.
ptxi=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
filter=${2:-.}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v nvcc > /dev/null || { echo "no nvcc: skipped"; exit 77; }
