/* gufunc layouts: parsing (positions and messages as NumPy's
 * _parse_signature), arity and argument checks, and call resolution (core
 * dimensions, flexible ones, loop broadcasting, output shapes,
 * axes/axis/keepdims permutations), table-driven, plus the NumPy oracle
 * cases of tests/data/gufunc_cases.txt (or the file named by argv[1]). */
#include "test_util.h"

#include "common/alloc.h"
#include "compiler/front/layout.h"

static const char *data_path = UF_TEST_DATA_DIR "/gufunc_cases.txt";

#define MAXOPS 8

/* ---- parsing ------------------------------------------------------------ */

typedef struct pcase {
    const char *file;
    int line;
    const char *text;
    int nin, nout;          /* -1: read the arity from the text */
    const char *want;       /* "nin nout | ndims per op | dim names" or
                               NULL for an error */
    int code;
    const char *message;
} pcase;

/* Renders a layout as "2 1 | 2,1,1 | m,n,n,m?" for comparison. */
static void describe(const uf__gufunc_layout *L, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%d %d |", L->nin, L->nout);
    for (int i = 0; i < L->nargs; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? "," : " ",
                              L->core_ndim[i]);
    n += (size_t)snprintf(buf + n, size - n, " |");
    for (int i = 0, k = 0; i < L->nargs; i++)
        for (int j = 0; j < L->core_ndim[i]; j++, k++) {
            const uf__gufunc_dim *d = &L->dims[L->dim_ix[L->core_offset[i] +
                                                         j]];
            n += (size_t)snprintf(buf + n, size - n, "%s%.*s%s",
                                  k ? "," : " ", d->name_len,
                                  L->text + d->name_pos,
                                  d->flexible ? "?" : "");
        }
}

static void run_pcase(const pcase *c)
{
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse(c->text, c->nin, c->nout,
                                                   &err);
    char buf[512];

    if (c->want == NULL) {
        if (L != NULL)
            uf_fail_at(c->file, c->line, "\"%s\" parsed, expected an error",
                       c->text);
        if (err.code != c->code || strcmp(err.message, c->message) != 0)
            uf_fail_at(c->file, c->line, "\"%s\": got %s \"%s\", want %s "
                       "\"%s\"", c->text, uf_err_name(err.code), err.message,
                       uf_err_name(c->code), c->message);
        return;
    }
    if (L == NULL)
        uf_fail_at(c->file, c->line, "\"%s\": %s", c->text, err.message);
    describe(L, buf, sizeof buf);
    if (strcmp(buf, c->want) != 0)
        uf_fail_at(c->file, c->line, "\"%s\": got \"%s\", want \"%s\"",
                   c->text, buf, c->want);
    uf__gufunc_layout_free(L);
}

#define OK(text, nin, nout, want) {LOC, text, nin, nout, want, 0, NULL}
#define BAD(text, nin, nout, msg) {LOC, text, nin, nout, NULL, UF_ERR_SYNTAX, msg}

static void test_parse_table(void **state)
{
    (void)state;
    static const pcase cases[] = {
        OK("(m,n),(n)->(m)", -1, -1, "2 1 | 2,1,1 | m,n,n,m"),
        OK("(m,n),(n)->(m)", 2, 1, "2 1 | 2,1,1 | m,n,n,m"),
        OK("(n),()->(n)", -1, -1, "2 1 | 1,0,1 | n,n"),
        OK("(n)->(),()", -1, -1, "1 2 | 1,0,0 | n"),
        OK("()->()", -1, -1, "1 1 | 0,0 |"),
        OK("(3),(3)->(3)", -1, -1, "2 1 | 1,1,1 | 3,3,3"),
        OK("(m?,n),(n,p?)->(m?,p?)", -1, -1,
           "2 1 | 2,2,2 | m?,n,n,p?,m?,p?"),
        OK(" ( m , n ) ,\t( n ) -> ( m ) ", -1, -1, "2 1 | 2,1,1 | m,n,n,m"),
        OK("->(n)", -1, -1, "0 1 | 1 | n"),
        OK("(n,d)->(p)", -1, -1, "1 1 | 2,1 | n,d,p"),
        OK("(_a1,b_2)->(_a1)", -1, -1, "1 1 | 2,1 | _a1,b_2,_a1"),
        OK("(3?)->(3?)", -1, -1, "1 1 | 1,1 | 3?,3?"),
        OK("(i)", 1, 0, "1 0 | 1 | i"),     /* NumPy: no '->' when nout 0 */
        BAD("(i),(i)->()x", 2, 1, "expect '(' at position 11 in "
                                  "\"(i),(i)->()x\""),
        BAD("(i),(i)->()x", -1, -1, "expect ',' or end of signature at "
                                    "position 11 in \"(i),(i)->()x\""),
        BAD("(i),(i)->(", 2, 1, "unexpected end of signature string at "
                                "position 10 in \"(i),(i)->(\""),
        BAD("(i,),(i)->()", -1, -1, "',' must not be followed by ')' at "
                                    "position 3 in \"(i,),(i)->()\""),
        BAD("(i)(i)->()", 2, 1, "expect ',' at position 3 in "
                                "\"(i)(i)->()\""),
        BAD("(i)(i)->()", -1, -1, "expect ',' or '->' at position 3 in "
                                  "\"(i)(i)->()\""),
        BAD("(i?),(i)->()", -1, -1, "? must be used, name already seen with "
                                    "? at position 6 in \"(i?),(i)->()\""),
        BAD("(i),(i?)->()", -1, -1, "? cannot be used, name already seen "
                                    "without ? at position 5 in "
                                    "\"(i),(i?)->()\""),
        BAD("(0)->()", -1, -1, "expect dimension name or non-zero frozen "
                               "size at position 1 in \"(0)->()\""),
        BAD("(3a)->()", -1, -1, "expect dimension name or non-zero frozen "
                                "size at position 1 in \"(3a)->()\""),
        BAD("(99999999999999999999)->()", -1, -1,
            "expect dimension name or non-zero frozen size at position 1 "
            "in \"(99999999999999999999)->()\""),
        BAD("(i?" "?)->()", -1, -1, "expect ',' or ')' at position 3 in "
                                 "\"(i?" "?)->()\""),
        BAD("(i j)->()", -1, -1, "expect ',' or ')' at position 3 in "
                                 "\"(i j)->()\""),
        BAD("(i)->", -1, -1, "expect '(' at position 5 in \"(i)->\""),
        BAD("(i)", -1, -1, "expect ',' or '->' at position 3 in \"(i)\""),
        BAD("", 1, 1, "incomplete signature: not all arguments found at "
                      "position 0 in \"\""),
        BAD("", -1, -1, "expect '(' at position 0 in \"\""),
        BAD("(i)->()(j)", 1, 1, "expect ',' at position 10 in "
                                "\"(i)->()(j)\""),
        BAD("(i)->()->()", -1, -1, "expect ',' or end of signature at "
                                   "position 7 in \"(i)->()->()\""),
        BAD("[i]->()", -1, -1, "expect '(' at position 0 in \"[i]->()\""),
        BAD("(i)>()", -1, -1, "expect ',' or '->' at position 3 in "
                              "\"(i)>()\""),
        BAD("(i),(i)->()", 1, 1, "expect '->' at position 3 in "
                                 "\"(i),(i)->()\""),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_pcase(&cases[i]);
}

static void test_parse_dims(void **state)
{
    (void)state;
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse("(m,3),(3,n?)->(m,n?,p)",
                                                   -1, -1, &err);
    char buf[16];

    uf_assert_ok(L != NULL, &err);
    assert_int_equal(L->ndims, 4);           /* m, 3, n?, p */
    assert_int_equal(L->dims[1].size, 3);
    assert_int_equal(L->dims[0].size, -1);
    assert_true(L->dims[2].flexible);
    assert_true(L->dims[0].in_input);
    assert_false(L->dims[3].in_input);       /* output-only, as NumPy allows */
    assert_string_equal(uf__gufunc_dim_name(L, 3, buf, sizeof buf), "p");
    assert_string_equal(uf__gufunc_dim_name(L, 1, buf, sizeof buf), "3");
    uf__gufunc_layout_free(L);

    assert_null(uf__gufunc_layout_parse(NULL, -1, -1, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf__gufunc_layout_parse("()->()", 1, -1, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

static void test_arity(void **state)
{
    (void)state;
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse("(m,n),(n)->(m)", -1, -1,
                                                   &err);

    uf_assert_ok(L != NULL, &err);
    uf_assert_ok(uf__gufunc_layout_check_arity(L, 2, 1, &err) == 0, &err);
    uf_assert_ok(uf__gufunc_layout_check_arity(L, 3, -1, &err) == 0, &err);
    assert_int_equal(uf__gufunc_layout_check_arity(L, 2, -1, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message,
                        "the kernel takes 2 arguments but its layout "
                        "\"(m,n),(n)->(m)\" describes 3 (2 inputs, 1 "
                        "outputs)");
    assert_int_equal(uf__gufunc_layout_check_arity(L, 1, 2, &err),
                     UF_ERR_VALUE);
    assert_string_equal(err.message,
                        "the kernel has 1 inputs and 2 outputs but its "
                        "layout \"(m,n),(n)->(m)\" has 2 inputs and 1 "
                        "outputs");

    uf_assert_ok(uf__gufunc_layout_check_arg(L, 0, 2, &err) == 0, &err);
    uf_assert_ok(uf__gufunc_layout_check_arg(L, 2, 1, &err) == 0, &err);
    assert_int_equal(uf__gufunc_layout_check_arg(L, 1, 2, &err),
                     UF_ERR_TYPE);
    assert_string_equal(err.message,
                        "type and shape signature mismatch for arg #2: the "
                        "layout \"(m,n),(n)->(m)\" gives it 1 core "
                        "dimensions, the signature an array of another "
                        "dimension count");
    assert_int_equal(uf__gufunc_layout_check_arg(L, 0, -1, &err),
                     UF_ERR_TYPE);
    assert_int_equal(uf__gufunc_layout_check_arg(L, 3, 1, &err),
                     UF_ERR_INVALID);
    uf__gufunc_layout_free(L);

    /* "()" operands: a scalar type, or Numba's 1-d array read as x[0] */
    L = uf__gufunc_layout_parse("(n),()->(n)", -1, -1, &err);
    uf_assert_ok(L != NULL, &err);
    uf_assert_ok(uf__gufunc_layout_check_arg(L, 1, -1, &err) == 0, &err);
    uf_assert_ok(uf__gufunc_layout_check_arg(L, 1, 1, &err) == 0, &err);
    assert_int_equal(uf__gufunc_layout_check_arg(L, 1, 2, &err),
                     UF_ERR_TYPE);
    uf__gufunc_layout_free(L);
}

/* ---- resolution --------------------------------------------------------- */

/* Shapes and options in the oracle file's notation. */
typedef struct rcase {
    const char *file;
    int line;
    const char *name;
    const char *layout;
    const char *shapes;     /* "4,3|3|-" */
    const char *opts;       /* "-", "axes=[1,0][0][]", "axis=0 keepdims=1" */
    const char *want;       /* "=" output shapes "|"-separated, or NULL */
    const char *perms;      /* optional: "0,1|1,0|..." per operand */
    int code;               /* 0 for any code of cls */
    char cls;               /* V T A B for the oracle's classes */
    const char *message;    /* expected prefix, NULL: not compared */
} rcase;

typedef struct parsed_call {
    int nops;
    int ndims[MAXOPS];
    int64_t shapes[MAXOPS][UF_MAXDIMS];
    uf__gufunc_shape sh[MAXOPS];
    int naxes[MAXOPS];
    int axes_buf[MAXOPS][UF_MAXDIMS];
    const int *axes_ptr[MAXOPS];
    uf__gufunc_axes ax;
} parsed_call;

/* "2,3" -> n dims; "()" -> 0; "-" -> -1. */
static int parse_ints(const char *s, size_t len, int64_t *out)
{
    int n = 0;
    const char *end = s + len;

    if (len == 1 && s[0] == '-')
        return -1;
    if (len == 2 && s[0] == '(' && s[1] == ')')
        return 0;
    while (s < end) {
        char *e;
        assert_true(n < UF_MAXDIMS);
        out[n++] = strtoll(s, &e, 10);
        assert_true(e != s);
        s = *e == ',' ? e + 1 : e;
    }
    return n;
}

static void parse_call(const char *shapes, const char *opts, parsed_call *pc)
{
    const char *s = shapes;

    memset(pc, 0, sizeof *pc);
    pc->ax.keepdims = -1;
    for (;;) {
        size_t len = strcspn(s, "|");
        assert_true(pc->nops < MAXOPS);
        pc->ndims[pc->nops] = parse_ints(s, len, pc->shapes[pc->nops]);
        pc->sh[pc->nops] = (uf__gufunc_shape){pc->ndims[pc->nops],
                                              pc->shapes[pc->nops]};
        pc->nops++;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    if (strcmp(opts, "-") == 0)
        return;
    for (s = opts; *s != '\0';) {
        size_t len = strcspn(s, " ");
        if (strncmp(s, "axis=", 5) == 0) {
            pc->ax.has_axis = true;
            pc->ax.axis = atoi(s + 5);
        } else if (strncmp(s, "keepdims=", 9) == 0) {
            pc->ax.keepdims = atoi(s + 9);
        } else {
            const char *p = s + 5;
            assert_true(strncmp(s, "axes=", 5) == 0);
            while (p < s + len && *p == '[') {
                int k = pc->ax.naxes_ops;
                size_t l2 = strcspn(p + 1, "]");
                int64_t v[UF_MAXDIMS];
                int n = l2 == 0 ? 0 : parse_ints(p + 1, l2, v);
                assert_true(k < MAXOPS && n >= 0);
                for (int j = 0; j < n; j++)
                    pc->axes_buf[k][j] = (int)v[j];
                pc->naxes[k] = n;
                pc->axes_ptr[k] = pc->axes_buf[k];
                pc->ax.naxes_ops++;
                p += l2 + 2;
            }
            pc->ax.naxes = pc->naxes;
            pc->ax.axes = pc->axes_ptr;
        }
        s += len;
        while (*s == ' ')
            s++;
    }
}

static bool code_in_class(int code, char cls)
{
    switch (cls) {
    case 'V': return code == UF_ERR_SHAPE || code == UF_ERR_VALUE;
    case 'T': return code == UF_ERR_INVALID;
    case 'A': return code == UF_ERR_INDEX;
    case 'B': return code == UF_ERR_SHAPE;
    default: return false;
    }
}

static void fmt_shape(const int64_t *s, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, size, "()");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? "," : "",
                              (long long)s[i]);
}

static void run_rcase(const rcase *c)
{
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse(c->layout, -1, -1, &err);
    uf__gufunc_resolution res;
    parsed_call pc;
    char got[1024], one[UF_MAXDIMS * 22];
    int rc;
    size_t k = 0;

    if (L == NULL)
        uf_fail_at(c->file, c->line, "%s: %s", c->layout, err.message);
    parse_call(c->shapes, c->opts, &pc);
    if (pc.nops != L->nargs)
        uf_fail_at(c->file, c->line, "%d shapes for %d operands", pc.nops,
                   L->nargs);
    rc = uf__gufunc_resolve(L, c->name, pc.sh, &pc.ax, &res, &err);
    if (c->want == NULL) {
        if (rc == 0) {
            uf__gufunc_resolution_free(&res);
            uf_fail_at(c->file, c->line, "%s %s %s: resolved, expected an "
                       "error", c->layout, c->shapes, c->opts);
        }
        if ((c->code != 0 && rc != c->code) ||
            (c->code == 0 && !code_in_class(rc, c->cls)) ||
            (c->message != NULL &&
             strncmp(err.message, c->message, strlen(c->message)) != 0))
            uf_fail_at(c->file, c->line, "%s %s %s: got %s \"%s\", want "
                       "%s/%c \"%s\"", c->layout, c->shapes, c->opts,
                       uf_err_name(rc), err.message, uf_err_name(c->code),
                       c->cls ? c->cls : '-', c->message ? c->message : "");
        uf__gufunc_layout_free(L);
        return;
    }
    if (rc != 0)
        uf_fail_at(c->file, c->line, "%s %s %s: %s", c->layout, c->shapes,
                   c->opts, err.message);
    got[k++] = '=';
    for (int i = L->nin; i < L->nargs; i++) {
        fmt_shape(res.ops[i].shape, res.ops[i].ndim, one, sizeof one);
        k += (size_t)snprintf(got + k, sizeof got - k, "%s%s",
                              i > L->nin ? "|" : "", one);
    }
    if (strcmp(got, c->want) != 0)
        uf_fail_at(c->file, c->line, "%s %s %s: outputs %s, want %s",
                   c->layout, c->shapes, c->opts, got, c->want);
    /* Whatever the permutation, the permuted view of every given operand
     * has the core sizes last, in layout order. */
    for (int i = 0; i < L->nargs; i++) {
        const uf__gufunc_operand *op = &res.ops[i];
        int64_t view[UF_MAXDIMS];
        for (int d = 0; d < op->ndim; d++)
            view[d] = op->shape[op->perm[d]];
        for (int d = 0; d < op->ndim - op->core_ndim; d++) {
            int64_t want = res.loop_shape[d + res.loop_ndim -
                                          (op->ndim - op->core_ndim)];
            if (view[d] != want && !(view[d] == 1 && i < L->nin))
                uf_fail_at(c->file, c->line, "operand %d loop dim %d is "
                           "%lld, loop shape has %lld", i, d,
                           (long long)view[d], (long long)want);
        }
        for (int j = 0, d = op->ndim - op->core_ndim;
             j < L->core_ndim[i] && op->kept_ndim == 0; j++) {
            int ix = L->dim_ix[L->core_offset[i] + j];
            if (res.dim_missing[ix])
                continue;
            if (view[d] != res.dim_size[ix])
                uf_fail_at(c->file, c->line, "operand %d core dim %d is "
                           "%lld, not %lld", i, j, (long long)view[d],
                           (long long)res.dim_size[ix]);
            d++;
        }
    }
    if (c->perms != NULL) {
        k = 0;
        for (int i = 0; i < L->nargs; i++) {
            if (i)
                got[k++] = '|';
            for (int d = 0; d < res.ops[i].ndim; d++)
                k += (size_t)snprintf(got + k, sizeof got - k, "%s%d",
                                      d ? "," : "", res.ops[i].perm[d]);
        }
        got[k] = '\0';
        if (strcmp(got, c->perms) != 0)
            uf_fail_at(c->file, c->line, "perms %s, want %s", got, c->perms);
    }
    uf__gufunc_resolution_free(&res);
    uf__gufunc_layout_free(L);
}

#define RES(name, layout, shapes, opts, want, perms)                         \
    {LOC, name, layout, shapes, opts, want, perms, 0, 0, NULL}
#define RERR(name, layout, shapes, opts, code, msg)                          \
    {LOC, name, layout, shapes, opts, NULL, NULL, code, 0, msg}

static void test_resolve_table(void **state)
{
    (void)state;
    static const rcase cases[] = {
        RES("matvec", "(m,n),(n)->(m)", "4,3|3|-", "-", "=4", NULL),
        RES("matvec", "(m,n),(n)->(m)", "7,1,4,3|5,3|-", "-", "=7,5,4",
            NULL),
        RES("g", "(n),()->(n)", "10,5|()|-", "-", "=10,5", NULL),
        RES("g", "(n),()->(n)", "5|10|-", "-", "=10,5", NULL),
        RES("max_min", "(n)->(),()", "6,16|-|-", "-", "=6|6", NULL),
        RES("s", "()->()", "()|-", "-", "=()", NULL),
        RES("cross", "(3),(3)->(3)", "2,1,3|4,3|-", "-", "=2,4,3", NULL),
        /* matmul's flexible dimensions, removed as NumPy removes them */
        RES("matmul", "(n?,k),(k,m?)->(n?,m?)", "3|3|-", "-", "=()", NULL),
        RES("matmul", "(n?,k),(k,m?)->(n?,m?)", "3|3,2|-", "-", "=2", NULL),
        RES("matmul", "(n?,k),(k,m?)->(n?,m?)", "5,4,3|3|-", "-", "=5,4",
            NULL),
        RES("matmul", "(n?,k),(k,m?)->(n?,m?)", "2,1,4,3|5,3,2|-", "-",
            "=2,5,4,2", NULL),
        /* empty loop and core dimensions */
        RES("matvec", "(m,n),(n)->(m)", "0,4,0|0|-", "-", "=0,4", NULL),
        RES("matvec", "(m,n),(n)->(m)", "1,4,3|0,3|-", "-", "=0,4", NULL),
        /* given outputs: checked, and they may broadcast the inputs */
        RES("matvec", "(m,n),(n)->(m)", "4,3|3|2,4", "-", "=2,4", NULL),
        RES("pdist", "(n,d)->(p)", "4,3|6", "-", "=6", NULL),
        /* an output may lack loop dims of length 1, never be stretched */
        RES("matvec", "(m,n),(n)->(m)", "1,4,3|3|4", "-", "=4", NULL),
        RERR("matvec", "(m,n),(n)->(m)", "5,4,3|3|1,4", "-", UF_ERR_SHAPE,
             "matvec: non-broadcastable output operand 0 with shape (1, 4) "
             "doesn't match the broadcast shape (5,)"),
        /* axes / axis / keepdims */
        RES("mm", "(m,n),(n,p)->(m,p)", "3,4|3,2|-",
            "axes=[1,0][0,1][1,0]", "=2,4", "1,0|0,1|1,0"),
        RES("inner1d", "(i),(i)->()", "3,4|3|-", "axes=[0][0]", "=4",
            "1,0|0|0"),
        RES("inner1d", "(i),(i)->()", "3,4|3,1|-", "axis=0", "=4",
            "1,0|1,0|0"),
        RES("inner1d", "(i),(i)->()", "4,3|3|-", "keepdims=1", "=4,1",
            "0,1|0|0,1"),
        RES("inner1d", "(i),(i)->()", "3,4|3|-", "axis=0 keepdims=1",
            "=1,4", "1,0|0|1,0"),
        RES("inner1d", "(i),(i)->()", "4,3|3|4,1", "keepdims=1", "=4,1",
            NULL),
        RES("cumsum", "(i)->(i)", "3,4|-", "axis=-2", "=3,4", "1,0|1,0"),
        RES("cumsum", "(i)->(i)", "3,4|-", "axes=[0][-1]", "=4,3",
            "1,0|0,1"),
        /* errors, worded as NumPy's with the dimension's name after */
        RERR("matmul", "(n?,k),(k,m?)->(n?,m?)", "2,3|2,2|-", "-",
             UF_ERR_SHAPE, "matmul: Input operand 1 has a mismatch in its "
             "core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?)"
             " (size 2 is different from 3); dimension 'k' was bound by "
             "Input operand 0"),
        RERR("cross", "(3),(3)->(3)", "3|2|-", "-", UF_ERR_SHAPE,
             "cross: Input operand 1 has a mismatch in its core dimension 0,"
             " with gufunc signature (3),(3)->(3) (size 2 is different from "
             "3); dimension '3' is fixed by the signature"),
        RERR("matvec", "(m,n),(n)->(m)", "3|3|-", "-", UF_ERR_SHAPE,
             "matvec: Input operand 0 does not have enough dimensions (has "
             "1, gufunc core with signature (m,n),(n)->(m) requires 2)"),
        RERR("matvec", "(m,n),(n)->(m)", "4,3|3|5", "-", UF_ERR_SHAPE,
             "matvec: Output operand 0 has a mismatch in its core dimension "
             "0, with gufunc signature (m,n),(n)->(m) (size 5 is different "
             "from 4)"),
        RERR("pdist", "(n,d)->(p)", "4,3|-", "-", UF_ERR_VALUE,
             "pdist: Output operand 0 has core dimension 0 unspecified, "
             "with gufunc signature (n,d)->(p); no input defines 'p', so "
             "the output must be given"),
        RERR("matvec", "(m,n),(n)->(m)", "2,4,3|5,3|-", "-", UF_ERR_SHAPE,
             "matvec: operands could not be broadcast together in their "
             "loop (non-core) dimensions: shape mismatch"),
        RERR("matvec", "(m,n),(n)->(m)", "2,4,3|3|3,4", "-", UF_ERR_SHAPE,
             "matvec: non-broadcastable output operand 0 with shape (3, 4) "
             "doesn't match the broadcast shape (2,)"),
        RERR("inner1d", "(i),(i)->()", "4,3|3|4,2", "keepdims=1",
             UF_ERR_SHAPE, "inner1d: non-broadcastable output operand 0"),
        RERR("mm", "(m,n),(n,p)->(m,p)", "3,4|4,2|-", "keepdims=0",
             UF_ERR_INVALID, "mm does not support keepdims: its signature "
             "(m,n),(n,p)->(m,p) requires output 0 to have 2 core "
             "dimensions"),
        /* no inputs: operand 0 is an output with core dimensions (the
         * check used to start at operand 1; found by fuzz_gufunc_sig) */
        RERR("gen", "->(n)", "3", "keepdims=1", UF_ERR_INVALID,
             "gen does not support keepdims: its signature ->(n) requires "
             "output 0 to have 1 core dimensions, but keepdims can only be "
             "used"),
        RERR("mm", "(m,n),(n,p)->(m,p)", "3,4|4,2|-", "axis=0",
             UF_ERR_INVALID, "mm: axis can only be used with a single "
             "shared core dimension, not with the 3 distinct ones implied "
             "by signature (m,n),(n,p)->(m,p)."),
        RERR("inner1d", "(i),(i)->()", "3,4|3|-", "axis=2", UF_ERR_INDEX,
             "axis 2 is out of bounds for array of dimension 2"),
        RERR("inner1d", "(i),(i)->()", "3,4|3|-", "axes=[0][0][0]",
             UF_ERR_INDEX, "inner1d: operand 2 has 0 core dimensions, but 1 "
             "dimensions are specified by axes tuple."),
        RERR("mm", "(m,n),(n,p)->(m,p)", "3,4|4,2|-", "axes=[0,1][0,1]",
             UF_ERR_VALUE, "axes should be a list with an entry for all 3 "
             "inputs and outputs"),
        RERR("mm", "(m,n),(n,p)->(m,p)", "3,4|4,2|-",
             "axes=[0,1][0,1][-1,1]", UF_ERR_VALUE,
             "axes item 2 has value 1 repeated"),
        RERR("inner1d", "(i),(i)->()", "3,4|3|-", "axis=0 axes=[0][0]",
             UF_ERR_INVALID, "cannot specify both 'axis' and 'axes'"),
        RERR("g", "(n)->(n)", "-1|-", "-", UF_ERR_VALUE,
             "g: negative dimensions are not allowed"),
        RERR("g", "(n)->(n)", "-|-", "-", UF_ERR_INVALID,
             "g: invalid shape for operand 0"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_rcase(&cases[i]);
}

/* A 63-d loop plus 2 core dims is past UF_MAXDIMS for the output. */
static void test_resolve_maxdims(void **state)
{
    (void)state;
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse("(n)->(n,n)", -1, -1,
                                                   &err);
    int64_t shape[UF_MAXDIMS];
    uf__gufunc_shape sh[2] = {{UF_MAXDIMS, shape}, {-1, NULL}};
    uf__gufunc_resolution res;
    long live;

    for (int i = 0; i < UF_MAXDIMS; i++)
        shape[i] = 1;
    uf_assert_ok(L != NULL, &err);
    live = uf__alloc_live();
    assert_int_equal(uf__gufunc_resolve(L, "f", sh, NULL, &res, &err),
                     UF_ERR_SHAPE);
    assert_non_null(strstr(err.message, "would have 65 dimensions"));
    assert_int_equal(uf__alloc_live(), live);
    uf__gufunc_layout_free(L);
}

/* Allocation N fails for N = 1, 2, ...: a clean UF_ERR_NOMEM, no leak. */
/* Every allocation of parsing and resolving fails cleanly in turn: a
 * small layout (resolved in the struct itself, only parsing allocates) and
 * one with more operands and core dimensions than fit there (heap). */
static void alloc_fail_case(const char *text, const uf__gufunc_shape *sh,
                            int out, int out_ndim, long min_allocs)
{
    for (long n = 1;; n++) {
        long live = uf__alloc_live();
        uf_error err;
        uf__gufunc_layout *L;
        uf__gufunc_resolution res;
        int rc = 0;

        uf__alloc_fail_at(n);
        L = uf__gufunc_layout_parse(text, -1, -1, &err);
        if (L != NULL) {
            rc = uf__gufunc_resolve(L, "f", sh, NULL, &res, &err);
            if (rc == 0) {
                assert_int_equal(res.ops[out].ndim, out_ndim);
                uf__gufunc_resolution_free(&res);
            }
            uf__gufunc_layout_free(L);
        }
        uf__alloc_fail_at(0);
        assert_int_equal(uf__alloc_live(), live);
        if (L != NULL && rc == 0) {
            assert_true(n > min_allocs);
            break;
        }
        assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_true(n < 100);
    }
}

static void test_alloc_fail(void **state)
{
    (void)state;
    int64_t a[] = {5, 4, 3}, b[] = {3, 2}, v[] = {7, 2};
    uf__gufunc_shape sh[3] = {{3, a}, {2, b}, {-1, NULL}};
    uf__gufunc_shape wide[6] = {{2, v}, {2, v}, {2, v}, {2, v}, {2, v},
                                {-1, NULL}};

    alloc_fail_case("(m?,n),(n,p?)->(m?,p?)", sh, 2, 3, 2);
    /* 6 operands, 5 core dimensions: past UF__GUFUNC_RES_INLINE */
    alloc_fail_case("(a),(b),(c),(d),(e)->()", wide, 5, 1, 8);
}

/* ---- the NumPy oracle ----------------------------------------------------- */

static char *field(char **s)
{
    char *f = *s, *tab = strchr(f, '\t');

    if (tab != NULL) {
        *tab = '\0';
        *s = tab + 1;
    } else {
        *s = f + strlen(f);
    }
    return f;
}

/* NumPy's parse result "=ndims;ixs;sizes;flex" against ours. */
static void check_parse_line(const char *file, int line, char *rest)
{
    int nin = atoi(field(&rest)), nout = atoi(field(&rest));
    char *sig = field(&rest), *want = field(&rest);
    char text[512], got[1024];
    size_t k = 0, t = 0;
    int ncore = 0;
    uf_error err;
    uf__gufunc_layout *L;

    for (const char *p = sig; *p != '\0' && t + 1 < sizeof text; p++) {
        if (p[0] == '\\' && p[1] == 't') {
            text[t++] = '\t';
            p++;
        } else {
            text[t++] = *p;
        }
    }
    text[t] = '\0';
    L = uf__gufunc_layout_parse(text, nin, nout, &err);
    if (want[0] == '!') {
        if (L != NULL || err.code != UF_ERR_SYNTAX ||
            strcmp(err.message, want + 1) != 0)
            uf_fail_at(file, line, "\"%s\" (%d,%d): got %s, want \"%s\"",
                       sig, nin, nout, L ? "success" : err.message,
                       want + 1);
        uf__gufunc_layout_free(L);
        return;
    }
    if (L == NULL)
        uf_fail_at(file, line, "\"%s\": %s", sig, err.message);
    got[k++] = '=';
    for (int i = 0; i < L->nargs; i++)
        k += (size_t)snprintf(got + k, sizeof got - k, "%s%d", i ? "," : "",
                              L->core_ndim[i]);
    got[k++] = ';';
    for (int i = 0; i < L->nargs; i++)
        ncore += L->core_ndim[i];
    for (int i = 0; i < ncore; i++)
        k += (size_t)snprintf(got + k, sizeof got - k, "%s%d", i ? "," : "",
                              L->dim_ix[i]);
    got[k++] = ';';
    for (int i = 0; i < L->ndims; i++)
        k += (size_t)snprintf(got + k, sizeof got - k, "%s%lld",
                              i ? "," : "", (long long)L->dims[i].size);
    got[k++] = ';';
    for (int i = 0; i < L->ndims; i++)
        k += (size_t)snprintf(got + k, sizeof got - k, "%s%d", i ? "," : "",
                              L->dims[i].flexible);
    got[k] = '\0';
    if (strcmp(got, want) != 0)
        uf_fail_at(file, line, "\"%s\": got %s, want %s", sig, got, want);
    uf__gufunc_layout_free(L);
}

static void test_numpy_cases(void **state)
{
    (void)state;
    FILE *f = fopen(data_path, "r");
    char line[4096];
    int lineno = 0, nparse = 0, ncall = 0;

    if (f == NULL)
        fail_msg("cannot open %s", data_path);
    while (fgets(line, sizeof line, f) != NULL) {
        char *rest = line, *kind;

        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        kind = field(&rest);
        if (strcmp(kind, "P") == 0) {
            check_parse_line(data_path, lineno, rest);
            nparse++;
        } else {
            rcase c = {.file = data_path, .line = lineno};
            char *res;
            assert_string_equal(kind, "R");
            c.name = field(&rest);
            (void)field(&rest);                     /* nin */
            c.layout = field(&rest);
            c.shapes = field(&rest);
            c.opts = field(&rest);
            res = field(&rest);
            if (res[0] == '=') {
                c.want = res;
            } else {
                const char *msg = field(&rest);
                c.cls = res[1];
                c.message = c.cls == 'B' ? NULL : msg;
            }
            run_rcase(&c);
            ncall++;
        }
    }
    fclose(f);
    if (nparse < 100 || ncall < 300)
        fail_msg("%s: only %d parse and %d call cases", data_path, nparse,
                 ncall);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_parse_dims),
        cmocka_unit_test(test_arity),
        cmocka_unit_test(test_resolve_table),
        cmocka_unit_test(test_resolve_maxdims),
        cmocka_unit_test(test_alloc_fail),
        cmocka_unit_test(test_numpy_cases),
    };
    if (argc > 1)
        data_path = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
