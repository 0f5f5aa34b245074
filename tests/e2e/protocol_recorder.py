#!/usr/bin/env python3
"""A recorder of what kerndiff tells a harness child, in front of the real (simulated) harness.

usage: protocol_recorder.py HARNESS LOG [--per-child] [--cubin-digests] -- HARNESS_ARGS...

Every line kerndiff writes to the child's stdin is appended to LOG as sent, then passed on to
HARNESS (started with HARNESS_ARGS); the harness's replies go straight back to kerndiff.
  --per-child      each logged line starts with this recorder's pid ("PID LINE"), so that the
                   lines of several children can be told apart
  --cubin-digests  after a `load cubin PATH` line, log `cubin-digest PATH DIGEST`: the first 16
                   hex digits of the file's SHA-256 at that moment ("missing" if unreadable)
The recorder ends when the harness does (kerndiff keeps the pipe open until its child exits),
with the harness's exit status. tests/e2e/protocol_recorder.sh installs it (record_protocol).
"""
import hashlib
import os
import subprocess
import sys
import threading


def main(argv):
    if "--" not in argv or argv.index("--") < 2:
        sys.stderr.write(__doc__)
        return 2
    cut = argv.index("--")
    harness, log_path, flags = argv[0], argv[1], argv[2:cut]
    unknown = [f for f in flags if f not in ("--per-child", "--cubin-digests")]
    if unknown:
        sys.stderr.write("protocol_recorder.py: unknown option %s\n" % unknown[0])
        return 2
    prefix = ("%d " % os.getpid()).encode() if "--per-child" in flags else b""
    digests = "--cubin-digests" in flags

    child = subprocess.Popen([harness] + argv[cut + 1:], stdin=subprocess.PIPE)
    threading.Thread(target=lambda: os._exit(child.wait()), daemon=True).start()
    with open(log_path, "ab") as log:
        for line in iter(sys.stdin.buffer.readline, b""):
            log.write(prefix + line)
            words = line.split()
            if digests and len(words) >= 3 and words[:2] == [b"load", b"cubin"]:
                try:
                    with open(words[2], "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()[:16]
                except OSError:
                    digest = "missing"
                log.write(prefix + b"cubin-digest " + words[2] + b" " + digest.encode() + b"\n")
            log.flush()
            child.stdin.write(line)
            child.stdin.flush()
    child.stdin.close()
    os._exit(child.wait())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
