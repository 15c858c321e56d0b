"""NumPy oracle for the gufunc layout parser and call resolution
(gufunc/layout.c, gufunc/core_dims.c).

    gufunc_cases.py OUT [--run TEST_EXE]
    gufunc_cases.py --check FILE

Writes OUT, tab-separated lines:
  P nin nout SIGNATURE =NDIMS;DIM_IXS;SIZES;FLEXIBLE   parse, NumPy's
  P nin nout SIGNATURE !MESSAGE                          _parse_signature
  R name nin SIGNATURE SHAPES OPTIONS =OUT_SHAPES        a gufunc call:
  R name nin SIGNATURE SHAPES OPTIONS !CLASS MESSAGE     shapes or error
SHAPES are per operand, '|'-separated: "2,3", "()" for 0-d, "-" for an
output not given. OPTIONS: "-" or space-separated axis=N, keepdims=0|1,
axes=[a,b][c][]. CLASS is V(alueError), T(ypeError), A(xisError) or B
(a broadcasting error: only its class is compared, not NumPy's nditer
wording). With --run it then runs TEST_EXE OUT; --check FILE exits 1 when
the committed FILE differs from what NumPy gives now. Exits 77 when NumPy
is missing."""
import random
import subprocess
import sys
import warnings

try:
    import numpy as np
    from numpy._core import _umath_tests as ut
    from numpy.linalg import _umath_linalg as ul
except ImportError as e:
    print("numpy (with numpy._core._umath_tests) is not available: "
          "skipping the NumPy oracle (%s)" % e)
    sys.exit(77)

SEED = 20240612

# Valid and invalid layouts written by hand; random mutations add more.
PARSE_SIGS = [
    "(m,n),(n)->(m)", "(n),()->(n)", "(n)->(),()", "()->()", "(),()->()",
    "(3),(3)->(3)", "(m?,n),(n,p?)->(m?,p?)", " ( m , n ) , ( n ) -> ( m ) ",
    "(i),(i)->()", "(m, m)->(m, m)", "(n,d)->(p)", "(_a1,b_2)->(_a1)",
    "(3?)->(3?)", "(m,3),(3,n)->(m,n)", "(i)->(i),(i)", "->(n)",
    "(m,n),(n,p)->(m,p)", "(n?)->(n?)", "(n ?)->()",
    "", "(", "()", "->", "(i),(i)->()x", "(i),(i)->(", "(i,),(i)->()",
    "(i)(i)->()", "(1?,n)->()", "(i?),(i)->()", "(i),(i?)->()", "(0)->()",
    "(i)->", "(i),(i)->(),()", "(i)->()(j)", "(+3)->()", "(3a)->()",
    "(i??)->()", "(99999999999999999999)->()", "(3?)->(3)", "(i j)->()",
    "(i-)->()", "(i)->(j", "(i)->j)", "(,i)->()", "(i)>()", "(i)-()",
    "[i]->()", "(i)->()->()", "(1.5)->()", "(-1)->()", "(i),->()",
]
ALPHABET = "(),->?3n_x "

GUFUNCS = [
    ("matrix_multiply", ut.matrix_multiply),
    ("matmul", ut.matmul),
    ("matmul", np.matmul),
    ("inner1d", ut.inner1d),
    ("innerwt", ut.innerwt),
    ("cross1d", ut.cross1d),
    ("cumsum", ut.cumsum),
    ("euclidean_pdist", ut.euclidean_pdist),
    ("matvec", np.matvec),
    ("vecdot", np.vecdot),
    ("det", ul.det),
    ("slogdet", ul.slogdet),
    ("eigh_lo", ul.eigh_lo),
    ("inv", ul.inv),
]


def counts(sig):
    ins, arrow, outs = sig.partition("->")
    return ins.count("("), outs.count("(")


def parse_case(sig, nin, nout):
    try:
        r = ut.test_signature(nin, nout, sig)
    except ValueError as e:
        return "!" + str(e)
    _, ndims, ixs, flags, sizes = r
    flex = [1 if f & 4 else 0 for f in flags]
    j = lambda xs: ",".join(str(x) for x in xs)
    return "=%s;%s;%s;%s" % (j(ndims), j(ixs), j(sizes), j(flex))


def mutate(rng, sig):
    s = list(sig)
    for _ in range(rng.randint(1, 2)):
        op = rng.randrange(3)
        k = rng.randrange(len(s) + 1)
        if op == 0 or not s:
            s.insert(k, rng.choice(ALPHABET))
        elif op == 1:
            del s[min(k, len(s) - 1)]
        else:
            s[min(k, len(s) - 1)] = rng.choice(ALPHABET)
    return "".join(s)


def parse_sig(sig):
    """[(names...) per operand], names with '?' kept."""
    ins, _, outs = sig.replace(" ", "").partition("->")
    def args(part):
        return [tuple(a for a in g.split(",") if a)
                for g in part[1:-1].split("),(")] if part else []
    return args(ins), args(outs)


def fmt_shape(s):
    if s is None:
        return "-"
    return ",".join(str(d) for d in s) if len(s) else "()"


def fmt_opts(opts):
    out = []
    if "axes" in opts:
        out.append("axes=" + "".join(
            "[" + ",".join(str(a) for a in t) + "]" for t in opts["axes"]))
    if "axis" in opts:
        out.append("axis=%d" % opts["axis"])
    if "keepdims" in opts:
        out.append("keepdims=%d" % int(opts["keepdims"]))
    return " ".join(out) if out else "-"


def call(f, shapes, opts, nin):
    ins = [np.zeros(s) for s in shapes[:nin]]
    outs = [None if s is None else np.zeros(s) for s in shapes[nin:]]
    kw = dict(opts)
    if any(o is not None for o in outs):
        kw["out"] = tuple(outs)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            r = f(*ins, **kw)
        except np.exceptions.AxisError as e:
            return "!A\t" + str(e)
        except TypeError as e:
            return "!T\t" + str(e)
        except ValueError as e:
            m = str(e)
            if m.startswith("operands could not be broadcast") or \
                    m.startswith("non-broadcastable output"):
                return "!B\t-"
            return "!V\t" + m
        except np.linalg.LinAlgError:
            return None
    if not isinstance(r, tuple):
        r = (r,)
    return "=" + "|".join(fmt_shape(np.shape(x)) for x in r)


def random_call(rng, name, f):
    sig = f.signature
    ins, outs = parse_sig(sig)
    nin = len(ins)
    names = sorted({n.rstrip("?") for a in ins + outs for n in a
                    if not n[0].isdigit()})
    size = {n: rng.choice([0, 1, 2, 3, 3, 4]) for n in names}
    if name == "euclidean_pdist":
        size["p"] = size["n"] * (size["n"] - 1) // 2
    loop = [rng.choice([0, 1, 2, 3, 5]) for _ in range(rng.randint(0, 3))]
    opts = {}
    single = len({n.rstrip("?") for a in ins + outs for n in a}) == 1 and \
        all(len(a) <= 1 for a in ins + outs)
    kd_ok = all(len(a) == len(ins[0]) for a in ins) and \
        all(len(a) == 0 for a in outs)
    if kd_ok and rng.random() < 0.3:
        opts["keepdims"] = rng.random() < 0.7
    r = rng.random()
    if single and r < 0.35:
        opts["axis"] = rng.randint(-3, 2)
    elif r < 0.3 or (r < 0.33 and not single):
        opts["axes"] = None          # filled in below
    elif r < 0.36 and "keepdims" not in opts and not kd_ok:
        opts["keepdims"] = False     # unsupported layout: a TypeError

    def core_shape(arg):
        s = []
        for n in arg:
            if n[0].isdigit():
                s.append(int(n.rstrip("?")))
            else:
                s.append(size[n.rstrip("?")])
        return s

    logical = []
    for a in ins:
        k = rng.randint(0, len(loop))
        lp = [1 if rng.random() < 0.25 else d for d in loop[len(loop) - k:]]
        core = core_shape(a)
        if any(n.endswith("?") for n in a) and rng.random() < 0.4:
            core = core[1:] if rng.random() < 0.5 else core[:-1]
        logical.append(lp + core)
    kd = opts.get("keepdims", False)
    give_out = rng.random() < 0.35
    for a in outs:
        if give_out:
            core = [1] * len(ins[0]) if kd else core_shape(a)
            logical.append(list(loop) + core)
        else:
            logical.append(None)
    # perturbations that make errors
    p = rng.random()
    if p < 0.12:
        i = rng.randrange(len(logical))
        if logical[i]:
            j = rng.randrange(len(logical[i]))
            logical[i][j] = rng.choice([0, 1, 2, 3, 4, 5])
    elif p < 0.18:
        i = rng.randrange(nin)
        logical[i] = logical[i][1:]
    elif p < 0.22 and give_out:
        i = rng.randrange(nin, len(logical))
        logical[i] = [rng.choice([1, 2, 5])] + logical[i]

    shapes = [None if s is None else tuple(s) for s in logical]
    if "axes" in opts:
        axes = []
        nent = len(ins) + len(outs)
        if all(len(a) == 0 for a in outs) and rng.random() < 0.5:
            nent = nin
        arrays = list(shapes)
        loop_nd = max([len(s) - len(a) for s, a in zip(shapes, ins + outs)
                       if s is not None] + [0])
        for i in range(nent):
            a = (ins + outs)[i]
            nc = len([n for n in a])
            if i < len(shapes) and shapes[i] is not None:
                nd = len(shapes[i])
                nc = min(nc, nd)
            else:
                nd = loop_nd + (len(ins[0]) if kd else nc)
                if kd:
                    nc = len(ins[0])
            pos = rng.sample(range(nd), nc) if nc <= nd else list(range(nc))
            t = [q - nd if rng.random() < 0.4 else q for q in pos]
            if rng.random() < 0.08:
                t = t + [0]
            elif rng.random() < 0.05 and t:
                t[0] = nd + 1
            axes.append(tuple(t))
            if shapes[i] is not None and len(pos) == nc:
                s = list(shapes[i])
                core, rest = s[nd - nc:], s[:nd - nc]
                arr = [None] * nd
                for q, d in zip(pos, core):
                    arr[q] = d
                it = iter(rest)
                arrays[i] = tuple(next(it) if d is None else d for d in arr)
        shapes = arrays
        opts["axes"] = axes
    elif "axis" in opts:
        # move the core axis of each operand that has one to `axis`
        arrays = []
        for s, a in zip(shapes, ins + outs):
            if s is None or len(a) == 0 or not s:
                arrays.append(s)
                continue
            s = list(s)
            ax = opts["axis"] if -len(s) <= opts["axis"] < len(s) else -1
            core = s.pop()
            s.insert(ax % (len(s) + 1) if ax >= 0 else
                     len(s) + 1 + ax, core)
            arrays.append(tuple(s))
        shapes = arrays
    res = call(f, list(shapes), opts, nin)
    if res is None:
        return None
    return "\t".join(["R", name, str(nin), sig,
                      "|".join(fmt_shape(s) for s in shapes),
                      fmt_opts(opts), res])


def main():
    args = sys.argv[1:]
    if not (len(args) == 1 and not args[0].startswith("-")) and \
            not (len(args) == 3 and args[1] == "--run") and \
            not (len(args) == 2 and args[0] == "--check"):
        sys.exit(__doc__)
    rng = random.Random(SEED)
    lines = ["# generated by tests/gen/gufunc_cases.py with NumPy "
             + np.__version__.split(".")[0] + ".x"]
    sigs = list(PARSE_SIGS)
    valid = [s for s in PARSE_SIGS[:19]]
    for _ in range(250):
        sigs.append(mutate(rng, rng.choice(valid)))
    seen = set()
    for sig in sigs:
        nin, nout = counts(sig)
        arities = [(nin, nout)]
        if rng.random() < 0.2:
            arities.append((max(0, nin + rng.choice([-1, 1])), max(1, nout)))
        for a in arities:
            if (sig, a) in seen or "\t" in sig and False:
                continue
            seen.add((sig, a))
            lines.append("\t".join(["P", str(a[0]), str(a[1]),
                                    sig.replace("\t", "\\t"),
                                    parse_case(sig, *a)]))
    n = 0
    while n < 600:
        name, f = rng.choice(GUFUNCS)
        line = random_call(rng, name, f)
        if line is not None:
            lines.append(line)
            n += 1
    text = "\n".join(lines) + "\n"
    if args[0] == "--check":
        with open(args[1]) as fh:
            if fh.read() != text:
                sys.exit(args[1] + " differs from what NumPy " +
                         np.__version__ + " gives: regenerate it with " +
                         sys.argv[0])
        print(args[1] + " matches NumPy " + np.__version__)
        return
    with open(args[0], "w") as fh:
        fh.write(text)
    if len(args) == 3:
        sys.exit(subprocess.call([args[2], args[0]]))


main()
