"""harness.py — runs a test script's kernels one by one, compares each result with numpy's
and prints one line per kernel (`ok NAME` / `FAIL NAME: why`); the exit status says
whether all passed. Imported by the test_*.py scripts."""
import os
import sys
import time
import traceback

import numpy as np

_failed = []
_ran = []


def close(name, got, want, rtol=1e-6, atol=0.0):
    """Raises AssertionError with the worst element when got and want differ."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{name}: shape {got.shape}, expected {want.shape}")
    bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        i = np.unravel_index(np.argmax(bad), bad.shape)
        raise AssertionError(f"{name}: {int(bad.sum())} of {bad.size} elements differ, "
                             f"first at {tuple(int(k) for k in i)}: {got[i]!r}, expected {want[i]!r}")


def equal(name, got, want):
    close(name, got, want, rtol=0.0, atol=0.0)


def kernel(fn):
    """Runs fn (one kernel's test) now and records the outcome."""
    t0 = time.time()
    try:
        fn()
    except Exception:   # one kernel's failure does not hide the others'
        _failed.append(fn.__name__)
        print(f"FAIL {fn.__name__} ({time.time() - t0:.1f} s)")
        traceback.print_exc()
    else:
        print(f"ok   {fn.__name__} ({time.time() - t0:.1f} s)")
    _ran.append(fn.__name__)
    sys.stdout.flush()
    return fn


def finish():
    print(f"{len(_ran) - len(_failed)} of {len(_ran)} kernels passed" +
          (f"; failed: {', '.join(_failed)}" if _failed else ""))
    sys.exit(1 if _failed or not _ran else 0)


def work_dir(name):
    """A directory of the build tree for this test's files."""
    d = os.path.join(os.environ.get("PTXI_PY_WORK", "."), name)
    os.makedirs(d, exist_ok=True)
    return d
