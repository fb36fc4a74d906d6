"""test_nvrtc_c.py CC CUDA_INCLUDE_DIR — builds nvrtc_dot.c, a plain C program using NVRTC
and the driver API, against the nvidia-cuda-nvrtc wheel and ptxi's libcuda.so.1, and runs
it (it inherits `ptxi exec`'s environment)."""
import glob
import os
import subprocess
import sys

import harness as h

cc, cuda_include = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
ptxi_lib = os.environ["LD_LIBRARY_PATH"].split(":")[0]   # `ptxi exec` puts ptxi's first


@h.kernel
def nvrtc_c_program():
    wheel = glob.glob(os.path.join(sys.prefix, "lib", "python3*", "site-packages", "nvidia", "cu13"))
    if not wheel:
        raise AssertionError("the nvidia-cuda-nvrtc wheel is not in " + sys.prefix)
    exe = os.path.join(h.work_dir("nvrtc_c"), "nvrtc_dot")
    build = [cc, "-std=c11", "-O1", "-o", exe, os.path.join(here, "nvrtc_dot.c"),
             "-I" + cuda_include, "-I" + os.path.join(wheel[0], "include"),
             os.path.join(wheel[0], "lib", "libnvrtc.so.13"), "-Wl,-rpath," + os.path.join(wheel[0], "lib"),
             os.path.join(ptxi_lib, "libcuda.so.1"), "-lm"]
    subprocess.run(build, check=True)
    # libnvrtc opens libnvrtc-builtins by name at run time; ptxi's libraries stay first
    env = dict(os.environ, LD_LIBRARY_PATH=os.environ["LD_LIBRARY_PATH"] + ":" + os.path.join(wheel[0], "lib"))
    run = subprocess.run([exe], capture_output=True, text=True, timeout=300, env=env)
    sys.stderr.write(run.stderr)
    if run.returncode != 0 or run.stdout.strip() != "ok":
        raise AssertionError(f"nvrtc_dot exited {run.returncode}: {run.stdout}")


h.finish()
