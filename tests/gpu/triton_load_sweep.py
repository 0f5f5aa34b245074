"""The autotuned matmul under each --load against triton.testing.do_bench (issue 26): which load puts
kerndiff's clock where do_bench's is. usage: python3 tests/gpu/triton_load_sweep.py KERNDIFF WORKDIR (from the repo root, on a GPU)."""
import importlib.util, json, os, subprocess, sys, statistics, time
import triton, triton.testing
KD = sys.argv[1]; W = sys.argv[2]
HERE = "tests/gpu/triton_jit"
spec = importlib.util.spec_from_file_location("mm", os.path.join(HERE, "matmul_autotune.py")); mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
inputs = mod.make_inputs(); got = mod.the_launch(inputs)
again = (got[1] if isinstance(got, tuple) else (lambda: mod.the_launch(inputs)))
def kd(extra):
    out = os.path.join(W, "r.json")
    p = subprocess.run([KD, "--no-ncu", "--no-check", "--max-time", "3", *extra, "--json=" + out, os.path.join(HERE, "matmul_autotune.py"), os.path.join(HERE, "matmul_autotune.py")], capture_output=True, text=True)
    try:
        d = json.load(open(out)); return d["runtime"]["sides"][0]["summary_ns"]["median"] / 1e3
    except Exception as e:
        return "exit %d %s" % (p.returncode, (p.stderr or "")[-200:])
for rnd in range(2):
    for label, extra in (("single", []), ("sustained:10", ["--load", "sustained:10"]), ("sustained:25", ["--load", "sustained:25"]), ("sustained:50", ["--load", "sustained:50"]), ("sustained (100)", ["--load", "sustained"])):
        print("round %d kerndiff %-16s median %s us" % (rnd, label, kd(extra)), flush=True)
    for rep in (20, 100, 1000):
        print("round %d do_bench rep=%-5d median %.1f us" % (rnd, rep, triton.testing.do_bench(again, rep=rep, return_mode="median") * 1e3), flush=True)
