#!/usr/bin/env python3
"""cuda-samples-sweep.py: build NVIDIA's cuda-samples for sm_90 against the
CUDA runtime as a shared library and run every one on ptxi's libcudart.so.13 /
libcuda.so.1.

    tools/cuda-samples-sweep.py build SAMPLES OUT [-j N] [--only NAME,...]
    tools/cuda-samples-sweep.py run   SAMPLES OUT --lib DIR [-j N] [--timeout S]
                                      [--only NAME,...] [--new] [--shard K/N]
    tools/cuda-samples-sweep.py report OUT [--markdown FILE] [--slowest N]

SAMPLES is a checkout of github.com/NVIDIA/cuda-samples (it is written to: each
executable is built next to its sources, where the sample looks for its data
files, as it would after a CMake build). OUT collects the logs and
the results (build.tsv, run.tsv, one log per build and per run).

build: reads each sample's CMakeLists.txt (its add_executable sources,
CUDA_SEPARABLE_COMPILATION, its include folders, the CUDA::cuda_driver / nvrtc /
nvJitLink / libNVVM / OpenMP / pthread libraries and the kernels it compiles to a
.fatbin or .ptx file) and
compiles it with one nvcc command line: `-arch=sm_90` (sm_90 code and its
compute_90 PTX, which is what ptxi loads), `-cudart shared`, `-rdc=true` where
the sample asks for separable compilation (libNVVM's C samples: cc with
-lnvvm -lcuda). A sample that needs a library
ptxi does not provide (cuBLAS, cuFFT, cuRAND's host library, cuSOLVER,
cuSPARSE, NPP, nvJPEG, OpenGL/GLUT, EGL, Vulkan, Direct3D, NvSci, cuDLA, MPI,
LLVM) or two GPUs (the samples' own test_args.json "min_gpus") is listed as
skipped with the reason. `-j` compiles that many samples at once (default 2).

run: runs each built sample in its directory with the arguments of the
samples' test_args.json (every "runs" entry is one run), with
LD_LIBRARY_PATH=--lib, a timeout (default 300 s) and `-j` runs at once
(default 2). A run passes when it exits with status 0 and prints no failure
verdict (a word "FAIL"/"FAILED", "Test failed" or "Result = FAIL", the
samples' own words); exit status 2 is the samples' EXIT_WAIVED. --new runs only
what run.tsv does not list yet (to follow a build that is still going);
--shard K/N runs only every N-th run from the K-th on and records them in
run.K.tsv (N runners at once, or on N machines; report reads them all).

report: prints the summary (pass count, each failure and skip with its
reason, the slowest runs); --markdown writes it as a Markdown table.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ARCH = "sm_90"
NVCC = os.environ.get("NVCC", "nvcc")

# CMake words that name a library (or a platform) that ptxi does not provide.
LACKING = [
    (r"CUDA::cublas", "cuBLAS"),
    (r"CUDA::cufft", "cuFFT"),
    (r"CUDA::curand", "cuRAND host library"),
    (r"CUDA::cusolver", "cuSOLVER"),
    (r"CUDA::cusparse", "cuSPARSE"),
    (r"CUDA::npp", "NPP"),
    (r"CUDA::nvjpeg", "nvJPEG"),
    (r"FreeImage", "FreeImage"),
    (r"OPENGL_|GLUT|glew|GLES", "OpenGL/GLUT"),
    (r"\bEGL", "EGL"),
    (r"[Vv]ulkan", "Vulkan"),
    (r"d3d1|D3D1", "Direct3D (Windows)"),
    (r"NVSCI", "NvSci"),
    (r"CUDLA", "cuDLA (Tegra)"),
    (r"find_package\(MPI", "MPI"),
    (r"llvm_libs", "LLVM development libraries"),
]

# Samples that run no CUDA code of their own, or that CMake only drives as
# tests of another sample, are listed with the reason instead of built.
NOT_PROGRAMS = {
    "ptxgen": "compiles NVVM IR to PTX only (libNVVM); runs no device code",
}

lock = threading.Lock()


def say(*a):
    with lock:
        print(*a, flush=True)


def strip_comments(text):
    return "\n".join(l.split("#", 1)[0] if not l.lstrip().startswith("#")
                     else "" for l in text.splitlines())


def cmake_calls(text, name):
    """Argument lists of every `name(...)` call in text (no nesting needed:
    the samples' calls hold generator expressions, which we do not split)."""
    out = []
    for m in re.finditer(r"\b" + name + r"\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i - 1].split())
    return out


def load_args(samples):
    p = Path(samples) / "test_args.json"
    return json.loads(p.read_text()) if p.exists() else {}


def discover(samples):
    """Every sample: (name, dir, cmake text), in a fixed order."""
    root = Path(samples) / "Samples"
    found = []
    for cm in sorted(root.rglob("CMakeLists.txt")):
        text = strip_comments(cm.read_text(errors="replace"))
        for args in cmake_calls(text, "add_executable"):
            if args:
                found.append((args[0], cm.parent, text))
    return found


def plan(name, d, text, cfg):
    """The build of one sample: ('skip', reason) or ('build', info)."""
    rel = str(d).split("/Samples/", 1)[-1]
    if name in NOT_PROGRAMS:
        return "skip", NOT_PROGRAMS[name]
    if "8_Platform_Specific/Tegra" in rel:
        return "skip", "Tegra only"
    lacking = [why for pat, why in LACKING if re.search(pat, text)]
    if lacking:
        return "skip", "needs " + ", ".join(dict.fromkeys(lacking))
    if cfg.get(name, {}).get("min_gpus", 1) > 1:
        return "skip", "needs %d GPUs" % cfg[name]["min_gpus"]
    if cfg.get(name, {}).get("skip"):
        return "skip", "skipped by the samples' test_args.json"
    srcs = [s for s in cmake_calls(text, "add_executable")[0][1:]
            if not s.startswith("$") and re.search(r"\.(cu|cpp|c|cc)$", s)]
    rdc = bool(re.search(name + r"\s+PROPERTIES\s+CUDA_SEPARABLE_COMPILATION\s+ON",
                         text))
    libs = []
    for pat, lib in [(r"CUDA::cuda_driver|\$\{CUDA_LIB\}", "-lcuda"),
                     (r"CUDA::nvrtc", "-lnvrtc"),
                     (r"nvJitLink", "-lnvJitLink"),
                     (r"\$\{NVVM_LIB\}", "-lnvvm"),
                     (r"PUBLIC\s+pthread|\bpthread\b", "-lpthread"),
                     (r"PUBLIC\s+dl\b|\$\{CMAKE_DL_LIBS\}", "-ldl"),
                     (r"PUBLIC\s+rt\b", "-lrt")]:
        if re.search(pat, text):
            libs.append(lib)
    omp = "OpenMP::" in text
    extra = []  # (kind, kernel source, output name)
    m_src = re.search(r'set\(CUDA_KERNEL_SOURCE\s+"\$\{CMAKE_CURRENT_SOURCE_DIR\}/([^"]+)"', text)
    m_fat = re.search(r'set\(CUDA_FATBIN_FILE\s+"\$\{CMAKE_CURRENT_BINARY_DIR\}/([^"]+)"', text)
    m_ptx = re.search(r'set\(CUDA_PTX_FILE\s+"\$\{CMAKE_CURRENT_BINARY_DIR\}/([^"]+)"', text)
    if m_src and m_fat:
        extra.append(("-fatbin", m_src.group(1), m_fat.group(1)))
    if m_src and m_ptx:
        extra.append(("-ptx", m_src.group(1), m_ptx.group(1)))
    incs = []   # the sample's own include folders (include_directories)
    for call in cmake_calls(text, "include_directories") + cmake_calls(text, "target_include_directories"):
        for arg in call:
            arg = arg.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
            if "$" not in arg and arg not in ("PRIVATE", "PUBLIC", "INTERFACE", name) and (d / arg).is_dir():
                incs.append("-I" + str((d / arg).resolve()))
    defs = []
    if "LIBCUDADEVRT" in text:
        defs.append('-DLIBCUDADEVRT="%s"' % find_cudadevrt())
    return "build", dict(srcs=srcs, rdc=rdc, libs=libs, omp=omp, extra=extra,
                         defs=defs + list(dict.fromkeys(incs)), nvvm="NVVM_LIB" in text)


def find_cudadevrt():
    out = subprocess.run([NVCC, "--dryrun", "-x", "cu", "-", "-o", "/dev/null"],
                         input="", capture_output=True, text=True).stderr
    m = re.search(r"LIBRARIES=\s*\"?-L\"?([^\" ]+)", out)
    for d in ([m.group(1)] if m else []) + ["/usr/local/cuda/lib64",
                                             "/usr/local/cuda/lib"]:
        p = Path(d) / "libcudadevrt.a"
        if p.exists():
            return str(p.resolve())
    return "libcudadevrt.a"


def build_one(name, d, info, common, logdir):
    cmds = []
    base = [NVCC, "-arch=" + ARCH, "-Wno-deprecated-gpu-targets", "-I" + str(common),
            "-I" + str(d)]
    for kind, src, out in info["extra"]:
        cmds.append(base + ["-o", out, kind, src])
    if info["nvvm"]:
        # libNVVM samples are C programs built with the host compiler.
        inc = Path(subprocess.run(["which", NVCC], capture_output=True,
                                  text=True).stdout.strip()).resolve().parent.parent
        cmds.append(["cc", "-std=gnu11", "-I" + str(inc / "include"), "-I" + str(d),
                     "-I" + str(d.parent / "common" / "include")] + info["defs"] +
                    info["srcs"] + ["-o", name, "-L" + str(inc / "lib"),
                                    "-L" + str(inc / "lib64")] + info["libs"])
    else:
        cmd = base + ["-cudart", "shared", "-std=c++17", "--extended-lambda",
                      "-lineinfo"] + info["defs"]
        if info["rdc"]:
            cmd += ["-rdc=true"]
        if info["omp"]:
            cmd += ["-Xcompiler", "-fopenmp"]
        cmd += info["srcs"] + ["-o", name] + info["libs"]
        if info["rdc"]:
            cmd += ["-lcudadevrt"]
        if info["omp"]:
            cmd += ["-lgomp"]
        cmds.append(cmd)
    t0 = time.time()
    ok = True
    with open(logdir / (name + ".build.log"), "w") as log:
        for c in cmds:
            log.write("$ " + " ".join(shlex.quote(x) for x in c) + "\n")
            log.flush()
            r = subprocess.run(c, cwd=d, stdout=log, stderr=subprocess.STDOUT)
            if r.returncode:
                ok = False
                break
    return ok, time.time() - t0


def cmd_build(a):
    samples = Path(a.samples).resolve()
    out = Path(a.out).resolve()
    logdir = out / "logs"
    logdir.mkdir(parents=True, exist_ok=True)
    cfg = load_args(samples)
    only = set(a.only.split(",")) if a.only else None
    rows = {}
    tsv = out / "build.tsv"
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            f = line.split("\t")
            rows[f[0]] = f
    jobs = []
    for name, d, text in discover(samples):
        if only and name not in only:
            continue
        what, info = plan(name, d, text, cfg)
        rel = str(d.relative_to(samples))
        if what == "skip":
            rows[name] = [name, rel, "skipped", info]
        else:
            jobs.append((name, d, info, rel))

    def work(j):
        name, d, info, rel = j
        ok, t = build_one(name, d, info, samples / "Common", logdir)
        reason = "" if ok else last_error(logdir / (name + ".build.log"))
        say("%-40s %s %.0fs %s" % (name, "built" if ok else "BUILD FAILED", t, reason))
        with lock:
            rows[name] = [name, rel, "built" if ok else "build-failed", reason]
            write_tsv(tsv, rows)

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(work, jobs))
    write_tsv(tsv, rows)


def last_error(log):
    lines = [l for l in log.read_text(errors="replace").splitlines()
             if re.search(r"error|undefined reference", l)]
    return (lines[0] if lines else "see log")[:200]


def write_tsv(path, rows):
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join("\t".join(r) + "\n" for _, r in sorted(rows.items())))
    tmp.replace(path)


def classify(rc, text, timed_out):
    if timed_out:
        return "timeout"
    if rc == 2:
        return "waived"
    if rc == 0 and not re.search(r"\bFAIL(ED)?\b|Test failed|Result = FAIL", text):
        return "pass"
    return "fail"


def run_one(exe, args, timeout, env, logpath):
    t0 = time.time()
    with open(logpath, "w") as log:
        log.write("$ ./%s %s\n" % (exe.name, " ".join(args)))
        log.flush()
        p = subprocess.Popen(["./" + exe.name] + args, cwd=exe.parent, env=env,
                             stdout=log, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            rc = p.wait(timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rc = p.wait()
            timed_out = True
    return rc, timed_out, time.time() - t0


def cmd_run(a):
    samples = Path(a.samples).resolve()
    out = Path(a.out).resolve()
    logdir = out / "logs"
    cfg = load_args(samples)
    only = set(a.only.split(",")) if a.only else None
    env = dict(os.environ)
    lib = str(Path(a.lib).resolve())
    env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"]
                                    if env.get("LD_LIBRARY_PATH") else "")
    shard, nshards = (int(x) for x in a.shard.split("/")) if a.shard else (0, 1)
    tsv = out / ("run.tsv" if nshards == 1 else "run.%d.tsv" % shard)
    rows = {}
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            f = line.split("\t")
            rows[f[0]] = f
    done = set(load_runs(out))
    tasks = []
    for line in (out / "build.tsv").read_text().splitlines():
        name, rel, status, _ = line.split("\t")
        if status != "built" or (only and name not in only):
            continue
        c = cfg.get(name, {})
        runs = [r.get("args", []) for r in c.get("runs", []) if not r.get("skip")] \
            or [c.get("args", [])]
        for i, args in enumerate(runs):
            key = name if len(runs) == 1 else "%s#%d" % (name, i + 1)
            if a.new and (key in rows or key in done):
                continue
            tasks.append((key, samples / rel / name, args))
    tasks = tasks[shard::nshards]

    def work(t):
        key, exe, args = t
        logpath = logdir / (key.replace("#", ".run") + ".run.log")
        rc, to, wall = run_one(exe, args, a.timeout, env, logpath)
        text = logpath.read_text(errors="replace")
        verdict = classify(rc, text, to)
        reason = "" if verdict == "pass" else why(text, rc, to, a.timeout)
        say("%-40s %-8s %7.1fs %s" % (key, verdict, wall, reason))
        with lock:
            rows[key] = [key, verdict, "%.1f" % wall, str(rc), " ".join(args), reason]
            write_tsv(tsv, rows)

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(work, tasks))
    write_tsv(tsv, rows)


def load_runs(out):
    """Every run recorded under out: run.tsv, then the shards' run.K.tsv."""
    rows = {}
    for tsv in [out / "run.tsv"] + sorted(out.glob("run.*.tsv")):
        if tsv.exists():
            for line in tsv.read_text().splitlines():
                f = line.split("\t")
                rows[f[0]] = f
    return rows


def why(text, rc, timed_out, timeout):
    if timed_out:
        return "no result after %d s" % timeout
    lines = text.splitlines()[1:]
    pick = [l for l in lines if re.search(
        r"ptxi|error|Error|ERROR|FAIL|not supported|waiv|Waiv|requires|mismatch|"
        r"abort|Abort|Assertion|Segmentation|terminate", l)
        and "cuGetExportTable" not in l]   # NVRTC's query of the driver: a notice
    msg = (pick[0] if pick else (lines[-1] if lines else "no output")).strip()
    sig = ""
    if rc < 0:
        sig = " (signal %s)" % signal.Signals(-rc).name
    return (msg[:220] + sig).replace("\t", " ")


def cmd_report(a):
    out = Path(a.out)
    builds = [l.split("\t") for l in (out / "build.tsv").read_text().splitlines()]
    runs = sorted(load_runs(out).values())
    by_sample = {}
    for r in runs:
        by_sample.setdefault(r[0].split("#")[0], []).append(r)
    skipped = [b for b in builds if b[2] == "skipped"]
    bfail = [b for b in builds if b[2] == "build-failed"]
    built = [b for b in builds if b[2] == "built"]
    passed = [b for b in built if by_sample.get(b[0]) and
              all(r[1] == "pass" for r in by_sample[b[0]])]
    notpass = [b for b in built if b not in passed]
    L = []
    L.append("%d samples: %d built, %d skipped, %d failed to build." %
             (len(builds), len(built), len(skipped), len(bfail)))
    L.append("On ptxi: **%d of %d built samples pass** (%d runs, %d pass)." %
             (len(passed), len(built), len(runs),
              sum(r[1] == "pass" for r in runs)))
    L.append("")
    L.append("## Samples that do not pass")
    L.append("")
    L.append("| sample | verdict | time (s) | reason |")
    L.append("|---|---|---|---|")
    for b in bfail:
        L.append("| %s | build failed | | %s |" % (b[0], md(b[3])))
    for b in notpass:
        for r in by_sample.get(b[0], [[b[0], "not run", "", "", "", ""]]):
            if r[1] != "pass":
                L.append("| %s | %s | %s | %s |" % (r[0], r[1], r[2], md(r[5])))
    L.append("")
    L.append("## Slowest runs")
    L.append("")
    L.append("| sample | verdict | time (s) |")
    L.append("|---|---|---|")
    for r in sorted(runs, key=lambda r: -float(r[2]))[:a.slowest]:
        L.append("| %s | %s | %s |" % (r[0], r[1], r[2]))
    L.append("")
    L.append("## Slowest passing runs")
    L.append("")
    L.append("| sample | time (s) |")
    L.append("|---|---|")
    for r in sorted((r for r in runs if r[1] == "pass"), key=lambda r: -float(r[2]))[:a.slowest]:
        L.append("| %s | %s |" % (r[0], r[2]))
    L.append("")
    L.append("## Passing samples")
    L.append("")
    L.append(", ".join(b[0] for b in passed))
    L.append("")
    L.append("## Skipped (not built)")
    L.append("")
    L.append("| sample | reason |")
    L.append("|---|---|")
    for b in skipped:
        L.append("| %s | %s |" % (b[0], md(b[3])))
    text = "\n".join(L) + "\n"
    if a.markdown:
        Path(a.markdown).write_text(text)
    else:
        sys.stdout.write(text)


def md(s):
    return s.replace("|", "\\|")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("samples")
    b.add_argument("out")
    b.add_argument("-j", "--jobs", type=int, default=2)
    b.add_argument("--only")
    r = sub.add_parser("run")
    r.add_argument("samples")
    r.add_argument("out")
    r.add_argument("--lib", required=True)
    r.add_argument("-j", "--jobs", type=int, default=2)
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("--only")
    r.add_argument("--new", action="store_true",
                   help="only the runs that run.tsv does not list yet")
    r.add_argument("--shard", help="K/N: only every N-th run from the K-th on, "
                   "recorded in run.K.tsv (runs on several machines or at once)")
    s = sub.add_parser("report")
    s.add_argument("out")
    s.add_argument("--markdown")
    s.add_argument("--slowest", type=int, default=10)
    a = p.parse_args()
    {"build": cmd_build, "run": cmd_run, "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    main()
