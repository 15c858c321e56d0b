#!/usr/bin/env python3
"""np.random inside kernels (tests/kernels/host/nprandom.py) against
Numba: each kernel seeds Numba's per-thread Mersenne Twister with
np.random.seed and draws; each case runs through `ufjit call` and through
Numba on the same inputs, and the results must be identical bit for bit
(dtype, shape and every byte). Where Numba raises, ufjit fails with the
same exception, and what Numba refuses while compiling ufjit refuses at
the kernel's FILE:LINE:COL. prange bodies draw from each thread's own
generator: unseeded, only the range and the shape are checked; seeded per
iteration, they are compared bit for bit too.

    run_nprandom_oracle.py UFJIT [-k TEXT] [-v]
Exit status: 0 all agree, 1 a failure, 77 NumPy or Numba is missing.
"""
import os
import sys
import tempfile
import warnings

sys.dont_write_bytecode = True

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import S, V, b1, c16, f4, f8, i1, i4, i8, u1, u8  # noqa: E402
from oracle_record import Record  # noqa: E402
from oracle_util import (as_array, lazy_load, materialise,  # noqa: E402
                         options, run_ufjit)

FILE = os.path.join(os.path.dirname(HERE), "kernels", "host",
                    "nprandom.py")


def cases():
    """(kernel, inputs, what Numba does: None returns, an exception name
    raises, "range LO HI" a prange case checked for range only)."""
    s0, s42, s7 = S("0"), S("42"), S("7")
    big = S("4294967295")
    return [
        # random and its aliases: one at a time, size forms, 2 blocks
        ("random_n", [s42, S("10")], None),
        ("random_n", [s0, S("1500")], None),
        ("random_n", [big, S("3")], None),
        ("random_size", [s42, S("700")], None),
        ("random_size", [s7, S("0")], None),
        ("random_size", [s7, S("int32:5")], None),
        ("random_size", [s7, S("-1")], "ValueError"),
        ("random_kw", [s42], None), ("random_0d", [s42], None),
        ("random_none", [s42], None), ("aliases", [S("3")], None),
        ("rand_dims", [s42, S("3"), S("4")], None),
        ("rand_dims", [s42, S("0"), S("4")], None),
        ("randn_dims", [s42, S("2"), S("3"), S("5")], None),
        ("randn_scalar", [s42], None),
        # uniform: ints and floats, reversed bounds, infinities
        ("uniform_n", [s42, S("-1.5"), S("2.5"), S("20")], None),
        ("uniform_n", [s42, S("3"), S("-7"), S("20")], None),
        ("uniform_n", [s42, S("float32:0.1"), S("int8:9"), S("5")], None),
        ("uniform_n", [s42, S("0.0"), S("inf"), S("3")], None),
        ("uniform_size", [s7, S("1e300"), S("-1e300"), S("9")], None),
        ("uniform_size", [s7, S("uint64:5"), S("6.5"), S("4")], None),
        ("uniform_default", [s42], None), ("uniform_kw", [s42], None),
        ("uniform_one", [s42], "TypingError"),
        # normal: the cached second value, parameters, sizes
        ("normal_n", [s42, S("11")], None),
        ("normal_n", [s0, S("2001")], None),
        ("normal_args", [s42, S("10"), S("0.5"), S("7")], None),
        ("normal_args", [s42, S("float32:-1.25"), S("-3"), S("7")], None),
        ("normal_args", [s42, S("nan"), S("1"), S("3")], None),
        ("normal_loc", [s42, S("100")], None),
        ("normal_size", [s42, S("1.0"), S("2.0"), S("3"), S("5")], None),
        ("normal_size", [s42, S("1.0"), S("2.0"), S("0"), S("5")], None),
        ("normal_mix", [s42], None),
        ("standard_normal_size", [s7, S("13")], None),
        ("standard_normal_kw", [s7], None),
        ("normal_complex", [s7], "TypingError"),
        # exponential
        ("exponential_n", [s42, S("2.5"), S("9")], None),
        ("exponential_n", [s42, S("int32:3"), S("9")], None),
        ("exponential_size", [s42, S("0.5"), S("6")], None),
        ("exponential_default", [s42], None),
        ("standard_exponential_size", [s7, S("8")], None),
        ("standard_exponential_one", [s7], None),
        # randint: widths, signs, one argument, size, empty ranges
        ("randint_n", [s42, S("0"), S("10"), S("30")], None),
        ("randint_n", [s42, S("-1000000"), S("1000000"), S("30")], None),
        ("randint_n", [s42, S("-5"), S("1099511627776"), S("30")], None),
        ("randint_n", [s42, S("-9223372036854775807"),
                       S("9223372036854775807"), S("10")], "ValueError"),
        ("randint_n", [s42, S("-4611686018427387904"),
                       S("4611686018427387903"), S("10")], None),
        ("randint_n", [s42, S("0"), S("1000"), S("2000")], None),
        ("randint_n", [s0, S("-5"), S("1099511627776"), S("1000")], None),
        ("randint_mixed", [s42, S("700")], None),
        ("randint_n", [s42, S("3"), S("4"), S("5")], None),
        ("randint_n", [s42, S("5"), S("5"), S("1")], "ValueError"),
        ("randint_n", [s42, S("6"), S("5"), S("0")], None),
        ("randint_high", [s42, S("1000")], None),
        ("randint_high", [s42, S("int8:100")], None),
        ("randint_high", [s42, S("0")], "ValueError"),
        ("randint_two", [s42, S("int32:-7"), S("int32:70000")], None),
        ("randint_two", [s42, S("uint32:3"), S("uint32:2000000000")], None),
        ("randint_two", [s42, S("uint8:3"), S("uint8:200")], "refused"),
        ("randint_two", [s42, S("int16:-300"), S("uint8:200")], "refused"),
        ("randint_two", [s42, S("int16:-300"), S("uint32:200")], None),
        ("randint_two", [s42, S("uint64:3"), S("uint64:18446744073709551000")],
         "ValueError"),
        ("randint_two", [s42, S("uint64:3"), S("uint64:1000")], None),
        ("randint_two", [s42, S("int32:100"), S("int32:-100")],
         "ValueError"),
        ("randint_size", [s42, S("-3"), S("3"), S("25")], None),
        ("randint_size", [s42, S("int32:0"), S("int32:9"), S("6")], None),
        ("randint_size", [s42, S("3"), S("3"), S("0")], None),
        ("randint_size", [s42, S("3"), S("3"), S("2")], "ValueError"),
        ("randint_elems", [s42, V("i4", [-9, 300]), S("8")], None),
        ("randint_elems", [s42, V("u4", [1, 2000000000]), S("8")], None),
        ("randint_elems", [s42, V("u4", [1, 4000000000]), S("8")],
         "ValueError"),  # n wraps negative in 32 signed bits, as Numba's
        ("randint_elems", [s42, V("u4", [1, 4000000000]), S("0")], None),
        ("randint_elems", [s42, V("i2", [-9, 300]), S("8")], "refused"),
        ("randint_elem_scalar", [s42, V("u4", [10, 250])], None),
        ("randint_elem_scalar", [s42, V("i4", [-100, 120])], None),
        ("randint_elem_scalar", [s42, V("u8", [10, 250])], None),
        ("randint_elem_scalar", [s42, V("u1", [10, 250])], "refused"),
        ("randint_kw", [s42], None),
        ("randint_low_size", [s42], "TypingError"),
        ("randint_float", [s42], "TypingError"),
        # shuffle / permutation: dtypes, N-d rows, views, ints
        ("shuffle_arr", [s42, i8(20)], None),
        ("shuffle_arr", [s42, f4(6, 3)], None),
        ("shuffle_arr", [s42, c16(5, 2).F], None),
        ("shuffle_arr", [s42, b1(7)], None),
        ("shuffle_arr", [s42, i1(4, 2, 3).view("::-1")], None),
        ("shuffle_arr", [s42, f8(0)], None),
        ("shuffle_arr", [s42, f8(1)], None),
        ("shuffle_view", [s42, u1(11)], None),
        ("shuffle_number", [s42], "TypingError"),
        ("permutation_int", [s42, S("15")], None),
        ("permutation_int", [s42, S("int16:300")], None),
        ("permutation_int", [s42, S("0")], None),
        ("permutation_int", [s42, S("-4")], None),
        ("permutation_arr", [s42, f8(4, 3)], None),
        ("permutation_arr", [s42, i4(5, 2).view("::2, ::-1")], None),
        ("permutation_arr", [s42, u8(0, 3)], None),
        ("permutation_float", [s42], "TypingError"),
        # choice
        ("choice_int", [s42, S("10")], None),
        ("choice_int", [s42, S("int32:7")], None),
        ("choice_int", [s42, S("0")], "ValueError"),
        ("choice_arr", [s42, f8(9)], None),
        ("choice_arr", [s42, c16(9).view("::-3")], None),
        ("choice_arr", [s42, f8(0)], "ValueError"),
        ("choice_size", [s42, i4(12), S("30")], None),
        ("choice_size", [s42, S("1000"), S("7")], None),
        ("choice_size", [s42, S("0"), S("0")], None),
        ("choice_tuple", [s42, b1(5)], None),
        ("choice_tuple", [s42, S("4")], None),
        ("choice_noreplace", [s42, f8(10), S("10")], None),
        ("choice_noreplace", [s42, S("100"), S("6")], None),
        ("choice_noreplace", [s42, i8(5), S("6")], "ValueError"),
        ("choice_kw", [s42, S("20"), S("5"), S("false")], None),
        ("choice_kw", [s42, S("20"), S("5"), S("true")], None),
        ("choice_p", [s42, f8(4)], "TypingError"),
        ("choice_2d", [s42, f8(2, 3)], "refused"),
        # seeds
        ("seed_wrap", [S("-1")], None),
        ("seed_wrap", [S("4294967296")], None),
        ("seed_wrap", [S("uint8:255")], None),
        ("seed_float", [S("1.5")], "TypingError"),
        ("seed_bool", [S("true")], "TypingError"),
        ("from_import", [s7], None),
        ("size_float", [s7], "TypingError"),
        ("after_one_period", [s42], None),
        # the other distributions (CPython's algorithms where Numba uses
        # them: gamma, beta, von Mises)
        ("gamma2", [s42, S("2.5"), S("3.0"), S("40")], None),
        ("gamma2", [s42, S("1"), S("2"), S("9")], None),
        ("gamma2", [s42, S("0.3"), S("1.5"), S("40")], None),
        ("gamma2", [s42, S("0.0"), S("1.5"), S("2")], "ValueError"),
        ("gamma2", [s42, S("2.0"), S("-1"), S("2")], "ValueError"),
        ("gamma2", [s42, S("2.0"), S("-1"), S("0")], None),
        ("gamma1", [s7, S("float32:4.5")], None),
        ("standard_gamma", [s7, S("0.7"), S("25")], None),
        ("beta", [s42, S("0.5"), S("2.0"), S("30")], None),
        ("beta", [s42, S("3"), S("4"), S("30")], None),
        ("beta_one", [s42, S("2.0"), S("-1.0")], "ValueError"),
        ("chisquare", [s42, S("3"), S("20")], None),
        ("chisquare", [s42, S("0.5"), S("20")], None),
        ("f_dist", [s42, S("5"), S("2.5"), S("20")], None),
        ("lognormal", [s42, S("1.0"), S("0.25"), S("20")], None),
        ("lognormal_default", [s42], None),
        ("laplace", [s42, S("-1"), S("3.5"), S("20")], None),
        ("laplace_default", [s42], None),
        ("logistic", [s42, S("2.0"), S("0.5"), S("20")], None),
        ("gumbel", [s42, S("0.5"), S("2"), S("20")], None),
        ("gumbel_default", [s42], "TypingError"),
        ("weibull", [s42, S("1.5"), S("20")], None),
        ("weibull", [s42, S("2"), S("20")], None),
        ("pareto", [s42, S("3.0"), S("20")], None),
        ("pareto", [s42, S("3"), S("20")], "TypingError"),
        ("power", [s42, S("0.5"), S("20")], None),
        ("power", [s42, S("0"), S("2")], "ValueError"),
        ("rayleigh", [s42, S("2"), S("20")], None),
        ("rayleigh", [s42, S("-2.0"), S("2")], "ValueError"),
        ("rayleigh_default", [s42], None),
        ("standard_cauchy", [s42, S("21")], None),
        ("standard_t", [s42, S("3"), S("20")], None),
        ("standard_t", [s42, S("0.5"), S("20")], None),
        ("vonmises", [s42, S("1.0"), S("4.0"), S("30")], None),
        ("vonmises", [s42, S("-3.0"), S("0.5"), S("30")], None),
        ("vonmises", [s42, S("0.5"), S("0.0"), S("5")], None),
        ("vonmises", [s42, S("1"), S("4.0"), S("3")], "TypingError"),
        ("wald", [s42, S("1.5"), S("2.0"), S("20")], None),
        ("wald", [s42, S("-1.5"), S("2.0"), S("2")], "ValueError"),
        ("wald", [s42, S("1.5"), S("0.0"), S("2")], "ValueError"),
        ("triangular", [s42, S("-1.0"), S("0.5"), S("4.0"), S("20")], None),
        ("triangular", [s42, S("1"), S("2"), S("5"), S("20")], None),
        ("triangular_one", [s42, S("2.0"), S("2.0"), S("2.0")], None),
        ("triangular_one", [s42, S("3"), S("1"), S("3")], None),
        # the integer distributions: Knuth's and Hormann's poisson, BINV
        # and BTPE binomials (flipped above p 1/2), the size forms
        ("poisson", [s42, S("3.5"), S("40")], None),
        ("poisson", [s42, S("12.0"), S("40")], None),
        ("poisson", [s42, S("1e6"), S("40")], None),
        ("poisson", [s42, S("int32:0"), S("5")], None),
        ("poisson", [s42, S("-1.0"), S("2")], "ValueError"),
        ("poisson", [s42, S("-1.0"), S("0")], None),
        ("poisson", [s42, S("30"), S("int32:7")], None),
        ("poisson_one", [s42, S("2.5")], None),
        ("poisson_one", [s7, S("50")], None),
        ("poisson_shape", [s42, S("4.0")], None),
        ("poisson_0d", [s42, S("4.0")], None),
        ("binomial", [s42, S("10"), S("0.3"), S("40")], None),
        ("binomial", [s42, S("10"), S("0.8"), S("40")], None),
        ("binomial", [s42, S("1000"), S("0.4"), S("40")], None),
        ("binomial", [s42, S("100000"), S("0.9"), S("40")], None),
        ("binomial", [s42, S("int32:77"), S("0.5"), S("40")], None),
        ("binomial", [s42, S("5"), S("0.0"), S("4")], None),
        ("binomial", [s42, S("5"), S("int64:1"), S("4")], None),
        ("binomial", [s42, S("0"), S("0.5"), S("4")], None),
        ("binomial", [s42, S("-1"), S("0.5"), S("4")], "ValueError"),
        ("binomial", [s42, S("5"), S("1.5"), S("4")], "ValueError"),
        ("binomial", [s42, S("5"), S("nan"), S("4")], "ValueError"),
        ("binomial", [s42, S("5"), S("nan"), S("0")], None),
        ("binomial_one", [s42, S("20"), S("0.1")], None),
        ("binomial_one", [s42, S("200000"), S("0.6")], None),
        ("binomial_kw", [s42], None),
        ("binomial_float_n", [s42], "TypingError"),
        ("geometric", [s42, S("0.5"), S("40")], None),
        ("geometric", [s42, S("0.05"), S("40")], None),
        ("geometric", [s42, S("int64:1"), S("4")], None),
        ("geometric", [s42, S("0.0"), S("4")], "ValueError"),
        ("geometric", [s42, S("1.5"), S("4")], "ValueError"),
        ("geometric_one", [s7, S("0.2")], None),
        ("negative_binomial", [s42, S("5"), S("0.3"), S("40")], None),
        ("negative_binomial", [s42, S("2.5"), S("0.9"), S("40")], None),
        ("negative_binomial", [s42, S("0"), S("0.5"), S("3")], "ValueError"),
        ("negative_binomial", [s42, S("3"), S("1.5"), S("3")], "ValueError"),
        ("negative_binomial", [s42, S("3"), S("1.0"), S("3")], "ValueError"),
        ("negative_binomial", [s42, S("3"), S("0.0"), S("3")],
         "ZeroDivisionError"),
        ("negative_binomial", [s42, S("3"), S("0.0"), S("0")], None),
        ("negative_binomial_one", [s7, S("10"), S("0.5")], None),
        ("negative_binomial_size", [s7], "TypingError"),
        ("binomial_one", [s42, S("uint64:20"), S("0.5")], None),
        ("hypergeometric", [s42, S("10"), S("5"), S("7"), S("40")], None),
        ("hypergeometric", [s42, S("5"), S("100"), S("30"), S("40")], None),
        ("hypergeometric", [s42, S("5.7"), S("3"), S("2.9"), S("20")], None),
        ("hypergeometric", [s42, S("0"), S("0"), S("0"), S("3")], None),
        ("hypergeometric", [s42, S("1"), S("1"), S("5"), S("30")], None),
        ("hypergeometric", [s42, S("2.5"), S("2.5"), S("9"), S("30")],
         "ZeroDivisionError"),
        ("hypergeometric", [s42, S("3"), S("2"), S("5"), S("30")], None),
        ("geometric", [s42, S("1e-17"), S("4")], "ZeroDivisionError"),

        ("hypergeometric_one", [s7, S("50"), S("50"), S("20")], None),
        ("logseries", [s42, S("0.6"), S("40")], None),
        ("logseries", [s42, S("0.999"), S("40")], None),
        ("logseries", [s42, S("int64:1"), S("5")], "ZeroDivisionError"),
        ("logseries", [s42, S("0.9999999"), S("40")], None),
        ("logseries", [s42, S("0.0"), S("5")], "ValueError"),
        ("logseries_one", [s7, S("0.3")], None),
        ("zipf", [s42, S("2.0"), S("40")], None),
        ("zipf", [s42, S("1.3"), S("40")], None),
        ("zipf", [s42, S("1.0"), S("4")], "ValueError"),
        ("zipf", [s42, S("3"), S("4")], "TypingError"),
        ("zipf_one", [s7, S("4.5")], None),
        ("noncentral_chisquare", [s42, S("3.0"), S("2.0"), S("30")], None),
        ("noncentral_chisquare", [s42, S("0.5"), S("2.0"), S("30")], None),
        ("noncentral_chisquare", [s42, S("1"), S("0"), S("30")], None),
        ("noncentral_chisquare", [s42, S("2.0"), S("nan"), S("3")], None),
        ("noncentral_chisquare", [s42, S("0.0"), S("2.0"), S("0")],
         "ValueError"),
        ("noncentral_chisquare", [s42, S("2.0"), S("-2.0"), S("3")],
         "ValueError"),
        ("noncentral_chisquare_one", [s7, S("5"), S("1.5")], None),
        ("noncentral_chisquare_shape", [s7, S("5"), S("1.5")], None),
        # multinomial, dirichlet: tuples and arrays, the size forms
        ("multinomial_tuple", [s42, S("20")], None),
        ("multinomial_tuple", [s42, S("0")], None),
        ("multinomial_tuple", [s42, S("-3")], "ValueError"),
        ("multinomial_arr", [s42, S("100"), V("f8", [0.1, 0.6, 0.3]),
                             S("5")], None),
        ("multinomial_arr", [s42, S("1000"), V("f4", [0.5, 0.25, 0.25]),
                             S("4")], None),
        ("multinomial_arr", [s42, S("10"), V("i8", [1, 0, 0]), S("3")], None),
        ("multinomial_arr", [s42, S("10"), V("f8", [1.5, 0.5]), S("3")],
         "ValueError"),
        ("multinomial_arr", [s42, S("10"), V("f8", [0.5, 1.5]), S("3")],
         None),
        ("multinomial_arr", [s42, S("10"), V("f8", [1.0]), S("3")], None),
        ("multinomial_arr", [s42, S("10"), V("f8", []), S("3")],
         "ValueError"),
        ("multinomial_arr", [s42, S("10"), V("f8", [0.5, 0.5]), S("0")],
         None),
        ("multinomial_arr",
         [s42, S("10"), V("f8", [0.1, 0.2, 0.3, 0.4]).view("::-2"), S("4")],
         None),
        ("multinomial_shape", [s42, S("50"), V("f8", [0.3, 0.7])], None),
        ("multinomial_0d", [s42, S("50"), V("f8", [0.3, 0.7])], None),
        ("multinomial_float_n", [s42, V("f8", [0.3, 0.7])], "TypingError"),
        ("dirichlet_tuple", [s42], None),
        ("dirichlet_arr", [s42, V("f8", [0.5, 1.0, 4.0]), S("6")], None),
        ("dirichlet_arr", [s42, V("i4", [1, 2]), S("3")], None),
        ("dirichlet_arr", [s42, V("f8", [1.0, 0.0]), S("3")], "ValueError"),
        ("dirichlet_arr", [s42, V("f8", [1.0, -1.0]), S("0")], "ValueError"),
        ("dirichlet_arr", [s42, V("f8", [2.0, 3.0]).view("::-1"), S("2")],
         None),
        ("dirichlet_shape", [s42, V("f8", [2.0, 3.0, 0.25])], None),
        ("dirichlet_none", [s42, V("f8", [2.0, 3.0, 0.25])], None),
        ("dirichlet_number", [s42], "TypingError"),
        # prange: per-thread generators
        ("prange_draws", [S("5000")], "range 2.0 3.0"),
        ("prange_seeded", [S("64")], None),
    ]


def numba_result(fn, vals, r):
    """Numba's result as an array of the dtype Numba typed it with."""
    try:
        sig = fn.overloads[tuple(fn.typeof_pyval(v) for v in vals)].signature
        rt = sig.return_type
        if not hasattr(rt, "ndim"):
            return np.array(r, dtype=np.dtype(str(rt)))
    except (KeyError, TypeError):
        pass
    return as_array(r)


def same(got, want):
    return (got.dtype == want.dtype and got.shape == want.shape and
            np.ascontiguousarray(got).tobytes() ==
            np.ascontiguousarray(want).tobytes())


def main():
    opt = options(__doc__)
    if opt is None:
        return 77
    mod = lazy_load(FILE)
    rec = Record(FILE)
    fails = n = 0
    warnings.simplefilter("ignore")
    seen = {}
    with tempfile.TemporaryDirectory(prefix="ufjit-nprandom-") as tmp:
        for kernel, inputs, raises in cases():
            seen[kernel] = seen.get(kernel, 0) + 1
            cid = f"{kernel}#{seen[kernel]}"
            if opt.filter not in cid:
                continue
            n += 1
            vals, args = materialise(cid, inputs, tmp)
            probs, want, rng = [], None, None
            if raises and raises.startswith("range"):
                rng = [float(x) for x in raises.split()[1:]]
                raises = None

            def reference(raises=raises):
                probs, want = [], None
                try:
                    fn = getattr(mod(), kernel)
                    want = numba_result(fn, vals, fn(*vals))
                    if raises:
                        probs.append("Numba does not raise")
                except Exception as e:  # noqa: BLE001
                    name = type(e).__name__
                    if raises == "refused" and name in (
                            "TypeError", "AssertionError", "RuntimeError"):
                        raises = "TypingError"  # refused while compiling
                    elif name != raises:
                        probs.append(f"Numba raises {name}: {e}, the case "
                                     f"expects {raises}")
                return want, raises, probs
            want, raises, probs = rec.answer(
                rec.key(kernel, raises, vals), vals, reference)
            probs = list(probs)
            p, out, cmd = run_ufjit(opt.ufjit, FILE, kernel, args, tmp, cid)
            mark = f"{FILE}:" if raises == "TypingError" else f"{raises}:"
            if raises:
                if p.returncode != 1 or mark not in p.stderr:
                    probs.append(f"ufjit did not raise {raises}: exit "
                                 f"{p.returncode} {p.stderr.strip()}")
            elif p.returncode != 0:
                probs.append(f"ufjit exited {p.returncode}: "
                             f"{p.stderr.strip()}\n  {cmd}")
            elif rng is not None:
                got = np.load(out)
                ok = (got.dtype == want.dtype and got.shape == want.shape
                      and ((got >= rng[0]) & (got < rng[1])).all()
                      and len(np.unique(got)) == got.size)
                if not ok:
                    probs.append(f"ufjit {got.dtype} {got.shape} not in "
                                 f"[{rng[0]}, {rng[1]}) or repeating")
            elif want is not None:
                got = np.load(out)
                if not same(got, want):
                    probs.append(f"ufjit {got.dtype} {got!r}, Numba "
                                 f"{want.dtype} {want!r}\n  {cmd}")
            if probs:
                fails += 1
                print(f"FAIL {cid}: " + "; ".join(probs))
            elif opt.verbose:
                print(f"ok   {cid}")
    rec.close()
    print(f"{n - fails}/{n} nprandom cases agree with Numba")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
