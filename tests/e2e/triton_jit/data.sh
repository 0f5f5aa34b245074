# The capture's tensor data (scripts/kerndiff-triton.py snapshot_tensors / launch_data), the
# parts a machine without torch can run: the 1 GiB cap (a tensor past it is not kept, said),
# a tensor that cannot be read is not kept with the reason, scalars are not tensors, and the
# files launch_data writes are named data/NAME.bin with the bytes kept. The GPU half (torch's
# storage read before the launch) is tests/gpu part triton_jit.
td_out="$WORK/td_capture"
mkdir -p "$td_out"
if python3 - "$(dirname "$KD")/kerndiff-triton.py" "$td_out" >"$WORK/td.out" 2>&1 <<'PY'
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("helper", sys.argv[1])
h = importlib.util.module_from_spec(spec)
spec.loader.exec_module(h)

class Storage:
    def __init__(self, n): self.n = n
    def nbytes(self): return self.n

class Tensor:  # what snapshot_tensors asks of a torch tensor, up to reading it
    def __init__(self, n, offset=0): self.n, self.offset = n, offset
    def data_ptr(self): return 0
    def untyped_storage(self): return Storage(self.n)
    def storage_offset(self): return self.offset
    def element_size(self): return 4

got = h.snapshot_tensors(["big", "small", "n"], [Tensor(4096), Tensor(64, offset=4), 7], cap=1024)
assert got["big"] == "not kept: 4096 bytes would pass the capture's 0 MiB for tensor data", got
assert got["small"].startswith("not kept: ") and "torch" in got["small"], got  # no torch here
assert "n" not in got, got
assert h.reach_bytes(Tensor(64, offset=4)) == 48
launch = {"args": [{"name": "x", "kind": "pointer"}, {"name": "y", "kind": "pointer"}, {"name": "n", "kind": "scalar"}]}
h.launch_data(sys.argv[2], launch, {"x": b"\x01\x02\x03\x04", "y": "not kept: why"})
a = {x["name"]: x for x in launch["args"]}
assert a["x"]["data"] == {"file": "data/x.bin", "bytes": 4}, a
assert a["y"]["data"] == {"not_kept": "not kept: why"}, a
assert "data" not in a["n"], a
assert open(os.path.join(sys.argv[2], "data", "x.bin"), "rb").read() == b"\x01\x02\x03\x04"
assert not os.path.exists(os.path.join(sys.argv[2], "data", "y.bin"))
print("ok")
PY
then ok "td: tensor data kept, capped, refused with reasons, written as data/NAME.bin"
else fail "td: tensor data" "$WORK/td.out"; fi
