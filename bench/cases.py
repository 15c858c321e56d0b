"""The benchmark suite's cases: one table entry each.

Adding a case is adding one `Case(...)` to `cases()` below:
  - name: a unique label ("triad f64"); group: elementwise, overhead, gufunc
    or reduce (which peers run, which table it lands in);
  - file/kernel: the kernel, in a file of this folder that ufjit and Numba
    both read (kernels.py for vectorize, kernels_gufunc.py, ...);
  - ops: the inputs, Lin(lo, hi, shape, view) = np.linspace(lo, hi,
    size).reshape(shape)[view], or Scalar(v), a 0-d array; outs: output
    shapes (allocated once and reused by every contender);
  - numpy: the NumPy way of computing it, writing into the outputs (also
    the reference every contender's result is checked against);
  - numexpr: the expression over a, b, c, d (the inputs in order), if any;
  - bound: "memory" or "transcendental" (which goals of issue 5 apply);
    limit: what bounds the case, measured in the same rounds: "stream"
    (the bytes it reads and writes, counted as STREAM counts them, at
    STREAM triad's bandwidth), "read" (its bytes at the bandwidth of
    bench_stream's read-only sum: reductions), "write" (its bytes at the
    bandwidth of bench_stream's write-only kernel: a large output from
    small inputs, which triad's mix of reads and writes overstates) or
    the bench_mvec kernel (transcendental cases);
  - ufjit: how ufjit runs it, a tuple of Way(label, file, kernel, mode,
    axes); default: uf_call of `kernel` on the case's operands.
Every case runs on ufjit's cpu and parallel targets, with ufjit's default
(libmvec on), and transcendental cases also with UFJIT_ENABLE_LIBMVEC=0
(contenders `ufjit T libm`); a target or kernel kind that ufjit refuses
with UF_ERR_UNSUPPORTED is reported as not available yet.
"""
import math
from dataclasses import dataclass, field

import numpy as np

# seed 002's float32 constant, as the kernels use it
SQ = float(np.float32((2 * math.pi) ** 0.5))


@dataclass(frozen=True)
class Lin:
    lo: float
    hi: float
    shape: tuple
    view: str = None  # a basic index such as "::2"

    def spec(self):
        s = f"lin/{self.lo!r}/{self.hi!r}/{shape_spec(self.shape)}"
        return s + (f"/{self.view}" if self.view else "")

    def make(self, dtype):
        a = np.linspace(self.lo, self.hi, math.prod(self.shape)).astype(
            dtype).reshape(self.shape)
        return a[view_index(self.view)] if self.view else a


@dataclass(frozen=True)
class Scalar:
    value: float

    def spec(self):
        return f"scalar/{self.value!r}"

    def make(self, dtype):
        return np.array(self.value, dtype=dtype)


@dataclass(frozen=True)
class Way:
    """One way ufjit runs a case: uf_call (mode "call") or the ufunc
    method uf_reduce (mode "ureduce"); axes: "-" (default), "all", "0"."""
    label: str
    file: str
    kernel: str
    mode: str = "call"
    axes: str = "-"


@dataclass
class Case:
    name: str
    group: str
    file: str
    kernel: str
    dtype: str
    ops: tuple
    outs: tuple
    numpy: object
    numexpr: str = None
    bound: str = None
    limit: str = None
    ufjit: tuple = None
    numba: object = None  # reductions: {label: function(x, out)}
    batch: int = 1
    extra: dict = field(default_factory=dict)

    def ways(self):
        return self.ufjit or (Way("", self.file, self.kernel),)


def shape_spec(shape):
    return "x".join(str(d) for d in shape) if shape else "-"


def view_index(view):
    parts = []
    for p in view.split(","):
        nums = [int(x) if x else None for x in p.strip().split(":")]
        parts.append(slice(*nums) if len(nums) > 1 else nums[0])
    return tuple(parts)


def _triad(a, b, o):
    np.multiply(b, 3.0, out=o)
    np.add(a, o, out=o)


def _rel_diff(x, y, o):
    np.subtract(x, y, out=o)
    np.multiply(o, 2, out=o)
    np.divide(o, x + y, out=o)


def _gaussian(x, m, s, o):
    t = np.subtract(x, m)
    t /= s
    t *= t
    t *= -0.5
    np.exp(t, out=o)
    o /= s * o.dtype.type(SQ)


def _polar(r1, t1, r2, t2, o):
    dx = r1 * np.cos(t1) - r2 * np.cos(t2)
    dy = r1 * np.sin(t1) - r2 * np.sin(t2)
    np.hypot(dx, dy, out=o)


def _max_min(x, hi, lo):
    np.max(x, axis=-1, out=hi)
    np.min(x, axis=-1, out=lo)


def _sum(axis):
    return lambda x, o: np.sum(x, axis=axis, out=o)


def _add_reduce(axis):
    return lambda x, o: np.add.reduce(x, axis=axis, out=o)


ELEMENTWISE = [
    # (kernel, ops(n), numpy, numexpr, bound, limit)
    ("triad", lambda n: (Lin(1, 2, (n,)), Lin(2, 3, (n,))), _triad,
     "a + 3.0*b", "memory", "stream"),
    ("rel_diff", lambda n: (Lin(1, 2, (n,)), Lin(2, 5, (n,))), _rel_diff,
     "2*(a - b)/(a + b)", "memory", "stream"),
    ("hypot", lambda n: (Lin(-3, 4, (n,)), Lin(1, 2, (n,))),
     lambda x, y, o: np.hypot(x, y, out=o), "sqrt(a*a + b*b)", "memory",
     "stream"),
    ("gaussian_pdf", lambda n: (Lin(-3, 3, (n,)), Scalar(0.5), Scalar(1.5)),
     _gaussian, f"exp(-0.5*((a - b)/c)**2)/(c*{SQ!r})", "transcendental",
     "gaussian"),
    ("sine", lambda n: (Lin(0, 10, (n,)),), lambda x, o: np.sin(x, out=o),
     "sin(a)", "transcendental", "sin"),
    ("polar_distance",
     lambda n: (Lin(0.5, 1.5, (n,)), Lin(-3.14, 3.14, (n,)),
                Lin(1.5, 0.5, (n,)), Lin(3.0, -3.0, (n,))),
     _polar, "sqrt((a*cos(b) - c*cos(d))**2 + (a*sin(b) - c*sin(d))**2)",
     "transcendental", "polar"),
]


def cases(size):
    """The suite at `size` "full", "quick" (BENCH_QUICK) or "smoke"."""
    f = {"full": 1, "quick": 10, "smoke": 10000}[size]
    n = 10_000_000 // f
    out = []
    for dt, tag in (("float64", "f64"), ("float32", "f32")):
        for kernel, ops, npf, ne, bound, limit in ELEMENTWISE:
            out.append(Case(f"{kernel} {tag}", "elementwise", "kernels.py",
                            kernel, dt, ops(n), ((n,),), npf, ne, bound,
                            limit))
        rows, cols = (10, 100) if size == "smoke" else (1000, 10_000 // f)
        out.append(Case(f"broadcast {tag}", "elementwise", "kernels.py",
                        "add", dt, (Lin(0, 1, (rows, 1)),
                                    Lin(1, 2, (1, cols))), ((rows, cols),),
                        lambda a, b, o: np.add(a, b, out=o), "a + b",
                        "memory", "write"))
        out.append(Case(f"strided {tag}", "elementwise", "kernels.py", "add",
                        dt, (Lin(0, 1, (2 * n,), "::2"),
                             Lin(1, 2, (2 * n,), "::2")), ((n,),),
                        lambda a, b, o: np.add(a, b, out=o), "a + b",
                        "memory", "stream"))

    calls = 10_000 // min(f, 10)
    add = lambda a, b, o: np.add(a, b, out=o)  # noqa: E731
    out.append(Case("call 10 elements", "overhead", "kernels.py", "add",
                    "float64", (Lin(1, 2, (10,)), Lin(2, 3, (10,))),
                    ((10,),), add, "a + b", batch=calls))
    out.append(Case("call 0-d", "overhead", "kernels.py", "add", "float64",
                    (Scalar(1.5), Scalar(2.5)), ((),), add, "a + b",
                    batch=calls))

    g = "kernels_gufunc.py"
    m1, m2, m3, m4, m5 = (1_000_000 // f, 10_000 // min(f, 100),
                          100_000 // f, 100_000 // f, 1_000_000 // f)
    m6 = 1_000 // f
    mem = dict(bound="memory", limit="stream")  # issue 4: within 1.3x
    out += [
        Case("matvec 4x4 x 1e6", "gufunc", g, "matvec", "float64",
             (Lin(0, 1, (m1, 4, 4)), Lin(1, 2, (m1, 4))), ((m1, 4),),
             lambda M, v, y: np.matmul(M, v[..., None], out=y[..., None]),
             **mem),
        Case("matvec 64x64 x 1e4", "gufunc", g, "matvec", "float64",
             (Lin(0, 1, (m2, 64, 64)), Lin(1, 2, (m2, 64))), ((m2, 64),),
             lambda M, v, y: np.matmul(M, v[..., None], out=y[..., None]),
             **mem),
        Case("matmul 8x8 x 1e5", "gufunc", g, "matmul", "float64",
             (Lin(0, 1, (m3, 8, 8)), Lin(1, 2, (m3, 8, 8))), ((m3, 8, 8),),
             lambda A, B, C: np.matmul(A, B, out=C), **mem),
        Case("(n),()->(n) 1e5 x 100", "gufunc", g, "scale", "float64",
             (Lin(0, 1, (m4, 100)), Lin(1, 2, (m4,))), ((m4, 100),),
             lambda x, c, y: np.multiply(x, c[:, None], out=y), **mem),
        Case("max_min 1e6 x 16", "gufunc", g, "max_min", "float64",
             (Lin(0, 1, (m5, 16)),), ((m5,), (m5,)), _max_min, **mem),
        # issue 18: np.sum of a row inside a kernel, against Numba's
        Case("np.sum rows 1e3 x 64x1000", "gufunc", g, "row_sum", "float64",
             (Lin(0, 1, (max(m6, 1), 64, 1000)),), ((max(m6, 1), 64),),
             lambda a, out: np.sum(a, axis=-1, out=out), **mem),
        # issue 18: np.ptp / np.count_nonzero / np.nanargmax of a row
        Case("np.ptp rows 1e3 x 64x1000", "gufunc", g, "row_ptp", "float64",
             (Lin(0, 1, (max(m6, 1), 64, 1000)),), ((max(m6, 1), 64),),
             lambda a, out: np.ptp(a, axis=-1, out=out), **mem),
        Case("np.count_nonzero rows 1e3 x 64x1000", "gufunc", g,
             "row_count_nonzero", "float64",
             (Lin(0, 1, (max(m6, 1), 64, 1000)),), ((max(m6, 1), 64),),
             lambda a, out: out.__setitem__(
                 Ellipsis, np.count_nonzero(a, axis=-1)), **mem),
        Case("np.nanargmax rows 1e3 x 64x1000", "gufunc", g, "row_nanargmax",
             "float64", (Lin(0, 1, (max(m6, 1), 64, 1000)),),
             ((max(m6, 1), 64),),
             lambda a, out: out.__setitem__(
                 Ellipsis, np.nanargmax(a, axis=-1)), **mem),
        # issue 18: a scratch np.empty per call of the kernel (a row), and
        # per iteration of a loop inside one call, against Numba's NRT
        Case("scratch np.empty per row 1e6 x 16", "gufunc", g, "scratch_rev",
             "float64", (Lin(0, 1, (m5, 16)),), ((m5, 16),),
             lambda x, y: np.multiply(x[:, ::-1], 2.0, out=y), **mem),
        Case("scratch np.empty per loop iteration 1e6 x 16", "gufunc", g,
             "scratch_loop", "float64", (Lin(0, 1, (m5, 16)),), ((m5,),),
             lambda x, y: np.multiply(x[:, -1], 2.0, out=y), **mem),
        Case("scratch read whole per loop iteration 1e6 x 16", "gufunc", g,
             "scratch_whole", "float64", (Lin(0, 1, (m5, 16)),),
             ((m5, 16), (m5,)),
             lambda x, y, s: (np.add(4.0 * x * x, 1.0, out=y),
                              np.sum(2.0 * x, axis=-1, out=s)), **mem),
        # issue 18: out[:] = x * w + b fused, the hand loop, Numba's
        Case("x*w+b (n),(n),()->(n) 1e4 x 1000", "gufunc", g, "axpb_expr",
             "float64", (Lin(0, 1, (m2, 1000)), Lin(1, 2, (m2, 1000)),
                         Lin(2, 3, (m2,))), ((m2, 1000),),
             lambda x, w, b, y: np.add(x * w, b[:, None], out=y),
             ufjit=(Way("array expr", g, "axpb_expr"),
                    Way("hand loop", g, "axpb_loop")), **mem),
    ]
    # issue 18: 2-D np.dot inside a kernel (a new C array per product):
    # single products of growing size and a batch of small ones, against
    # Numba's (BLAS). Compute-bound: no memory limit applies.
    for nn, batch in ((64, 1), (256, 1), (1000, 1), (8, 100_000)):
        if f > 1 and nn > 64:
            continue  # quick and smoke runs: the small ones
        batch = max(1, batch // f)
        shape = (batch, nn, nn) if batch > 1 else (nn, nn)
        label = f"np.dot {nn}x{nn}" + (f" x {batch:.0e}" if batch > 1
                                       else "")
        from peers import numba_dot_batch, numba_dot_into
        out.append(Case(label, "gufunc", g, "dot2d", "float64",
                        (Lin(0, 1, shape), Lin(1, 2, shape)), (shape,),
                        lambda A, B, C: np.matmul(A, B, out=C),
                        numba={"njit BLAS": numba_dot_batch if batch > 1
                               else numba_dot_into}))

    r = "kernels_reduce.py"
    nsum, side = 100_000_000 // f, 10_000 // min(f, 100)
    from peers import numba_sum_all, numba_sum_axis0, numba_sum_axis1
    for name, shape, axis, axes, oshape, nb in (
            ("sum 1e8", (nsum,), None, "all", (), numba_sum_all),
            ("sum axis 0 of 1e4x1e4", (side, side), 0, "0", (side,),
             numba_sum_axis0),
            ("sum axis 1 of 1e4x1e4", (side, side), 1, "1", (side,),
             numba_sum_axis1)):
        ways = (Way("reduce kernel", r, "sum_reduce", "call", axes),
                Way("add.reduce", "kernels.py", "add", "ureduce", axes))
        out.append(Case(name, "reduce", r, "sum_reduce", "float64",
                        (Lin(0, 1, shape),), (oshape,), _sum(axis),
                        bound="memory", limit="read", ufjit=ways,
                        numba={"njit prange": nb},
                        extra={"numpy add.reduce": _add_reduce(axis)}))
    # issue 18: ufjit's prange reduction against its own add.reduce and
    # Numba's prange loop, in the same rounds
    out.append(Case("prange sum 1e8 float64", "reduce", r, "prange_sum",
                    "float64", (Lin(0, 1, (nsum,)),), ((),), _sum(None),
                    bound="memory", limit="read",
                    ufjit=(Way("prange", r, "prange_sum"),
                           Way("add.reduce", "kernels.py", "add", "ureduce",
                               "all")),
                    numba={"njit prange": numba_sum_all},
                    extra={"numpy add.reduce": _add_reduce(None)}))
    return out


# Compile time of one more signature: a fresh kernel per measurement (a
# unique name, so no cache can answer), for ufjit and Numba alike.
COMPILE = [
    ("rel_diff", "float64",
     "@vectorize(['float64(float64, float64)'])\n"
     "def {name}(x, y):\n"
     "    return 2 * (x - y) / (x + y)\n"),
    ("gaussian_pdf", "float32",
     "@vectorize(['float32(float32, float32, float32)'])\n"
     "def {name}(x, mean, sigma):\n"
     "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / "
     "(sigma * SQRT_2PI)\n"),
    ("polar_distance", "float32",
     "@njit\n"
     "def {name}_p2c(rho, theta):\n"
     "    return rho * math.cos(theta), rho * math.sin(theta)\n\n\n"
     "@vectorize(['float32(float32, float32, float32, float32)'])\n"
     "def {name}(rho1, theta1, rho2, theta2):\n"
     "    x1, y1 = {name}_p2c(rho1, theta1)\n"
     "    x2, y2 = {name}_p2c(rho2, theta2)\n"
     "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n"),
]
COMPILE_HEADER = ("import math\nimport numpy as np\n"
                  "from numba import njit, vectorize\n\n"
                  "SQRT_2PI = np.float32((2 * math.pi) ** 0.5)\n\n\n")
