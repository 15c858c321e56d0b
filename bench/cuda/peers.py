"""numba-cuda and CuPy beside ufjit (bench/cuda/run.py runs this in a
Python that has them; every peer that is missing is reported, not fatal).

  peers.py ptx KERNELS.py DIR NAME SIG [NAME SIG ...]
      numba-cuda's PTX (compile_ptx, cc 8.0: no GPU needed) of each kernel
      as numba-cuda's own @vectorize / @guvectorize(target='cuda') builds
      it: its kernel templates (vectorizers.py) around the function as a
      device function, arrays typed `dtype[:]` as its ufuncs type them.
      For vectorize kernels also a grid-stride kernel over C-contiguous
      arrays (ufjit's loop shape), to tell the loop shape from the rest.
      Writes DIR/NAME.TAG.numba.ptx, DIR/NAME.TAG.numba_gs.ptx; prints one
      JSON line per file or error.
  peers.py gpu KERNELS.py N CALLS ROUNDS CASE...
      On a GPU: numba-cuda's @vectorize(target='cuda') and CuPy's
      ElementwiseKernel of the same expression, and a CuPy RawKernel's
      empty launch and a.copy(), timed as cuda_bench times ufjit (CALLS
      calls, one synchronize, median of ROUNDS); reduce:DTYPE and
      transpose at cuda_bench's default sizes (big_case). JSON lines as
      cuda_bench's, with "peer".

Kernels are taken from KERNELS.py without their decorators (importing it
under numba-cuda would compile them for a GPU at import); device
functions (@cuda.jit(device=True), @njit) become numba-cuda device
functions.
"""
import ast
import json
import math
import os
import sys
import time
import types as pytypes

CC = (8, 0)


def say(**kw):
    print(json.dumps(kw), flush=True)


def load_kernels(path):
    """{name: (kind, py_function, decorator source)}, plus the namespace
    the functions see."""
    import numpy as np
    tree = ast.parse(open(path).read(), path)
    ns = {"math": math, "np": np, "__name__": "bench_cuda_kernels"}
    kinds = {}
    body = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.FunctionDef):
            deco = " ".join(ast.unparse(d) for d in node.decorator_list)
            if deco.startswith("guvectorize"):
                kinds[node.name] = "guvectorize"
            elif deco.startswith("vectorize"):
                kinds[node.name] = "vectorize"
            elif deco.startswith("cuda.jit") and "device=True" not in deco:
                kinds[node.name] = "kernel"
            else:
                kinds[node.name] = "device"
            if node.decorator_list and kinds[node.name] == "guvectorize":
                kinds[node.name] = ("guvectorize",
                                    ast.literal_eval(
                                        node.decorator_list[0].args[1]))
            node.decorator_list = []
        body.append(node)
    tree.body = body
    exec(compile(tree, path, "exec"), ns)
    return kinds, ns


def device_namespace(kinds, ns):
    """ns with the device functions as numba-cuda device functions."""
    from numba import cuda
    g = dict(ns, cuda=cuda)
    for name, kind in kinds.items():
        if kind == "device":
            g[name] = cuda.jit(device=True)(ns[name])
    return g


def rebind(fn, g):
    return pytypes.FunctionType(fn.__code__, g, fn.__name__,
                                fn.__defaults__, fn.__closure__)


GRID_STRIDE = """
def __gs_{name}({args}, __out__):
    __start__ = __cuda__.grid(1)
    __step__ = __cuda__.gridsize(1)
    for __i__ in range(__start__, __out__.shape[0], __step__):
        __out__[__i__] = __core__({items})
"""


def tag(sig):
    import re
    return "-".join(re.findall(r"[a-z0-9]+", sig))


def vectorize_ptx(name, fn, sig, g):
    """(template PTX, grid-stride PTX) of a vectorize kernel."""
    from numba import cuda, types
    from numba.core import sigutils
    from numba.core.typing import signature
    from numba.cuda import deviceufunc as D
    from numba.cuda import vectorizers as V
    args, ret = sigutils.normalize_signature(sig)
    core = cuda.jit(device=True, inline="always")(rebind(fn, g))
    glbl = dict(g, __cuda__=cuda, __core__=core)
    src = D.DeviceVectorize._get_kernel_source(
        None, V.vectorizer_stager_source, signature(ret, *args), name)
    exec(src, glbl)
    ksig = signature(types.void, *([a[:] for a in args] + [ret[:]]))
    ptx, _ = cuda.compile_ptx(glbl["__vectorized_%s" % name], ksig, cc=CC)
    names = ["a%d" % i for i in range(len(args))]
    exec(GRID_STRIDE.format(name=name, args=", ".join(names),
                            items=", ".join(n + "[__i__]" for n in names)),
         glbl)
    csig = signature(types.void, *([a[::1] for a in args] + [ret[::1]]))
    gs, _ = cuda.compile_ptx(glbl["__gs_%s" % name], csig, cc=CC)
    return ptx, gs


def guvectorize_ptx(name, fn, layout, sig, g):
    from numba import cuda
    from numba.core import sigutils
    from numba.cuda import deviceufunc as D
    from numba.cuda import vectorizers as V
    args, _ = sigutils.normalize_signature(sig)
    ins, outs = D.parse_signature(layout)
    indims, outdims = [len(x) for x in ins], [len(x) for x in outs]
    src = D.expand_gufunc_template(V._gufunc_stager_source, indims, outdims,
                                   name, args)
    glbl = dict(g, __cuda__=cuda,
                __core__=cuda.jit(device=True)(rebind(fn, g)))
    exec(src, glbl)
    outer = tuple(D._determine_gufunc_outer_types(args, indims + outdims))
    ptx, _ = cuda.compile_ptx(glbl["__gufunc_%s" % name], outer, cc=CC)
    return ptx


def kernel_ptx(fn, sig, g):
    """numba-cuda's PTX of a cuda.jit kernel for one signature."""
    from numba import cuda
    ptx, _ = cuda.compile_ptx(rebind(fn, g), sig, cc=CC)
    return ptx


def no_device_compile():
    """numba-cuda asks the current device's compute capability when it
    compiles a device function for a caller; without a GPU there is none:
    answer CC (compile_ptx's own cc decides the kernel's target)."""
    import numba.cuda.dispatcher as disp
    try:
        disp.get_current_device().compute_capability
    except Exception:
        disp.get_current_device = \
            lambda: pytypes.SimpleNamespace(compute_capability=CC)


def cmd_ptx(path, out, pairs):
    try:
        import numba
        import numba.cuda  # noqa: F401
    except Exception as e:  # noqa: BLE001 (any import failure)
        say(error="numba-cuda is not importable: %s" % e)
        return 0
    no_device_compile()
    kinds, ns = load_kernels(path)
    g = device_namespace(kinds, ns)
    import importlib.metadata as md
    try:
        version = md.version("numba-cuda")
    except md.PackageNotFoundError:
        version = "numba " + numba.__version__ + " (built-in cuda)"
    say(peer="numba-cuda", version=version, numba=numba.__version__)
    for name, sig in pairs:
        kind = kinds.get(name)
        base = os.path.join(out, "%s.%s" % (name, tag(sig)))
        try:
            if kind == "vectorize":
                ptx, gs = vectorize_ptx(name, ns[name], sig, g)
                open(base + ".numba.ptx", "w").write(ptx)
                open(base + ".numba_gs.ptx", "w").write(gs)
            elif kind == "kernel":
                open(base + ".numba.ptx", "w").write(
                    kernel_ptx(ns[name], sig, g))
            elif isinstance(kind, tuple):
                ptx = guvectorize_ptx(name, ns[name], kind[1], sig, g)
                open(base + ".numba.ptx", "w").write(ptx)
            else:
                raise ValueError("%s is not a kernel of %s" % (name, path))
            say(name=name, signature=sig, ok=True)
        except Exception as e:  # noqa: BLE001 (reported per kernel)
            say(name=name, signature=sig,
                error="%s: %s" % (type(e).__name__, str(e)[:300]))
    return 0


# ---- on a GPU ---------------------------------------------------------

# CuPy's ElementwiseKernel of each kernel, in the precision Numba's typing
# computes it (float32 * a float literal is float64, ...), T the dtype.
CUPY = {
    "triad": ("T x, T y", "T z", "z = (T)3.0 * x + y"),
    "rel_diff": ("T x, T y", "T z",
                 "z = (T)(2.0 * (double)(x - y) / (double)(x + y))"),
    "gaussian_pdf": ("T x, T mean, T sigma", "T z",
                     "T t = (x - mean) / sigma; "
                     "z = (T)(exp(-0.5 * (double)(t * t)) / "
                     "(double)(sigma * (T)2.5066282746310002))"),
    "polar_distance": ("T r1, T t1, T r2, T t2", "T z",
                       "T x1 = r1 * cos(t1), y1 = r1 * sin(t1); "
                       "T x2 = r2 * cos(t2), y2 = r2 * sin(t2); "
                       "z = (T)pow((double)((x1 - x2) * (x1 - x2) + "
                       "(y1 - y2) * (y1 - y2)), 0.5)"),
    "sine": ("T x", "T z", "z = sin(x)"),
}


def inputs(np, shape, k, dtype):
    """As cuda_bench.c fills input k."""
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    v = 0.5 + np.fmod(i * 0.6180339887498949 + k * 0.3819660112501051, 1.0)
    return v.astype(dtype).reshape(shape)


def timed(fn, sync, calls, rounds):
    fn()
    sync()
    t = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        t.append((time.perf_counter() - t0) / calls)
    t.sort()
    return 1e6 * t[len(t) // 2]


def checksum(np, host):
    h = np.asarray(host, dtype=np.float64)
    return [float(h.sum()), float(np.abs(h).sum())]


def nins(kinds, ns, name):
    return ns[name].__code__.co_argcount


# run.py passes the sizes it gave cuda_bench
REDUCE_N = int(os.environ.get("BENCH_CUDA_REDUCE_N", "100000000"))
TRANSPOSE_D = int(os.environ.get("BENCH_CUDA_TRANSPOSE_D", "8192"))


def big_case(np, kinds, ns, g, have, name, dt, calls, rounds):
    """The cases of issue 15 at cuda_bench's sizes: a sum of 10**8
    (numba-cuda's cuda.reduce of kernels.py's sum_reduce, the result left
    on the device through res=; CuPy's sum into a 0-d array) and the seed's
    tile transpose of an 8192 x 8192 int32 matrix (numba-cuda's cuda.jit
    of kernels.py's tile_transpose)."""
    if name == "reduce":
        host = inputs(np, (REDUCE_N,), 0, dt)
        if "numba-cuda" in have:
            from numba import cuda
            try:
                red = cuda.reduce(rebind(ns["sum_reduce"], g))
                d = cuda.to_device(host)
                res = cuda.device_array(1, dtype=dt)
                stream = cuda.stream()
                us = timed(lambda: red(d, res=res, stream=stream),
                           stream.synchronize, calls, rounds)
                v = float(res.copy_to_host()[0])
                say(peer="numba-cuda", case=name, dtype=dt, n=REDUCE_N,
                    us=us, bytes=host.nbytes, sum=[v, abs(v)])
            except Exception as e:  # noqa: BLE001
                say(peer="numba-cuda", case=name, dtype=dt,
                    error="%s: %s" % (type(e).__name__, str(e)[:300]))
        if "cupy" in have:
            import cupy
            try:
                d = cupy.asarray(host)
                res = cupy.empty((), dtype=dt)
                us = timed(lambda: cupy.sum(d, out=res),
                           cupy.cuda.Device().synchronize, calls, rounds)
                v = float(res.get())
                say(peer="cupy", case=name, dtype=dt, n=REDUCE_N, us=us,
                    bytes=host.nbytes, sum=[v, abs(v)],
                    accelerators=os.environ.get("CUPY_ACCELERATORS",
                                                "(default)"))
            except Exception as e:  # noqa: BLE001
                say(peer="cupy", case=name, dtype=dt,
                    error="%s: %s" % (type(e).__name__, str(e)[:300]))
        return
    if "numba-cuda" not in have:
        return
    from numba import cuda
    try:
        dd = TRANSPOSE_D
        host = np.arange(dd * dd, dtype=np.int32).reshape(dd, dd)
        k = cuda.jit(rebind(ns["tile_transpose"], g))
        a = cuda.to_device(host)
        b = cuda.device_array_like(a)
        launch = k[(dd // 32, dd // 32), (32, 8)]
        us = timed(lambda: launch(a, b), cuda.synchronize, calls, rounds)
        wrong = int((b.copy_to_host() != host.T).sum())
        say(peer="numba-cuda", case=name, dtype="int32", n=dd * dd, us=us,
            bytes=2 * host.nbytes, wrong=wrong)
    except Exception as e:  # noqa: BLE001
        say(peer="numba-cuda", case=name, dtype="int32",
            error="%s: %s" % (type(e).__name__, str(e)[:300]))


def gufunc_case(np, kinds, ns, g, have, name, dt, n, calls, rounds):
    """numba-cuda's @guvectorize(target='cuda') of matvec / matmul on the
    operands cuda_bench makes: n/16 4x4 or n/64 8x8 matrices."""
    if "numba-cuda" not in have:
        return
    from numba import cuda, guvectorize
    d = 4 if name == "matvec" else 8
    b = max(1, n // (d * d))
    shapes = [(b, d, d), (b, d) if name == "matvec" else (b, d, d)]
    try:
        sig = ("void(%s[:,:], %s[:], %s[:])" if name == "matvec" else
               "void(%s[:,:], %s[:,:], %s[:,:])") % (dt, dt, dt)
        gu = guvectorize([sig], kinds[name][1], target="cuda")(
            rebind(ns[name], g))
        host = [inputs(np, sh, k, dt) for k, sh in enumerate(shapes)]
        dev = [cuda.to_device(h) for h in host]
        out = cuda.device_array(shapes[1], dtype=dt)
        us = timed(lambda: gu(*dev, out=out), cuda.synchronize, calls,
                   rounds)
        nbytes = sum(h.nbytes for h in host) + out.nbytes
        say(peer="numba-cuda", case=name, dtype=dt, n=out.size, us=us,
            bytes=nbytes, sum=checksum(np, out.copy_to_host()))
    except Exception as e:  # noqa: BLE001
        say(peer="numba-cuda", case=name, dtype=dt,
            error="%s: %s" % (type(e).__name__, str(e)[:300]))


def cmd_gpu(path, n, calls, rounds, cases):
    try:
        import numpy as np
    except ImportError:
        say(skip="NumPy is not installed for %s" % sys.executable)
        return 0
    # numba (0.6x) registers np.row_stack, which NumPy 2.5 no longer has: the GPU
    # machine's NumPy 2.5 makes `from numba import cuda` fail without this
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    kinds, ns = load_kernels(path)
    have = {}
    try:
        from numba import cuda, vectorize
        if cuda.is_available():
            have["numba-cuda"] = True
        else:
            say(peer="numba-cuda", skip="no GPU seen by numba-cuda")
    except Exception as e:  # noqa: BLE001
        say(peer="numba-cuda", skip="not importable: %s" % e)
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        have["cupy"] = True
        say(peer="cupy", version=cupy.__version__)
    except Exception as e:  # noqa: BLE001
        say(peer="cupy", skip="not usable: %s" % e)
    if not have:
        return 0
    g = device_namespace(kinds, ns) if "numba-cuda" in have else ns
    for c in cases:
        name, _, dt = c.partition(":")
        if name in ("copy", "launch"):
            if "cupy" not in have:
                continue
            import cupy
            if name == "copy":
                a = cupy.asarray(inputs(np, (n,), 0, dt))
                b = cupy.empty_like(a)
                us = timed(lambda: cupy.copyto(b, a),
                           cupy.cuda.Device().synchronize, calls, rounds)
                say(peer="cupy", case="copy", dtype=dt, n=n, us=us,
                    bytes=2 * a.nbytes)
            else:
                k = cupy.RawKernel('extern "C" __global__ void e() {}', "e")
                us = timed(lambda: k((1,), (32,), ()),
                           cupy.cuda.Device().synchronize, calls, rounds)
                say(peer="cupy", case="launch", dtype="", n=0, us=us,
                    bytes=0)
            continue
        if name in ("reduce", "transpose"):
            big_case(np, kinds, ns, g, have, name, dt, calls, rounds)
            continue
        size = 10 if name == "small" else n
        kname = "triad" if name == "small" else name
        if isinstance(kinds.get(kname), tuple):
            gufunc_case(np, kinds, ns, g, have, kname, dt, n, calls, rounds)
            continue
        if kinds.get(kname) != "vectorize":
            continue
        k = nins(kinds, ns, kname)
        host = [inputs(np, (size,), i, dt) for i in range(k)]
        nbytes = (k + 1) * host[0].nbytes
        if "numba-cuda" in have:
            try:
                sig = "%s(%s)" % (dt, ", ".join([dt] * k))
                uf = vectorize([sig], target="cuda")(rebind(ns[kname], g))
                d = [cuda.to_device(h) for h in host]
                out = cuda.device_array(size, dtype=dt)
                us = timed(lambda: uf(*d, out=out), cuda.synchronize,
                           calls, rounds)
                say(peer="numba-cuda", case=name, dtype=dt, n=size, us=us,
                    bytes=nbytes, sum=checksum(np, out.copy_to_host()))
            except Exception as e:  # noqa: BLE001
                say(peer="numba-cuda", case=name, dtype=dt,
                    error="%s: %s" % (type(e).__name__, str(e)[:300]))
        if "cupy" in have and kname in CUPY:
            import cupy
            try:
                i_, o_, body = CUPY[kname]
                ek = cupy.ElementwiseKernel(i_, o_, body, "bench_" + kname)
                d = [cupy.asarray(h) for h in host]
                out = cupy.empty(size, dtype=dt)
                us = timed(lambda: ek(*d, out), 
                           cupy.cuda.Device().synchronize, calls, rounds)
                say(peer="cupy", case=name, dtype=dt, n=size, us=us,
                    bytes=nbytes, sum=checksum(np, out.get()))
            except Exception as e:  # noqa: BLE001
                say(peer="cupy", case=name, dtype=dt,
                    error="%s: %s" % (type(e).__name__, str(e)[:300]))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "ptx":
        rest = argv[3:]
        return cmd_ptx(argv[1], argv[2], list(zip(rest[::2], rest[1::2])))
    if len(argv) >= 5 and argv[0] == "gpu":
        return cmd_gpu(argv[1], int(argv[2]), int(argv[3]), int(argv[4]),
                       argv[5:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
