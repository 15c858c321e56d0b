/* The CUDA-only loop hints (compiler/nvvm/nvvm_loops.c): a loop that
 * accumulates into a float local gets `llvm.loop.unroll.disable` on its
 * latch, and so does a loop doing an atomic; a loop that only stores
 * through memory (matmul's) and a loop accumulating an integer keep
 * their unrolling, libdevice's functions
 * are left alone, and the IR stays valid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>

#include "compiler/nvvm/nvvm_internal.h"

/* for i in range(n): acc += x[i]  (the lowering's allocas, unoptimised) */
#define REDUCE(name, TY) REDUCE_(name, #TY, ZERO_##TY, ADD_##TY)
#define REDUCE_(name, T, ZERO, ADD)                                                     \
    "define " T " @" name "(" T "* %x, i64 %n) {\n"                         \
    "entry:\n"                                                              \
    "  %acc = alloca " T "\n"                                               \
    "  %i = alloca i64\n"                                                   \
    "  store " T " 0" ZERO ", " T "* %acc\n"                            \
    "  store i64 0, i64* %i\n"                                              \
    "  br label %for.cond\n"                                                \
    "for.cond:\n"                                                           \
    "  %k = load i64, i64* %i\n"                                            \
    "  %c = icmp slt i64 %k, %n\n"                                          \
    "  br i1 %c, label %for.body, label %for.end\n"                         \
    "for.next:\n"                                                           \
    "  %k1 = add i64 %k, 1\n"                                               \
    "  store i64 %k1, i64* %i\n"                                            \
    "  br label %for.cond\n"                                                \
    "for.body:\n"                                                           \
    "  %p = getelementptr " T ", " T "* %x, i64 %k\n"                       \
    "  %v = load " T ", " T "* %p\n"                                        \
    "  %a = load " T ", " T "* %acc\n"                                      \
    "  %s = " ADD " " T " %a, %v\n"                                     \
    "  store " T " %s, " T "* %acc\n"                                       \
    "  br label %for.next\n"                                                \
    "for.end:\n"                                                            \
    "  %r = load " T ", " T "* %acc\n"                                      \
    "  ret " T " %r\n"                                                      \
    "}\n"
#define ZERO_double ".0"
#define ZERO_i64 ""
#define ADD_double "fadd"
#define ADD_i64 "add"

#define ATOMIC_LOOP(name, op)                                             \
    "define void @" name "(i32* %h, i64 %n) {\n"                          \
    "entry:\n"                                                             \
    "  %i = alloca i64\n"                                                  \
    "  store i64 0, i64* %i\n"                                             \
    "  br label %for.cond\n"                                               \
    "for.cond:\n"                                                          \
    "  %k = load i64, i64* %i\n"                                           \
    "  %c = icmp slt i64 %k, %n\n"                                         \
    "  br i1 %c, label %for.body, label %for.end\n"                        \
    "for.body:\n" op                                                      \
    "  %k1 = add i64 %k, 1\n"                                              \
    "  store i64 %k1, i64* %i\n"                                           \
    "  br label %for.cond\n"                                               \
    "for.end:\n"                                                           \
    "  ret void\n"                                                         \
    "}\n"

static const char module_text[] =
    REDUCE("reduce", double) REDUCE("__nv_reduce", double)
    REDUCE("count", i64)
    /* for i in range(n): y[i] = 0.0 */
    "define void @store(double* %y, i64 %n) {\n"
    "entry:\n"
    "  %i = alloca i64\n"
    "  store i64 0, i64* %i\n"
    "  br label %for.cond\n"
    "for.cond:\n"
    "  %k = load i64, i64* %i\n"
    "  %c = icmp slt i64 %k, %n\n"
    "  br i1 %c, label %for.body, label %for.end\n"
    "for.body:\n"
    "  %p = getelementptr double, double* %y, i64 %k\n"
    "  store double 0.0, double* %p\n"
    "  %k1 = add i64 %k, 1\n"
    "  store i64 %k1, i64* %i\n"
    "  br label %for.cond\n"
    "for.end:\n"
    "  ret void\n"
    "}\n"
    /* for i in range(n): cuda.atomic.add(h, 0, 1) (a helper call) and
     * the same with an atomicrmw */
    "declare i32 @uf__nvvm_atom_add_i32(i32*, i32)\n"
    ATOMIC_LOOP("atomic_call",
                "  %o = call i32 @uf__nvvm_atom_add_i32(i32* %h, i32 1)\n")
    ATOMIC_LOOP("atomic_rmw", "  %o = atomicrmw add i32* %h, i32 1 monotonic\n");

/* Whether the function's back edge (the branch to for.cond that is not
 * the entry's) carries a loop ID with the unroll hint. */
static bool hinted(LLVMModuleRef mod, const char *fn_name)
{
    LLVMValueRef fn = LLVMGetNamedFunction(mod, fn_name);
    assert_non_null(fn);
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    bool found = false;
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(
             LLVMGetFirstBasicBlock(fn));
         bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef id = LLVMGetMetadata(LLVMGetBasicBlockTerminator(bb),
                                          kind);
        if (!id)
            continue;
        assert_false(found); /* one loop, one latch */
        /* !0 = !{!0, !{!"llvm.loop.unroll.disable"}} */
        assert_int_equal(LLVMGetMDNodeNumOperands(id), 2);
        LLVMValueRef ops[2], hint;
        LLVMGetMDNodeOperands(id, ops);
        assert_true(ops[0] == id);
        assert_int_equal(LLVMGetMDNodeNumOperands(ops[1]), 1);
        LLVMGetMDNodeOperands(ops[1], &hint);
        unsigned len;
        const char *str = LLVMGetMDString(hint, &len);
        assert_non_null(str);
        assert_int_equal(len, strlen("llvm.loop.unroll.disable"));
        assert_memory_equal(str, "llvm.loop.unroll.disable", len);
        found = true;
    }
    return found;
}

static void test_hints(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        module_text, sizeof module_text - 1, "loops");
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
        fail_msg("IR: %s", msg);
    }
    uf__nvvm_loop_hints(mod);
    assert_false(LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg));
    LLVMDisposeMessage(msg);
    assert_true(hinted(mod, "reduce"));
    assert_false(hinted(mod, "__nv_reduce"));
    assert_false(hinted(mod, "count"));
    assert_false(hinted(mod, "store"));
    assert_true(hinted(mod, "atomic_call"));
    assert_true(hinted(mod, "atomic_rmw"));
    /* a second pass leaves the latch's loop ID as it is */
    uf__nvvm_loop_hints(mod);
    assert_true(hinted(mod, "reduce"));
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hints)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
