"""replay_kdcap.py — what a capture file (docs/CAPTURE.md, format 1 or 2) says, for the GPU must-show
scripts of issue 30 (tests/gpu/replay_*/): its manifest's launch lines and each pointer word with
the allocation it points into.

usage: python3 replay_kdcap.py FILE          prints the manifest's kernel/api/grid/block/cluster lines
                                             and `pointer WORD -> alloc A (SIZE B) + OFFSET`
       python3 replay_kdcap.py FILE --inside  exit 0 when every pointer word points at an offset
                                             > 0 inside its allocation (tensors inside a pool
                                             segment), 1 otherwise
       python3 replay_kdcap.py FILE --triton exit 0 when the file has a Triton section (format 2) for
                                             its kernel, printing its kernel, num_warps, num_stages,
                                             constexprs and scratch pointers; 1 otherwise
       python3 replay_kdcap.py FILE --cluster X Y Z OUT
                                             writes FILE with its cluster line made `cluster X Y Z`
                                             to OUT (the manifest's size and both checksums redone):
                                             a launch the GPU refuses, for the error it must give"""
import os
import struct
import sys
import zlib


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:8] != b"\x89KDCAP\r\n":
        raise SystemExit("not a kerndiff capture file: " + path)
    m, size = struct.unpack_from("<QQ", b, 16)
    return b, m, size


def manifest(path):
    b, m, size = read(path)
    return b[m:m + size].decode("utf-8", "replace").splitlines()


def set_cluster(path, dims, out):
    b, m, size = read(path)
    lines = b[m:m + size].decode("utf-8").split("\n")
    at = [i for i, l in enumerate(lines) if l.startswith("cluster ")]
    if len(at) != 1:
        raise SystemExit("no cluster line in " + path)
    lines[at[0]] = "cluster " + " ".join(str(int(d)) for d in dims)
    man = "\n".join(lines).encode()
    head = bytearray(b[:64])
    struct.pack_into("<QQQ", head, 16, m, len(man), m + len(man))
    struct.pack_into("<I", head, 40, zlib.crc32(man))
    struct.pack_into("<I", head, 60, zlib.crc32(bytes(head[:60])))
    with open(out, "wb") as f:
        f.write(bytes(head) + b[64:m] + man)
    os.chmod(out, 0o600)


def main():
    if len(sys.argv) == 7 and sys.argv[2] == "--cluster":
        set_cluster(sys.argv[1], sys.argv[3:6], sys.argv[6])
        return 0
    lines = manifest(sys.argv[1])
    allocs = [int(l.split()[1]) for l in lines if l.startswith("alloc ")]
    pointers = [tuple(int(v) for v in l.split()[1:4]) for l in lines if l.startswith("pointer ")]
    if len(sys.argv) > 2 and sys.argv[2] == "--triton":
        import json
        t = [l[len("triton "):] for l in lines if l.startswith("triton ")]
        if not t:
            return 1
        # the format's string escapes: \\ and \xNN (json.dumps never writes a raw control byte)
        text = t[0].encode().decode("unicode_escape")
        d = json.loads(text)
        print("triton kernel %s num_warps %s num_stages %s num_ctas %s constexprs %s scratch %s %s" % (
            d["kernel"], d["num_warps"], d["num_stages"], d["num_ctas"], json.dumps(d["constexprs"]),
            d["scratch_pointers"], d.get("scratch_sizes")))
        return 0
    if len(sys.argv) > 2 and sys.argv[2] == "--inside":
        return 0 if pointers and all(off > 0 and off < allocs[a] for _, a, off in pointers) else 1
    for l in lines:
        if l.split(" ")[0] in ("kernel", "api", "nth", "grid", "block", "cluster", "smem", "params"):
            print(l)
    for word, a, off in pointers:
        print("pointer %d -> alloc %d (%d B) + %d" % (word, a, allocs[a], off))
    return 0


if __name__ == "__main__":
    sys.exit(main())
