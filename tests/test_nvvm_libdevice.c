/* libdevice's subsets (compiler/nvvm/nvvm_libdevice.c): kernels calling
 * several math functions compile through libnvvm and NVPTX with only the
 * part of libdevice they call, and the PTX is what the whole libdevice
 * gave (UFJIT_CUDA_LIBDEVICE=full): the same .entry and .func names, no
 * __nv_ symbol and nothing .extern left, ptxas accepts it
 * for sm_80 and sm_90 with the same registers. A second compile of the
 * same set reuses the cached subset and gives the same PTX (comments
 * aside). Parts needing
 * the toolkit skip with the reason printed. */
#include "nvvm_util.h"

#include "common/error_internal.h"

static const char text[] =
    "import math\n"
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
    "def mathy(x, y):\n"
    "    return math.sin(x) * math.cos(y) + math.exp(-x * x) + "
    "math.log1p(y * y) + math.atan2(y, x) + math.tanh(x) + "
    "(x * x + y * y) ** 0.5 + math.erf(y)\n"
    "\n"
    "@vectorize(['float64(float64)', 'float32(float32)'])\n"
    "def sine(x):\n"
    "    return math.sin(x)\n"
    "\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def triad(x, y):\n"
    "    return 3.0 * x + y\n";
static uf__source src = {"mathy.py", text, sizeof text - 1};

static nvvm_sig sig_of(uf__kmodule *km, const char *kernel, const char *sig)
{
    nvvm_sig s;
    assert_true(nvvm_sig_make(km, uf__kmodule_find(km, kernel), sig, &s));
    return s; /* the caller points spec.out_types at its copy's outs */
}

/* The sorted, de-duplicated names of each ".entry" and ".func" (defined
 * or declared .extern: every call target is one of them, or ptxas
 * refuses the call), one per line. */
static char *symbols(const char *ptx)
{
    char *names[512];
    int n = 0;
    for (const char *p = ptx; (p = strchr(p, '.')) && n < 512; p++) {
        const char *q;
        if (strncmp(p, ".entry ", 7) == 0)
            q = p + 7;
        else if (strncmp(p, ".func ", 6) == 0)
            q = p + 6;
        else
            continue;
        while (*q == ' ')
            q++;
        if (*q == '(') /* .func (.param .b32 func_retval0) name( */
            q = strchr(q, ')') + 1;
        while (*q == ' ')
            q++;
        size_t len = strcspn(q, "( ;\n\t");
        assert_true(len > 0);
        names[n] = strndup(q, len);
        assert_non_null(names[n++]);
    }
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    size_t cap = 1;
    for (int i = 0; i < n; i++)
        cap += strlen(names[i]) + 1;
    char *out = calloc(cap, 1);
    assert_non_null(out);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(names[i], names[i - 1]) != 0) {
            strcat(out, names[i]);
            strcat(out, "\n");
        }
    for (int i = 0; i < n; i++)
        free(names[i]);
    return out;
}

/* ptx without its // comments (NVPTX numbers its call sequences in
 * them across the process) */
static char *uncommented(const char *ptx)
{
    char *out = strdup(ptx), *o = out;
    assert_non_null(out);
    for (const char *p = ptx; *p;) {
        if (p[0] == '/' && p[1] == '/')
            p += strcspn(p, "\n");
        else
            *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* "Used N registers" of ptxas -v for `entry` on sm_80, asserting ptxas
 * accepts the PTX for sm_80 and sm_90. */
static int ptxas_registers(const char *ptx, const char *entry)
{
    uf_error err;
    char *log = NULL;
    uf_assert_ok(uf__nvvm_ptxas(ptx, "sm_90", &log, &err) == 0, &err);
    uf__free(log);
    uf_assert_ok(uf__nvvm_ptxas(ptx, "sm_80", &log, &err) == 0, &err);
    const char *p = strstr(log, entry);
    const char *u = p ? strstr(p, "Used ") : NULL;
    int regs = u ? atoi(u + 5) : -1;
    uf__free(log);
    return regs;
}

static void compile(const uf__nvvm_spec *specs, int n, uf__nvvm_backend b,
                    bool full, uf__nvvm_ptx *out)
{
    uf_error err;
    if (full)
        setenv("UFJIT_CUDA_LIBDEVICE", "full", 1);
    uf__nvvm_options o = {.backend = b};
    int rc = uf__nvvm_ufuncs_ptx(specs, n, &o, out, &err);
    unsetenv("UFJIT_CUDA_LIBDEVICE");
    uf_assert_ok(rc == 0, &err);
}

/* Subset against whole libdevice, per backend: symbols, registers, no
 * unresolved __nv_; the cached subset gives the same PTX again. */
static void test_subset_matches_full(void **state)
{
    (void)state;
    if (!uf__nvvm_toolkit_get()->libdevice_path) {
        printf("SKIP: %s\n", uf__nvvm_toolkit_get()->libdevice_why);
        skip();
    }
    bool libnvvm = nvvm_have_libnvvm(), ptxas = nvvm_have_ptxas();
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    nvvm_sig sg[4] = {
        sig_of(km, "mathy", "float32(float32, float32)"),
        sig_of(km, "mathy", "float64(float64, float64)"),
        sig_of(km, "sine", "float64(float64)"),
        sig_of(km, "triad", "float64(float64, float64)"),
    };
    sg[0].spec.v.index32 = true;
    uf__nvvm_spec specs[4];
    for (int i = 0; i < 4; i++) {
        sg[i].spec.out_types = sg[i].outs;
        specs[i] = sg[i].spec;
    }
    for (int b = libnvvm ? 0 : 1; b < 2; b++) {
        uf__nvvm_backend be = b == 0 ? UF__NVVM_LIBNVVM : UF__NVVM_NVPTX;
        const char *bn = b == 0 ? "libnvvm" : "nvptx";
        /* each kernel alone (its own set), then all in one module */
        for (int k = 0; k <= 4; k++) {
            const uf__nvvm_spec *sp = k < 4 ? &specs[k] : specs;
            int n = k < 4 ? 1 : 4;
            uf__nvvm_ptx sub, again, full;
            compile(sp, n, be, false, &sub);
            compile(sp, n, be, false, &again);
            compile(sp, n, be, true, &full);
            char *c1 = uncommented(sub.ptx), *c2 = uncommented(again.ptx);
            assert_string_equal(c1, c2);
            free(c1);
            free(c2);
            assert_null(strstr(sub.ptx, "__nv_"));
            assert_null(strstr(sub.ptx, ".extern"));
            char *s1 = symbols(sub.ptx), *s2 = symbols(full.ptx);
            assert_string_equal(s1, s2);
            for (int i = 0; ptxas && i < n; i++) {
                int r1 = ptxas_registers(sub.ptx, sub.kernels[i].name);
                int r2 = ptxas_registers(full.ptx, full.kernels[i].name);
                printf("%s %s: %d registers (whole libdevice: %d)\n", bn,
                       sub.kernels[i].name, r1, r2);
                assert_true(r1 > 0);
                assert_int_equal(r1, r2);
            }
            free(s1);
            free(s2);
            uf__nvvm_ptx_free(&sub);
            uf__nvvm_ptx_free(&again);
            uf__nvvm_ptx_free(&full);
        }
    }
    uf__kmodule_free(km);
}

/* The trig reduction's slow path (libdevice's inline asm) survives: a
 * float sine keeps its local array and i2opi table. LLVM 14 bitcode of
 * that asm reads as undef in libnvvm's reader, which deleted the slow
 * path: the subset goes to libnvvm as text. */
static void test_slow_path_kept(void **state)
{
    (void)state;
    if (!nvvm_have_libnvvm())
        skip();
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    nvvm_sig s = sig_of(km, "mathy", "float32(float32, float32)");
    s.spec.out_types = s.outs;
    for (int b = 0; b < 2; b++) {
        uf__nvvm_ptx ptx;
        compile(&s.spec, 1, b == 0 ? UF__NVVM_LIBNVVM : UF__NVVM_NVPTX, false,
                &ptx);
        assert_non_null(strstr(ptx.ptx, "__cudart_i2opi_f"));
        assert_non_null(strstr(ptx.ptx, ".local"));
        uf__nvvm_ptx_free(&ptx);
    }
    uf__kmodule_free(km);
}

/* The text of the PTX function whose header names `name` (.entry or
 * .func), up to the next function's header. */
static char *function_text(const char *ptx, const char *name)
{
    const char *p = ptx;
    for (; (p = strstr(p, name)); p++) {
        const char *line = p;
        while (line > ptx && line[-1] != '\n')
            line--;
        if (strncmp(line, ".visible .entry", 15) == 0 ||
            strncmp(line, ".func", 5) == 0 ||
            strncmp(line, ".visible .func", 14) == 0)
            break;
    }
    assert_non_null(p);
    const char *e = strstr(p, "\n.func");
    const char *e2 = strstr(p, "\n.visible");
    if (!e || (e2 && e2 < e))
        e = e2;
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *out = malloc(n + 1);
    assert_non_null(out);
    memcpy(out, p, n);
    out[n] = '\0';
    return out;
}

/* float32 sin/cos/tan keep libdevice's slow reduction out of line
 * (compiler/nvvm/nvvm_trig.c): the kernel entry has no local array and
 * no i2opi table, the noinline uf.nv.sinf.slow has them; the entry
 * calls it. A kernel with several such calls gets them inline again.
 * (Registers: bench/CUDA_RESULTS.md, sine and polar_distance float32.) */
static void test_trig_slow_path_outlined(void **state)
{
    (void)state;
    if (!uf__nvvm_toolkit_get()->libdevice_path) {
        printf("SKIP: %s\n", uf__nvvm_toolkit_get()->libdevice_why);
        skip();
    }
    uf_error err;
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    nvvm_sig s = sig_of(km, "sine", "float32(float32)");
    s.spec.out_types = s.outs;
    s.spec.v.index32 = true;
    for (int b = nvvm_have_libnvvm() ? 0 : 1; b < 2; b++) {
        uf__nvvm_ptx ptx;
        compile(&s.spec, 1, b == 0 ? UF__NVVM_LIBNVVM : UF__NVVM_NVPTX, false,
                &ptx);
        char *entry = function_text(ptx.ptx, ptx.kernels[0].name);
        char *slow = function_text(ptx.ptx, "uf_$_nv_$_sinf_$_slow");
        assert_null(strstr(entry, ".local"));
        assert_null(strstr(entry, "__cudart_i2opi_f"));
        assert_non_null(strstr(entry, "uf_$_nv_$_sinf_$_slow"));
        assert_non_null(strstr(slow, ".local"));
        assert_non_null(strstr(slow, "__cudart_i2opi_f"));
        if (nvvm_have_ptxas())
            printf("%s %s: %d registers\n", b == 0 ? "libnvvm" : "nvptx",
                   ptx.kernels[0].name,
                   ptxas_registers(ptx.ptx, ptx.kernels[0].name));
        free(entry);
        free(slow);
        uf__nvvm_ptx_free(&ptx);
        /* mathy's sin and cos: several calls, the slow paths inline */
        nvvm_sig m = sig_of(km, "mathy", "float32(float32, float32)");
        m.spec.out_types = m.outs;
        compile(&m.spec, 1, b == 0 ? UF__NVVM_LIBNVVM : UF__NVVM_NVPTX, false,
                &ptx);
        assert_null(strstr(ptx.ptx, "_slow"));
        uf__nvvm_ptx_free(&ptx);
    }
    uf__kmodule_free(km);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subset_matches_full),
        cmocka_unit_test(test_slow_path_kept),
        cmocka_unit_test(test_trig_slow_path_outlined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
