/* The seed kernels parsed (their trees pinned down), and robustness on
 * them: every prefix, random byte flips and failing allocations. */
#include "parser_test_util.h"

/* ---- seed kernels ----------------------------------------------------- */

/* The kernels of the seed documents (indentation restored), one file. */
static const char seed_kernels[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import vectorize, guvectorize, cuda, float32, float64, int64, "
    "jit, njit\n"
    "from numba import prange\n"
    "\n"
    "# This gets inlined at compile time\n"
    "SQRT_2PI = np.float32((2*math.pi)**0.5)\n"
    "SQRT_2PI_F = float32((2 * math.pi) ** 0.5)\n"
    "\n"
    "\n"
    "@jit\n"
    "def hypot(x, y):\n"
    "    x = abs(x);\n"
    "    y = abs(y);\n"
    "    t = min(x, y);\n"
    "    x = max(x, y);\n"
    "    t = t / x;\n"
    "    return x * math.sqrt(1+t*t)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "\n"
    "@vectorize([float32(float32, float32),\n"
    "            float64(float64, float64)],\n"
    "           target='cpu')\n"
    "def rel_diff_typed(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "\n"
    "@vectorize(['int64(int64, int64)'], target='cuda')\n"
    "def add_ufunc(x, y):\n"
    "    return x + y\n"
    "\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'], target='parallel')\n"
    "# Probability Distribution Function\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    '''Compute the value of a Gaussian probability density function at x\n"
    "    with given mean and sigma.'''\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)\n"
    "\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def polar_to_cartesian(rho, theta):\n"
    "    x = rho * math.cos(theta)\n"
    "    y = rho * math.sin(theta)\n"
    "    return x, y  # This is Python, so let's return a tuple\n"
    "\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32, float32)'], "
    "target='cuda')\n"
    "def polar_distance(rho1, theta1, rho2, theta2):\n"
    "    x1, y1 = polar_to_cartesian(rho1, theta1)\n"
    "    x2, y2 = polar_to_cartesian(rho2, theta2)\n"
    "\n"
    "    return ((x1 - x2)**2 + (y1 - y2)**2)**0.5\n"
    "\n"
    "\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'], "
    "'(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "\n"
    "\n"
    "@guvectorize([(int64[:], int64[:], int64[:])], '(n),()->(n)')\n"
    "def g(x, y, res):\n"
    "    for i in range(x.shape[0]):\n"
    "        res[i] = x[i] + y[0]\n"
    "\n"
    "\n"
    "@cuda.reduce\n"
    "def sum_reduce(a, b):\n"
    "    return a + b\n"
    "\n"
    "\n"
    "@njit('(float64[:, :], float64[:, :], float64)',\n"
    "      parallel=True)\n"
    "def scale(lhs, rhs, alpha):\n"
    "    for i in prange(len(lhs)):\n"
    "        lhs[i] = alpha * rhs[i]\n"
    "\n"
    "\n"
    "@cuda.jit('void(float64[:,], float64[:,], float64[:,])')\n"
    "def add(lhs, rhs1, rhs2):\n"
    "    i = cuda.grid(1)\n"
    "    if i < lhs.shape[0]:\n"
    "        lhs[i] = rhs1[i] + rhs2[i]\n"
    "\n"
    "\n"
    "@cuda.jit\n"
    "def add_kernel(x, y, out):\n"
    "    tx = cuda.threadIdx.x  # this is the unique thread ID within a 1D "
    "block\n"
    "    ty = cuda.blockIdx.x   # Similarly, this is the unique block ID\n"
    "\n"
    "    block_size = cuda.blockDim.x  # number of threads per block\n"
    "    grid_size = cuda.gridDim.x    # number of blocks in the grid\n"
    "\n"
    "    start = tx + ty * block_size\n"
    "    stride = block_size * grid_size\n"
    "\n"
    "    # assuming x and y inputs are same length\n"
    "    for i in range(start, x.shape[0], stride):\n"
    "        out[i] = x[i] + y[i]\n"
    "\n"
    "\n"
    "@njit\n"
    "def collatz(n):\n"
    "    steps = 0\n"
    "    while n != 1:\n"
    "        if n % 2 == 0:\n"
    "            n //= 2\n"
    "        elif n < 0:\n"
    "            break\n"
    "        else:\n"
    "            n = 3 * n + 1\n"
    "        steps += 1\n"
    "    else:\n"
    "        steps = -steps\n"
    "    return steps\n";

/* The parts of the seed file whose trees are worth pinning down. */
static const struct {
    const char *name;
    const char *expect;
} seed_trees[] = {
    {"gaussian_pdf",
     "(def gaussian_pdf (x mean sigma) (@ (call vectorize "
     "(list 'float32(float32, float32, float32)') target='parallel')) "
     "[(expr 'Compute the value of a Gaussian probability density function "
     "at x\\x0a    with given mean and sigma.') "
     "(return (/ (call (. math exp) (* (- 0.5) (** (/ (- x mean) sigma) 2))) "
     "(* sigma SQRT_2PI)))])"},
    {"polar_distance",
     "(def polar_distance (rho1 theta1 rho2 theta2) (@ (call vectorize "
     "(list 'float32(float32, float32, float32, float32)') target='cuda')) "
     "[(= (tuple x1 y1) (call polar_to_cartesian rho1 theta1)) "
     "(= (tuple x2 y2) (call polar_to_cartesian rho2 theta2)) "
     "(return (** (+ (** (- x1 x2) 2) (** (- y1 y2) 2)) 0.5))])"},
    {"matvec",
     "(def matvec (M v y) (@ (call guvectorize "
     "(list 'void(float64[:,:], float64[:], float64[:])') "
     "'(m,n),(n)->(m)')) "
     "[(for i (call range ([] (. M shape) 0)) [(= acc 0.0) "
     "(for j (call range ([] (. M shape) 1)) "
     "[(+= acc (* ([] M i j) ([] v j)))]) (= ([] y i) acc)])])"},
    {"sum_reduce",
     "(def sum_reduce (a b) (@ (. cuda reduce)) [(return (+ a b))])"},
    {"collatz",
     "(def collatz (n) (@ njit) [(= steps 0) (while (cmp n != 1) "
     "[(if (cmp (% n 2) == 0) [(//= n 2)] [(if (cmp n < 0) [(break)] "
     "[(= n (+ (* 3 n) 1))])]) (+= steps 1)] [(= steps (- steps))]) "
     "(return steps)])"},
};

static void test_seeds(void **state)
{
    (void)state;
    uf__source src;
    uf__arena *arena;
    uf_error err;
    uf__ast_module *m = parse_text(seed_kernels, strlen(seed_kernels), &src,
                                   &arena, &err);
    if (m == NULL) {
        uf__arena_free(arena);
        fail_msg("seed kernels: %s at %d:%d", err.message, err.line,
                 err.column);
    }
    assert_true(ids_ok(m));
    int ndefs = 0, nfound = 0;
    for (int k = 0; k < m->body.n; k++) {
        const uf__stmt *s = m->body.stmts[k];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        ndefs++;
        for (size_t j = 0; j < sizeof seed_trees / sizeof *seed_trees; j++) {
            if (strcmp(seed_trees[j].name, s->u.funcdef.name) != 0)
                continue;
            uf_test_buf b = {.n = 0};
            b.s[0] = '\0';
            dump_stmt(&b, s);
            if (strcmp(b.s, seed_trees[j].expect) != 0) {
                uf__arena_free(arena);
                fail_msg("%s: got\n  %s\nexpected\n  %s",
                         seed_trees[j].name, b.s, seed_trees[j].expect);
            }
            nfound++;
        }
    }
    /* 4 imports and 2 constants before the 14 definitions */
    assert_int_equal(m->body.n, 20);
    assert_int_equal(ndefs, 14);
    assert_int_equal(nfound, (int)(sizeof seed_trees / sizeof *seed_trees));
    const uf__stmt *c = m->body.stmts[5];
    uf_test_buf b = {.n = 0};
    b.s[0] = '\0';
    dump_stmt(&b, c);
    assert_string_equal(b.s, "(= SQRT_2PI_F (call float32 "
                             "(** (* 2 (. math pi)) 0.5)))");
    /* positions: the def line, the name, the decorator */
    const uf__stmt *hyp = m->body.stmts[6];
    assert_int_equal(hyp->pos.line, 12);
    assert_int_equal(hyp->pos.col, 1);
    assert_int_equal(hyp->u.funcdef.name_pos.col, 5);
    assert_int_equal(hyp->u.funcdef.decorators[0]->pos.line, 11);
    assert_int_equal(hyp->u.funcdef.decorators[0]->pos.col, 2);
    uf__arena_free(arena);
    assert_int_equal(uf__alloc_live(), live_base);
}

/* ---- robustness ------------------------------------------------------- */

static const char *const robust_files[] = {
    seed_kernels,
    "if a:\n\tx = (1 +\n  2) if b else [c[1:2, ::3], d.e(f, g=h)]\n"
    "elif not x is not y:\n    pass\nelse:\n  while 1: break\n",
    "x = '''a\nb''' \"c\\\"\" r'\\d' b'\\x00'\ny = 0x_1f + 1_0.5e-3j\n"
    "def f(a, b=-1):\n    return a ** -b // 2 % 3 @ m\n",
};

/* Parses text[0..len); the result must be success or a clean error, and
 * nothing may leak. Returns false (after printing why) otherwise. */
static bool parse_cleanly(const char *text, size_t len, const char *what,
                          size_t at)
{
    uf__source src;
    uf__arena *arena;
    uf_error err;
    uf__ast_module *m = parse_text(text, len, &src, &arena, &err);
    bool ok = true;
    if (m != NULL) {
        ok = ids_ok(m);
    } else if ((err.code != UF_ERR_SYNTAX && err.code != UF_ERR_UNSUPPORTED) ||
               err.line < 1 || err.column < 1 || err.message[0] == '\0' ||
               strchr(err.message, '^') == NULL) {
        ok = false;
    }
    uf__arena_free(arena);
    if (uf__alloc_live() != live_base)
        ok = false;
    if (!ok)
        print_error("%s at %zu: code %s, %d:%d, \"%s\"\n", what, at,
                    uf_err_name(err.code), err.line, err.column, err.message);
    return ok;
}

static void test_prefixes(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof robust_files / sizeof *robust_files; f++) {
        const char *text = robust_files[f];
        size_t n = strlen(text);
        for (size_t len = 0; len <= n; len++)
            if (!parse_cleanly(text, len, "prefix", len))
                fail();
    }
}

/* Deterministic xorshift so failures reproduce. */
static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_byte_flips(void **state)
{
    (void)state;
    static const char interesting[] = "()[]{}:,;.\n\t \\'\"#=+-*/%@<>!~"
                                      "0123456789eEjJxXbBoO_aA\x80\xff";
    uint32_t seed = 12345;
    for (size_t f = 0; f < sizeof robust_files / sizeof *robust_files; f++) {
        size_t n = strlen(robust_files[f]);
        char *buf = malloc(n + 1);
        assert_non_null(buf);
        for (int round = 0; round < 1500; round++) {
            memcpy(buf, robust_files[f], n + 1);
            int flips = 1 + (int)(rng_next(&seed) % 3);
            for (int k = 0; k < flips; k++) {
                size_t at = rng_next(&seed) % n;
                uint32_t r = rng_next(&seed);
                buf[at] = (r & 1) ? (char)(r >> 8)
                                  : interesting[(r >> 8) %
                                                (sizeof interesting - 1)];
            }
            if (!parse_cleanly(buf, n, "flip round", (size_t)round)) {
                print_error("input:\n%.*s\n", (int)n, buf);
                free(buf);
                fail();
            }
        }
        free(buf);
    }
}

/* Allocation N fails for N = 1, 2, ... until parsing succeeds: every
 * failure is a clean UF_ERR_NOMEM and leaves nothing allocated. */
static void test_out_of_memory(void **state)
{
    (void)state;
    int failures = 0;
    for (long n = 1;; n++) {
        uf_error err;
        uf_error_clear(&err);
        uf__alloc_fail_at(n);
        uf__source src = {"k.py", seed_kernels, strlen(seed_kernels)};
        uf__arena *arena = uf__arena_new(&err);
        uf__ast_module *m = arena ? uf__parse(&src, arena, &err) : NULL;
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf__arena_free(arena);
        assert_int_equal(uf__alloc_live(), live_base);
        if (!failed) {
            assert_non_null(m);
            break;
        }
        assert_null(m);
        if (err.code != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s (%s)", n, uf_err_name(err.code),
                     err.message);
        failures++;
        assert_true(n < 10000);
    }
    assert_true(failures >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_seeds, start_test),
        cmocka_unit_test_setup(test_prefixes, start_test),
        cmocka_unit_test_setup(test_byte_flips, start_test),
        cmocka_unit_test_setup(test_out_of_memory, start_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
