"""kdcap_write.py — writes a capture file (docs/CAPTURE.md, format 1) of a launch described in
JSON, for e2e checks of launches no fixture holds (a Triton kernel's, tensors inside one pool
segment). A second writer, from the spec alone: kerndiff's reader (capture/file.c) checking what
it writes also checks that the spec says what the reader does. Blobs are stored raw.

usage: python3 kdcap_write.py SPEC.json OUT.kdcap
SPEC: {"argv": [...], "kernel": S, "demangled": S, "api": S, "grid": [x,y,z], "block": [...],
       "cluster": [...], "params": [[offset, size], ...], "paramdata": HEX,
       "allocs": [{"size": N, "before": HEX, "after": HEX}], "pointers": [[word, alloc, offset], ...],
       "triton": {...} (optional: format 2's Triton section, written as given)}"""
import json
import struct
import sys
import zlib


def main():
    spec = json.load(open(sys.argv[1]))
    body = bytearray(64)
    version = 2 if "triton" in spec else 1
    lines = ["kerndiff-capture %d" % version, "argc %d" % len(spec["argv"])] + ["arg " + a for a in spec["argv"]]
    lines += ["kernel " + spec["kernel"], "demangled " + spec["demangled"], "api " + spec["api"], "nth 1",
              "time 1764086400", "gpu NVIDIA H100 80GB HBM3", "sm 90"]
    for key in ("grid", "block", "cluster"):
        lines.append(key + " %d %d %d" % tuple(spec[key]))
    data = bytes.fromhex(spec["paramdata"])
    lines += ["smem 0", "params %d %d" % (len(spec["params"]), len(data))]
    lines += ["param %d %d" % tuple(p) for p in spec["params"]]
    lines += ["paramdata " + data.hex(), "allocs %d" % len(spec["allocs"])]
    for a in spec["allocs"]:
        lines.append("alloc %d 0 %d" % (a["size"], a["size"]))
        for when in ("before", "after"):
            blob = bytes.fromhex(a[when])
            assert len(blob) == a["size"], when
            crc = "%08x" % zlib.crc32(blob)
            lines.append("%s raw %d %d %s %s" % (when, len(body), len(blob), crc, crc))
            body += blob
    lines.append("pointers %d" % len(spec["pointers"]))
    lines += ["pointer %d %d %d" % tuple(p) for p in spec["pointers"]]
    if version == 2:  # the section's JSON, escaped as the format's strings are
        text = spec["triton"] if isinstance(spec["triton"], str) else json.dumps(spec["triton"])
        lines.append("triton " + "".join("\\\\" if ch == "\\" else "\\x%02x" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7f
                                         else ch for ch in text))
    lines.append("end")
    manifest = ("\n".join(lines) + "\n").encode()
    m = len(body)
    body += manifest
    body[0:8] = b"\x89KDCAP\r\n"
    struct.pack_into("<IIQQQI", body, 8, version, 64, m, len(manifest), len(body), zlib.crc32(manifest))
    struct.pack_into("<I", body, 60, zlib.crc32(bytes(body[:60])))
    with open(sys.argv[2], "wb") as f:
        f.write(body)


if __name__ == "__main__":
    main()
