/* The codegen-target seam (compiler/lower/codegen.h): the shared lowering asks
 * L->cg for every target-specific piece. A target derived from the host's
 * (as the NVVM one will override a few hooks) records what it is asked:
 * the attributes of each function, each math function by its C name, the
 * complex runtime helpers, and the report of a bounds check; and what a
 * hook emits is what the module gets (sin mapped to another function). */
#include "host_jit.h"
#include "test_util.h"

#include "compiler/host/codegen_host.h"
#include "compiler/front/kmodule.h"

static const char text[] =
    "import cmath\n"
    "import math\n"
    "from numba import njit\n"
    "\n"
    "@njit(boundscheck=True)\n"
    "def f(a, i, z):\n"
    "    return math.sin(a[i]) + math.atan2(a[i], 2.0) + cmath.sqrt(z).real\n";
static uf__source src = {"cg.py", text, sizeof text - 1};

/* what the recording target was asked */
static const uf__codegen_target *host;
static char maths[256], helpers[256];
static int nattrs, nreports, report_axis;
static char report_kernel[32];

static void rec_attrs(uf__lower *L, LLVMValueRef fn)
{
    nattrs++;
    host->function_attrs(L, fn);
}

/* sin becomes a call of `my_sin`; everything else as the host does it */
static LLVMValueRef rec_math(uf__fn *F, const char *name, uf_dtype dt,
                             LLVMValueRef *args, int n)
{
    strncat(maths, name, sizeof maths - strlen(maths) - 2);
    strcat(maths, " ");
    if (strcmp(name, "sin") != 0 || dt != UF_FLOAT64)
        return host->math(F, name, dt, args, n);
    LLVMTypeRef d = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMTypeRef fty = LLVMFunctionType(d, &d, 1, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(F->L->mod, "my_sin");
    if (!fn)
        fn = LLVMAddFunction(F->L->mod, "my_sin", fty);
    return LLVMBuildCall2(F->L->b, fty, fn, args, 1, "");
}

static LLVMValueRef rec_helper(uf__lower *L, const char *name,
                               LLVMTypeRef fty)
{
    strncat(helpers, name, sizeof helpers - strlen(helpers) - 2);
    strcat(helpers, " ");
    return host->helper(L, name, fty);
}

static void rec_index_error(uf__fn *F, const uf__index_report *r)
{
    nreports++;
    report_axis = r->axis;
    snprintf(report_kernel, sizeof report_kernel, "%s", r->kernel);
    host->index_error(F, r);
}

static void test_hooks(void **state)
{
    (void)state;
    uf_error err;
    uf__jit *jit = test_host_jit(&err);
    uf_assert_ok(jit != NULL, &err);
    uf__kmodule *km = uf__kmodule_new(&src, &err);
    uf_assert_ok(km != NULL, &err);
    const uf__type *args[3];
    args[0] = uf__type_array(km->tc, UF_FLOAT64, 1, 'C', &err);
    args[1] = uf__type_scalar(km->tc, UF_INT64);
    args[2] = uf__type_scalar(km->tc, UF_COMPLEX128);
    uf__typed_func *tf = uf__infer(km, uf__kmodule_find(km, "f"), args, 3,
                                   NULL, &err);
    uf_assert_ok(tf != NULL, &err);

    uf__lower L;
    assert_int_equal(uf__jit_begin(jit, &L, &err), 0);
    assert_string_equal(L.cg->name, "host");
    assert_string_equal(LLVMGetTarget(L.mod), L.cg->triple);
    /* derived from the host's: its data (CPU, libmvec) and hooks, a few
     * of them overridden */
    host = L.cg;
    uf__codegen_host rec = *(const uf__codegen_host *)L.cg;
    rec.base.function_attrs = rec_attrs;
    rec.base.math = rec_math;
    rec.base.helper = rec_helper;
    rec.base.index_error = rec_index_error;
    L.cg = &rec.base;

    bool fallible;
    LLVMValueRef fn = uf__lower_func(&L, tf, &fallible, &err);
    uf_assert_ok(fn != NULL, &err);
    assert_true(fallible);
    assert_true(nattrs >= 1);
    assert_non_null(strstr(maths, "sin "));
    assert_non_null(strstr(maths, "atan2 "));
    assert_non_null(strstr(helpers, UF__RT_CSQRT " "));
    assert_int_equal(nreports, 2); /* a[i] twice */
    assert_int_equal(report_axis, 0);
    assert_string_equal(report_kernel, "f");

    char *ir = LLVMPrintModuleToString(L.mod);
    assert_non_null(strstr(ir, "call double @my_sin("));
    assert_null(strstr(ir, "llvm.sin"));
    assert_non_null(strstr(ir, "@atan2("));
    assert_non_null(strstr(ir, "call void @" UF__RT_INDEX_ERROR "("));
    LLVMDisposeMessage(ir);
    uf__jit_abort(&L);
    uf__kmodule_free(km);
    uf__jit_free(jit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
