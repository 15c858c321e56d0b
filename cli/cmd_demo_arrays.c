/* ufjit demo, sections 1-7: the array core (creation, views,
 * broadcasting, casting, memory order, .npy files, printing), each step a
 * NumPy line that tests/cli/demo_numpy.py replays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_util.h"
#include "cli/cmd_demo.h"

static const char *py_bool(bool b)
{
    return b ? "True" : "False";
}

/* The array owning the memory: a view's base, else the array itself. */
static const uf_array *owner(const uf_array *a)
{
    const uf_array *b = uf_array_base(a);
    return b != NULL ? b : a;
}

/* ---- sections --------------------------------------------------------- */

int uf__demo_create(demo *d)
{
    uf__demo_say(
        "An array is a dtype, a shape and byte strides over one block of");
    uf__demo_say("memory. Creation follows NumPy's functions and defaults.");
    int64_t s23[] = {2, 3}, s22[] = {2, 2}, s03[] = {0, 3};
    if (uf__demo_show_array(d, "np.zeros((2, 3))", "uf_zeros",
                            uf_zeros(UF_FLOAT64, 2, s23, UF_ORDER_C, &d->err),
                            false) != 0 ||
        uf__demo_show_array(d, "np.arange(0, 10, 2)", "uf_arange",
                            uf_arange(0, 10, 2, UF_INT64, &d->err),
                            false) != 0 ||
        uf__demo_show_array(d, "np.linspace(0, 1, 5)", "uf_linspace",
                            uf_linspace(0, 1, 5, true, UF_FLOAT64, &d->err),
                            false) != 0)
        return -1;
    double v = 7.5;
    if (uf__demo_show_array(
            d, "np.full((2, 2), 7.5, dtype=np.float32)", "uf_full",
            uf_full(UF_FLOAT32, 2, s22, &v, UF_FLOAT64, UF_ORDER_C, &d->err),
            false) != 0 ||
        uf__demo_show_array(d, "np.zeros((0, 3))", "uf_zeros (empty)",
                            uf_zeros(UF_FLOAT64, 2, s03, UF_ORDER_C, &d->err),
                            false) != 0)
        return -1;
    return 0;
}

int uf__demo_views(demo *d)
{
    uf__demo_say(
        "Slicing, transposing and reshaping make views: a new shape and");
    uf__demo_say("new strides over the same memory. Nothing is copied.");
    char buf[128];
    uf_array *r = uf_arange(0, 12, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    int64_t s34[] = {3, 4}, s26[] = {2, 6};
    d->a = uf_array_reshape(r, 2, s34, UF_ORDER_C, false, &d->err);
    uf_array_release(r);
    if (d->a == NULL)
        return -1;
    uf__demo_prompt("a = np.arange(12).reshape(3, 4)",
                    "uf_arange, uf_array_reshape");
    if (uf__demo_show_array(d, "a", NULL, d->a, true) != 0)
        return -1;

    uf_array *v = uf_array_slice(d->a, "::-1, ::2", &d->err);
    if (v == NULL)
        return -1;
    uf__demo_prompt("v = a[::-1, ::2]", "uf_array_slice: negative step");
    int rc = uf__demo_show_array(d, "v", NULL, v, true);
    if (rc == 0) {
        uf__demo_show_text(
            "v.strides", "uf_array_strides", "%s",
            uf__cli_tuple(2, uf_array_strides(v), buf, sizeof buf));
        uf__demo_show_text("np.shares_memory(v, a)", "uf_array_base", "%s",
                           py_bool(owner(v) == owner(d->a)));
    }
    uf_array_release(v);
    if (rc != 0)
        return -1;

    uf_array *t = uf_array_transpose(d->a, NULL, &d->err);
    if (t == NULL)
        return -1;
    rc = uf__demo_show_array(d, "a.T", "uf_array_transpose", t, true);
    if (rc == 0)
        uf__demo_show_text(
            "a.T.strides", "uf_array_strides", "%s",
            uf__cli_tuple(2, uf_array_strides(t), buf, sizeof buf));
    uf_array_release(t);
    if (rc != 0)
        return -1;

    if (uf__demo_show_array(
            d, "a.reshape(2, 6)", "uf_array_reshape",
            uf_array_reshape(d->a, 2, s26, UF_ORDER_C, false, &d->err),
            false) != 0 ||
        uf__demo_show_array(d, "a[:, None, 1]", "uf_array_slice: newaxis",
                            uf_array_slice(d->a, ":, None, 1", &d->err),
                            false) != 0)
        return -1;
    return 0;
}

int uf__demo_broadcast(demo *d)
{
    uf__demo_say(
        "Broadcasting compares shapes from the right: two lengths must be");
    uf__demo_say("equal or one of them 1, and missing axes count as 1.");
    char buf[256];
    int64_t out[UF_MAXDIMS];
    int out_nd;
    const int64_t s31[] = {3, 1}, s14[] = {1, 4}, s514[] = {5, 1, 4};
    const int64_t s23[] = {2, 3}, s4[] = {4};
    const int64_t *pair1[] = {s31, s14}, *pair2[] = {s514, s31};
    const int64_t *bad[] = {s23, s4};
    int nd1[] = {2, 2}, nd2[] = {3, 2}, ndbad[] = {2, 1};
    if (uf_broadcast_shapes(2, nd1, pair1, &out_nd, out, &d->err) != 0)
        return -1;
    uf__demo_show_text("np.broadcast_shapes((3, 1), (1, 4))",
                       "uf_broadcast_shapes", "%s",
                       uf__cli_tuple(out_nd, out, buf, sizeof buf));
    if (uf_broadcast_shapes(2, nd2, pair2, &out_nd, out, &d->err) != 0)
        return -1;
    uf__demo_show_text("np.broadcast_shapes((5, 1, 4), (3, 1))",
                       "uf_broadcast_shapes", "%s",
                       uf__cli_tuple(out_nd, out, buf, sizeof buf));
    if (uf__demo_show_refusal(d, "np.broadcast_shapes((2, 3), (4,))",
                              "uf_broadcast_shapes",
                              uf_broadcast_shapes(2, ndbad, bad, &out_nd, out,
                                                  &d->err) != 0) != 0)
        return -1;

    uf__demo_say(
        "broadcast_to makes a read-only view whose new axis has stride 0.");
    uf_array *r = uf_arange(0, 3, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    uf_array *b = uf_array_broadcast_to(r, 2, s23, &d->err);
    uf_array_release(r);
    if (b == NULL)
        return -1;
    uf__demo_prompt("b = np.broadcast_to(np.arange(3), (2, 3))",
                    "uf_array_broadcast_to");
    int rc = uf__demo_show_array(d, "b", NULL, b, true);
    if (rc == 0) {
        uf__demo_show_text(
            "b.strides", "uf_array_strides", "%s",
            uf__cli_tuple(2, uf_array_strides(b), buf, sizeof buf));
        uf__demo_show_text("b.flags.writeable", "uf_array_flags", "%s",
                           py_bool(uf_array_flags(b) & UF_ARRAY_WRITEABLE));
    }
    uf_array_release(b);
    return rc;
}

int uf__demo_casting(demo *d)
{
    uf__demo_say("astype converts the elements; the casting rule says which");
    uf__demo_say("conversions are allowed. 'safe' refuses any that can lose");
    uf__demo_say(
        "information; astype's default, 'unsafe', truncates floats.");
    uf_array *x = uf_linspace(-2.5, 2.5, 5, true, UF_FLOAT64, &d->err);
    if (x == NULL)
        return -1;
    uf__demo_prompt("x = np.linspace(-2.5, 2.5, 5)", "uf_linspace");
    int rc = uf__demo_show_array(d, "x", NULL, x, true);
    if (rc == 0) {
        uf_array *bad = uf_array_astype(x, UF_INT32, UF_CASTING_SAFE,
                                        UF_ORDER_K, &d->err);
        rc = uf__demo_show_refusal(d, "x.astype(np.int32, casting='safe')",
                                   "uf_array_astype", bad == NULL);
        uf_array_release(bad);
    }
    if (rc == 0)
        rc = uf__demo_show_array(d, "x.astype(np.int32)", "uf_array_astype",
                                 uf_array_astype(x, UF_INT32,
                                                 UF_CASTING_UNSAFE,
                                                 UF_ORDER_K, &d->err),
                                 false);
    uf_array_release(x);
    if (rc != 0)
        return -1;
    uf__demo_show_text(
        "np.can_cast(np.int32, np.float64)", "uf_can_cast", "%s",
        py_bool(uf_can_cast(UF_INT32, UF_FLOAT64, UF_CASTING_SAFE)));
    uf__demo_show_text(
        "np.can_cast(np.float64, np.float32)", "uf_can_cast", "%s",
        py_bool(uf_can_cast(UF_FLOAT64, UF_FLOAT32, UF_CASTING_SAFE)));
    uf__demo_show_text(
        "np.can_cast(np.float64, np.float32, 'same_kind')", "uf_can_cast",
        "%s",
        py_bool(uf_can_cast(UF_FLOAT64, UF_FLOAT32, UF_CASTING_SAME_KIND)));
    uf__demo_show_text("np.promote_types(np.int64, np.float32)",
                       "uf_promote_types", "dtype('%s')",
                       uf_dtype_name(uf_promote_types(UF_INT64, UF_FLOAT32)));
    return 0;
}

int uf__demo_order(demo *d)
{
    uf__demo_say(
        "A copy can be laid out row by row (C order) or column by column");
    uf__demo_say(
        "(F order, as Fortran and BLAS like it); the flags record which.");
    if (d->a == NULL)
        return uf__demo_fail(d, "needs the array of section 2");
    char buf[128];
    int fl = uf_array_flags(d->a);
    uf__demo_show_text("a.flags.c_contiguous, a.flags.f_contiguous",
                       "uf_array_flags", "(%s, %s)",
                       py_bool(fl & UF_ARRAY_C_CONTIGUOUS),
                       py_bool(fl & UF_ARRAY_F_CONTIGUOUS));
    uf_array *f = uf_array_copy(d->a, UF_ORDER_F, &d->err);
    if (f == NULL)
        return -1;
    uf__demo_prompt("f = a.copy(order='F')", "uf_array_copy");
    int rc = uf__demo_show_array(d, "f", NULL, f, true);
    if (rc == 0) {
        fl = uf_array_flags(f);
        uf__demo_show_text("f.flags.c_contiguous, f.flags.f_contiguous",
                           "uf_array_flags", "(%s, %s)",
                           py_bool(fl & UF_ARRAY_C_CONTIGUOUS),
                           py_bool(fl & UF_ARRAY_F_CONTIGUOUS));
        uf__demo_show_text(
            "f.strides", "uf_array_strides", "%s",
            uf__cli_tuple(2, uf_array_strides(f), buf, sizeof buf));
        uf__demo_show_text("f.flags.owndata", "uf_array_flags", "%s",
                           py_bool(fl & UF_ARRAY_OWNDATA));
    }
    uf_array_release(f);
    return rc;
}

/* Compares two arrays by dtype, shape and printed values: enough for the
 * tour, whose arrays print in full. */
static bool same_array(const uf_array *x, const uf_array *y, uf_error *err,
                       bool *same)
{
    *same = false;
    if (uf_array_dtype(x) != uf_array_dtype(y) ||
        uf_array_ndim(x) != uf_array_ndim(y) ||
        memcmp(uf_array_shape(x), uf_array_shape(y),
               sizeof(int64_t) * (size_t)uf_array_ndim(x)) != 0)
        return true;
    char *rx = uf_array_repr(x, err);
    char *ry = rx ? uf_array_repr(y, err) : NULL;
    if (ry != NULL)
        *same = strcmp(rx, ry) == 0;
    uf_free(rx);
    uf_free(ry);
    return ry != NULL;
}

int uf__demo_npy(demo *d)
{
    uf__demo_say(
        ".npy files keep dtype, shape and memory order. ufjit writes the");
    uf__demo_say(
        "file beside its final name and renames it into place, so a reader");
    uf__demo_say(
        "never sees half a file. (Paths here are temporary, so these steps");
    uf__demo_say("are comments rather than >>> lines.)");
    if (d->a == NULL)
        return uf__demo_fail(d, "needs the array of section 2");
    const char *tmp = getenv("TMPDIR");
    snprintf(d->tmpdir, sizeof d->tmpdir, "%s/ufjit-demo-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(d->tmpdir) == NULL) {
        d->tmpdir[0] = '\0';
        return uf__demo_fail(d, "cannot create a temporary directory");
    }
    char path[320];
    snprintf(path, sizeof path, "%s/f.npy", d->tmpdir);
    uf_array *f = uf_array_copy(d->a, UF_ORDER_F, &d->err);
    if (f == NULL)
        return -1;
    int rc = -1;
    uf_array *g = NULL;
    if (uf_npy_save(path, f, &d->err) != 0)
        goto done;
    struct stat st;
    long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    uf__demo_say("np.save(path, f)     -> uf_npy_save wrote %lld bytes to %s",
                 size, path);
    g = uf_npy_load(path, &d->err);
    if (g == NULL)
        goto done;
    bool same;
    if (!same_array(f, g, &d->err, &same))
        goto done;
    uf__demo_say(
        "g = np.load(path)    -> uf_npy_load: %s, shape %s, F-contiguous "
        "%s",
        uf_dtype_name(uf_array_dtype(g)),
        uf__cli_tuple(uf_array_ndim(g), uf_array_shape(g), path, sizeof path),
        py_bool(uf_array_flags(g) & UF_ARRAY_F_CONTIGUOUS));
    uf__demo_say("np.array_equal(f, g) -> %s", py_bool(same));
    if (!same)
        goto done;
    rc = 0;
done:
    uf_array_release(g);
    uf_array_release(f);
    return rc;
}

int uf__demo_print(demo *d)
{
    uf__demo_say(
        "Past 1000 elements repr summarises: the first and last three of");
    uf__demo_say("each axis, with '...' between, exactly as NumPy does.");
    uf_array *r = uf_arange(0, 2000, 1, UF_INT64, &d->err);
    if (r == NULL)
        return -1;
    int64_t shape[] = {40, 50};
    uf_array *m = uf_array_reshape(r, 2, shape, UF_ORDER_C, false, &d->err);
    uf_array_release(r);
    return uf__demo_show_array(d, "np.arange(2000).reshape(40, 50)",
                               "uf_arange, uf_array_reshape, uf_array_repr",
                               m, false);
}
