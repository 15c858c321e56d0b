/* ufjit demo, sections 11 and 12: plain @njit functions called through
 * uf_call (the seed's sum2d on an array and on a strided view, checked
 * against C), and a bounds-checked kernel's IndexError. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_demo.h"

static const char demo_njit_src[] = "from numba import njit\n"
                                    "\n"
                                    "# seed 001: Numba's first example\n"
                                    "@njit\n"
                                    "def sum2d(arr):\n"
                                    "    M, N = arr.shape\n"
                                    "    result = 0.0\n"
                                    "    for i in range(M):\n"
                                    "        for j in range(N):\n"
                                    "            result += arr[i, j]\n"
                                    "    return result\n";

/* sum2d(a) through uf_call against the same loop in C. */
static void check_sum2d(demo *d, uf_func *f, uf_array *a, const char *name,
                        const char *what)
{
    const int64_t *shape = uf_array_shape(a), *st = uf_array_strides(a);
    double want = 0.0, ms[2];
    for (int64_t i = 0; i < shape[0]; i++)
        for (int64_t j = 0; j < shape[1]; j++)
            want += *(const double *)((const char *)uf_array_data(a) +
                                      i * st[0] + j * st[1]);
    uf_array *out = NULL;
    if (uf__demo_call2(d, name, f, &a, 1, &out, 1, NULL, ms) != 0)
        return;
    double got = *(const double *)uf_array_data(out);
    uf__demo_check(d, got == want, name,
                   "%s -> %.17g, %s C's; %.2f ms, first call %.2f ms",
                   what, got, got == want ? "equal to" : "not", ms[1], ms[0]);
    uf_array_release(out);
}

int uf__demo_njit(demo *d)
{
    uf__demo_say("An @njit function is called once per uf_call: arrays go in "
                 "as they");
    uf__demo_say(
        "are (views too, without a copy), scalars as 0-d arrays, and "
        "the");
    uf__demo_say("result comes back as a 0-d array.");
    uf_module *m = uf__demo_module(d, "first.py", demo_njit_src);
    uf_func *f = uf__demo_func(d, m, "sum2d");
    if (f == NULL) {
        uf_module_free(m);
        return 0;
    }
    int rc = -1;
    uf_array *a = uf__demo_random(d, 2, (int64_t[]){1000, 1000}, -1, 1, 11);
    uf_array *v = a ? uf_array_slice(a, "::-1, ::2", &d->err) : NULL;
    if (v != NULL) {
        check_sum2d(d, f, a, "sum2d(A)", "A (1000, 1000) float64");
        check_sum2d(d, f, v, "sum2d(A[::-1, ::2])",
                    "a strided view (1000, 500)");
        rc = 0;
    }
    uf_array_release(v);
    uf_array_release(a);
    uf_module_free(m);
    return rc;
}

static const char demo_bounds_src[] =
    "from numba import njit\n"
    "\n"
    "@njit(boundscheck=True)\n"
    "def total_step(a):\n"
    "    s = 0.0\n"
    "    for i in range(len(a)):\n"
    "        s += a[i + 1] - a[i]  # one past the end at the last i\n"
    "    return s\n";

int uf__demo_boundscheck(demo *d)
{
    uf__demo_say("boundscheck=True (or UFJIT_DEBUG=1 for every kernel) "
                 "checks each");
    uf__demo_say("index; a bad one raises IndexError naming the kernel, the "
                 "line,");
    uf__demo_say("the index and the axis's size. Without checks, as in "
                 "Numba, it");
    uf__demo_say("would read past the array.");
    uf_module *m = uf__demo_module(d, "bounds.py", demo_bounds_src);
    uf_func *f = uf__demo_func(d, m, "total_step");
    if (f == NULL) {
        uf_module_free(m);
        return 0;
    }
    uf_array *a = uf_arange(0, 10, 1, UF_FLOAT64, &d->err);
    if (a == NULL) {
        uf_module_free(m);
        return -1;
    }
    uf__demo_say("total_step(np.arange(10.0)) through uf_call:");
    uf_array *out = NULL;
    int rc = uf_call(f, &a, 1, &out, 1, NULL, &d->err);
    bool raised = rc != 0 && d->err.code == UF_ERR_INDEX &&
                  strstr(d->err.message, "index 10 is out of bounds for "
                                         "axis 0 with size 10") != NULL;
    if (rc != 0)
        uf__demo_say("%s", d->err.message);
    uf__demo_check(d, raised, "total_step", "%s",
                   raised ? "IndexError for index 10 of 10, caught"
                          : "not the IndexError expected");
    uf_error_clear(&d->err);
    uf_array_release(out);
    uf_array_release(a);
    uf_module_free(m);
    return 0;
}
