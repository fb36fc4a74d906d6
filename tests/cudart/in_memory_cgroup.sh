#!/bin/sh
# in_memory_cgroup.sh BYTES COMMAND [ARGS...] — runs COMMAND in a new memory cgroup
# limited to BYTES (cgroup v2, else v1, else systemd-run), removes the cgroup and
# exits with COMMAND's status; exits 77 when no memory-limited cgroup can be made here.
limit=$1
shift

# The mount point of a cgroup hierarchy: v2 (cgroup2), or v1 with the memory controller.
mount_of() {
    awk -v want="$1" '{
        for (i = 7; i <= NF && $i != "-"; i++) ;
        if (want == "cgroup2" && $(i + 1) == "cgroup2") { print $5; exit }
        if (want == "memory" && $(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,memory,/) { print $5; exit }
    }' /proc/self/mountinfo
}

run_in() {   # DIR COMMAND...: move a shell into DIR, then exec the command there
    d=$1
    shift
    sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$d" "$@"
}

try_dir() {   # DIR LIMIT-FILE
    dir=$1/ptxi-memory-limit-$$
    mkdir "$dir" 2>/dev/null || return 1
    if [ -f "$dir/$2" ] && echo "$limit" > "$dir/$2" 2>/dev/null; then
        return 0
    fi
    rmdir "$dir"
    return 1
}

v2=$(mount_of cgroup2)
v1=$(mount_of memory)
made=
if [ -n "$v2" ]; then
    own=$(sed -n 's/^0:://p' /proc/self/cgroup)
    if grep -qw memory "$v2$own/cgroup.subtree_control" 2>/dev/null || \
       echo +memory > "$v2$own/cgroup.subtree_control" 2>/dev/null; then
        try_dir "$v2$own" memory.max && made=$dir
    fi
fi
if [ -z "$made" ] && [ -n "$v1" ]; then
    own=$(awk -F: '("," $2 ",") ~ /,memory,/ { print $3 }' /proc/self/cgroup)
    try_dir "$v1$own" memory.limit_in_bytes && made=$dir
fi
if [ -z "$made" ]; then
    if command -v systemd-run >/dev/null 2>&1 && systemd-run --scope --quiet -p MemoryMax="$limit" true 2>/dev/null; then
        exec systemd-run --scope --quiet -p MemoryMax="$limit" "$@"
    fi
    echo "in_memory_cgroup.sh: cannot make a memory-limited cgroup here" >&2
    exit 77
fi
run_in "$made" "$@"
status=$?
rmdir "$made" 2>/dev/null
exit $status
