#!/usr/bin/env python3
"""kerndiff-triton.py: kerndiff's helper for Triton kernels (.py files).

kerndiff runs it from an argument vector (never a shell) and reads JSON on stdout:

  kerndiff-triton.py list FILE
      The @triton.jit kernels of FILE (also under @triton.autotune / @triton.heuristics, and
      made by a module-level `f = triton.jit(f)`),
      found with Python's own `ast` without importing FILE or Triton: each kernel's
      parameters (pointer, scalar or constexpr, with defaults and annotations), which
      pointers it stores to, autotune configs written as literals, and the local modules
      FILE imports (they are part of the build's cache key).
  kerndiff-triton.py version
      Triton's version, read without importing it.
  kerndiff-triton.py heuristics SPEC_JSON
      The meta-parameters @triton.heuristics lambdas compute, without importing Triton:
      SPEC_JSON {"kernel": NAME, "heuristics": [{"name": N, "lambda": SOURCE}], "values":
      {name: value}}. Each lambda's body is evaluated from its AST against the values (and
      the heuristics before it), allowing only arithmetic, comparisons, and/or, x if c else
      y, args["NAME"], min/max/abs/int/bool and triton.next_power_of_2/cdiv; prints
      {name: value}.
  kerndiff-triton.py build FILE KERNEL SPEC_JSON OUTDIR
      Ahead-of-time compile through triton.compile(ASTSource(...), target=GPUTarget(...)),
      which needs no GPU and no torch. SPEC_JSON: {"signature": {name: "*fp32"|"i32"|
      "constexpr"...}, "constexprs": {name: value}, "divisible": [names], "arch": 90,
      "num_warps": 4, "num_stages": 3}. Writes kernel.ptx, kernel.cubin, metadata.json.
      With "instrument": true (and "max_shared": the device's opt-in shared memory per
      block, bytes) the build has Proton's instrumentation on: the kernel's
      triton.profiler.language scopes (pl.enter_scope/exit_scope, pl.scope) become records
      in per-warp circular buffers, and metadata.json's "scopes" lists their names by
      Proton's scope id ([] when the kernel has none). A Triton without Proton's
      instrumentation (before 3.5) builds the plain kernel with "proton": false.

  kerndiff-triton.py capture FILE KERNEL SPEC_JSON OUTDIR
      Runs the user's own code (SPEC_JSON "run": an argument vector; default: this Python on
      FILE, as `python FILE` would) with Triton's JIT watched, and takes the Nth launch
      ("nth", default 1) of KERNEL exactly as Triton makes it: the CompiledKernel its JIT
      compiled for that call (same specialization, num_warps, num_stages, constexprs and
      autotune choice; launches inside the autotuner's benchmarking are not counted), the
      grid, and every argument (tensors: dtype, shape, strides, bytes reachable, alignment;
      scalars: value and type). Writes kernel.cubin, kernel.ptx, metadata.json and
      launch.json into OUTDIR, and each tensor argument's bytes as they were just before the
      launch ran (the storage its kernel can reach) into OUTDIR/data/NAME.bin, up to 1 GiB in
      all (launch.json's args[].data says the file, or why a tensor was not kept), and
      stops the program at once (os._exit) so that whatever it would do next (a
      module-level benchmark) never runs. The watching is installed in
      every Python process of the program through a sitecustomize module on PYTHONPATH
      (the user's own sitecustomize still runs). When the program ends without that
      launch, OUTDIR/seen.json says which kernels it did launch, and how it ended.
      This process exec()s the program: a timeout that ends it ends the program too.

Exit status: 0 ok; 2 usage; 3 Triton cannot be imported; 4 the compile failed (Triton's
message on stderr); 5 an unsupported Triton version; 6 FILE cannot be read or parsed. A capture's program exits
with its own status; OUTDIR/launch.json exists exactly when the launch was taken.
"""
import ast
import copy as copy_module
import json
import os
import sys

SUPPORTED = ((3, 4), (3, 6))  # inclusive: the ASTSource/GPUTarget API and the launch ABI kerndiff uses
LOAD_FUNCS = {"load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
              "atomic_xor", "atomic_xchg", "atomic_cas", "make_block_ptr", "make_tensor_descriptor"}
STORE_FUNCS = {"store", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor",
               "atomic_xchg", "atomic_cas"}


def fail(status, message):
    sys.stderr.write(message.rstrip() + "\n")
    sys.exit(status)


def dotted(node):
    """'triton.jit' for the expression triton.jit, 'jit' for jit; '' for anything else."""
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return base + "." + node.attr if base else ""
    if isinstance(node, ast.Name):
        return node.id
    return ""


def decorator_kind(dec):
    name = dotted(dec.func if isinstance(dec, ast.Call) else dec)
    last = name.rsplit(".", 1)[-1]
    if last.endswith("autotune"):  # a library's own wrapper of Triton's (fla_cache_autotune(configs=...))
        return "autotune"
    return last if last in ("jit", "autotune", "heuristics") else None


def literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None


def heuristics_of(dec):
    """The {name: lambda source} of an @heuristics({...}) / @heuristics(values={...})."""
    arg = dec.args[0] if isinstance(dec, ast.Call) and dec.args else next(
        (k.value for k in (dec.keywords if isinstance(dec, ast.Call) else []) if k.arg == "values"), None)
    if not isinstance(arg, ast.Dict):
        return []
    return [{"name": k.value, "lambda": ast.unparse(v)} for k, v in zip(arg.keys, arg.values)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def autotune_configs(dec):
    """The triton.Config(...) literals of an @autotune(configs=[...]) decorator."""
    configs = []
    for kw in dec.keywords if isinstance(dec, ast.Call) else []:
        if kw.arg == "configs" and not isinstance(kw.value, (ast.List, ast.Tuple)):
            configs.append({"from": ast.unparse(kw.value)})  # computed when the file runs
            continue
        if kw.arg != "configs":
            continue
        for call in kw.value.elts:
            if not isinstance(call, ast.Call):
                continue
            cfg = {"meta": literal(call.args[0]) if call.args else {}}
            for k in call.keywords:
                if k.arg in ("num_warps", "num_stages", "num_ctas"):
                    cfg[k.arg] = literal(k.value)
                elif k.arg == "kwargs":
                    cfg["meta"] = literal(k.value)
            if isinstance(cfg["meta"], dict):
                configs.append(cfg)
    return configs


def leftmost(node, aliases, seen=()):
    """The names an address expression is based on: the leftmost operand of +/- chains,
    through local aliases (p = x_ptr + offs) and make_block_ptr(base=...)."""
    if isinstance(node, ast.Name):
        if node.id in aliases and node.id not in seen:
            out = set()
            for value in aliases[node.id]:
                out |= leftmost(value, aliases, seen + (node.id,))
            return out or {node.id}
        return {node.id}
    if isinstance(node, ast.BinOp):  # x_ptr + offs * stride: the pointer is on the left
        return leftmost(node.left, aliases, seen)
    if isinstance(node, ast.Call):
        for kw in node.keywords:
            if kw.arg == "base":
                return leftmost(kw.value, aliases, seen)
        return leftmost(node.args[0], aliases, seen) if node.args else set()
    if isinstance(node, (ast.Subscript, ast.Attribute)):
        return leftmost(node.value, aliases, seen)
    return set()


def local_assignments(fn):
    """{name: [the expressions assigned to it]} in fn's body: its local aliases (p = x_ptr + offs)."""
    aliases = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    aliases.setdefault(t.id, []).append(node.value)
    return aliases


def address_uses(fn):
    """Names used as addresses (loaded or stored), names stored to, names loaded from."""
    aliases = local_assignments(fn)
    used, stored, loaded = set(), set(), set()
    local = {a.arg for a in fn.args.args} | set(aliases)
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = dotted(node.func).rsplit(".", 1)[-1]
        if func not in LOAD_FUNCS:
            continue
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and \
                node.func.value.id in local:
            # d.load([offsets]), d.store([offsets], v) on a descriptor or block pointer: the
            # object is the address, the first argument its offsets
            target = node.func.value
        else:
            target = node.args[0] if node.args else next((k.value for k in node.keywords
                                                           if k.arg in ("pointer", "base")), None)
        if target is None:
            continue
        names = leftmost(target, aliases)
        used |= names
        if func in STORE_FUNCS:
            stored |= names
        if func not in ("store", "make_block_ptr", "make_tensor_descriptor"):
            loaded |= names  # a load, or an atomic's read-modify-write
    return used, stored, loaded


INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


# Operators Triton applies to integers only: a value loaded and then used with one of them
# came from an integer buffer (lightllm's b_seq_len in tl.cdiv; a float there fails to compile).
INT_ONLY_OPS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)


def index_pointers(fn):
    """Pointers whose loaded values are indices (cu_seqlens, chunk indices, token ids): a value
    loaded through it is cast to an integer type (.to(tl.int32)), or used in an address (another
    load's or store's pointer expression), a range()/tl.arange() bound, tl.cdiv or a bitwise
    operator (INT_ONLY_OPS). Their buffers hold
    integers: a float buffer there makes Triton refuse the arithmetic, or sends the kernel
    anywhere."""
    aliases = local_assignments(fn)

    def loads_in(value):
        """The pointers the loads inside an expression read, and those of them cast to an integer."""
        pointers, cast = set(), set()
        for node in ast.walk(value):
            if not isinstance(node, ast.Call):
                continue
            inner, to_int = node, False
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and node.args:
                inner = node.func.value
                to_int = any(t in ast.unparse(node.args[0]) for t in INT_DTYPES)
            if isinstance(inner, ast.Call) and dotted(inner.func).rsplit(".", 1)[-1] == "load" and inner.args:
                read = leftmost(inner.args[0], aliases)
                pointers |= read
                if to_int:
                    cast |= read
        return pointers, cast

    # what each local holds values loaded through: directly (end = tl.load(CU_SEQLENS + b)) or
    # computed from such a local (rows = end - BLOCK + tl.arange(0, BLOCK)), to a fixed point
    loaded_from, found = {}, set()
    for _ in range(8):
        changed = False
        for node in ast.walk(fn):
            if not isinstance(node, ast.Assign):
                continue
            for t in node.targets:
                pairs = [(t, node.value)]
                if isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and \
                        len(t.elts) == len(node.value.elts):
                    pairs = list(zip(t.elts, node.value.elts))
                for target, value in pairs:
                    pointers, cast = loads_in(value)
                    found |= cast
                    for name in ast.walk(value):
                        if isinstance(name, ast.Name) and name.id in loaded_from:
                            pointers = pointers | loaded_from[name.id]
                    if isinstance(target, ast.Name) and pointers - loaded_from.get(target.id, set()):
                        loaded_from.setdefault(target.id, set()).update(pointers)
                        changed = True
        if not changed:
            break
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = dotted(node.func).rsplit(".", 1)[-1]
        if func in ("load", "store") and node.args:
            used = node.args[0]
        elif func in ("range", "arange", "static_range"):
            used = ast.Tuple(elts=list(node.args), ctx=ast.Load())
        else:
            continue
        for name in ast.walk(used):
            if isinstance(name, ast.Name) and name.id in loaded_from:
                found |= loaded_from[name.id]
    return found | int_only_loads(fn, aliases)


def int_only_loads(fn, aliases):
    """Pointers whose loaded value goes straight into an integer-only operation (tl.cdiv, a
    bitwise operator): `lens = tl.load(p + o)` then `tl.cdiv(lens, BLOCK)`. Only a name bound
    once, to a load whose `other` is no float literal: a kernel whose constexpr branches treat
    one buffer as packed ints in one configuration and floats in another (gemlite's
    `a = (a >> shift) & 15` beside `a = tl.load(..., other=0.)`) keeps the float."""
    bound = {}
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    bound.setdefault(n.id, []).append(node)
    direct = {}
    for name, nodes in bound.items():
        value = nodes[0].value if len(nodes) == 1 and isinstance(nodes[0], ast.Assign) else None
        if isinstance(value, ast.Call) and dotted(value.func).rsplit(".", 1)[-1] == "load" and value.args and \
                not any(k.arg == "other" and isinstance(literal(k.value), float) for k in value.keywords):
            direct[name] = leftmost(value.args[0], aliases)
    found = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, INT_ONLY_OPS):
            used = [node.left, node.right]
        elif isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] == "cdiv":
            used = list(node.args)
        else:
            continue
        for u in used:
            for n in ast.walk(u):
                if isinstance(n, ast.Name) and n.id in direct:
                    found |= direct[n.id]
    return found


def descriptor_params(fn):
    """Parameters that are tensor descriptors made by the caller (TensorDescriptor on the
    host): a method load/store called on the parameter itself, or an annotation naming one."""
    params = {a.arg for a in fn.args.args}
    found = {a.arg for a in fn.args.args if a.annotation is not None and
             "descriptor" in ast.unparse(a.annotation).lower()}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id in params and \
                node.func.attr in ("load", "store", "gather", "scatter", "atomic_add"):
            found.add(node.func.value.id)
    return found


def describe_kernel(fn, decorators):
    used, stored, loaded = address_uses(fn)
    descriptors = descriptor_params(fn)
    indices = index_pointers(fn)
    params = []
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    for a, d in zip(args, defaults):
        ann = ast.unparse(a.annotation) if a.annotation is not None else ""
        if "constexpr" in ann:
            kind = "constexpr"
        elif a.arg in descriptors:
            kind = "descriptor"
        elif "ptr" in a.arg.lower() or "pointer" in ann or a.arg in used:
            kind = "pointer"
        else:
            kind = "scalar"
        params.append({"name": a.arg, "kind": kind, "annotation": ann,
                       "default": ast.unparse(d) if d is not None else None,
                       "stored": kind == "pointer" and a.arg in stored,
                       # loaded too: updated in place (y += x), seeded and compared
                       "loaded": kind == "pointer" and a.arg in loaded,
                       "index": kind == "pointer" and a.arg in indices})
    configs, heuristics = [], []
    for dec in decorators:
        if decorator_kind(dec) == "autotune":
            configs += autotune_configs(dec)
        elif decorator_kind(dec) == "heuristics":  # the outermost computes first
            heuristics += heuristics_of(dec)
    floats = float_uses(fn)
    tiles = arange_uses(fn)
    for p in params:
        if p["kind"] == "constexpr" and tiles.get(p["name"], 0) > 1:
            p["tile_dims"] = tiles[p["name"]]  # BLOCK x BLOCK: an assumed size counts twice
        if p["kind"] == "scalar" and not p["annotation"] and p["name"] in floats:
            p["annotation"] = "float"
            p["typed_from"] = "its use with a float at line %d" % floats[p["name"]]
    return {"name": fn.name, "line": fn.lineno, "params": params,
            "decorators": [decorator_kind(d) for d in decorators if decorator_kind(d)],
            "autotune": any(decorator_kind(d) == "autotune" for d in decorators),
            "configs": [c for c in configs if "from" not in c],
            "configs_from": [c["from"] for c in configs if "from" in c], "heuristics": heuristics}


def arange_uses(fn):
    """{name: how many tl.arange(0, NAME) the kernel makes}: one constexpr that sizes two axes
    of a tile (offs_m and offs_n both BLOCK_SIZE long, fp8 weight dequantisation) makes a
    BLOCK_SIZE-squared tile, which an assumed 1024 turns into a million elements."""
    out = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and dotted(n.func) in ("tl.arange", "triton.language.arange") and \
                len(n.args) == 2 and isinstance(n.args[1], ast.Name):
            out[n.args[1].id] = out.get(n.args[1].id, 0) + 1
    return out


FLOAT_MAKERS = {"dot", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sigmoid", "sin", "cos",
                "erf", "tanh", "softmax", "div_rn", "fdiv", "fma", "cdiv_float"}
FLOAT_KEEPERS = {"sum", "max", "min", "maximum", "minimum", "where", "abs", "cumsum", "reduce", "broadcast_to",
                 "reshape", "trans", "permute", "expand_dims", "view"}
INT_MAKERS = {"program_id", "arange", "num_programs", "cdiv", "multiple_of", "max_contiguous"}


def float_uses(fn):
    """Untyped scalar parameters Triton would make floats of, from their use, {name: line}:
    arithmetic or a comparison with a float literal (x * 0.5, eps + 1e-5), or arithmetic with a
    value the kernel computes as a float (var + eps where var = tl.sum(x * x) / n: a load cast
    .to(tl.float32), tl.dot, tl.exp, a true division, ...), unless the same name is also used
    as an integer (an index, a mask bound, a pointer offset, range()): n_cols in
    `cols < n_cols` and in `/ n_cols` stays an int. Triton types an untyped scalar by the
    value passed, and a library's wrapper passes a float there (issue 45: eps, sm_scale)."""
    params = {a.arg for a in fn.args.args}
    assigns = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    assigns.setdefault(t.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            assigns.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            assigns.setdefault(node.target.id, []).append(ast.Call(func=ast.Name(id="arange"), args=[], keywords=[]))

    def kind(node, seen=()):
        """'float', 'int' or None (unknown) for an expression of the kernel."""
        if isinstance(node, ast.Constant):
            return "float" if isinstance(node.value, float) else None
        if isinstance(node, ast.Name):
            if node.id in seen or node.id in params:
                return None
            kinds = {kind(v, seen + (node.id,)) for v in assigns.get(node.id, [])}
            return "float" if "float" in kinds else "int" if "int" in kinds else None
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                return "float"
            a, b = kind(node.left, seen), kind(node.right, seen)
            return "float" if "float" in (a, b) else "int" if "int" in (a, b) else None
        if isinstance(node, ast.UnaryOp):
            return kind(node.operand, seen)
        if isinstance(node, ast.Call):
            name = dotted(node.func).rsplit(".", 1)[-1]
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and node.args:
                return "float" if "float" in ast.unparse(node.args[0]) else None
            if name in FLOAT_MAKERS:
                return "float"
            if name in INT_MAKERS:
                return "int"
            if name in FLOAT_KEEPERS and node.args:
                return kind(node.args[0], seen)
        return None

    as_float, as_int = {}, set()
    for node in ast.walk(fn):
        pairs = []
        if isinstance(node, ast.BinOp):
            pairs = [(node.left, node.right), (node.right, node.left)]
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1:
            pairs = [(node.left, node.comparators[0]), (node.comparators[0], node.left)]
        elif isinstance(node, ast.Call) and dotted(node.func) in ("range", "tl.range", "tl.static_range"):
            as_int |= {a.id for a in node.args if isinstance(a, ast.Name)}
        for a, b in pairs:
            if not isinstance(a, ast.Name) or a.id not in params:
                continue
            other = kind(b)
            if other == "float":
                as_float.setdefault(a.id, node.lineno)
            elif other == "int" or (isinstance(b, ast.Name) and b.id in params and isinstance(node, ast.BinOp)
                                    and isinstance(node.op, (ast.Add, ast.Sub))):
                as_int.add(a.id)  # an index or a pointer offset (x_ptr + stride)
    return {name: line for name, line in as_float.items() if name not in as_int}


def local_imports(tree, folder):
    """Files of modules imported from FILE's own folder (a change there changes the kernel)."""
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level <= 1:
            names = [node.module]
        for name in names:
            base = os.path.join(folder, *name.split("."))
            for path in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(path) and path not in found:
                    found.append(path)
    return found


def name_aliases(tree, names):
    """{alias: {names}} for `alias = name` assignments anywhere in tree (a wrapper's local
    `gemv_kernel = gemv_INT_kernel`, one per branch of an if: both, or a module-level alias),
    where name is one of names or itself such an alias; an alias never shadows one of names."""
    found = {}
    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name)]
    for _ in range(4):  # chains a = b; c = a
        changed = False
        for n in assigns:
            alias, value = n.targets[0].id, n.value.id
            if alias in names:
                continue
            add = {value} if value in names else found.get(value, set())
            if add - found.get(alias, set()):
                found.setdefault(alias, set()).update(add)
                changed = True
        if not changed:
            break
    return found


def launches_in(tree, names):
    """The file's own launches of its kernels: NAME[grid](...), NAME.warmup(...), NAME.run(...),
    also through an alias (`k = NAME` then k[grid](...)) and as mod.NAME[grid](...), by kernel
    name, each {"line", "args": [ast nodes], "keywords": {name: node}}."""
    found = {}
    aliases = name_aliases(tree, names)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f, name = node.func, None
        if isinstance(f, ast.Subscript) and isinstance(f.value, ast.Call) and len(f.value.args) == 1 and \
                dotted(f.value.func).rsplit(".", 1)[-1] in ("wrap_triton", "capture_triton") and \
                isinstance(f.value.args[0], ast.Name):
            name = f.value.args[0].id  # torch.library.wrap_triton(kernel)[grid](...)
        elif isinstance(f, ast.Subscript) and isinstance(f.value, (ast.Name, ast.Attribute)):
            name = dotted(f.value)
        elif isinstance(f, ast.Attribute) and f.attr in ("warmup", "run") and isinstance(f.value, (ast.Name, ast.Attribute)):
            name = dotted(f.value)
        for kernel in sorted(aliases.get(name, {name})):
            if kernel in names:
                found.setdefault(kernel, []).append({"line": node.lineno, "args": node.args, "node": node,
                                                     "keywords": {k.arg: k.value for k in node.keywords if k.arg}})
    return found


def jax_launches(tree, names):
    """{kernel: [lines]} of jax_triton.triton_call(..., kernel=NAME, ...) calls (a JAX launch,
    which a torch/CUDA capture cannot take)."""
    found = {}
    aliases = name_aliases(tree, names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted(node.func).rsplit(".", 1)[-1] == "triton_call":
            for k in node.keywords:
                if k.arg == "kernel" and isinstance(k.value, ast.Name):
                    for name in sorted(aliases.get(k.value.id, {k.value.id})):
                        if name in names:
                            found.setdefault(name, []).append(node.lineno)
    return found


def _calls_run(node, out):
    """Names called in code that runs when `node` runs: the bodies of functions defined in it
    are left out (they run when called), lambdas' are kept (a lambda handed to a benchmark
    runs), a call through an attribute counts by its name (x.step() reaches any step)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in child.decorator_list + child.args.defaults:
                _calls_run(d, out)
            continue
        if isinstance(child, ast.Call):
            if isinstance(child.func, ast.Name):
                out.add(child.func.id)
            elif isinstance(child.func, ast.Attribute):
                out.add(child.func.attr)
        _calls_run(child, out)


def reached_lines(tree):
    """Whether running the file reaches a line: a function of `def NAME` is reached when code
    that running the file reaches calls NAME (module level, `if __name__ == "__main__":`
    included, and transitively). Returns a predicate on ast nodes of calls."""
    defs, parent = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.setdefault(node.name, []).append(node)
        for child in ast.iter_child_nodes(node):
            parent[child] = node
    frontier, reached = set(), set()
    _calls_run(tree, frontier)
    while frontier:
        name = frontier.pop()
        if name in reached:
            continue
        reached.add(name)
        for d in defs.get(name, []):
            found = set()
            for stmt in d.body:
                _calls_run(stmt, found)
            frontier |= found - reached

    def runs(node):
        up = parent.get(node)
        while up is not None:
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return up.name in reached and runs(up)
            up = parent.get(up)
        return True

    def enclosing(node):
        up = parent.get(node)
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
            up = parent.get(up)
        return up.name if up is not None else None

    return runs, enclosing


def returns_value(fn):
    """fn has a `return VALUE` of its own (not in a nested function): a device function."""
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return) and n.value is not None and \
                not (isinstance(n.value, ast.Constant) and n.value.value is None):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return False


def called_from_jit(jit_fns):
    """Names of jitted functions another jitted function's body uses (helpers): called, or
    handed on as a value (tl.reduce(x, 0, or_fn), tl.associative_scan(x, 0, combine))."""
    names = {fn.name for fn in jit_fns}
    called = set()
    for fn in jit_fns:
        for node in ast.walk(fn):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names \
                    and node.id != fn.name:
                called.add(node.id)
    return called


def _param_defaults(fn):
    """fn's parameters, and the (parameter, default) pairs of those that have a default."""
    a = fn.args
    positional = a.posonlyargs + a.args
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults)) + \
        [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
    return positional + a.kwonlyargs, pairs


def _float_param(fn, name):
    """fn's parameter `name` is annotated float or defaults to a float literal."""
    params, pairs = _param_defaults(fn)
    for arg in params:
        if arg.arg == name and arg.annotation is not None and dotted(arg.annotation) == "float":
            return True
    return any(arg.arg == name and isinstance(literal(d), float) for arg, d in pairs)


def passes_float(node, fn):
    """The wrapper fn passes a float there: a float literal, its parameter annotated float or
    defaulting to a float (l2norm_bwd's `eps: float = 1e-6`), a true division, float(...),
    math.sqrt(...), or arithmetic with one of these."""
    if isinstance(literal(node), float):
        return True
    if isinstance(node, ast.Name):
        return fn is not None and _float_param(fn, node.id)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div) or passes_float(node.left, fn) or passes_float(node.right, fn)
    if isinstance(node, ast.UnaryOp):
        return passes_float(node.operand, fn)
    if isinstance(node, ast.Call):
        return dotted(node.func) in ("float", "math.sqrt", "math.exp", "math.log", "math.log2")
    return False


def _function_of(tree, node):
    """The innermost function of tree that holds node, or None."""
    found = None
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is node for n in ast.walk(fn)):
            if found is None or any(n is fn for n in ast.walk(found)):
                found = fn
    return found


def _passed_value(node, fn, tree):
    """The literal a call passes, also through a name: the wrapper's parameter with a literal
    default (`BLOCK_SIZE = block_size` in `def weight_dequant_block(x, s, block_size=128)`) or a
    module-level constant (`BLOCK = 128`). None when it is computed."""
    value = literal(node) if node is not None else None
    if value is not None or not isinstance(node, ast.Name):
        return value
    if fn is not None:
        params, pairs = _param_defaults(fn)
        for arg, d in pairs:
            if arg.arg == node.id:
                return literal(d)
        if any(arg.arg == node.id for arg in params) or \
                any(isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
            return None  # a parameter without a default, or a local the wrapper computes
    if tree is not None:
        for st in tree.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                    st.targets[0].id == node.id:
                return literal(st.value)
    return None


def typed_from_call(kernel, launches, tree=None):
    """Untyped scalars that the file's own call passes a float (or a bool) are floats (bools);
    the float may be the wrapper's (passes_float: its float parameter, a division). A constexpr
    without a default takes the value the call passes, also through the wrapper's parameter
    default or a module constant (_passed_value)."""
    for launch in launches:
        fn = _function_of(tree, launch["node"]) if tree is not None and "node" in launch else None
        for i, p in enumerate(kernel["params"]):
            node = launch["args"][i] if i < len(launch["args"]) else launch["keywords"].get(p["name"])
            value = literal(node) if node is not None else None
            if p["kind"] == "constexpr" and value is None:
                value = _passed_value(node, fn, tree)
            if p["kind"] == "scalar" and not p["annotation"] and node is not None and \
                    not isinstance(value, float) and passes_float(node, fn):
                value = 0.0  # typed as the float the wrapper passes
            if p["kind"] == "scalar" and not p["annotation"] and isinstance(value, float):
                p["annotation"] = "float"
                p["typed_from"] = "the file's call at line %d" % launch["line"]
            if p["kind"] == "constexpr" and p["default"] is None and value is not None and \
                    isinstance(value, (int, float, str, bool)):
                p.setdefault("call_value", repr(value))


def wrapped_by_call(tree):
    """Kernels made without a decorator, as libraries write them (unsloth):
    `f = triton.jit(f)`, `f = triton.heuristics({...})(triton.jit(f))`, `g = triton.autotune(...)(triton.jit(f))`:
    {function name: [(the name bound, [the wrapping calls as decorators, outermost first])]} for
    every function a module-level assignment passes through triton.jit. The kernel is the
    module's attribute the assignment binds: f's own name when it rebinds f, g's otherwise."""
    found = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        chain, value = [], node.value
        while isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
            kind = decorator_kind(value.func)
            if kind is None:
                break
            chain.append(value.func)  # triton.jit, or the heuristics(...) call that wraps
            value = value.args[0]
        if isinstance(value, ast.Name) and any(decorator_kind(d) == "jit" for d in chain):
            found.setdefault(value.id, []).append((node.targets[0].id, chain))
    return found


def cmd_list(path):
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, UnicodeDecodeError) as e:
        fail(6, "cannot read %s as Python: %s" % (path, e))
    wrapped = wrapped_by_call(tree)
    bound = {}  # a jitted copy of a function under another name: {copy: its function}
    for node in list(tree.body):
        if not (isinstance(node, ast.FunctionDef) and node.name in wrapped):
            continue
        for target, chain in wrapped[node.name]:
            if target == node.name:
                node.decorator_list = chain + node.decorator_list
                continue
            copy = copy_module.deepcopy(node)
            copy.name, copy.decorator_list = target, chain + node.decorator_list
            bound[target] = copy
    jit_fns = [node for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef) and any(decorator_kind(d) == "jit" for d in node.decorator_list)]
    jit_fns += [fn for fn in bound.values() if fn.name not in {f.name for f in jit_fns}]
    names = {fn.name for fn in jit_fns}
    # `fwd = _fwd_kernel` at module level (a library's alias): a launch of fwd[grid](...) is one
    # of _fwd_kernel
    aliases = {node.targets[0].id: node.value.id for node in tree.body
               if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
               and isinstance(node.value, ast.Name) and node.value.id in names and node.targets[0].id not in names}
    launches = launches_in(tree, names | set(aliases))
    for alias, kernel in aliases.items():
        launches.setdefault(kernel, []).extend(launches.pop(alias, []))
    jax = jax_launches(tree, names | set(aliases))
    for alias, kernel in aliases.items():
        jax.setdefault(kernel, []).extend(jax.pop(alias, []))
    runs, enclosing = reached_lines(tree)
    helpers = called_from_jit(jit_fns)
    kernels = []
    for node in jit_fns:
        k = describe_kernel(node, node.decorator_list)
        # Only a launch that running the file reaches is one a diff can take from the file; one
        # inside a function nothing calls (a library's wrapper) is listed as such.
        mine = launches.get(node.name, [])
        k["launches"] = [launch["line"] for launch in mine if runs(launch["node"])]
        k["launches_unreached"] = [{"line": launch["line"], "in": enclosing(launch["node"])}
                                   for launch in mine if not runs(launch["node"])]
        # A jitted function the file never launches but other jitted functions call is a helper
        # (inlined into its callers), not a kernel; so is one that returns a value (a kernel
        # cannot: unsloth's `def triton_cast(x, dtype): return x.to(dtype)`, used by other modules).
        k["helper"] = (node.name in helpers or returns_value(node)) and not mine
        # launched through jax_triton.triton_call(kernel=NAME): a JAX launch, not one kerndiff captures
        k["jax_launches"] = sorted(jax.get(node.name, []))
        typed_from_call(k, launches.get(node.name, []), tree)
        kernels.append(k)
    if any(k["configs_from"] for k in kernels):
        configs_computed(path, kernels)
    json.dump({"kernels": kernels,
               "imports": local_imports(tree, os.path.dirname(os.path.abspath(path)))}, sys.stdout)


class Unknown(Exception):
    """A heuristic needs something the known values do not hold."""


def next_power_of_2(n):
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


SAFE_CALLS = {"min": min, "max": max, "abs": abs, "int": int, "bool": bool,
              "next_power_of_2": next_power_of_2, "cdiv": lambda a, b: -(-a // b)}
BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
          ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
          ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}
COMPARES = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: +a, ast.Not: lambda a: not a, ast.Invert: lambda a: ~a}


def evaluate(node, arg, values):
    """The value of a heuristic lambda's body; Unknown for anything outside the safe forms."""
    ev = lambda n: evaluate(n, arg, values)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, str)):
        return node.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == arg:
        key = ev(node.slice)
        if key not in values:
            raise Unknown("%s[%r] has no known value (a buffer, or a value kerndiff was not given)" % (arg, key))
        return values[key]
    if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
        return BINOPS[type(node.op)](ev(node.left), ev(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        return UNARY[type(node.op)](ev(node.operand))
    if isinstance(node, ast.BoolOp):
        result = ev(node.values[0])
        for v in node.values[1:]:
            if (not result) if isinstance(node.op, ast.And) else result:
                break
            result = ev(v)
        return result
    if isinstance(node, ast.Compare) and all(type(o) in COMPARES for o in node.ops):
        left = ev(node.left)
        for op, right in zip(node.ops, node.comparators):
            right = ev(right)
            if not COMPARES[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Call) and not node.keywords:
        name = dotted(node.func).rsplit(".", 1)[-1]
        if name in SAFE_CALLS:
            return SAFE_CALLS[name](*[ev(a) for a in node.args])
    raise Unknown("`%s` is not a form kerndiff evaluates (arithmetic, comparisons, and/or, if-else, "
                  "%s[\"NAME\"], min/max, triton.next_power_of_2, triton.cdiv)" % (ast.unparse(node), arg))


def cmd_heuristics(spec_text):
    spec = json.loads(spec_text)
    values = dict(spec.get("values", {}))
    out = {}
    for h in spec.get("heuristics", []):
        try:
            fn = ast.parse(h["lambda"], mode="eval").body
            if not isinstance(fn, ast.Lambda) or len(fn.args.args) != 1:
                raise Unknown("it is not a one-argument lambda")
            value = evaluate(fn.body, fn.args.args[0].arg, values)
        except (Unknown, SyntaxError, TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
            fail(6, "@triton.heuristics value %s of kernel %s (%s) cannot be evaluated: %s; give it with --arg %s=VALUE "
                    "or `# kerndiff: %s=VALUE`" % (h["name"], spec.get("kernel", "?"), h["lambda"], e, h["name"],
                                                   h["name"]))
        values[h["name"]] = out[h["name"]] = value
    json.dump(out, sys.stdout)


def triton_version():
    try:
        from importlib.metadata import version, PackageNotFoundError
        return version("triton")
    except PackageNotFoundError:
        fail(3, "Triton is not installed for %s (install it with `%s -m pip install triton`, or pass "
                "--python PATH of an interpreter that has it)" % (sys.executable, sys.executable))


def check_version(text):
    parts = tuple(int(p) for p in text.split("+")[0].split(".")[:2] if p.isdigit())
    if not SUPPORTED[0] <= parts <= SUPPORTED[1]:
        fail(5, "Triton %s is not supported: kerndiff compiles with Triton %d.%d to %d.%d "
                "(pip install 'triton>=%d.%d,<=%d.%d.99')" % ((text,) + SUPPORTED[0] + SUPPORTED[1] +
                                                            SUPPORTED[0] + SUPPORTED[1]))


def find_jit(obj):
    """The JITFunction under autotune/heuristics wrappers."""
    for _ in range(8):
        if type(obj).__name__ == "JITFunction":
            return obj
        obj = getattr(obj, "fn", None)
    return None


def enable_proton(max_shared):
    """Turns Proton's instrumentation on for this process's compiles, as
    triton.profiler.hooks.instrumentation.InstrumentationHook.activate does, but without a
    GPU or torch: the same passes with its default mode (cycles, per warp, circular buffers
    in shared memory, size chosen by Proton), and `max_shared` instead of a device query.
    Returns the mode's text, which must also go into the compile options (Triton's cache
    key), or None when this Triton has no Proton instrumentation. The scopes are lowered only when Proton's flag is on and the Triton language is
    enabled for them (Proton enables only Gluon by default)."""
    try:
        from triton._C.libtriton import proton as proton_ir, passes as triton_passes
        from triton.backends import backends
        import triton.profiler.language as pl
        from triton.profiler import mode
        from triton.profiler.flags import flags
        from triton.profiler.hooks.instrumentation import Instrumentation
    except ImportError:  # before 3.5: no triton.profiler.language, or no Proton passes
        return None
    m = mode.Default()
    alignment = 128  # InstrumentationHook.profile_buffer_alignment

    def to_llvmir(pm):
        proton_ir.add_convert_proton_to_protongpu(pm, m.metric_type, m.sampling_strategy, m.sampling_options,
                                                  m.granularity, m.buffer_strategy, m.buffer_type, m.buffer_size,
                                                  max_shared, 1, alignment, True)
        triton_passes.common.add_cse(pm)
        proton_ir.add_allocate_proton_shared_memory(pm)

    def to_llvm(pm):
        proton_ir.add_allocate_proton_global_scratch_buffer(pm)
        proton_ir.add_convert_proton_nvidia_gpu_to_llvm(pm)

    flags.instrumentation_on = True
    pl.enable_semantic("triton")
    backends["nvidia"].compiler.instrumentation = Instrumentation({"ttgpuir_to_llvmir": to_llvmir,
                                                                   "llvmir_to_llvm": to_llvm})
    return str(m)


def scope_names(ttgir):
    """Proton's scope names by scope id, from the compiled module (the records carry ids)."""
    import tempfile
    from triton._C.libtriton import ir, nvidia, proton as proton_ir
    context = ir.context()
    for dialects in (ir, nvidia, proton_ir):
        dialects.load_dialects(context)
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir") as f:
        f.write(ttgir)
        f.flush()
        module = ir.parse_mlir_module(f.name, context)
        ids = proton_ir.get_scope_id_names(module)
    return [name for _, name in sorted(ids)]


class _Absent(type):
    """What a missing torch gives a kernel file's definitions (absent_torch): classes (Triton's
    JIT records a class an annotation names, and refuses a callable object) whose every
    attribute, call or item is another, false, empty; a bare decorator gives back what it
    decorates."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Absent(name, (), {})

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Absent):
            return args[0]
        return cls

    def __getitem__(cls, key):
        return cls

    def __iter__(cls):
        return iter(())

    def __bool__(cls):
        return False


class _AbsentModules:
    """A finder that gives `torch` and its submodules as _Absent modules."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch" and not name.startswith("torch."):
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        return None  # a plain module: Triton's JIT passes modules by (type(m) is ModuleType)

    def exec_module(self, module):
        def absent(name):
            if name.startswith("__"):
                raise AttributeError(name)
            return _Absent(name, (), {})
        module.__path__ = []
        module.__getattr__ = absent  # PEP 562


def absent_torch():
    """Without torch installed, `import torch` in a kernel file gives a stand-in (issue 45: a
    library module's @torch.library.custom_op wrapper or `x: torch.Tensor` annotation is not
    fatal to a static diff of a kernel that needs no torch). With torch, nothing changes."""
    import importlib.util
    try:
        if importlib.util.find_spec("torch") is not None:
            return
    except (ImportError, ValueError):
        pass
    sys.meta_path.insert(0, _AbsentModules())


def definitions_of(path, strict=True, needed=None):
    """FILE's definitions without its work: imports, functions, classes, assignments and
    if/try blocks run (each top-level statement on its own: one that fails, such as a device
    query on a machine without a GPU, leaves its names undefined); expressions and loops at
    module level (a tutorial's benchmark) do not."""
    import types
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    import contextlib
    absent_torch()
    module = types.ModuleType("kerndiff_user_kernels")
    module.__file__ = os.path.abspath(path)
    sys.modules[module.__name__] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    # a module inside a package (attorch/dropout_kernels.py: `from .utils import ...`): its
    # relative imports resolve against the package, whose root's parent goes on the path
    folder, package = os.path.dirname(os.path.abspath(path)), []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        package.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    if package:
        module.__package__ = ".".join(package)
        sys.path.insert(0, folder)
    kept = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.If, ast.Try)
    failed_imports = {}  # a name an import that failed should have bound: what failed
    with contextlib.redirect_stdout(sys.stderr):  # our stdout is JSON
        for node in tree.body:
            if not isinstance(node, kept):
                continue
            code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
            try:
                exec(code, module.__dict__)
            except Exception as e:
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    for alias in node.names:
                        failed_imports[(alias.asname or alias.name).split(".")[0]] = \
                            "line %d, %s: %s: %s" % (node.lineno, ast.unparse(node), type(e).__name__, e)
                if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or not any(
                        decorator_kind(d) for d in getattr(node, "decorator_list", [])):
                    continue  # a wrapper a missing torch leaves undefined (@torch.library.custom_op)
                if not strict or (needed and getattr(node, "name", None) != needed):
                    continue  # another kernel's definition: the one built may not need it
                missing = getattr(e, "name", None) if isinstance(e, NameError) else None
                if missing in failed_imports:  # say the import that failed, not the name it left
                    raise ImportError("the file's import failed (%s), leaving %s undefined"
                                      % (failed_imports[missing], missing)) from e
                raise
    return module


def configs_computed(path, kernels):
    """Autotune configs that the file computes (configs=get_configs()): its definitions are run
    (definitions_of) and the decorator's Autotuner asked for them. Best effort: a file whose
    definitions do not load keeps configs_from only. Where the kernel's own definition does not
    load (its decorator comes from a project module that does not import here), the configs
    expression is evaluated alone among the definitions that did: a comprehension over literal
    lists (fla: [triton.Config({'BT': BT}, ...) for BT in [32, 64] ...]) needs nothing else."""
    import contextlib
    try:
        module = definitions_of(path, strict=False)
    except Exception:
        return

    def described(configs):
        return [{"meta": {n: plain(v) for n, v in c.kwargs.items()}, "num_warps": c.num_warps,
                 "num_stages": c.num_stages, "num_ctas": c.num_ctas} for c in configs]
    for k in kernels:
        if not k["configs_from"]:
            continue
        obj = getattr(module, k["name"], None)
        if type(obj).__name__ == "Autotuner":
            k["configs"] = described(obj.configs)
            continue
        found = []
        for expr in k["configs_from"]:
            try:
                with contextlib.redirect_stdout(sys.stderr):  # our stdout is JSON
                    value = eval(compile(expr, path, "eval"), module.__dict__)
                found += [c for c in value if type(c).__name__ == "Config"]
            except Exception:
                found = []
                break
        if found:
            k["configs"] = described(found)


def from_specialization(text, fn):
    """signature, constexprs, attrs, options of a launch as Triton's JIT compiled it: the
    specialization data its jit_post_compile_hook hands over (what JITFunction.preload reads),
    recorded in a capture file's Triton section. The file's kernel may differ from the captured
    one (v2) but must keep its parameters."""
    import triton.language as tl
    d = json.loads(text)
    names = [p.name for p in fn.params]
    if list(d["signature"]) != names:
        fail(6, "the kernel's parameters (%s) are not the captured kernel's (%s): a replayed launch needs the same "
             "signature" % (", ".join(names), ", ".join(d["signature"])))

    def tupled(v):
        return tuple(tupled(x) for x in v) if isinstance(v, list) else v
    constexprs = {tuple(k): tl.dtype(v) if tl.dtype.is_dtype(v) else
                  tl.constexpr(v["constexpr"]) if isinstance(v, dict) and "constexpr" in v else v
                  for k, v in zip(d["constant_keys"], d["constant_vals"])}
    attrs = dict(zip(map(tuple, d["attrs_keys"]), d["attrs_vals"]))
    signature = {k: tupled(v) for k, v in d["signature"].items()}
    # extern_libs: paths on the capturing machine; this Triton's own libdevice is the same library
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in d["options"].items() if k != "extern_libs"}
    return signature, constexprs, attrs, options


def cmd_build(path, kernel, spec_text, outdir):
    check_version(triton_version())
    try:
        import importlib.util
        import triton
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget
    except Exception as e:  # Triton's import can fail in many ways
        fail(3, "cannot import Triton with %s: %s: %s (reinstall it: `%s -m pip install triton`)"
             % (sys.executable, type(e).__name__, e, sys.executable))
    spec = json.loads(spec_text)
    instrument = bool(spec.get("instrument"))
    proton_mode = enable_proton(int(spec.get("max_shared", 49152))) if instrument else None
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        module = definitions_of(path, needed=kernel)
    except Exception as e:
        fail(4, "importing %s failed: %s: %s" % (path, type(e).__name__, e))
    fn = find_jit(getattr(module, kernel, None))
    if fn is None:
        fail(6, "%s defines no @triton.jit function named %s" % (path, kernel))
    names = list(spec["signature"])
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in spec.get("divisible", [])}
    options = {"num_warps": spec.get("num_warps", 4), "num_stages": spec.get("num_stages", 3)}
    signature, constexprs = spec["signature"], spec.get("constexprs", {})
    if spec.get("specialization"):  # a replayed launch (--launch FILE): the JIT's own compile of it
        signature, constexprs, attrs, options = from_specialization(spec["specialization"], fn)
    if proton_mode:
        options["instrumentation_mode"] = proton_mode
    try:
        src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
        compiled = triton.compile(src, target=GPUTarget("cuda", int(spec.get("arch", 90)), 32), options=options)
    except Exception as e:
        fail(4, "Triton could not compile %s: %s" % (kernel, e))
    md = compiled.metadata
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "kernel.ptx"), "w") as f:
        f.write(compiled.asm["ptx"])
    with open(os.path.join(outdir, "kernel.cubin"), "wb") as f:
        f.write(compiled.asm["cubin"])
    meta = {"name": md.name, "num_warps": md.num_warps, "num_stages": md.num_stages, "shared": md.shared,
            "global_scratch_size": getattr(md, "global_scratch_size", 0),
            "global_scratch_align": getattr(md, "global_scratch_align", 1),
            # Triton 3.5 added a second trailing pointer for the profiler's scratch
            "scratch_pointers": 2 if hasattr(md, "profile_scratch_size") else 1,
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0),
            "triton_version": triton.__version__}
    if instrument:
        meta["proton"] = proton_mode is not None
        meta["scopes"] = scope_names(compiled.asm["ttgir"]) if proton_mode else []
    with open(os.path.join(outdir, "metadata.json"), "w") as f:
        json.dump(meta, f)
    json.dump(meta, sys.stdout)


# --- capture: the launch the user's own code makes ------------------------------------------

CAPTURE_ENV = ("KERNDIFF_CAPTURE_KERNEL", "KERNDIFF_CAPTURE_NTH", "KERNDIFF_CAPTURE_OUT", "KERNDIFF_CAPTURE_HELPER",
               "KERNDIFF_CAPTURE_CONFIG")
DATA_CAP = 1 << 30  # bytes of tensor data a capture keeps, all tensors together


def reach_bytes(t):
    """The bytes a kernel given tensor t can reach: from its first element to the end of its
    storage (a view's base pointer is data_ptr(); strides may step anywhere after it)."""
    return max(0, t.untyped_storage().nbytes() - t.storage_offset() * t.element_size())


def snapshot_tensors(names, values, cap=DATA_CAP):
    """Every tensor argument's reachable bytes as they are now, before the launch runs (the
    program's own data: a kernel's time follows its data through the GPU's power-bound clocks),
    written to OUTDIR/data/NAME.bin by launch_data(); {name: bytes} or {name: reason not kept}.
    Kept in host memory until then: the launch may write to its own inputs (in-place)."""
    import ctypes
    kept, total = {}, 0
    for name, value in zip(names, values):
        if not hasattr(value, "data_ptr") or not hasattr(value, "untyped_storage"):
            continue
        try:
            reach = reach_bytes(value)
            if total + reach > cap:
                kept[name] = "not kept: %d bytes would pass the capture's %d MiB for tensor data" % (
                    reach, cap >> 20)
                continue
            import torch
            raw = torch.empty(0, dtype=torch.uint8, device=value.device)
            raw.set_(value.untyped_storage(), value.storage_offset() * value.element_size(), (reach,), (1,))
            host = raw.cpu()
            kept[name] = ctypes.string_at(host.data_ptr(), reach) if reach else b""
            total += reach
        except Exception as e:  # a tensor kerndiff cannot read: the harness seeds it instead
            kept[name] = "not kept: %s: %s" % (type(e).__name__, e)
    return kept


def launch_data(outdir, launch, snapshot):
    """The snapshot's files beside launch.json: each pointer argument's "data" says where its
    bytes are ({"file": "data/NAME.bin", "bytes": N}) or why they were not kept."""
    folder = os.path.join(outdir, "data")
    for arg in launch["args"]:
        if arg.get("kind") != "pointer":
            continue
        got = snapshot.get(arg["name"])
        if isinstance(got, bytes):
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, arg["name"] + ".bin"), "wb") as f:
                f.write(got)
            arg["data"] = {"file": "data/%s.bin" % arg["name"], "bytes": len(got)}
        else:
            arg["data"] = {"not_kept": got or "not kept: the argument was no tensor kerndiff could read"}


def config_matches(config, index, pin):
    """Whether an autotune config is the one --config names: "K" (1-based, the decorator's
    order) or "NAME=VALUE,..." (its meta-parameters and num_warps/num_stages/num_ctas)."""
    if pin.isdigit():
        return index == int(pin) - 1
    for item in pin.split(","):
        name, _, value = item.partition("=")
        name = name.strip()
        have = config.kwargs.get(name, getattr(config, name, None))
        if have is None or str(have) != value.strip().strip("'\""):
            return False
    return True


def cmd_capture(path, kernel, spec_text, outdir):
    """Sets up the watching and exec()s the user's program (see the top of the file)."""
    spec = json.loads(spec_text)
    import shlex
    try:  # --run's command line, split into words as a shell would, but never run by one
        argv = shlex.split(spec["run"]) if spec.get("run") else [sys.executable, path]
    except ValueError as e:
        fail(6, "--run %r cannot be split into words: %s" % (spec["run"], e))
    if not argv:
        fail(6, "--run names no program")
    site = os.path.join(outdir, "site")
    os.makedirs(site, exist_ok=True)
    with open(os.path.join(site, "sitecustomize.py"), "w") as f:
        f.write("# written by kerndiff: loads kerndiff-triton.py's capture into this program\n"
                "import importlib.util as _u, os as _os\n"
                "_s = _u.spec_from_file_location('kerndiff_triton_capture', _os.environ['KERNDIFF_CAPTURE_HELPER'])\n"
                "_m = _u.module_from_spec(_s)\n_s.loader.exec_module(_m)\n_m.install_capture()\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = site + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["KERNDIFF_CAPTURE_CONFIG"] = spec.get("config") or ""
    env.update({"KERNDIFF_CAPTURE_KERNEL": kernel, "KERNDIFF_CAPTURE_NTH": str(int(spec.get("nth", 1))),
                "KERNDIFF_CAPTURE_OUT": os.path.abspath(outdir),
                "KERNDIFF_CAPTURE_HELPER": os.path.abspath(__file__)})
    sys.stdout.flush()
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as e:
        fail(6, "cannot run %s: %s" % (" ".join(argv), e))


def chain_user_sitecustomize():
    """The user's own sitecustomize, which ours shadows, still runs."""
    here = os.path.dirname(sys.modules.get("sitecustomize").__file__) if sys.modules.get("sitecustomize") else None
    if not here:
        return
    saved, ours = list(sys.path), sys.modules["sitecustomize"]
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.abspath(here)]
    del sys.modules["sitecustomize"]
    try:
        import sitecustomize  # noqa: F401
    except ImportError:
        pass
    finally:
        sys.path[:] = saved
        sys.modules["sitecustomize"] = ours  # the import that is running ours expects it there


def caller_line():
    """file:line of the first frame outside Triton and this module: where the user launched."""
    frame = sys._getframe(2)
    here = os.path.abspath(__file__)
    while frame:
        name = os.path.abspath(frame.f_code.co_filename)
        if name != here and os.sep + "triton" + os.sep not in name and "sitecustomize" not in name:
            return {"file": name, "line": frame.f_lineno}
        frame = frame.f_back
    return None


def plain(value):
    """A constexpr's value as JSON: numbers, booleans and strings as they are, others by str()."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if hasattr(value, "item") and not hasattr(value, "data_ptr"):  # a numpy scalar
        return plain(value.item())
    if hasattr(value, "__index__"):
        return int(value)
    return str(value)


def describe_launch(compiled, names, values, grid, where, tuner):
    """launch.json for one launch of a CompiledKernel: grid, arguments, constexprs, config."""
    sig = compiled.src.signature
    args, constexprs = [], {}
    for name, value in zip(names, values):
        kind = sig.get(name)
        if kind is None or kind == "constexpr":
            constexprs[name] = plain(value)
            continue
        if not isinstance(kind, str):
            raise ValueError("argument %s is a tuple (%s): kerndiff times kernels whose arguments are tensors and "
                             "scalars" % (name, kind))
        if kind.startswith("*"):
            if not hasattr(value, "data_ptr"):
                raise ValueError("argument %s is a %s, not a tensor" % (name, type(value).__name__))
            size = value.element_size()
            reach = reach_bytes(value)
            args.append({"name": name, "kind": "pointer", "dtype": kind[1:], "bytes": reach,
                         "element_size": size, "count": reach // size if size else 0,
                         "shape": list(value.shape), "strides": list(value.stride()),
                         "torch_dtype": str(value.dtype).replace("torch.", ""),
                         "aligned16": value.data_ptr() % 16 == 0})
        else:
            value = plain(value)
            if not isinstance(value, (bool, int, float)):
                raise ValueError("scalar argument %s is %r, not a number" % (name, value))
            args.append({"name": name, "kind": "scalar", "type": kind, "value": value})
    g = tuple(grid) + (1, 1)
    out = {"grid": [int(g[0]), int(g[1]), int(g[2])], "args": args, "constexprs": constexprs, "where": where,
           "kernel": compiled.name}
    if tuner is not None:
        best = getattr(tuner, "best_config", None)
        timings = getattr(tuner, "configs_timings", None) or {}
        out["autotune"] = {"configs": getattr(tuner, "kerndiff_all_configs", len(tuner.configs)), "tried": len(timings),
                           "pinned": getattr(tuner, "kerndiff_pinned", False),
                           "chosen": {"meta": {k: plain(v) for k, v in best.kwargs.items()},
                                      "num_warps": best.num_warps, "num_stages": best.num_stages,
                                      "num_ctas": best.num_ctas, "maxnreg": getattr(best, "maxnreg", None)}
                           if best is not None else None}
    return out


def write_capture(outdir, compiled, launch):
    import triton
    md = compiled.metadata
    compiled._init_handles()  # loads the cubin: n_regs and n_spills are the driver's
    with open(os.path.join(outdir, "kernel.ptx"), "w") as f:
        f.write(compiled.asm["ptx"])
    with open(os.path.join(outdir, "kernel.cubin"), "wb") as f:
        f.write(compiled.asm["cubin"])
    meta = {"name": md.name, "num_warps": md.num_warps, "num_stages": md.num_stages, "num_ctas": md.num_ctas,
            "maxnreg": getattr(md, "maxnreg", None), "shared": md.shared,
            "global_scratch_size": getattr(md, "global_scratch_size", 0),
            "global_scratch_align": getattr(md, "global_scratch_align", 1),
            "scratch_pointers": 2 if hasattr(md, "profile_scratch_size") else 1,
            "profile_scratch_size": getattr(md, "profile_scratch_size", 0),
            "triton_version": triton.__version__, "jit": True,
            "n_regs": compiled.n_regs, "n_spills": compiled.n_spills}
    with open(os.path.join(outdir, "metadata.json"), "w") as f:
        json.dump(meta, f)
    launch["metadata"] = meta
    with open(os.path.join(outdir, "launch.json.tmp"), "w") as f:
        json.dump(launch, f)
    os.rename(os.path.join(outdir, "launch.json.tmp"), os.path.join(outdir, "launch.json"))


def install_capture():
    """In the user's program (through sitecustomize): watch Triton's launches of the kernel."""
    kernel = os.environ["KERNDIFF_CAPTURE_KERNEL"]
    nth = int(os.environ.get("KERNDIFF_CAPTURE_NTH", "1"))
    pin = os.environ.get("KERNDIFF_CAPTURE_CONFIG", "")
    outdir = os.environ["KERNDIFF_CAPTURE_OUT"]
    for name in CAPTURE_ENV:  # the program's own children are not watched twice
        os.environ.pop(name, None)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                               if os.path.abspath(p) != os.path.join(outdir, "site"))
    chain_user_sitecustomize()
    state = {"seen": {}, "bench": 0, "tuners": [], "error": None}

    def save_seen(ended):
        try:
            with open(os.path.join(outdir, "seen.json"), "w") as f:
                json.dump({"launched": state["seen"], "ended": ended, "error": state["error"]}, f)
        except OSError:
            pass

    import atexit
    atexit.register(lambda: save_seen("the program ended"))
    previous_hook = sys.excepthook

    def excepthook(kind, value, tb):
        import traceback
        where = traceback.extract_tb(tb)[-1] if tb else None
        state["error"] = "%s: %s%s" % (kind.__name__, value, " (%s:%d)" % (where.filename, where.lineno) if where else "")
        previous_hook(kind, value, tb)
    sys.excepthook = excepthook
    try:
        import triton  # noqa: F401
        from triton.runtime.jit import JITFunction
        from triton.runtime import autotuner
        from triton.compiler.compiler import CompiledKernel
        from triton import knobs
        from triton.runtime.driver import driver
    except Exception as e:  # the program may not use Triton at all in this process
        state["error"] = "Triton cannot be imported in the program: %s: %s" % (type(e).__name__, e)
        return

    def take(compiled, names, values, grid, where, snapshot):
        try:
            tuner = state["tuners"][-1] if state["tuners"] else None
            launch = describe_launch(compiled, names, values, grid, where, tuner)
            launch_data(outdir, launch, snapshot)
            write_capture(outdir, compiled, launch)
        except Exception as e:
            state["error"] = "the launch of %s was reached but could not be described: %s: %s" % (
                kernel, type(e).__name__, e)
            save_seen("at the launch")
            os._exit(70)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)  # stop here: nothing after the launch (a module-level benchmark) runs

    def counted(name):
        state["seen"][name] = state["seen"].get(name, 0) + 1
        return name == kernel and state["seen"][name] == nth

    jit_run = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        if warmup or state["bench"] or not counted(self.fn.__name__):
            return jit_run(self, *args, grid=grid, warmup=warmup, **kwargs)
        where = caller_line()
        kw = dict(kwargs)
        kw["debug"] = kw.get("debug", self.debug) or knobs.runtime.debug
        kw["instrumentation_mode"] = knobs.compilation.instrumentation_mode
        binder = self.device_caches[driver.active.get_current_device()][4]
        bound, _, _ = binder(*args, **kw)  # as the run below binds them
        snapshot = snapshot_tensors(list(bound.keys()), list(bound.values()))  # before it writes
        compiled = jit_run(self, *args, grid=grid, warmup=warmup, **kwargs)
        g = grid(bound) if callable(grid) else grid
        if hasattr(compiled, "result"):
            compiled = compiled.result()
        take(compiled, list(bound.keys()), list(bound.values()), g, where, snapshot)

    JITFunction.run = run

    getitem = CompiledKernel.__getitem__

    def compiled_getitem(self, grid):
        runner = getitem(self, grid)

        def launch(*args, **kwargs):
            if state["bench"] or not counted(self.name):
                return runner(*args, **kwargs)
            where = caller_line()
            names = list(self.src.fn.arg_names)
            snapshot = snapshot_tensors(names, list(args))  # before it writes
            runner(*args, **kwargs)
            take(self, names, list(args), grid, where, snapshot)
        return launch

    CompiledKernel.__getitem__ = compiled_getitem

    bench = autotuner.Autotuner._bench

    def bench_uncounted(self, *args, **kwargs):
        state["bench"] += 1
        try:
            return bench(self, *args, **kwargs)
        finally:
            state["bench"] -= 1

    autotuner.Autotuner._bench = bench_uncounted
    tune_run = autotuner.Autotuner.run

    def tune_tracked(self, *args, **kwargs):
        if pin and self.base_fn.__name__ == kernel and not getattr(self, "kerndiff_pinned", False):
            chosen = [c for i, c in enumerate(self.configs) if config_matches(c, i, pin)]
            if not chosen:
                state["error"] = "--config %s matches none of %s's %d autotune configs: %s" % (
                    pin, kernel, len(self.configs), "; ".join(str(c) for c in self.configs))
                save_seen("at the autotuner")
                os._exit(71)
            self.kerndiff_all_configs = len(self.configs)
            self.configs = chosen[:1]  # the autotuner then has nothing to choose
            self.kerndiff_pinned = True
        state["tuners"].append(self)
        try:
            return tune_run(self, *args, **kwargs)
        finally:
            state["tuners"].pop()

    autotuner.Autotuner.run = tune_tracked


# --- callers: who launches a library module's kernel (issue 45 item 1) ------------------------
# Static: files are read and parsed with `ast`, never imported or run. Bounded: at most
# CALLER_FILES Python files parsed, CALLER_DIRS folders walked, CALLER_FILE_BYTES per file and
# CALLER_BYTES in all; symbolic links to folders are not followed (a loop cannot trap the walk).
CALLER_FILES, CALLER_DIRS, CALLER_FILE_BYTES, CALLER_BYTES, CALLER_MAX = 4000, 20000, 1 << 20, 64 << 20, 12
CALLER_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "build", "dist", "venv", ".venv", "env", ".env",
                    "__pycache__", "site-packages", ".tox", ".nox", ".eggs", ".mypy_cache", ".pytest_cache",
                    "third_party", "3rdparty", ".cache"}
CALLER_KIND_ORDER = {"test": 0, "self": 1, "benchmark": 2, "script": 3}
CALLER_ROUNDS = 4  # modules followed from the kernel's: kernels -> layer -> package -> ...


def _call_base(f):
    """The name a call through tables and attributes starts from: MAP for MAP[key].forward(x)."""
    while isinstance(f, (ast.Attribute, ast.Subscript, ast.Call)):
        f = f.func if isinstance(f, ast.Call) else f.value
    return f.id if isinstance(f, ast.Name) else None


_CALLED = {}


def _called_names(node):
    """Names a piece of code calls or hands on: f(...), mod.f(...) (as 'f' and 'mod.f'),
    Cls.apply(...) (as 'Cls'), MAP[key].fn(...) (as 'MAP'), names passed as arguments (a
    benchmark's fn=wrapper), and the names a called local alias stands for (f = wrapper; f(x)).
    Kept per node (the search asks again for each round)."""
    if id(node) in _CALLED and _CALLED[id(node)][0] is node:
        return _CALLED[id(node)][1]
    out = _called_names_of(node)
    _CALLED[id(node)] = (node, out)
    return out


def _called_names_of(node):
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Subscript):  # kernel[grid](...)
                f = f.value
            d = dotted(f)
            if d:
                out.add(d)
                out.add(d.rsplit(".", 1)[-1])
                if "." in d:
                    out.add(d.split(".", 1)[0] + "." + d.rsplit(".", 1)[-1])
                    if isinstance(f, ast.Attribute):
                        out.add(dotted(f.value))  # Cls.apply(...), obj.method(...)
            elif isinstance(f, ast.Call) and dotted(f.func) == "getattr" and f.args and dotted(f.args[0]):
                out.add("getattr:" + dotted(f.args[0]))  # getattr(mod, name)(...): one of mod's names
            else:
                base = _call_base(f)
                if base:
                    out.add(base)
            for a in list(n.args) + [k.value for k in n.keywords]:
                if isinstance(a, (ast.Name, ast.Attribute)) and dotted(a):
                    out.add(dotted(a))
                    out.add(dotted(a).rsplit(".", 1)[-1])
    assigns = [n for n in ast.walk(node) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and isinstance(n.value, (ast.Name, ast.Attribute))]
    for _ in range(4):
        grew = False
        for n in assigns:
            if n.targets[0].id in out and dotted(n.value) and dotted(n.value) not in out:
                out.add(dotted(n.value))
                out.add(dotted(n.value).rsplit(".", 1)[-1])
                grew = True
        if not grew:
            break
    return out


def _loaded_names(node):
    """Every name a piece of code reads (a table or class attribute that holds a wrapper)."""
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and dotted(n):
            out.add(dotted(n))
    return out


def _merge(table, name, depth, kernels):
    """table[name] = (depth, kernels): the smaller depth, the kernels of that depth's ways united."""
    old = table.get(name)
    if old is None or depth < old[0]:
        table[name] = (depth, frozenset(kernels))
        return True
    if depth == old[0] and not kernels <= old[1]:
        table[name] = (depth, old[1] | frozenset(kernels))
        return True
    return False


# A wrapper that launches the kernel it is given (kernl's layer_norm: `implementation[(M,)](...)`
# with implementation a parameter) reaches HANDED: whichever kernel its caller passes by name.
HANDED = "*"


def launches_a_parameter(node):
    """The function (or a method of the class) launches one of its own parameters: p[grid](...)."""
    for fn in ast.walk(node):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        for n in ast.walk(fn):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript) and \
                    isinstance(n.func.value, ast.Name) and n.func.value.id in params:
                return True
    return False


def _handed(ks, passed):
    """The kernels a call reaches: HANDED resolved to the kernels passed by name (passed); a
    wrapper that launches what it is given reaches nothing of ours when none is passed."""
    if HANDED not in ks:
        return ks
    return (frozenset(ks) - {HANDED}) | frozenset(passed)


def module_reach(tree, seeds, kernel_names):
    """{name: (depth, kernels)} of the module's top-level functions, classes and assigned names
    that reach a kernel, given seeds {local name: (depth, kernels)} (the module's kernels, or
    the names it imports that reach them; kernel_names: those seeds that are kernels, reached
    by launching them). Depth 0 launches a kernel (the wrapper), depth 1 calls a depth-0 name,
    and so on; an alias (`l2_norm = l2norm`) or a table holding a name has that name's depth."""
    defs = {}
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[n.name] = n
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            defs.setdefault(n.targets[0].id, n)
    reach = {}
    for name, node in defs.items():
        if name in kernel_names or isinstance(node, ast.Assign):
            continue
        for local, found in launches_in(node, kernel_names).items():
            if found:
                _merge(reach, name, 0, seeds[local][1])
        if launches_a_parameter(node):
            _merge(reach, name, 0, {HANDED})
    known = dict(seeds)
    uses = {}
    for name, node in defs.items():
        if name in kernel_names:
            continue
        if isinstance(node, ast.Assign):  # an alias, a table: no call on the way
            uses[name] = (_loaded_names(node.value), 0)
        elif isinstance(node, ast.ClassDef):  # its methods' calls, and attributes bound to a wrapper
            uses[name] = (_called_names(node) | set().union(
                *[_loaded_names(s.value) for s in node.body if isinstance(s, ast.Assign)]), 1)
        else:
            uses[name] = (_called_names(node), 1)
    for _ in range(8):
        changed = False
        known.update(reach)
        for name, (hits, step) in uses.items():
            for h in hits:
                if h in known and h not in kernel_names and h != name:
                    d, ks = known[h]
                    ks = _handed(ks, {k for n in hits & kernel_names for k in seeds[n][1]})
                    if ks:
                        changed |= _merge(reach, name, d + step, ks)
        if not changed:
            break
    return reach


def module_names(path, root):
    """The dotted names FILE is imported by from ROOT: a.b.c for ROOT/a/b/c.py, and b.c too
    under a src/ or lib/ layout folder."""
    rel = os.path.relpath(os.path.abspath(path), root)
    parts = rel[:-3].split(os.sep) if rel.endswith(".py") else []
    if not parts or parts[0] == ".." or not all(p.isidentifier() for p in parts):
        return []
    if parts[-1] == "__init__":
        parts = parts[:-1]
    names = [".".join(parts)] if parts else []
    if len(parts) > 1 and parts[0] in ("src", "lib", "python"):
        names.append(".".join(parts[1:]))
    return names


def _file_kind(rel):
    parts = rel.split(os.sep)
    base = parts[-1]
    if base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py" or \
            any(p in ("tests", "test", "testing") for p in parts[:-1]):
        return "test"
    if base.startswith("bench") or any(p.startswith("bench") for p in parts[:-1]):
        return "benchmark"
    return "script"


def _resolve_from(node, file_module, is_package=False):
    """The absolute module an ImportFrom names, relative imports resolved from the file's own
    (a package's __init__.py is its package: `from .x import y` there names PKG.x)."""
    if not node.level:
        return node.module or ""
    parts = file_module.split(".") if file_module else []
    up = node.level - 1 if is_package else node.level
    base = parts[:len(parts) - up] if up <= len(parts) else []
    return ".".join(base + ([node.module] if node.module else []))


_IMPORTS = {}


def _import_nodes(tree):
    """The file's import statements, wherever they are (a test's local import too); kept per tree."""
    if id(tree) not in _IMPORTS:
        _IMPORTS[id(tree)] = (tree, [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))])
    return _IMPORTS[id(tree)][1]


def _bindings(tree, targets, file_module, is_package=False):
    """What the file's imports bind: {local name: ('module', its exposed) | ('name', (depth,
    kernels)) | ('kernel', (0, {itself}))} for a target module itself (import a.b.c, import a.b.c as m, from a.b import c)
    and for the names of one that reach the kernel (from a.b.c import wrapper; from a import
    wrapper, a re-export). targets: {module: {name: (depth, kernels)}}."""
    bound, imports = {}, False
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in targets:
                    imports = True
                    bound[a.asname or a.name] = ("module", targets[a.name])
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve_from(node, file_module, is_package)
            for a in node.names:
                full = mod + "." + a.name if mod else a.name
                local = a.asname or a.name
                if full in targets:
                    imports = True
                    bound[local] = ("module", targets[full])
                    continue
                # the module itself, else a package above one (a guess at a re-export)
                homes = [targets[mod]] if mod in targets else \
                    [e for t, e in sorted(targets.items()) if mod and t.startswith(mod + ".")]
                for exposed in homes:
                    if a.name in exposed:
                        imports = True
                        v = exposed[a.name]
                        bound[local] = ("kernel" if v[0] == 0 and a.name in v[1] else "name", v)
                        break
                    if a.name == "*" and mod in targets:
                        imports = True
                        for n, v in exposed.items():
                            bound.setdefault(n, ("kernel" if v[0] == 0 and n in v[1] else "name", v))
    return bound, imports


def _reaches(node, bound, local_reach):
    """How directly code reaches the kernel: (rank, [names on the way], kernels, depth) or None.
    Rank 1: it calls the wrapper (or launches the kernel); 2: it calls something that does;
    depth: the calls between it and the launch (the nearer first among equal ranks)."""
    names = _called_names(node)
    passed = {k for local, (what, v) in bound.items() if what == "kernel" and local in names for k in v[1]}
    best = None
    for local, (what, value) in bound.items():
        hits = []
        if what in ("name", "kernel") and local in names:
            hits.append((value, local))
        elif what == "module":
            for n, v in value.items():
                if local + "." + n in names:
                    hits.append((v, local + "." + n))
            if not hits and "getattr:" + local in names and value:  # a name chosen at run time: not sure
                d = min(v[0] for v in value.values())
                ks = frozenset().union(*[v[1] for v in value.values() if v[0] == d])
                hits.append(((max(d, 1), ks), "getattr(%s, ...)" % local))
        for (d, ks), via in hits:
            ks = _handed(ks, passed)
            if not ks:
                continue
            cand = (1 if d == 0 else 2, [via], ks, d)
            if best is None or cand[0] < best[0] or (cand[0] == best[0] and cand[3] < best[3]):
                best = cand
            elif cand[0] == best[0] and cand[3] == best[3]:
                best = (best[0], best[1], best[2] | ks, best[3])
    if best is None:
        for n in sorted(names):
            if n in local_reach:
                way, ks, d = local_reach[n]
                cand = (2, [n] + way, ks, d + 1)
                best = cand if best is None or cand[3] < best[3] else best
    return best


def _without_defs(node):
    """A copy of a statement without the functions and classes it defines (an `if` at module
    level that defines a function runs its definition, not its body)."""
    node = copy_module.deepcopy(node)
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for n in ast.walk(node):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(n, field, None)
            if isinstance(stmts, list) and any(isinstance(st, defs) for st in stmts):
                setattr(n, field, [st for st in stmts if not isinstance(st, defs)] or [ast.Pass()])
    return node


def _main_block(tree):
    for node in tree.body:
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) and "__main__" in ast.unparse(node.test):
            return node
    return None


def _candidate(rel, test, line, r, kind, argv, where=None):
    """One candidate; r: _reaches's answer (rank, via, kernels, depth)."""
    c = {"file": rel, "test": test, "line": line, "rank": r[0], "kind": kind, "via": r[1],
         "kernels": sorted(r[2]), "depth": r[3], "affinity": 1, "argv": argv}
    if where:
        c["where"] = where
    return c


def _file_candidates(tree, rel, kind, bound, file_module, python, direct=True, library=False):
    """The candidates of one file: its test functions that reach the kernel, else its
    __main__ block or module-level code, else the file itself when it imports (direct) the
    kernel's module or a module of its wrappers, not only a package that re-exports one. A
    library module (library: in a package, no __main__ block) is no caller through its
    module-level code: that registers or binds the wrapper (register_kernel(...)(ops.fn)), it
    does not run it."""
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    # a module-level table of the file (kernl's `implementations = {"triton": lambda ...: layer_norm(
    # ..., kernel)}`), indexed by its tests, reaches what its values reach
    defs.update({n.targets[0].id: n.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, (ast.Dict, ast.List, ast.Tuple,
                                                                                   ast.Lambda))})
    local_reach = {}  # helpers of the file that reach the kernel: name -> (the way, kernels)
    for _ in range(4):
        for name, node in defs.items():
            if name in local_reach or name.startswith("test"):
                continue
            r = _reaches(node, bound, local_reach)
            if r:
                local_reach[name] = (r[1], r[2], r[3])
    out = []
    if kind == "test":
        tests = [(None, n) for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name.startswith("test")]
        for cls in tree.body:
            if isinstance(cls, ast.ClassDef) and cls.name.startswith("Test"):
                tests += [(cls.name, n) for n in cls.body
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")]
        for cls, fn in tests:
            r = _reaches(fn, bound, local_reach)
            if r:
                node_id = rel + "::" + (cls + "::" if cls else "") + fn.name
                out.append(_candidate(rel, (cls + "::" if cls else "") + fn.name, fn.lineno, r, kind,
                                      [python, "-m", "pytest", "-x", "-q", node_id]))
    run_mod = file_module if file_module and all(p.isidentifier() for p in file_module.split(".")) else None
    script_argv = [python, "-m", run_mod] if run_mod else [python, rel]
    if not out and kind != "test":
        main = _main_block(tree)
        top = [_without_defs(s) for s in tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                         ast.ClassDef, ast.Import, ast.ImportFrom))]
        main = _without_defs(main) if main is not None else None
        for where, body in (("__main__", main), ("module level", ast.Module(body=top, type_ignores=[]))):
            if body is None or (library and where == "module level"):
                continue
            r = _reaches(body, bound, local_reach)
            if r:
                out.append(_candidate(rel, None, getattr(body, "lineno", 1), r, kind, script_argv, where))
                break
    if not out and direct:
        argv = [python, "-m", "pytest", "-x", "-q", rel] if kind == "test" else script_argv
        if kind in ("test", "benchmark") or _main_block(tree) is not None:  # it only imports the module
            ks = set()
            for what, value in bound.values():
                for d, k in (value.values() if what == "module" else [value]):
                    ks |= k
            out.append(_candidate(rel, None, 1, (3, [], ks, 99), kind, argv))
    return out


def project_root(path):
    """The git top level above FILE, else the nearest folder with a project marker, else FILE's
    folder (at most 16 folders up)."""
    here = os.path.dirname(os.path.abspath(path))
    marker = None
    d = here
    for _ in range(16):
        if os.path.exists(os.path.join(d, ".git")):
            return d
        if marker is None and any(os.path.exists(os.path.join(d, m)) for m in
                                  ("pyproject.toml", "setup.py", "setup.cfg")):
            marker = d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return marker or here


def _defined(tree):
    """The module's top-level functions and classes (a wrapper is one, not an alias of one)."""
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def _project_files(root, me):
    """The project's Python files (rel, full, kind, text) within the walk's bounds, and what
    bounded it (None, "files", "folders", "bytes")."""
    files, read, dirs, capped = [], 0, 0, None
    for top, subdirs, names in os.walk(root, followlinks=False):
        dirs += 1
        if dirs > CALLER_DIRS:
            capped = "folders"
            break
        subdirs[:] = sorted(d for d in subdirs if d not in CALLER_SKIP_DIRS and not d.startswith(".")
                            and not d.endswith(".egg-info") and not os.path.islink(os.path.join(top, d)))
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            full = os.path.join(top, name)
            if os.path.islink(full) or os.path.realpath(full) == me:
                continue
            if len(files) >= CALLER_FILES:
                capped = capped or "files"
                break
            try:
                size = os.path.getsize(full)
                if size > CALLER_FILE_BYTES:
                    continue
                if read + size > CALLER_BYTES:
                    capped = capped or "bytes"
                    break
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read(CALLER_FILE_BYTES)
            except OSError:
                continue
            read += len(text)
            rel = os.path.relpath(full, root)
            files.append((rel, full, _file_kind(rel), text))
        if capped:
            break
    return files, capped


def _parsed(cache, full, text):
    if full not in cache:
        try:
            cache[full] = ast.parse(text, filename=full)
        except (SyntaxError, ValueError):
            cache[full] = None
    return cache[full]


_REGISTER_CALLS = {"register_kernel", "impl", "custom_op"}
# Dispatch keys an NVIDIA GPU's call of the op reaches ("" : every device).
_CUDA_KEYS = {"", "cuda", "default", "compositeexplicitautograd", "compositeimplicitautograd", "autograd",
              "autogradcuda"}


def _registration(call):
    """register_kernel("ns::op", "xpu"), torch.library.impl("ns::op", "cuda"),
    torch.library.custom_op("ns::op", ...): ("torch.ops.ns.op", the devices named, [] none),
    else None. An overload (`ns::op.out`) is the op."""
    if not isinstance(call, ast.Call) or dotted(call.func).rsplit(".", 1)[-1] not in _REGISTER_CALLS:
        return None
    words = []
    for a in list(call.args) + [k.value for k in call.keywords if k.arg in ("device_types", "dispatch_key", "types")]:
        for e in (a.elts if isinstance(a, (ast.Tuple, ast.List)) else [a]):
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                words.append(e.value)
    op = next((w for w in words if "::" in w), None)
    if not op:
        return None
    ns, name = op.split("::", 1)
    if not (ns.isidentifier() and name.split(".", 1)[0].isidentifier()):
        return None
    return "torch.ops.%s.%s" % (ns, name.split(".", 1)[0]), [w for w in words if w != op]


def _registrations(tree, bound, own):
    """The ops the module registers with a function that reaches the kernel: [(key, devices,
    (depth, kernels), line)], the depth counting the dispatch as a call. Both spellings:
    `register_kernel(OP, DEV)(fn)` and `@register_kernel(OP, DEV)` on a def."""
    found = []
    local = {n: ([n], v[1], v[0]) for n, v in own.items()}
    for n in ast.walk(tree):
        reg, reach = None, None
        if isinstance(n, ast.Call) and n.args and _registration(n.func):
            reg, fn = _registration(n.func), dotted(n.args[0])
            head, _, attr = fn.partition(".")
            if fn in own:
                reach = own[fn]
            elif fn in bound and bound[fn][0] != "module":
                reach = bound[fn][1]
            elif attr and head in bound and bound[head][0] == "module" and attr in bound[head][1]:
                reach = bound[head][1][attr]
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            reg = next((_registration(d) for d in n.decorator_list if _registration(d)), None)
            r = _reaches(n, bound, local) if reg else None
            reach = (r[3] + 1, r[2]) if r else None
        if reg and reach:
            found.append((reg[0], reg[1], (reach[0] + 1, frozenset(reach[1])), n.lineno))
    return found


def _op_bindings(text, ops):
    """The registered ops a file's text calls as torch.ops.NS.NAME, bound as names that reach."""
    return {k: ("name", v) for k, v in ops.items() if k in text}


def _library_modules(files, targets, root, trees, base, ops, elsewhere):
    """Follows the kernel into the project's other modules (issue 45: attorch's kernels are
    launched in attorch/X_layer.py and reached through the package's `attorch.Linear`): a
    module (not a test or benchmark) that imports the kernel, or a name that reaches it, from
    a target module and launches, calls or re-exports it becomes a target itself, with the
    names it exposes. At most CALLER_ROUNDS rounds (kernels -> layer -> package __init__ ...).
    A torch.library registration of a function that reaches the kernel (bitsandbytes:
    `register_kernel("bitsandbytes::quantize_4bit", "cuda")(triton_ops.quantize_4bit)`) makes
    `torch.ops.NS.NAME` a name that reaches it, in ops ({key: (depth, kernels)}), for the
    project's modules and tests that call it; one registered for other devices only (an NVIDIA
    GPU's call of the op runs another kernel) goes to elsewhere ("NS::NAME for xpu" ...)
    instead. Returns the wrappers found there, as module.name."""
    wrappers = set()
    for _ in range(CALLER_ROUNDS):
        needles = {n.rsplit(".", 1)[-1] for e in targets.values() for n in e} | {base} | set(ops)
        changed = False
        for rel, full, kind, text in files:
            if kind != "script" or not any(n in text for n in needles):
                continue
            tree = _parsed(trees, full, text)
            mods = module_names(full, root)
            if tree is None or not mods:
                continue
            is_pkg = os.path.basename(full) == "__init__.py"
            bound, imports = _bindings(tree, targets, mods[0], is_pkg)
            op_bound = _op_bindings(text, ops)
            bound.update(op_bound)
            if not imports and not op_bound:
                continue
            seeds, kernel_locals = {}, set()
            for local, (what, value) in bound.items():
                if what != "module":
                    seeds[local] = value
                    if what == "kernel":
                        kernel_locals.add(local)
                else:
                    for n, v in value.items():
                        seeds[local + "." + n] = v
                        if v[0] == 0 and n in v[1]:
                            kernel_locals.add(local + "." + n)
            own = module_reach(tree, seeds, kernel_locals)
            for key, devices, v, line in _registrations(tree, bound, own):
                if not devices or any(d.lower() in _CUDA_KEYS for d in devices):
                    changed |= _merge(ops, key, *v)
                else:
                    said = "%s for %s" % (key[len("torch.ops."):].replace(".", "::", 1), ", ".join(devices))
                    if said not in elsewhere:
                        elsewhere.append(said)
            exposed = {local: v for local, (what, v) in bound.items()
                       if what != "module" and not local.startswith("torch.ops.")}  # re-exports
            for n, v in own.items():
                _merge(exposed, n, *v)
                if v[0] == 0 and n in _defined(tree):
                    wrappers.add(mods[0] + "." + n)
            for m in mods:
                if targets.get(m) != exposed and exposed:
                    targets[m] = exposed
                    changed = True
        if not changed:
            break
    return sorted(wrappers)


def cmd_callers(path, root, only=None):
    """kerndiff-triton.py callers FILE ROOT [KERNEL]: the project's code that reaches FILE's
    kernels (KERNEL's alone, when named), as commands that run it (JSON on stdout). ROOT "" :
    found from FILE (project_root)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError) as e:
        fail(6, "cannot read %s as Python: %s" % (path, e))
    root = os.path.abspath(root or project_root(path))
    wrapped = wrapped_by_call(tree)
    kernels = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and
               (n.name in wrapped or any(decorator_kind(d) == "jit" for d in n.decorator_list))}
    if only:
        kernels &= {only}
    seeds = {k: (0, frozenset([k])) for k in kernels}
    exposed = module_reach(tree, seeds, kernels)
    wrappers = sorted(n for n, (d, _) in exposed.items() if d == 0 and n in _defined(tree))
    for k in kernels:
        exposed.setdefault(k, (0, frozenset([k])))  # a caller that launches the kernel itself reaches it directly
    targets = {m: exposed for m in module_names(path, root)}
    python = sys.executable or "python3"
    me = os.path.realpath(path)
    self_module = module_names(path, root)[0] if module_names(path, root) else None
    candidates = []
    # the module itself: its __main__ block or module-level calls
    main = _main_block(tree)
    if main is not None:
        r = _reaches(main, {n: ("kernel" if n in kernels else "name", v) for n, v in exposed.items()}, {})
        if r:
            rel = os.path.relpath(os.path.abspath(path), root)
            candidates.append(_candidate(rel, None, main.lineno, r, "self",
                                         [python, "-m", self_module] if self_module else [python, rel], "__main__"))
    files, capped = _project_files(root, me)
    trees = {}
    base = os.path.basename(path)[:-3] if path.endswith(".py") else os.path.basename(path)
    direct_modules = set(targets)
    ops, elsewhere = {}, []
    if kernels:
        found = _library_modules(files, targets, root, trees, base, ops, elsewhere)
        wrappers += found
        direct_modules |= {w.rsplit(".", 1)[0] for w in found}
    nearest = []
    needles = {base} | {n.rsplit(".", 1)[-1] for e in targets.values() for n in e} | set(ops)
    for rel, full, kind, text in files:
        if kind == "script" and os.path.basename(full) == "__init__.py":
            continue
        if not kernels or not any(n in text for n in needles):
            continue
        ftree = _parsed(trees, full, text)
        if ftree is None:
            continue
        file_module = (module_names(full, root) or [None])[0]
        bound, imports = _bindings(ftree, targets, file_module, os.path.basename(full) == "__init__.py")
        op_bound = _op_bindings(text, ops)
        bound.update(op_bound)
        imports |= bool(op_bound)
        if not imports:
            if kind in ("test", "benchmark") and len(nearest) < 3:
                nearest.append(rel)  # names the module or its wrapper, imports neither as written
            continue
        direct = _bindings(ftree, {m: targets[m] for m in direct_modules if m in targets}, file_module,
                           os.path.basename(full) == "__init__.py")[1]
        library = kind == "script" and _main_block(ftree) is None and \
            os.path.exists(os.path.join(os.path.dirname(full), "__init__.py"))
        candidates += _file_candidates(ftree, rel, kind, bound, file_module, python, direct, library)
    for c in candidates:  # tests/test_cumsum.py for cumsum.py: the module's own test, among equals
        c["affinity"] = 0 if base.lower().strip("_") in os.path.basename(c["file"]).lower() else 1
    candidates.sort(key=lambda c: (c["rank"], c["depth"], c["affinity"], CALLER_KIND_ORDER.get(c["kind"], 9),
                                   c["file"], c["line"]))
    json.dump({"root": root, "module": self_module, "kernels": sorted(kernels), "wrappers": wrappers,
               "candidates": candidates[:CALLER_MAX], "found": len(candidates), "scanned": len(files),
               "capped": capped, "nearest": [] if candidates else nearest,
               "elsewhere": [] if candidates else elsewhere[:4]}, sys.stdout)


def main(argv):
    if len(argv) == 3 and argv[1] == "list":
        cmd_list(argv[2])
    elif len(argv) == 2 and argv[1] == "version":
        text = triton_version()
        check_version(text)
        print(text)
    elif len(argv) == 6 and argv[1] == "build":
        cmd_build(*argv[2:])
    elif len(argv) == 6 and argv[1] == "capture":
        cmd_capture(*argv[2:])
    elif len(argv) in (4, 5) and argv[1] == "callers":
        cmd_callers(argv[2], argv[3], argv[4] if len(argv) == 5 else None)
    elif len(argv) == 3 and argv[1] == "heuristics":
        cmd_heuristics(argv[2])
    else:
        fail(2, "usage: kerndiff-triton.py list FILE | version | heuristics SPEC_JSON | "
                "build FILE KERNEL SPEC_JSON OUTDIR | capture FILE KERNEL SPEC_JSON OUTDIR | callers FILE ROOT [KERNEL]")


def exit_now(argv):
    """main(), then an exit that waits for nothing: the user's module, whose definitions some
    commands run (definitions_of), may have started threads (a non-daemon thread at import
    would otherwise hold this process, and kerndiff, until it ends: issue 39's exploit
    families include a module that spawns one)."""
    import traceback
    try:
        main(argv)
        status = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            status = e.code or 0
        else:
            sys.stderr.write(str(e.code) + "\n")
            status = 1
    except BaseException:  # what Python would print for an uncaught exception, and its status
        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        status = status or 1
    os._exit(status)


if __name__ == "__main__":
    exit_now(sys.argv)
