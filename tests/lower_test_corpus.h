/* The kernel file compiled by the lowering tests (test_lower_*.c): the
 * JIT and the module built from it once per test program (setup,
 * teardown), a kernel's typed function for scalar dtypes, and its ufunc
 * loop compiled and timed. Functions are static inline: each test uses a
 * subset. Numba runs the kernel file to print test_lower_numba.c's table
 * (the script follows the file). */
#ifndef UF_TESTS_LOWER_TEST_CORPUS_H
#define UF_TESTS_LOWER_TEST_CORPUS_H

#include <time.h>

#include "host_jit.h"
#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit.h"
#include "compiler/front/kmodule.h"
#include "compiler/lower/lower.h"

static const char corpus_text[] =
    "import math\n"
    "import cmath\n"
    "import numpy as np\n"
    "from numba import vectorize, njit, float32, int32\n"
    "\n"
    "SQRT_2PI = float32((2 * math.pi) ** 0.5)\n"
    "TWO = 2\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def add(a, b):\n"
    "    return a + b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def sub(a, b):\n"
    "    return a - b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def mul(a, b):\n"
    "    return a * b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def div(a, b):\n"
    "    return a / b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def fdiv(a, b):\n"
    "    return a // b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def mod(a, b):\n"
    "    return a % b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def pw(a, b):\n"
    "    return a ** b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def shl(a, b):\n"
    "    return a << b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def shr(a, b):\n"
    "    return a >> b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def bits(a, b):\n"
    "    return a & b, a | b, a ^ b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def unary(a):\n"
    "    return -a, +a, not a\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def invert(a):\n"
    "    return ~a\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def powers(x):\n"
    "    return x ** 2, x ** -2, x ** 3, x ** 0.5, x ** TWO\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def axpy(a, b):\n"
    "    return a + 3.0 * b\n"
    "\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'])\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    '''Compute the value of a Gaussian probability density function.'''\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)\n"
    "\n"
    "\n"
    "@vectorize(['float64(float64, float64)', 'float32(float32, float32)'])\n"
    "def hypot(x, y):\n"
    "    x = abs(x)\n"
    "    y = abs(y)\n"
    "    t = min(x, y)\n"
    "    x = max(x, y)\n"
    "    t = t / x\n"
    "    return x * math.sqrt(1 + t * t)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "\n"
    "@njit\n"
    "def polar_to_cartesian(rho, theta):\n"
    "    x = rho * math.cos(theta)\n"
    "    y = rho * math.sin(theta)\n"
    "    return x, y\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def polar_distance(rho1, theta1, rho2, theta2):\n"
    "    x1, y1 = polar_to_cartesian(rho1, theta1)\n"
    "    x2, y2 = polar_to_cartesian(rho2, theta2)\n"
    "    return ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def divmod2(a, b):\n"
    "    return a // b, a % b, divmod(a, b)[1]\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def sum_range(start, stop, step):\n"
    "    s = 0\n"
    "    i = -100\n"
    "    for i in range(start, stop, step):\n"
    "        s += i\n"
    "    return s, i\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def loops(n):\n"
    "    total = 0\n"
    "    for i in range(n):\n"
    "        if i % 3 == 0:\n"
    "            continue\n"
    "        if i > 10:\n"
    "            break\n"
    "        total += i\n"
    "    else:\n"
    "        total += 1000\n"
    "    k = 0\n"
    "    while k < n:\n"
    "        k += 2\n"
    "        if k == 8:\n"
    "            break\n"
    "    else:\n"
    "        total += 100000\n"
    "    return total * 1000 + k\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def chain(a, b, c):\n"
    "    return 1 if a < b <= c else (2 if a == b == c else 0)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def boolops(a, b):\n"
    "    x = a and b\n"
    "    y = a or b\n"
    "    return x, y\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def collatz(n):\n"
    "    steps = 0\n"
    "    while n != 1:\n"
    "        if n % 2 == 0:\n"
    "            n = n // 2\n"
    "        else:\n"
    "            n = 3 * n + 1\n"
    "        steps += 1\n"
    "    return steps\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def cplx(z, w):\n"
    "    return z * w, z / w, abs(z), z.conjugate(), z.real - w.imag, z ** w\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def cfuncs(z):\n"
    "    return cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.phase(z)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def rounding(x):\n"
    "    return round(x), math.floor(x), math.ceil(x), math.trunc(x), round(x, 1)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def minmax(a, b, c):\n"
    "    return min(a, b, c), max(a, b, c), min(a, b), max(b, a)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def mixed(i, f):\n"
    "    return i + f, i * 2, f / 2, i // 3, -i\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def casts(x):\n"
    "    return int32(x), float32(x), int(x), float(x), bool(x)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def augmented(a, b):\n"
    "    x = a\n"
    "    x += b\n"
    "    x *= 3\n"
    "    x -= a\n"
    "    x //= 2\n"
    "    x **= 2\n"
    "    y = 1.5\n"
    "    y /= b\n"
    "    y %= 7\n"
    "    return x, y\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def math1(x):\n"
    "    return (math.sin(x), math.cos(x), math.tan(x), math.exp(x),\n"
    "            math.log(x), math.sqrt(x), math.atan(x), math.tanh(x))\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def math2(x):\n"
    "    return (math.asin(x), math.acos(x), math.sinh(x), math.cosh(x),\n"
    "            math.asinh(x), math.atanh(x), math.expm1(x), math.log1p(x))\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def math3(x, y):\n"
    "    return (math.atan2(x, y), math.hypot(x, y), math.copysign(x, y),\n"
    "            math.pow(x, y))\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def math4(x):\n"
    "    return (math.log2(x), math.log10(x), math.erf(x), math.erfc(x),\n"
    "            math.gamma(x), math.lgamma(x), math.degrees(x), math.radians(x),\n"
    "            math.fabs(x), math.acosh(x + 1))\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def preds(x):\n"
    "    return math.isnan(x), math.isinf(x), math.isfinite(x), x != x\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def npfuncs(x, y):\n"
    "    return (np.sin(x), np.floor(x), np.sign(x), np.minimum(x, y),\n"
    "            np.maximum(x, y), np.fmin(x, y), np.rint(x), np.square(x))\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def tuples(a, b):\n"
    "    t = (a, b, a + b)\n"
    "    u, v, w = t\n"
    "    return t[2] * 2 + u - v, w\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def truth(x):\n"
    "    if x:\n"
    "        return 1\n"
    "    return 0\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def nested(x):\n"
    "    r = 0.0\n"
    "    for i in range(3):\n"
    "        for j in range(i, 3):\n"
    "            if (i + j) % 2 == 1:\n"
    "                r += x * i - j\n"
    "    return r\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def overflow(a, b):\n"
    "    return a * b + a, a - b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def checked(x):\n"
    "    assert x >= 0\n"
    "    return x * 2\n"
    "\n"
    "\n"
    "@njit\n"
    "def njit_div(a, b):\n"
    "    return a // b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def call_njit(a, b):\n"
    "    return njit_div(a, b)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def axpy_f4(a, b):\n"
    "    return a + float32(3.0) * b\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def aug_wrap(a, b):\n"
    "    s = 0.0\n"
    "    s += a * b\n"
    "    return s\n"
    "\n"
    "\n"
    "@njit\n"
    "def scale(x, factor):\n"
    "    return x * factor\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def kwcall(x, y):\n"
    "    return scale(x, factor=y) + scale(factor=3, x=x)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def misc(n):\n"
    "    k = 0\n"
    "    t = (n, n * 2, n * 3)\n"
    "    while k < 10:\n"
    "        k += 1\n"
    "        if k % 2 == 0:\n"
    "            continue\n"
    "        if k > 7:\n"
    "            break\n"
    "    else:\n"
    "        k = -1\n"
    "    return k, t[-1], t[1], (n if n > 2 else 2.5)\n";

/* Line of the `assert` in `checked` above (the status carries it). */
enum { CHECKED_ASSERT_LINE = 285 };

/* How test_lower_numba.c's `cases` table was printed: this script, run
 * in the directory of the kernel file above saved as corpus.py (Python
 * 3.11, NumPy 2.4, Numba 0.68), its output pasted as the table.

# Prints the C table rows of tests/test_lower_numba.c: each case's kernel run by
# Numba (njit with error_model='numpy', i.e. vectorize's semantics, called
# per element so that tuple-returning kernels work too).
import math, sys, types
import numpy as np
import numba

src = open('corpus.py').read()

def ident(*a, **k):
    if len(a) == 1 and callable(a[0]) and not k:
        return a[0]
    return lambda f: f

ns = {}
code = src.replace('from numba import vectorize, njit, float32, int32',
                   'from numba import float32, int32')
ns['vectorize'] = ident
ns['njit'] = ident
exec(compile(code, 'corpus.py', 'exec'), ns)
fnames = [k for k, v in list(ns.items()) if isinstance(v, types.FunctionType) and k not in ('ident',)]
for k in fnames:
    ns[k] = numba.njit(error_model='numpy')(ns[k])

I8, I4, I2, I1, U8, U1, F8, F4, B, C16, C8 = 'int64', 'int32', 'int16', 'int8', 'uint64', 'uint8', 'float64', 'float32', 'bool', 'complex128', 'complex64'
nan, inf = float('nan'), float('inf')
ints = [7, -7, 0, 1, -1, 3, -3, 2**62, -2**63, 2**63 - 1, 13, -13]
ints2 = [2, 2, 3, -3, 7, 0, -1, 5, -1, -2, -4, 0]
flts = [7.5, -7.5, 0.0, -0.0, 1.0, -3.25, 1e300, nan, inf, -inf, 0.1, 2.5]
flts2 = [2.0, 2.0, 3.0, 3.0, -0.0, 0.0, 1e-300, 1.0, 2.0, 0.5, 0.3, -1.5]
pos = [0.5, 1.0, 2.0, 3.5, 10.0, 0.01, 100.0, 1e-5]
unit = [-0.9, -0.5, 0.0, 0.25, 0.5, 0.75, 0.99, -0.1]

cases = [
    # kernel, input dtypes, inputs, tolerance class
    ('add', [I8, I8], [ints, ints2], 0),
    ('add', [I4, I4], [[2**31 - 1, -2**31, 5], [1, -1, -6]], 0),
    ('add', [U1, U1], [[255, 0, 200], [1, 0, 100]], 0),
    ('add', [I4, F4], [[16777217, -3, 1], [0.5, 0.25, -1.0]], 0),
    ('add', [F8, F8], [flts, flts2], 0),
    ('add', [B, B], [[True, True, False], [True, False, False]], 0),
    ('sub', [I8, I8], [ints, ints2], 0),
    ('sub', [U8, I8], [[0, 5, 2**64 - 1], [1, 10, -1]], 0),
    ('mul', [I8, I8], [ints, ints2], 0),
    ('mul', [F4, F4], [[1.5, 3e38, -0.0], [2.0, 10.0, 5.0]], 0),
    ('mul', [C16, C16], [[1+2j, -1j, complex(inf, 0)], [3-1j, 1j, 2+0j]], 0),
    ('div', [I8, I8], [ints, ints2], 0),
    ('div', [F8, F8], [flts, flts2], 0),
    ('div', [F4, F4], [[1.0, -1.0, 0.0, 7.0], [0.0, 0.0, 0.0, 3.0]], 0),
    ('div', [C16, C16], [[1+1j, 1+2j, 1e300+1e300j, 1+0j], [1+2j, 3+4j, 1e300+1e300j, 1e-300j]], 0),
    ('fdiv', [I8, I8], [ints, ints2], 0),
    ('fdiv', [I1, I1], [[-128, -7, 7, 127], [-1, 2, -2, 0]], 0),
    ('fdiv', [U8, U8], [[7, 2**64 - 1, 5], [2, 2, 0]], 0),
    ('fdiv', [F8, F8], [flts, flts2], 0),
    ('fdiv', [F4, F4], [[7.5, -7.5, 1.0, -0.0], [2.0, 2.0, 0.0, 3.0]], 0),
    ('mod', [I8, I8], [ints, ints2], 0),
    ('mod', [I2, I2], [[-32768, -7, 7, 5], [-1, 2, -2, 0]], 0),
    ('mod', [F8, F8], [flts, flts2], 0),
    ('mod', [F4, F4], [[7.5, -7.5, 1.0, -0.0], [2.0, 2.0, 0.0, 3.0]], 0),
    ('mod', [I8, F8], [[-7, 7, 3], [2.5, -2.5, 0.0]], 0),
    ('pw', [I8, I8], [[2, 0, 1, -1, -1, 3, 2, 7, -3], [10, -1, -3, -3, -2, 40, 63, 0, 3]], 0),
    ('pw', [F8, F8], [[2.0, -8.0, 0.0, 4.0, nan], [0.5, 1/3, -1.0, 2.5, 0.0]], 0),
    ('pw', [F8, I8], [[2.0, 1.5, -2.0, 10.0, 0.0], [-2, 3, 3, 22, 2]], 0),
    ('pw', [F4, I4], [[2.0, 1.5, 3.0], [-2, 3, 5]], 0),
    ('pw', [C16, C16], [[1+2j, 1+1j, 1j, 0j], [2+0j, 0.5+0j, 1j, 0j]], 1),
    ('shl', [I8, I8], [[1, 1, -1, 5, 1], [3, 62, 4, 0, 63]], 0),
    ('shr', [I8, I8], [[-8, 8, -1, 1024], [1, 2, 10, 10]], 0),
    ('shl', [U1, I8], [[1, 255], [7, 1]], 0),
    ('bits', [I8, I8], [ints, ints2], 0),
    ('bits', [B, B], [[True, True, False, False], [True, False, True, False]], 0),
    ('unary', [I8], [ints], 0),
    ('unary', [F8], [flts], 0),
    ('unary', [U1], [[0, 1, 255]], 0),
    ('unary', [I1], [[-128, 0, 5]], 0),
    ('unary', [B], [[True, False]], 0),
    ('unary', [C16], [[1+2j, 0j, -0.0 - 1j]], 0),
    ('invert', [I8], [[0, -1, 5, 2**63 - 1]], 0),
    ('invert', [U1], [[0, 255, 5]], 0),
    ('invert', [B], [[True, False]], 0),
    ('powers', [F8], [[2.0, -3.0, 1e-100, nan, 0.5, -0.25]], 1),
    ('powers', [F4], [[2.0, -3.0, 0.5, 3.0]], 1),
    ('powers', [I8], [[2, -3, 1, 4]], 0),
    ('axpy', [F8, F8], [flts, flts2], 0),
    ('gaussian_pdf', [F4, F4, F4], [[-3.0, -1.0, 0.0, 0.5, 2.0, 2.5], [0.0] * 6, [1.0, 1.0, 1.0, 2.0, 0.5, 1.0]], 1),
    ('hypot', [F8, F8], [[3.0, -5.0, 1e300, 0.0, 1.0], [4.0, 12.0, 1e300, 2.0, -1.0]], 1),
    ('hypot', [F4, F4], [[3.0, -5.0, 1e30, 1.0], [4.0, 12.0, 1e30, -1.0]], 1),
    ('rel_diff', [F8, F8], [[1.0, 2.0, 3.0, 0.0], [2.0, 1.0, 3.0, 0.0]], 0),
    ('rel_diff', [F4, F4], [[1.0, 2.0, 3.0], [2.0, 1.0, 3.5]], 0),
    ('rel_diff', [I8, I8], [[1, 2, 3, 0], [2, 1, 3, 0]], 0),
    ('polar_distance', [F8, F8, F8, F8], [[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 1.0, 2.0], [math.pi / 2, 2.0, 0.5]], 1),
    ('polar_distance', [F4, F4, F4, F4], [[1.0, 2.0], [0.0, 1.0], [1.0, 1.0], [1.5, 2.0]], 1),
    ('divmod2', [I8, I8], [ints, ints2], 0),
    ('divmod2', [F8, F8], [[7.5, -7.5, 1.0, -0.0, 5.0], [2.0, 2.0, 0.0, 3.0, -3.0]], 0),
    ('sum_range', [I8, I8, I8], [[0, 10, 0, 5, -5, 2**63 - 3, -2**63 + 2, 3, 0], [10, 0, 0, 0, 5, 2**63 - 1, -2**63, 3, 10], [3, -3, 1, 1, 4, 1, -1, -1, 2**63 - 1]], 0),
    ('sum_range', [I4, I8, I2], [[0, 10], [10, 0], [3, -4]], 0),
    ('loops', [I8], [[0, 1, 2, 5, 8, 9, 12, 20, -3]], 0),
    ('chain', [I8, I8, I8], [[1, 1, 2, 3, 1], [2, 1, 2, 2, 2], [2, 1, 1, 3, 3]], 0),
    ('chain', [F8, F4, I8], [[1.0, nan, 2.0], [2.0, nan, 2.0], [2, 1, 2]], 0),
    ('boolops', [I8, F8], [[0, 3, 0, 3], [0.0, 0.0, 2.5, nan]], 0),
    ('boolops', [B, B], [[True, True, False, False], [True, False, True, False]], 0),
    ('collatz', [I8], [[1, 2, 3, 7, 27, 97]], 0),
    ('cplx', [C16, C16], [[1+2j, -3+0.5j, 0j, 1e300+1e300j], [3-1j, 2j, 1+0j, 1e300+0j]], 1),
    ('cplx', [C8, C8], [[1+2j, -3+0.5j], [3-1j, 2j]], 1),
    ('cfuncs', [C16], [[1+1j, -4+0j, -4-0j, 3+4j, 1j, 0.5-2j]], 1),
    ('rounding', [F8], [[0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 0.25, 0.35, -3.7, 1e300]], 0),
    ('rounding', [F4], [[0.5, 1.5, 2.5, -0.5, 0.25, -3.7]], 0),
    ('rounding', [I8], [[3, -4]], 0),
    ('minmax', [F8, F8, F8], [[1.0, nan, 1.0, 3.0, -0.0], [nan, 1.0, 2.0, 2.0, 0.0], [2.0, 2.0, nan, 1.0, 0.0]], 0),
    ('minmax', [I8, F4, I1], [[1, 5, -3], [2.5, 1.5, -3.5], [3, 4, -3]], 0),
    ('minmax', [U8, I8, I8], [[1, 2**64 - 1], [-1, 3], [0, 4]], 0),
    ('mixed', [I4, F4], [[1, -7, 16777217], [0.5, 2.5, 1.0]], 0),
    ('mixed', [I8, F8], [[1, -7, 2**53 + 1], [0.5, 2.5, 1.0]], 0),
    ('mixed', [U1, F4], [[255, 0], [1.0, 3.0]], 0),
    ('casts', [F8], [[3.7, -3.7, 0.0, 1e10, 0.1]], 0),
    ('casts', [I8], [[3, -3, 0, 2**40]], 0),
    ('augmented', [I8, I8], [[1, -7, 3], [2, 3, -5]], 0),
    ('augmented', [F8, F8], [[1.0, -7.5, 3.0], [2.0, 3.0, -5.0]], 0),
    ('augmented', [I4, F4], [[1, -7], [2.0, 3.5]], 0),
    ('math1', [F8], [pos], 1),
    ('math1', [F4], [pos], 1),
    ('math1', [I8], [[1, 2, 3]], 1),
    ('math2', [F8], [unit], 1),
    ('math2', [F4], [unit], 1),
    ('math3', [F8, F8], [[1.0, -2.0, 3.0, 0.5, 10.0], [2.0, 3.0, -1.5, 0.25, 2.0]], 1),
    ('math3', [F4, F4], [[1.0, 3.0], [2.0, 1.5]], 1),
    ('math4', [F8], [pos], 1),
    ('math4', [F4], [pos], 1),
    ('preds', [F8], [[1.0, nan, inf, -inf, 0.0]], 0),
    ('preds', [I8], [[1, 0]], 0),
    ('preds', [F4], [[nan, 1.0]], 0),
    ('npfuncs', [F8, F8], [[1.5, -2.5, nan, 0.0, -0.0, 3.5], [1.0, nan, 1.0, -0.0, 0.0, 4.0]], 1),
    ('npfuncs', [F4, F4], [[1.5, -2.5, 2.5], [1.0, -3.0, 2.0]], 1),
    ('tuples', [I8, F8], [[1, 2], [0.5, -1.5]], 0),
    ('truth', [F8], [[0.0, -0.0, nan, 2.0]], 0),
    ('truth', [C16], [[0j, 1j, 1+0j]], 0),
    ('nested', [F8], [[1.0, 2.5, -3.0]], 0),
    ('overflow', [I8, I8], [[2**62, -2**63, 3], [4, 1, 2]], 0),
    ('overflow', [I4, I4], [[2**30, -2**31], [4, 1]], 0),
    ('overflow', [U8, U8], [[2**63, 0], [2, 1]], 0),
    ('call_njit', [I8, I8], [[7, -7, 1], [2, 2, 0]], 0),
    ('checked', [F8], [[1.0, 2.5]], 0),
    ('aug_wrap', [I8, I8], [[2**62, 3, -5], [4, 2, 7]], 0),
    ('aug_wrap', [I4, I4], [[2**30, 3], [4, -2]], 0),
    ('kwcall', [F8, F8], [[1.5, -2.0], [2.0, 0.5]], 0),
    ('kwcall', [I8, I8], [[3, -2], [4, 5]], 0),
    ('misc', [I8], [[1, 3, -4]], 0),
    ('misc', [F4], [[1.5, 3.5]], 0),
]

def fmt(v, dt):
    if dt.kind == 'c':
        return fmt(v.real, np.dtype(dt.name.replace('complex', 'float').replace('128', '64').replace('float64', 'float64'))) + ',' + fmt(v.imag, np.dtype('float64'))
    if dt.kind == 'f':
        v = float(v)
        if math.isnan(v): return 'nan'
        if math.isinf(v): return 'inf' if v > 0 else '-inf'
        return repr(v)
    if dt.kind == 'b':
        return '1' if v else '0'
    return str(int(v))

def cfmt_c(v, dt):
    # complex64 parts are float32 values printed exactly as doubles
    return fmt(v, dt)

out = []
for name, tys, inputs, tol in cases:
    f = ns[name]
    dts = [np.dtype(t) for t in tys]
    n = len(inputs[0])
    results = []
    for i in range(n):
        args = [dts[k].type(inputs[k][i]) for k in range(len(tys))]
        try:
            r = f(*args)
        except Exception as e:
            print(name, tys, [a for a in args], repr(e), file=sys.stderr)
            raise
        results.append(r if isinstance(r, tuple) else (r,))
    sig = f.nopython_signatures[-1]
    rt = sig.return_type
    rts = list(rt.types) if isinstance(rt, numba.types.BaseTuple) else [rt]
    odt = [np.dtype(str(t)) if str(t) != 'bool' else np.dtype('bool') for t in rts]
    ins = []
    for k, dt in enumerate(dts):
        ins.append(' '.join(fmt(dt.type(v), dt) for v in inputs[k]))
    outs = []
    for j, dt in enumerate(odt):
        outs.append(' '.join(fmt(dt.type(results[i][j]), dt) for i in range(n)))
    line = '    {LOC, "%s", "%s->%s", %d, %d,\n     {%s},\n     {%s}},' % (
        name, ','.join(tys), ','.join(d.name for d in odt), n, tol,
        ', '.join('"%s"' % s for s in ins), ', '.join('"%s"' % s for s in outs))
    out.append(line)
print('\n'.join(out))
*/

static uf__jit *jit;
static uf__kmodule *km;
static uf__source src = {"corpus.py", corpus_text, sizeof corpus_text - 1};
static double compile_ms[256];
static int ncompiles;

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int setup(void **state)
{
    (void)state;
    uf_error err;
    if (!(jit = test_host_jit(&err)) || !(km = uf__kmodule_new(&src, &err))) {
        print_error("setup: %s\n", err.message);
        return -1;
    }
    return 0;
}

static inline int teardown(void **state)
{
    (void)state;
    uf__kmodule_free(km);
    uf__jit_free(jit);
    return 0;
}

/* The typed function of a kernel for scalar input dtypes. */
static inline uf__typed_func *specialise(const char *kernel, const uf_dtype *in,
                                         int nin, uf_error *err)
{
    const uf__kernel_decl *decl = uf__kmodule_find(km, kernel);
    if (!decl) {
        uf__error_set(err, UF_ERR_NOT_FOUND, "no kernel %s", kernel);
        return NULL;
    }
    const uf__type *args[8];
    for (int i = 0; i < nin; i++)
        args[i] = uf__type_scalar(km->tc, in[i]);
    return uf__infer(km, decl, args, nin, NULL, err);
}

/* Compiles a kernel's ufunc loop; times it. */
static inline uf__strided_loop compile_kernel(const uf__typed_func *tf,
                                              const uf_dtype *out,
                                              uf__jit_listing *lst,
                                              uf_error *err)
{
    uf__strided_loop fn = NULL;
    double t0 = now_ms();
    if (uf__jit_ufunc_loop(jit, tf, out, &fn, lst, err) != 0)
        return NULL;
    if (ncompiles < (int)(sizeof compile_ms / sizeof compile_ms[0]))
        compile_ms[ncompiles++] = now_ms() - t0;
    return fn;
}

#endif
