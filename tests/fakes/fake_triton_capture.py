#!/usr/bin/env python3
"""Test double for kerndiff-triton.py's `capture` (tests/e2e/hostile/lead_capture.sh): writes
the captured launch that $KD_FAKE_LAUNCH holds (JSON text, any shape, malformed on purpose)
with a garbage cubin, as a damaged or hostile capture or cache entry would be; every other
command goes to the real helper in $KD_REAL_HELPER. Never a stand-in for a real capture.
$KD_FAKE_DATA (JSON {name: bytes | "reason"}) adds captured tensor data: the real helper's
launch_data() writes data/NAME.bin of that many bytes (0x3f each: 0.74 as fp32, 1.9 as fp16)
or records why a tensor was not kept, into the launch above (which must then be valid JSON).
$KD_FAKE_MARKS (a file): each capture appends "start FOLDER PGID" as it begins and "end FOLDER"
as it ends (FOLDER: v1-capture or v2-capture), so a test can see whether the two sides' captures
ran at once; with $KD_FAKE_MARKS_WAIT (seconds) a capture waits, at most that long, until two
captures have started before it ends (two at once: no wait; one after the other: the first ends
only after the wait, after the second never started). $KD_FAKE_HANG=1: after its start mark a
capture starts a child (`sleep`, its pid appended as "child PID") and never ends, as a program
interrupted mid-capture. $KD_FAKE_FAIL (text): a capture of a file whose path contains it fails as
a program that raises before its launch (exit 1, the exception on stderr), after its marks."""
import json
import os
import sys
import time


def mark(text):
    with open(os.environ["KD_FAKE_MARKS"], "a") as f:
        f.write(text + "\n")


if len(sys.argv) == 6 and sys.argv[1] == "capture":
    out = sys.argv[5]
    os.makedirs(out, exist_ok=True)
    folder = os.path.basename(out.rstrip("/"))
    if os.environ.get("KD_FAKE_MARKS"):
        mark("start %s %d" % (folder, os.getpgid(0)))
        if os.environ.get("KD_FAKE_HANG") == "1":
            import subprocess
            child = subprocess.Popen(["sleep", "600"])
            mark("child %d" % child.pid)
            while True:
                time.sleep(60)
        give_up = time.monotonic() + float(os.environ.get("KD_FAKE_MARKS_WAIT", "0"))
        while time.monotonic() < give_up:
            with open(os.environ["KD_FAKE_MARKS"]) as f:
                if sum(line.startswith("start ") for line in f) >= 2:
                    break
            time.sleep(0.05)
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
    if os.environ.get("KD_FAKE_FAIL") and os.environ["KD_FAKE_FAIL"] in sys.argv[2]:
        if os.environ.get("KD_FAKE_MARKS"):
            mark("end %s" % folder)
        sys.stderr.write("RuntimeError: the double fails here\n")
        sys.exit(1)
    with open(os.path.join(out, "launch.json"), "w") as f:
        f.write(text)
    if os.environ.get("KD_FAKE_MARKS"):
        mark("end %s" % folder)
    sys.exit(0)
os.execv(sys.executable, [sys.executable, os.environ["KD_REAL_HELPER"]] + sys.argv[1:])
