#!/usr/bin/env python3
"""probe.py — run on a machine with nvcc (no GPU needed): generates the table
program, assembles each part with ptxas for sm_90 and appends every form ptxas
rejects to skip.txt with its message, until everything assembles."""
import os, re, subprocess, sys, tempfile
here = os.path.dirname(os.path.abspath(__file__))
while True:
    d = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(here, "gen.py"), d], check=True)
    names = [l.split()[0] for l in subprocess.run([sys.executable, os.path.join(here, "gen.py"), d, "--list"],
                                                  capture_output=True, text=True).stdout.splitlines()]
    bad = {}
    for p in range(8):
        cu, ptx = os.path.join(d, "k%d.cu" % p), os.path.join(d, "k%d.ptx" % p)
        # nvcc -ptx still writes the PTX when its ptxas check fails
        err = subprocess.run(["nvcc", "-arch=sm_90", "-ptx", cu, "-o", ptx], capture_output=True, text=True).stderr
        lines = open(ptx).read().split("\n")
        for m in re.finditer(r"line (\d+); error\s*:\s*(.*)", err):
            ln = int(m.group(1))
            k = next(int(re.search(r"_Z\d+k(\d+)", lines[i]).group(1)) for i in range(ln - 1, -1, -1)
                     if ".entry" in lines[i])
            bad.setdefault(names[k], m.group(2).strip())
    if not bad:
        break
    with open(os.path.join(here, "skip.txt"), "a") as fh:
        for n, e in bad.items():
            fh.write("%s  # %s\n" % (n, e))
    print("skipped", len(bad))
