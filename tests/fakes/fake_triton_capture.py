#!/usr/bin/env python3
"""Test double for kerndiff-triton.py's `capture` (tests/e2e/hostile/lead_capture.sh): writes
the captured launch that $KD_FAKE_LAUNCH holds (JSON text, any shape, malformed on purpose)
with a garbage cubin, as a damaged or hostile capture or cache entry would be; every other
command goes to the real helper in $KD_REAL_HELPER. Never a stand-in for a real capture."""
import json
import os
import sys

if len(sys.argv) == 6 and sys.argv[1] == "capture":
    out = sys.argv[5]
    os.makedirs(out, exist_ok=True)
    for name, data in (("kernel.cubin", b"\x7fELF not a cubin"), ("kernel.ptx", b".version 8.0\n.target sm_90\n.address_size 64\n"
                                               b".visible .entry add_kernel(\n\t.param .u64 add_kernel_param_0\n)\n{\n\tret;\n}\n"),
                       ("metadata.json", b'{"name": "add_kernel", "num_warps": 4, "shared": 0}')):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    with open(os.path.join(out, "launch.json"), "w") as f:
        f.write(os.environ.get("KD_FAKE_LAUNCH", "{}"))
    sys.exit(0)
os.execv(sys.executable, [sys.executable, os.environ["KD_REAL_HELPER"]] + sys.argv[1:])
