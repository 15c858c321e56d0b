/* Foreign device code without a GPU (tests/kernels/cuda/link.py): the
 * kernels' PTX (libnvvm and the NVPTX fallback) holds the declared
 * function as an .extern .func; the link inputs (link_functions.cu
 * through nvcc, link_addi.ptx as it is) and the kernel's PTX, each
 * compiled relocatable by ptxas -c, link with nvlink for sm_80 and sm_90
 * (what the driver's linker does on a GPU), and without the file that
 * defines it the reference stays undefined. Bad input: a missing link
 * file, a .cu nvcc refuses, LTO-IR and unknown kinds, bad declarations.
 * Parts needing the toolkit skip with the reason printed. */
#include <sys/stat.h>
#include <unistd.h>

#include "nvvm_util.h"

#include "common/error_internal.h"
#include "compiler/module.h"
#include "ufunc/cuda_link_files.h"

#define LINK_PY UF_TEST_KERNELS_DIR "/cuda/link.py"

static char tmp[] = "/tmp/ufjit-link-test-XXXXXX";
static uf_context *ctx;

static bool have_tool(const char *name)
{
    char p[256];
    const char *home = getenv("CUDA_HOME");
    snprintf(p, sizeof p, "%s/bin/%s", home && *home ? home : "/usr/local/cuda",
             name);
    if (access(p, X_OK) == 0)
        return true;
    printf("SKIP: %s not found at %s\n", name, p);
    return false;
}

/* Runs cmd with its output into tmp/log; the exit status, *log its text */
static int sh(const char *cmd, char *log, size_t size)
{
    char full[4096];
    snprintf(full, sizeof full, "%s > %s/log 2>&1", cmd, tmp);
    int rc = system(full);
    snprintf(full, sizeof full, "%s/log", tmp);
    FILE *f = fopen(full, "r");
    size_t n = f ? fread(log, 1, size - 1, f) : 0;
    log[n] = '\0';
    if (f)
        fclose(f);
    return rc;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The PTX of kernel `name` of m for its declared signature */
static char *kernel_ptx(uf_module *m, const char *name, uf__nvvm_backend b)
{
    uf_error err;
    uf_func *f = uf_module_get(m, name, &err);
    uf_assert_ok(f != NULL, &err);
    uf__kmodule *km = m->km;
    uf__signature s;
    uf_assert_ok(uf__parse_signature(km->tc, km->arena, f->decl->signatures[0],
                                     &s, &err) == 0, &err);
    const uf__typed_func *tf = uf__infer(km, f->decl, s.args, s.nargs, NULL,
                                         &err);
    uf_assert_ok(tf != NULL, &err);
    uf__nvvm_spec spec = {.tf = tf, .kernel = true};
    uf__nvvm_options o = {.backend = b};
    uf__nvvm_ptx ptx;
    uf_assert_ok(uf__nvvm_ufuncs_ptx(&spec, 1, &o, &ptx, &err) == 0, &err);
    char *text = strdup(ptx.ptx);
    uf__nvvm_ptx_free(&ptx);
    return text;
}

/* ptxas -c of ptx into tmp/<stem>.o for sm */
static void ptxas_c(const char *ptx, const char *stem, const char *sm)
{
    char path[512], cmd[1400], log[4096];
    snprintf(path, sizeof path, "%s/%s.ptx", tmp, stem);
    write_file(path, ptx);
    snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -c -arch=%s -o "
             "%s/%s.o %s", sm, tmp, stem, path);
    if (getenv("CUDA_HOME"))
        snprintf(cmd, sizeof cmd, "%s/bin/ptxas -c -arch=%s -o %s/%s.o %s",
                 getenv("CUDA_HOME"), sm, tmp, stem, path);
    if (sh(cmd, log, sizeof log) != 0)
        fail_msg("ptxas -c -arch=%s %s: %s", sm, stem, log);
}

/* nvlink of tmp/<objs>.o for sm: 0 when it links; *log its output */
static int nvlink(const char *objs, const char *sm, char *log, size_t size)
{
    char cmd[1400], list[800] = "";
    char copy[256];
    snprintf(copy, sizeof copy, "%s", objs);
    for (char *t = strtok(copy, " "); t; t = strtok(NULL, " ")) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, " %s/%s.o", tmp, t);
    }
    const char *home = getenv("CUDA_HOME");
    snprintf(cmd, sizeof cmd, "%s/bin/nvlink -arch=%s%s -o %s/out.cubin",
             home && *home ? home : "/usr/local/cuda", sm, list, tmp);
    return sh(cmd, log, size);
}

static void test_link_resolves(void **state)
{
    (void)state;
    if (!nvvm_have_ptxas() || !have_tool("nvlink") || !have_tool("nvcc"))
        return;
    bool libnvvm = nvvm_have_libnvvm();
    uf_error err;
    uf_module *m = uf_module_load(ctx, LINK_PY, &err);
    uf_assert_ok(m != NULL, &err);
    static const char *const sms[] = {"sm_80", "sm_90"};
    static const struct {
        const char *kernel, *symbol;
    } ks[] = {{"mul_kernel", "mul"}, {"device_kernel", "mul"},
              {"fma_kernel", "fma3"}, {"addi_kernel", "addi"}};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        uf_func *f = uf_module_get(m, ks[k].kernel, &err);
        uf_assert_ok(f != NULL, &err);
        uf__cuda_link_inputs li;
        uf_assert_ok(uf__cuda_link_inputs_get(f, "compute_80", &li, &err) ==
                         0, &err);
        /* mul_kernel: its link_functions.cu, then declare_device's .ptx */
        assert_int_equal(li.n, strcmp(ks[k].kernel, "addi_kernel") ? 2 : 1);
        for (int b = libnvvm ? 0 : 1; b < 2; b++) {
            char *ptx = kernel_ptx(m, ks[k].kernel,
                                   b ? UF__NVVM_NVPTX : UF__NVVM_LIBNVVM);
            char decl[64];
            snprintf(decl, sizeof decl, ") %s", ks[k].symbol);
            assert_non_null(strstr(ptx, ".extern .func"));
            assert_non_null(strstr(ptx, decl));
            for (int s = 0; s < 2; s++) {
                char objs[128] = "kernel", log[8192];
                ptxas_c(ptx, "kernel", sms[s]);
                /* the kernel alone: the symbol is undefined */
                assert_int_not_equal(nvlink("kernel", sms[s], log,
                                            sizeof log), 0);
                char undef[96];
                snprintf(undef, sizeof undef, "Undefined reference to '%s'",
                         ks[k].symbol);
                assert_non_null(strstr(log, undef));
                for (int i = 0; i < li.n; i++) {
                    assert_int_equal(li.in[i].type, UF__CU_JIT_INPUT_PTX);
                    char stem[16];
                    snprintf(stem, sizeof stem, "in%d", i);
                    ptxas_c(li.in[i].data, stem, sms[s]);
                    strcat(objs, " ");
                    strcat(objs, stem);
                }
                if (nvlink(objs, sms[s], log, sizeof log) != 0)
                    fail_msg("nvlink %s (%s) -arch=%s: %s", ks[k].kernel,
                             b ? "nvptx" : "libnvvm", sms[s], log);
            }
            free(ptx);
        }
        uf__cuda_link_inputs_clear(&li);
    }
    uf_module_free(m);
}

/* A kernel file in tmp linking `link` (a Python list's text). */
static uf_func *kernel_linking(uf_module **m, const char *link)
{
    char name[256], src[1024];
    snprintf(name, sizeof name, "%s/k.py", tmp);
    snprintf(src, sizeof src,
             "from numba import cuda\n"
             "mul = cuda.declare_device('mul', 'float32(float32, float32)')\n"
             "@cuda.jit('void(float32[:])', link=%s)\n"
             "def k(r):\n"
             "    r[0] = mul(r[1], r[2])\n", link);
    uf_error err;
    *m = uf_module_from_string(ctx, name, src, &err);
    uf_assert_ok(*m != NULL, &err);
    uf_func *f = uf_module_get(*m, "k", &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static void test_bad_link_files(void **state)
{
    (void)state;
    uf_error err;
    uf_module *m;
    uf__cuda_link_inputs li;
    char want[512];
    /* missing: named with the kernel file's folder */
    uf_func *f = kernel_linking(&m, "['missing.cu']");
    assert_int_equal(uf__cuda_link_inputs_get(f, NULL, &li, &err),
                     UF_ERR_NOT_FOUND);
    uf__cuda_link_inputs_clear(&li);
    snprintf(want, sizeof want, "%s/missing.cu not found", tmp);
    assert_non_null(strstr(err.message, want));
    uf_module_free(m);
    /* LTO-IR and unknown kinds */
    char path[512];
    snprintf(path, sizeof path, "%s/f.ltoir", tmp);
    write_file(path, "x");
    f = kernel_linking(&m, "'f.ltoir'");
    assert_int_equal(uf__cuda_link_inputs_get(f, NULL, &li, &err),
                     UF_ERR_UNSUPPORTED);
    uf__cuda_link_inputs_clear(&li);
    assert_non_null(strstr(err.message, "LTO-IR"));
    uf_module_free(m);
    snprintf(path, sizeof path, "%s/f.txt", tmp);
    write_file(path, "x");
    f = kernel_linking(&m, "('f.txt',)");
    assert_int_equal(uf__cuda_link_inputs_get(f, NULL, &li, &err),
                     UF_ERR_UNSUPPORTED);
    uf__cuda_link_inputs_clear(&li);
    assert_non_null(strstr(err.message, "unknown kind"));
    uf_module_free(m);
    /* a .cu nvcc refuses: its diagnostics passed on */
    if (!have_tool("nvcc"))
        return;
    snprintf(path, sizeof path, "%s/bad.cu", tmp);
    write_file(path, "extern \"C\" __device__ int mul(float *r, float x,\n"
                     "                                float y)\n"
                     "{\n    *r = x * z;\n    return 0;\n}\n");
    f = kernel_linking(&m, "['bad.cu']");
    assert_int_equal(uf__cuda_link_inputs_get(f, "compute_80", &li, &err),
                     UF_ERR_FORMAT);
    uf__cuda_link_inputs_clear(&li);
    assert_non_null(strstr(err.message, "nvcc cannot compile"));
    assert_non_null(strstr(err.message, "bad.cu"));
    assert_non_null(strstr(err.message, "\"z\" is undefined"));
    uf_module_free(m);
    /* a good one compiles to PTX defining the function */
    snprintf(path, sizeof path, "%s/good.cu", tmp);
    write_file(path, "extern \"C\" __device__ int mul(float *r, float x,\n"
                     "                                float y)\n"
                     "{\n    *r = x * y;\n    return 0;\n}\n");
    f = kernel_linking(&m, "['good.cu']");
    uf_assert_ok(uf__cuda_link_inputs_get(f, "sm_90", &li, &err) == 0, &err);
    assert_int_equal(li.n, 1);
    assert_non_null(strstr(li.in[0].data, ".target sm_90"));
    assert_non_null(strstr(li.in[0].data, ".visible .func"));
    uf__cuda_link_inputs_clear(&li);
    uf_module_free(m);
}

/* A module whose declaration is refused, and the message's part. */
static void refused(const char *decl, const char *want)
{
    char src[1024];
    snprintf(src, sizeof src, "from numba import cuda\nf = %s\n", decl);
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "bad.py", src, &err);
    if (m != NULL)
        fail_msg("accepted: %s", decl);
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    if (!strstr(err.message, want))
        fail_msg("%s: '%s' lacks '%s'", decl, err.message, want);
    assert_string_equal(err.file, "bad.py");
    assert_int_equal(err.line, 2);
}

static void test_bad_declarations(void **state)
{
    (void)state;
    refused("cuda.declare_device('mul', 'float32(floatx)')", "bad signature");
    refused("cuda.declare_device('mul', '(float32, float32)')",
            "needs a return type");
    refused("cuda.declare_device('mul', 'float32(float32[:])')",
            "arguments must be integer or float scalars");
    refused("cuda.declare_device('mul', 'complex64(float32)')",
            "return type must be");
    refused("cuda.declare_device('mul', 'float32(float32)', abi='fortran')",
            "abi= must be 'numba' or 'c'");
    refused("cuda.declare_device('mul', 'float32(float32)', "
            "use_cooperative=True)", "use_cooperative=True");
    refused("cuda.declare_device('mul', 'float32(float32)', link=[1])",
            "link= takes file paths");
    refused("cuda.declare_device('a-b', 'float32(float32)')",
            "C identifier");
    refused("cuda.declare_device('mul')", "needs the function's name and its "
            "signature");
    refused("cuda.declare_device('mul', 'float32(float32)', opt=1)",
            "unknown argument 'opt'");
}

/* calls that do not match the declaration: refused when typed */
static void test_bad_calls(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "    r[0] = mul(r[1])\n",
        "    r[0] = mul(r[1], r)\n",
    };
    static const char *const want[] = {"takes 2 arguments, 1 given",
                                       "does not convert"};
    for (int i = 0; i < 2; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "from numba import cuda\n"
                 "mul = cuda.declare_device('mul', "
                 "'float32(float32, float32)')\n"
                 "@cuda.jit('void(float32[:])')\n"
                 "def k(r):\n%s", bodies[i]);
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "calls.py", src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "k", &err);
        uf__signature s;
        uf_assert_ok(uf__parse_signature(m->km->tc, m->km->arena,
                                         "void(float32[:])", &s, &err) == 0,
                     &err);
        assert_null(uf__infer(m->km, f->decl, s.args, s.nargs, NULL, &err));
        assert_int_equal(err.code, UF_ERR_TYPING);
        if (!strstr(err.message, want[i]))
            fail_msg("'%s' lacks '%s'", err.message, want[i]);
        uf_module_free(m);
    }
}

static int setup(void **state)
{
    (void)state;
    uf_error err;
    if (!mkdtemp(tmp) || (ctx = uf_context_new(&err)) == NULL)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf_context_free(ctx);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_resolves),
        cmocka_unit_test(test_bad_link_files),
        cmocka_unit_test(test_bad_declarations),
        cmocka_unit_test(test_bad_calls),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
