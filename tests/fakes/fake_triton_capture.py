#!/usr/bin/env python3
"""Test double for kerndiff-triton.py's `capture` (tests/e2e/hostile/lead_capture.sh): writes
the captured launch that $KD_FAKE_LAUNCH holds (JSON text, any shape, malformed on purpose)
with a garbage cubin, as a damaged or hostile capture or cache entry would be; every other
command goes to the real helper in $KD_REAL_HELPER. Never a stand-in for a real capture.
$KD_FAKE_DATA (JSON {name: bytes | "reason"}) adds captured tensor data: the real helper's
launch_data() writes data/NAME.bin of that many bytes (0x3f each: 0.74 as fp32, 1.9 as fp16)
or records why a tensor was not kept, into the launch above (which must then be valid JSON)."""
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
    text = os.environ.get("KD_FAKE_LAUNCH", "{}")
    if os.environ.get("KD_FAKE_DATA"):
        import importlib.util
        spec = importlib.util.spec_from_file_location("kerndiff_triton", os.environ["KD_REAL_HELPER"])
        helper = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(helper)
        launch = json.loads(text)
        snapshot = {name: b"\x3f" * got if isinstance(got, int) else got
                    for name, got in json.loads(os.environ["KD_FAKE_DATA"]).items()}
        helper.launch_data(out, launch, snapshot)
        text = json.dumps(launch)
    with open(os.path.join(out, "launch.json"), "w") as f:
        f.write(text)
    sys.exit(0)
os.execv(sys.executable, [sys.executable, os.environ["KD_REAL_HELPER"]] + sys.argv[1:])
