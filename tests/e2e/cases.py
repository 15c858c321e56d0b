"""The kernel corpus cases: which kernel of tests/kernels/ runs on which
inputs, and how ufjit must fail where it must. See corpus.py for the
vocabulary and run_numba_oracle.py for how they run.

Inputs are random but seeded by the case id, so every run sees the same
data. Float comparisons are bit-exact unless `ulps` is given, which is only
done where a transcendental libm function is involved.
"""
import numpy as np

from corpus import (Arr, Case, Fail, S, V, b1, c8, c16, f4, f8, i1, i2, i4,
                    i8, number, source_case, u1, u2, u4, u8)

N = 257  # odd: the vector loop's tail runs too

# Signed values around zero for Python's floor division and modulo.
NEG_I = [7, -7, 7, -7, 0, 5, -5, 1, -1, 13, -13, 6, -6, 100, -100]
NEG_D = [2, 2, -2, -2, 3, 0, 0, -1, 1, 4, 4, -4, -4, 7, -7]
NEG_F = [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 5.0, -5.0, 1e300, -1e-300,
         np.inf, -np.inf, np.nan, 3.0, -3.0, 6.0]
NEG_FD = [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 0.0, -0.0, 1e-10, 7.0, 2.0,
          -2.0, 1.0, np.inf, -np.inf, -3.0]

I64_MIN, I64_MAX = -2**63, 2**63 - 1


def seeds():
    pdf_x = f4(1000, lo=-3, hi=3)
    return [
        Case("seeds.py", "gaussian_pdf", [pdf_x, S("float32:0"),
                                           S("float32:1")], ulps=2),
        Case("seeds.py", "gaussian_pdf", [pdf_x, f4(1000, lo=-1, hi=1),
                                           f4(1000, lo=0.5, hi=2)], ulps=2),
        # float32 inputs take the float64 loop listed first
        Case("seeds.py", "gaussian_pdf2", [pdf_x, S("float32:0.5"),
                                            S("float32:2")], ulps=2),
        Case("seeds.py", "gaussian_pdf2", [f8(N, lo=-3, hi=3), S("0.0"),
                                            S("1.0")], ulps=2),
        # seed 003: a = np.arange(1000, dtype=float32); b = a * 2 + 1
        Case("seeds.py", "rel_diff",
             [V("f4", np.arange(1000)), V("f4", np.arange(1000) * 2 + 1)]),
        Case("seeds.py", "rel_diff", [f8(N, special=True), f8(N)]),
        Case("seeds.py", "rel_diff", [i8(N, lo=-5, hi=5), i8(N, lo=-5,
                                                             hi=5)]),
        Case("seeds.py", "rel_diff_f32", [f4(N), f4(N, special=True)]),
        Case("seeds.py", "polar_distance",
             [f4(1000, lo=0.5, hi=1.5), f4(1000, lo=-np.pi, hi=np.pi),
              f4(1000, lo=0.5, hi=1.5), f4(1000, lo=-np.pi, hi=np.pi)],
             ulps=2),
        Case("seeds.py", "add_ufunc", [i8(N, lo=-10**6, hi=10**6),
                                        i8(N, lo=-10**6, hi=10**6)]),
        Case("seeds.py", "add_ufunc", [i8(4, 3), S("17")]),
        Case("seeds.py", "add_ufunc_f32",
             [V("f4", np.arange(100)), V("f4", 2 * np.arange(100))]),
        Case("hypot.py", "hypot", [f8(N, special=True),
                                   f8(N, special=True)]),
        Case("hypot.py", "hypot", [f4(N, lo=-1e3, hi=1e3), f4(N)]),
        Case("hypot.py", "hypot", [S("3.0"), S("4.0")]),
        Case("hypot.py", "hypot_via_jit", [f8(N), f8(N)]),
        Case("hypot.py", "hypot_math", [f8(N, special=True), f8(N)]),
    ]


def arith():
    ints = lambda: [i8(N, lo=-1000, hi=1000), i8(N, lo=-1000, hi=1000)]
    return [
        Case("ops_arith.py", "add", ints()),
        Case("ops_arith.py", "add", [i4(N, lo=-2**31, hi=2**31),
                                     i4(N, lo=-2**31, hi=2**31)]),
        Case("ops_arith.py", "add", [u8(N, lo=0, hi=2**63), u8(N, lo=0,
                                                                hi=2**63)]),
        Case("ops_arith.py", "add", [f4(N, special=True), f4(N)]),
        Case("ops_arith.py", "add", [f8(N, special=True),
                                     f8(N, special=True)]),
        Case("ops_arith.py", "add", [c16(N), c16(N)]),
        Case("ops_arith.py", "sub", [u1(N, lo=0, hi=256), u1(N, lo=0,
                                                             hi=256)]),
        Case("ops_arith.py", "sub", [f8(N, special=True), f8(N)]),
        Case("ops_arith.py", "sub", [c8(N), c8(N)]),
        Case("ops_arith.py", "mul", [i2(N, lo=-300, hi=300),
                                     i2(N, lo=-300, hi=300)]),
        Case("ops_arith.py", "mul", [f4(N, special=True), f4(N)]),
        Case("ops_arith.py", "mul", [c16(N), c16(N, special=True)]),
        Case("ops_arith.py", "truediv", [V("i8", NEG_I), V("i8", NEG_D)]),
        Case("ops_arith.py", "truediv", [f4(N, special=True),
                                         f4(N, special=True)]),
        Case("ops_arith.py", "truediv", [V("f8", NEG_F), V("f8", NEG_FD)]),
        Case("ops_arith.py", "truediv", [c16(N), c16(N)]),
        Case("ops_arith.py", "floordiv", [V("i8", NEG_I), V("i8", NEG_D)]),
        Case("ops_arith.py", "floordiv", [V("i4", NEG_I), V("i4", NEG_D)]),
        Case("ops_arith.py", "floordiv", [u1(N, lo=0, hi=256),
                                          u1(N, lo=0, hi=8)]),
        Case("ops_arith.py", "floordiv", [V("f8", NEG_F), V("f8", NEG_FD)]),
        Case("ops_arith.py", "floordiv", [f4(N, special=True),
                                          f4(N, special=True)]),
        Case("ops_arith.py", "mod", [V("i8", NEG_I), V("i8", NEG_D)]),
        Case("ops_arith.py", "mod", [V("i4", NEG_I), V("i4", NEG_D)]),
        Case("ops_arith.py", "mod", [u1(N, lo=0, hi=256), u1(N, lo=0,
                                                              hi=8)]),
        Case("ops_arith.py", "mod", [V("f8", NEG_F), V("f8", NEG_FD)]),
        Case("ops_arith.py", "mod", [f4(N, special=True),
                                     f4(N, special=True)]),
        Case("ops_arith.py", "divmod_check", [i8(N, lo=-50, hi=50),
                                              i8(N, lo=-9, hi=9)]),
        Case("ops_arith.py", "divmod_check", [f8(N, lo=-50, hi=50),
                                              f8(N, lo=-9, hi=9)]),
        Case("ops_arith.py", "power", [i8(N, lo=-6, hi=7),
                                       i8(N, lo=-3, hi=12)]),
        Case("ops_arith.py", "power", [f8(N, lo=-4, hi=4),
                                       i8(N, lo=-6, hi=7)], ulps=2),
        Case("ops_arith.py", "power", [f8(N, lo=0, hi=10),
                                       f8(N, lo=-3, hi=3)], ulps=2),
        Case("ops_arith.py", "power", [V("f8", NEG_F), V("f8", NEG_FD)],
             ulps=2),
        Case("ops_arith.py", "power", [f4(N, lo=0, hi=5),
                                       f4(N, lo=-2, hi=2)], ulps=2),
        Case("ops_arith.py", "square_cube", [f8(N, special=True)]),
        Case("ops_arith.py", "square_cube", [f4(N)]),
        Case("ops_arith.py", "square_cube", [i8(N, lo=-10**6, hi=10**6)]),
        Case("ops_arith.py", "sqrt_pow", [f8(N, lo=0, hi=100)], ulps=1),
        Case("ops_arith.py", "sqrt_pow", [V("f4", [4, 0, -0.0, -1, np.inf,
                                                   np.nan, 2])], ulps=1),
        Case("ops_arith.py", "neg", [V("i8", [0, 1, -1, I64_MIN, I64_MAX])]),
        Case("ops_arith.py", "neg", [f8(N, special=True)]),
        Case("ops_arith.py", "neg", [f4(N, special=True)]),
        Case("ops_arith.py", "pos", [f8(N, special=True)]),
        Case("ops_arith.py", "pos", [i8(N)]),
        Case("ops_arith.py", "invert", [i8(N, lo=-1000, hi=1000)]),
        Case("ops_arith.py", "invert", [u1(N, lo=0, hi=256)]),
        Case("ops_arith.py", "invert", [i4(N, lo=-2**31, hi=2**31)]),
        Case("ops_arith.py", "bit_and", [i8(N, lo=-2**40, hi=2**40),
                                         i8(N, lo=-2**40, hi=2**40)]),
        Case("ops_arith.py", "bit_and", [b1(N), b1(N)]),
        Case("ops_arith.py", "bit_or", [u4(N, lo=0, hi=2**32),
                                        u4(N, lo=0, hi=2**32)]),
        Case("ops_arith.py", "bit_or", [b1(N), b1(N)]),
        Case("ops_arith.py", "bit_xor", [i8(N, lo=-2**40, hi=2**40),
                                         i8(N, lo=-2**40, hi=2**40)]),
        Case("ops_arith.py", "bit_xor", [b1(N), b1(N)]),
        Case("ops_arith.py", "lshift", [i8(N, lo=-1000, hi=1000),
                                        i8(N, lo=0, hi=54)]),
        Case("ops_arith.py", "lshift", [u4(N, lo=0, hi=2**32),
                                        u4(N, lo=0, hi=32)]),
        Case("ops_arith.py", "rshift", [i8(N, lo=-2**62, hi=2**62),
                                        i8(N, lo=0, hi=64)]),
        Case("ops_arith.py", "rshift", [u4(N, lo=0, hi=2**32),
                                        u4(N, lo=0, hi=32)]),
        Case("ops_arith.py", "augmented", [i8(N, lo=-100, hi=100),
                                           i8(N, lo=-100, hi=100)]),
        Case("ops_arith.py", "augmented", [f8(N, lo=-100, hi=100),
                                           f8(N, lo=-100, hi=100)]),
        Case("ops_arith.py", "augmented_bits", [i8(N, lo=0, hi=2**20),
                                                i8(N, lo=0, hi=2**10)]),
        Case("ops_arith.py", "augmented_div", [f8(N, special=True),
                                               f8(N, special=True)]),
        Case("ops_arith.py", "mixed_add", [i4(N), f4(N)]),
        Case("ops_arith.py", "mixed_add", [i8(N), f8(N)]),
        Case("ops_arith.py", "mixed_add", [u1(N, lo=0, hi=256),
                                           i1(N, lo=-128, hi=128)]),
    ]


def logic():
    cmp = []
    for k in ("lt", "le", "eq", "ne", "gt", "ge"):
        cmp += [
            Case("ops_logic.py", k, [i8(N, lo=-3, hi=3), i8(N, lo=-3,
                                                            hi=3)]),
            Case("ops_logic.py", k, [f8(N, lo=-2, hi=2, special=True),
                                     f8(N, lo=-2, hi=2, special=True)]),
            Case("ops_logic.py", k, [u1(N, lo=0, hi=4), u1(N, lo=0, hi=4)]),
        ]
    cmp += [
        Case("ops_logic.py", "eq", [f4(N, special=True),
                                    f4(N, special=True)]),
        Case("ops_logic.py", "lt_mixed",
             [V("i8", [-1, 0, 1, I64_MIN, I64_MAX, 5]),
              V("u8", [1, 0, 0, 0, 2**64 - 1, 2**63])]),
        Case("ops_logic.py", "lt_mixed", [i4(N, lo=-2**31, hi=2**31),
                                          f4(N, lo=-2**31, hi=2**31)]),
        Case("ops_logic.py", "lt_mixed", [V("i8", [2**53 + 1, -2**53 - 1,
                                                  3, 0]),
                                          V("f8", [2.0**53, -2.0**53, 3.5,
                                                   np.nan])]),
        Case("ops_logic.py", "chained", [f8(N, lo=-1, hi=1), f8(N, lo=-1,
                                                                hi=1),
                                         f8(N, lo=-1, hi=1)]),
        Case("ops_logic.py", "chained", [i8(N, lo=0, hi=3), i8(N, lo=0,
                                                               hi=3),
                                         i8(N, lo=0, hi=3)]),
        Case("ops_logic.py", "chained_long", [i8(N, lo=-2, hi=6),
                                              i8(N, lo=-2, hi=6),
                                              i8(N, lo=-7, hi=6)]),
        Case("ops_logic.py", "and_or", [f8(N, special=True),
                                        f8(N, special=True)]),
        Case("ops_logic.py", "or_value", [f8(N, lo=-1, hi=1, special=True),
                                          f8(N)]),
        Case("ops_logic.py", "or_value", [i8(N, lo=-1, hi=2), i8(N)]),
        Case("ops_logic.py", "and_value", [f8(N, lo=-1, hi=1,
                                              special=True), f8(N)]),
        Case("ops_logic.py", "and_value", [i8(N, lo=-1, hi=2), i8(N)]),
        Case("ops_logic.py", "not_", [i8(N, lo=-2, hi=2)]),
        Case("ops_logic.py", "not_", [f8(N, lo=-1, hi=1, special=True)]),
        Case("ops_logic.py", "not_", [b1(N)]),
        Case("ops_logic.py", "ternary", [f8(N, special=True), f8(N)]),
        Case("ops_logic.py", "ternary", [i8(N), i8(N)]),
        Case("ops_logic.py", "short_circuit", [f8(N, lo=-5, hi=5),
                                               V("f8", [0.0, 1.0, -0.0, 2.0]
                                                 * 64 + [0.0])]),
    ]
    return cmp


def builtins():
    return [
        Case("py_builtins.py", "abs_", [V("i8", [0, -1, 5, I64_MIN + 1])]),
        Case("py_builtins.py", "abs_", [f8(N, special=True)]),
        Case("py_builtins.py", "abs_", [f4(N, special=True)]),
        Case("py_builtins.py", "abs_", [V("i1", [-128, -127, 0, 127])]),
        Case("py_builtins.py", "abs_complex", [c16(N, special=True)],
             ulps=1),
        Case("py_builtins.py", "min2", [i8(N), i8(N)]),
        Case("py_builtins.py", "min2", [f8(N, special=True),
                                        f8(N, special=True)]),
        Case("py_builtins.py", "max2", [i8(N), i8(N)]),
        Case("py_builtins.py", "max2", [f8(N, special=True),
                                        f8(N, special=True)]),
        Case("py_builtins.py", "min3_mixed", [i8(N), f4(N), f8(N)]),
        Case("py_builtins.py", "max3_mixed", [i4(N), f4(N, special=True),
                                              i8(N)]),
        Case("py_builtins.py", "round0",
             [V("f8", [0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, 2.5001, -2.6,
                       1e15 + 0.5, 0.0, -0.0, 3.0])]),
        Case("py_builtins.py", "round0", [f4(N, lo=-100, hi=100)]),
        Case("py_builtins.py", "round2", [f8(N, lo=-100, hi=100)]),
        Case("py_builtins.py", "round2",
             [V("f8", [0.125, 0.135, 2.675, -0.005, 1e20, np.inf, np.nan])]),
        Case("py_builtins.py", "int_", [f8(N, lo=-1e6, hi=1e6)]),
        Case("py_builtins.py", "int_", [f4(N, lo=-1e6, hi=1e6)]),
        Case("py_builtins.py", "int_", [b1(N)]),
        Case("py_builtins.py", "float_", [i8(N, lo=-2**60, hi=2**60)]),
        Case("py_builtins.py", "float_", [f4(N, special=True)]),
        Case("py_builtins.py", "bool_", [i8(N, lo=-2, hi=2)]),
        Case("py_builtins.py", "bool_", [f8(N, lo=-1, hi=1, special=True)]),
        Case("py_builtins.py", "complex_", [f8(N, special=True), f8(N)]),
        Case("py_builtins.py", "complex_", [i8(N), i8(N)]),
        Case("py_builtins.py", "casts_float", [f8(N, special=True)]),
        Case("py_builtins.py", "casts_int_wrap",
             [i8(N, lo=-2**40, hi=2**40)]),
        Case("py_builtins.py", "casts_float_to_int",
             [f8(N, lo=-2e9, hi=2e9)]),
        Case("py_builtins.py", "pow_builtin", [f8(N, lo=0, hi=5),
                                               f8(N, lo=-3, hi=3)], ulps=2),
        Case("py_builtins.py", "pow_builtin", [i8(N, lo=-5, hi=6),
                                               i8(N, lo=0, hi=12)]),
        Case("py_builtins.py", "divmod_", [V("i8", NEG_I), V("i8", NEG_D)]),
        Case("py_builtins.py", "divmod_", [V("f8", NEG_F), V("f8", NEG_FD)]),
        Case("py_builtins.py", "len_tuple", [f8(5), f8(5)]),
    ]


MATH_UNARY = [  # kernel, input, ulps
    ("sin", f8(N, lo=-10, hi=10), 1), ("sin", f4(N, lo=-10, hi=10), 1),
    ("cos", f8(N, lo=-10, hi=10), 1), ("cos", f4(N, lo=-10, hi=10), 1),
    ("tan", f8(N, lo=-1.5, hi=1.5), 1),
    ("asin", f8(N, lo=-1, hi=1), 1), ("acos", f8(N, lo=-1, hi=1), 1),
    ("atan", f8(N, lo=-50, hi=50), 1),
    ("sinh", f8(N, lo=-5, hi=5), 1), ("cosh", f8(N, lo=-5, hi=5), 1),
    ("tanh", f8(N, lo=-5, hi=5), 1), ("tanh", f4(N, lo=-5, hi=5), 1),
    ("asinh", f8(N, lo=-50, hi=50), 1), ("acosh", f8(N, lo=1, hi=50), 1),
    ("atanh", f8(N, lo=-1, hi=1), 1),
    ("exp", f8(N, lo=-20, hi=20), 1), ("exp", f4(N, lo=-20, hi=20), 1),
    ("exp", V("f8", [0, -0.0, 710, -750, np.inf, -np.inf, np.nan]), 1),
    ("expm1", f8(N, lo=-1, hi=1), 1),
    ("log", f8(N, lo=0, hi=100), 1), ("log", f4(N, lo=0, hi=100), 1),
    ("log", V("f8", [1, 0, -0.0, -1, np.inf, np.nan, 1e-310]), 1),
    ("log1p", f8(N, lo=-0.5, hi=10), 1), ("log2", f8(N, lo=0, hi=100), 1),
    ("log10", f8(N, lo=0, hi=100), 1),
    ("sqrt", f8(N, lo=0, hi=100), 0), ("sqrt", f4(N, lo=0, hi=100), 0),
    ("sqrt", V("f8", [4, 0, -0.0, -1, np.inf, -np.inf, np.nan]), 0),
    ("fabs", f8(N, special=True), 0), ("fabs", i8(N), 0),
    ("floor", f8(N, lo=-100, hi=100), 0), ("floor", f4(N, lo=-100, hi=100),
                                           0),
    ("ceil", f8(N, lo=-100, hi=100), 0), ("trunc", f8(N, lo=-100, hi=100),
                                          0),
    ("erf", f8(N, lo=-3, hi=3), 1), ("erfc", f8(N, lo=-3, hi=3), 1),
    ("gamma", f8(N, lo=0.1, hi=10), 2), ("gamma",
                                        V("f8", [-1.5, -0.5, 0.5, 1, 2, 3]),
                                        2),
    ("lgamma", f8(N, lo=0.1, hi=100), 2),
    ("isnan", f8(N, special=True), 0), ("isnan", f4(N, special=True), 0),
    ("isinf", f8(N, special=True), 0), ("isfinite", f8(N, special=True), 0),
    ("degrees", f8(N), 0), ("radians", f8(N, lo=-360, hi=360), 0),
    ("constants", V("f8", [0.0, 1.0, -1.0, 200.0, -200.0, 2.5]), 0),
    ("from_import", f8(N), 1),
]

MATH_BINARY = [
    ("atan2", f8(N, special=True), f8(N, special=True), 1),
    ("atan2", f4(N), f4(N), 1),
    ("pow_", f8(N, lo=0, hi=10), f8(N, lo=-3, hi=3), 1),
    ("pow_", f4(N, lo=0, hi=10), f4(N, lo=-3, hi=3), 1),
    ("pow_", V("f8", NEG_F), V("f8", NEG_FD), 1),
    ("hypot", f8(N, special=True), f8(N, special=True), 1),
    ("hypot", f4(N), f4(N), 1),
    ("copysign", f8(N, special=True), f8(N, special=True), 0),
]


def math_cases():
    out = [Case("math_funcs.py", k, [a], ulps=u) for k, a, u in MATH_UNARY]
    out += [Case("math_funcs.py", k, [a, b], ulps=u)
            for k, a, b, u in MATH_BINARY]
    return out


def numpy_cases():
    nf = "numpy_funcs.py"
    return [
        Case(nf, "np_trig", [f8(N, lo=-3, hi=3)], ulps=2),
        Case(nf, "np_trig", [f4(N, lo=-3, hi=3)], ulps=2),
        Case(nf, "np_inverse_trig", [f8(N, lo=-1, hi=1)], ulps=2),
        Case(nf, "np_arctan2", [f8(N, special=True), f8(N)], ulps=1),
        Case(nf, "np_hyperbolic", [f8(N, lo=-3, hi=3)], ulps=2),
        Case(nf, "np_exp_log", [f8(N, lo=0.1, hi=5)], ulps=2),
        Case(nf, "np_sqrt", [f8(N, special=True)]),
        Case(nf, "np_power", [f8(N, lo=0, hi=5), f8(N, lo=-2, hi=2)],
             ulps=1),
        Case(nf, "np_hypot", [f8(N, special=True), f8(N)], ulps=1),
        Case(nf, "np_abs", [f8(N, special=True)]),
        Case(nf, "np_abs", [i8(N)]),
        Case(nf, "np_rounding", [f8(N, lo=-10, hi=10)]),
        Case(nf, "np_rounding", [V("f8", [0.5, 1.5, 2.5, -0.5, -2.5])]),
        Case(nf, "np_copysign_fmod", [V("f8", NEG_F), V("f8", NEG_FD)]),
        Case(nf, "np_classify", [f8(N, special=True)]),
        Case(nf, "np_minimum", [f8(N, special=True), f8(N, special=True)]),
        Case(nf, "np_maximum", [f8(N, special=True), f8(N, special=True)]),
        Case(nf, "np_fmin", [f8(N, special=True), f8(N, special=True)]),
        Case(nf, "np_fmax", [f8(N, special=True), f8(N, special=True)]),
        # np.sign(-0.0) is -0.0 in Numba (NumPy gives 0.0): ufjit is Numba
        Case(nf, "np_sign", [V("f8", [-2.5, -1e-300, 0.0, -0.0, 1e-300,
                                      3.0, np.inf, -np.inf, np.nan])]),
        Case(nf, "np_sign", [f8(N, lo=-2, hi=2)]),
        Case(nf, "np_sign", [i8(N, lo=-2, hi=3)]),
        Case(nf, "np_square", [f8(N, special=True)]),
        Case(nf, "np_square", [i8(N)]),
        Case(nf, "np_deg_rad", [f8(N)]),
        Case(nf, "np_real_imag", [c16(N)]),
    ]


def complex_cases():
    cf = "complex_ops.py"
    return [
        Case(cf, "make", [f8(N), f8(N, special=True)]),
        Case(cf, "real_plus_imag", [c16(N)]),
        Case(cf, "real_plus_imag", [c8(N)]),
        Case(cf, "arith", [c16(N), c16(N)]),
        Case(cf, "arith", [c8(N), c8(N)], ulps=2),
        Case(cf, "conjugate", [c16(N)]),
        Case(cf, "abs_", [c16(N)], ulps=1),
        Case(cf, "c_sqrt", [c16(N)], ulps=2),
        Case(cf, "c_exp", [c16(N, lo=-3, hi=3)], ulps=2),
        Case(cf, "c_log", [c16(N)], ulps=2),
        Case(cf, "c_phase", [c16(N)], ulps=1),
        Case(cf, "c_polar", [c16(N)], ulps=2),
        Case(cf, "c_rect", [f8(N, lo=0, hi=5), f8(N, lo=-3, hi=3)], ulps=2),
        Case(cf, "c_pow", [c16(N, lo=-2, hi=2), c16(N, lo=-2, hi=2)],
             ulps=2),
        Case(cf, "c_classify", [c16(N, special=True)]),
        Case(cf, "mixed", [f8(N), c16(N)]),
    ]


def dispatch():
    df = "dispatch.py"
    return [
        # int64 cannot go to int32 safely: the float64 loop
        Case(df, "first_safe", [i8(N), i8(N)]),
        Case(df, "first_safe", [f4(N), f4(N)]),
        Case(df, "first_safe", [i2(N), i1(N)]),
        Case(df, "first_safe", [i4(N), f4(N)]),
        Case(df, "first_safe", [u2(N, lo=0, hi=2**16), i4(N)]),
        Case(df, "first_safe", [b1(N), b1(N)]),
        Case(df, "first_safe", [S("3"), S("int32:4")]),
        Case(df, "wide_first", [f4(N), f4(N)]),
        Case(df, "narrow_first", [f4(N), f4(N)]),
        Case(df, "narrow_first", [f4(N), f8(N)]),
        Case(df, "narrow_first", [i2(N), f4(N)]),
        Case(df, "widen", [u1(N, lo=0, hi=256)]),
        Case(df, "widen", [u2(N, lo=0, hi=2**16)]),
        Case(df, "widen", [b1(N)]),
        Case(df, "widen", [u4(N, lo=0, hi=2**32)]),
        Case(df, "widen", [f4(N)]),
        Case(df, "mixed_sig", [i2(N), f4(N)]),
        Case(df, "mixed_sig", [i1(N), f4(N)]),
        Case(df, "mixed_sig", [i4(N), f4(N)]),
        Case(df, "mixed_sig", [c8(N), f8(N)]),
        Case(df, "narrowing_return", [f4(N), f4(N)]),
        Case(df, "narrowing_return", [i1(N, lo=-128, hi=128),
                                      i1(N, lo=-128, hi=128)]),
        Case(df, "close", [f8(N, lo=0, hi=0.01), f8(N, lo=0, hi=0.01)]),
        Case(df, "count_true", [b1(N), b1(N)]),
    ]


def overflow():
    of = "overflow.py"
    return [
        Case(of, "wrap_add", [V("i8", [I64_MAX, I64_MIN, -1, I64_MAX]),
                              V("i8", [1, -1, I64_MIN, I64_MAX])]),
        Case(of, "wrap_add", [i4(N, lo=-2**31, hi=2**31),
                              i4(N, lo=-2**31, hi=2**31)]),
        Case(of, "wrap_add", [i1(N, lo=-128, hi=128),
                              i1(N, lo=-128, hi=128)]),
        Case(of, "wrap_add", [u1(N, lo=0, hi=256), u1(N, lo=0, hi=256)]),
        Case(of, "wrap_add", [u8(N, lo=0, hi=2**64), u8(N, lo=0, hi=2**64)]),
        Case(of, "wrap_mul", [i8(N, lo=-2**62, hi=2**62),
                              i8(N, lo=-2**62, hi=2**62)]),
        Case(of, "wrap_mul", [i4(N, lo=-2**31, hi=2**31),
                              i4(N, lo=-2**31, hi=2**31)]),
        Case(of, "wrap_mul", [u4(N, lo=0, hi=2**32), u4(N, lo=0, hi=2**32)]),
        Case(of, "wrap_neg", [V("i8", [I64_MIN, I64_MAX, 0, -1])]),
        Case(of, "wrap_neg", [u1(N, lo=0, hi=256)]),
        Case(of, "wrap_abs", [V("i8", [I64_MIN, I64_MIN + 1, -5, 5])]),
        Case(of, "lcg", [i8(N, lo=-2**62, hi=2**62)]),
        Case(of, "min_div", [V("i8", [I64_MIN, I64_MIN, I64_MAX, 7]),
                             V("i8", [-1, 1, -1, 0])]),
        Case(of, "min_mod", [V("i8", [I64_MIN, I64_MIN, I64_MAX, 7]),
                             V("i8", [-1, 1, -1, 0])]),
    ]


def control():
    cf = "control.py"
    return [
        Case(cf, "classify", [i8(N, lo=-20, hi=20)]),
        Case(cf, "classify", [f8(N, lo=-20, hi=20, special=True)]),
        Case(cf, "sum_range", [i8(N, lo=-5, hi=100)]),
        Case(cf, "sum_range2", [i8(N, lo=-20, hi=20), i8(N, lo=-20, hi=40)]),
        Case(cf, "sum_range3", [V("i8", [0, 10, 0, 10, 5, -3, 0]),
                                V("i8", [10, 0, 10, 0, 5, 8, 1]),
                                V("i8", [1, -1, 3, -3, 1, 4, -1])]),
        Case(cf, "loop_var_after", [i8(N, lo=-3, hi=10)]),
        Case(cf, "collatz_steps", [i8(N, lo=-3, hi=1000)]),
        Case(cf, "break_continue", [i8(N, lo=-5, hi=120)]),
        Case(cf, "nested_loops", [i8(N, lo=0, hi=30)]),
        Case(cf, "loop_unify", [f8(N), i8(N, lo=0, hi=20)]),
        Case(cf, "early_return", [f8(N, special=True)]),
        Case(cf, "newton_sqrt", [f8(N, lo=-1, hi=1e6)]),
        Case(cf, "fib", [i8(N, lo=0, hi=90), S("0")]),
    ]


def typing_cases():
    tf = "typing_seed003.py"
    return [
        Case(tf, "f", [f4(N), f4(N)]),
        Case(tf, "select", [f4(N), f4(N), b1(N)]),
        Case(tf, "select", [f4(N), f8(N), b1(N)]),
        Case(tf, "select_widen", [f4(N), i4(N), S("10"), i8(N, lo=5,
                                                             hi=15)]),
        Case(tf, "select_narrow", [f4(N), i4(N), S("10"), i8(N, lo=5,
                                                              hi=15)]),
        Case(tf, "add_constant", [f4(N)]),
        Case(tf, "add_constant_typed", [f4(N)]),
        Case(tf, "add_constant_2", [f4(N), f4(N)]),
        Case(tf, "int_literals", [i4(N)]),
    ]


def lazy_cases():
    lf = "lazy.py"
    return [
        Case(lf, "add", [i1(N), u1(N, lo=0, hi=256)]),
        Case(lf, "add", [i4(N), f4(N)]),
        Case(lf, "add", [u8(N, lo=0, hi=2**63), i8(N)]),
        Case(lf, "add", [b1(N), b1(N)]),
        Case(lf, "add", [f4(N), f4(N)]),
        Case(lf, "add", [c8(N), f4(N)]),
        Case(lf, "scale", [i2(N)]),
        Case(lf, "scale", [f4(N)]),
        Case(lf, "halve", [i8(N)]),
        Case(lf, "clip01", [f8(N, lo=-1, hi=2, special=True)]),
        Case(lf, "clip01", [i8(N, lo=-3, hi=3)]),
        Case(lf, "poly", [i8(N, lo=-1000, hi=1000)]),
        Case(lf, "poly", [f8(N)], ulps=1),
        Case(lf, "softplus", [f8(N, lo=-30, hi=30)], ulps=2),
    ]


def multi_cases():
    mf = "multi_out.py"
    return [
        Case(mf, "sincos", [f8(N)], ulps=1,
             expect=lambda x: (np.sin(x), np.cos(x))),
        Case(mf, "divmod_pair", [V("i8", NEG_I), V("i8", NEG_D)],
             expect=lambda x, y: (np.floor_divide(x, y), np.mod(x, y))),
        Case(mf, "divmod_pair", [f8(N, special=True), f8(N, special=True)],
             expect=lambda x, y: (np.floor_divide(x, y), np.mod(x, y))),
        Case(mf, "stats3", [f8(N), f8(N), f8(N)],
             expect=lambda a, b, c: (a < b, (a + b + c) / 3,
                                     np.minimum(np.minimum(a, b), c))),
        Case(mf, "stats3", [i8(N), i8(N), i8(N)],
             expect=lambda a, b, c: (a < b, (a + b + c) / 3,
                                     np.minimum(np.minimum(a, b), c))),
        Case(mf, "polar", [f8(N), f8(N)], ulps=1,
             expect=lambda x, y: (np.hypot(x, y), np.arctan2(y, x))),
        Case(mf, "polar", [f8(3, 1), f8(4)], ulps=1,
             expect=lambda x, y: (np.hypot(x, y), np.arctan2(y, x))),
    ]


def shape_cases():
    """Broadcasting, layouts, 0-d and empty arrays, through simple kernels
    whose results must be exact."""
    big = f8(20, 30)
    return [
        Case("seeds.py", "add_ufunc", [i8(4, 1, 3), i8(5, 1)]),
        Case("seeds.py", "add_ufunc", [i8(2, 1, 3, 1), i8(4, 1, 5)]),
        Case("seeds.py", "add_ufunc", [i8(3, 1, 2, 1, 2), i8(1, 4, 1, 3, 1),
                                       ]),
        Case("hypot.py", "hypot", [f8(1, 7, 1, 5), f8(6, 1, 1, 1)]),
        Case("ops_arith.py", "floordiv", [i8(3, 4, 5, lo=-50, hi=50),
                                          i8(5, lo=1, hi=7)]),
        Case("control.py", "sum_range2", [i8(2, 3, 4, lo=0, hi=10),
                                          i8(3, 1, lo=5, hi=20)]),
        # strided and reversed views ('FILE.npy[EXPR]')
        Case("hypot.py", "hypot", [big.view("::2, ::3"), big.view("::2, ::3")
                                   ]),
        Case("hypot.py", "hypot", [f8(N).view("::-1"), f8(N)]),
        Case("hypot.py", "hypot", [big.view("::-1, 1::-2"), f8(2)]),
        Case("seeds.py", "add_ufunc", [i8(6, 5, 4).view("::-2, :, ::3"),
                                       i8(5, 4).view("::-1, 1::2")]),
        Case("ops_arith.py", "mod", [i8(10, 10, lo=-99, hi=99).view(":, 3"),
                                     i8(10, 10, lo=1, hi=9).view("3")]),
        # Fortran order, mixed with C order
        Case("hypot.py", "hypot", [big.F, big]),
        Case("hypot.py", "hypot", [f8(5, 6).F, f8(5, 6).F]),
        Case("seeds.py", "gaussian_pdf", [f4(7, 9).F, f4(9, lo=-1, hi=1),
                                           f4(7, 1, lo=0.5, hi=2)], ulps=2),
        # 0-d inputs: scalars and a 0-d file
        Case("hypot.py", "hypot", [S("-3.0"), S("4.0")]),
        Case("hypot.py", "hypot", [f8(), f8()]),
        Case("hypot.py", "hypot", [f8(), f8(3, 2)]),
        Case("seeds.py", "add_ufunc", [S("-7"), i8(4)]),
        # empty arrays, alone and broadcast
        Case("hypot.py", "hypot", [f8(0), f8(0)]),
        Case("hypot.py", "hypot", [f8(0, 3), f8(3)]),
        Case("seeds.py", "add_ufunc", [i8(2, 0, 4), S("1")]),
        Case("multi_out.py", "sincos", [f8(0, 2)],
             expect=lambda x: (np.sin(x), np.cos(x))),
        # a size that needs several strips of the iterator's buffer
        Case("seeds.py", "rel_diff_f32", [f4(100003), f4(100003)]),
    ]


# ---- failures ---------------------------------------------------------------

def fail_cases():
    sp = "seeds.py"
    return [
        # typing errors name both types and the variable, at the join
        Fail("err_unify.py", "select_tuple", [f4(3), f4(3), b1(3)], 1,
             "Cannot unify", numba=True),
        Fail("err_return_types.py", "two_returns", [i8(3)], 1,
             "unify", numba=True),
        Fail("err_unknown_global.py", "uses_unknown", [f8(3)], 1,
             "SCALE_FACTOR", where=(7, 16), numba=True),
        Fail("err_unknown_attr.py", "bad_attr", [f8(3)], 1, "sine",
             numba=True),
        # Numba accepts this; ufjit refuses it with its position
        Fail("err_list_comp.py", "list_comp", [i8(3, lo=0, hi=5)], 1,
             "comprehension", where=(9, 31), numba=False),
        # enumerate()/zip() loops Numba refuses too (desugar_for.c)
        Fail("err_iter_builtins.py", "start_keyword", [f8(3)], 1,
             "enumerate() takes start by position", where=(8, 30),
             numba=True),
        Fail("err_iter_builtins.py", "three_names", [f8(3)], 1,
             "cannot unpack 2 values into 3 names", where=(16, 9),
             numba=True),
        # a failing assert inside the kernel (status from the JIT loop)
        Fail("err_assert.py", "non_negative_twice", [f8(3, lo=-2, hi=-1)],
             1, "AssertionError", numba=True),
        # no loop for the input types
        Fail("dispatch.py", "first_safe", [c16(3), c16(3)], 1,
             "first_safe", numba=True),
        Fail("seeds.py", "add_ufunc", [f8(3), f8(3)], 1, "add_ufunc",
             numba=True),
        # shapes that do not broadcast
        Fail(sp, "add_ufunc", [i8(3), i8(4)], 1, "broadcast", numba=True),
        Fail(sp, "add_ufunc", [i8(2, 3), i8(2)], 1, "broadcast",
             numba=True),
        # an njit function given arrays where it takes scalars
        Fail(sp, "polar_to_cartesian", [f8(3), f8(3)], 1,
             "No implementation of math.cos for (array(float64, 1d, C),)",
             nout=2),
        # the command line and the kernel disagree
        Fail(sp, "no_such_kernel", [f8(3)], 1, "gaussian_pdf"),
        Fail(sp, "add_ufunc", [i8(3)], 1, "takes 2 inputs, 1 given"),
        Fail(sp, "add_ufunc", [i8(3), i8(3), i8(3)], 1,
             "takes 2 inputs, 3 given"),
        Fail(sp, "add_ufunc", [i8(3), i8(3)], 1,
             "has 1 output but 2 -o files were given", nout=2),
        Fail("multi_out.py", "sincos", [f8(3)], 1,
             "has 2 outputs but 1 -o file was given", nout=1),
        Fail(sp, "add_ufunc", [i8(3), S("1.5.2")], 2,
             "neither a .npy file nor a scalar"),
        Fail(sp, "add_ufunc", [i8(3), S("int8:300")], 2, "out of range"),
        Fail(sp, "add_ufunc", [i8(3), S("missing.npy")], 1, "missing.npy"),
        Fail(sp, "add_ufunc", [i8(3), i8(3).view("5")], 1, "index"),
        Fail(sp, "add_ufunc", [i8(3), i8(3)], 2, "positive integer",
             extra=["--threads", "0"]),
        Fail(sp, "add_ufunc", [i8(3), i8(3)], 2, "unknown target",
             extra=["--target", "gpu"]),
        Fail(sp, "add_ufunc", [i8(3), i8(3)], 1, "cuda",
             extra=["--target", "cuda"]),
        Fail(sp, "add_ufunc", [i8(3), i8(3)], 2, "no output file", nout=0),
        Fail("no_such_file.py", "f", [i8(3)], 1, "no_such_file.py"),
        # kernel files Numba could not even import
        source_case("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64)'])\n"
                    "def f(x):\n"
                    "    return x +* 2\n",
                    "f", [f8(3)], 1, "syntax", where=(6, 15)),
        source_case("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64'])\n"
                    "def f(x):\n"
                    "    return x\n",
                    "f", [f8(3)], 1, "", where=(4, 13)),
        source_case("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64)'], colour='red')\n"
                    "def f(x):\n"
                    "    return x\n",
                    "f", [f8(3)], 1, "colour", where=(4, 34)),
        source_case("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64)'])\n"
                    "def f(x):\n"
                    "    y = (x\n"
                    "    return y\n",
                    "f", [f8(3)], 1, ""),
        source_case("from numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64)'])\n"
                    "def f(x):\n"
                    "  if x > 0:\n"
                    "        return x\n"
                    "      return -x\n",
                    "f", [f8(3)], 1, "indent"),
        source_case("import os\nfrom numba import vectorize\n\n\n"
                    "@vectorize(['float64(float64)'])\n"
                    "def f(x):\n"
                    "    return x\n",
                    "f", [f8(3)], 1, "os", where=(1, 8)),
    ]


def global_arrays():
    # module-level arrays read by a ufunc: int64 inputs take the float64
    # loop, int32 ones the float32 loop listed first
    return [
        Case("garrays.py", "table", [V("i8", np.arange(40))]),
        Case("garrays.py", "table", [V("i4", np.arange(40))]),
    ]


def all_cases():
    return number(seeds() + arith() + logic() + builtins() + math_cases() +
                  numpy_cases() + complex_cases() + dispatch() +
                  overflow() + control() + typing_cases() + lazy_cases() +
                  multi_cases() + shape_cases() + fail_cases() +
                  global_arrays())
