/* The machine a lowering generates code for (STYLE.md: a second backend
 * overrides a few hooks of a shared lowering, as TVM's CodeGenNVPTX over
 * CodeGenLLVM). lower*.c build the same IR for every target except where
 * they ask this struct: the module's triple and data layout, the
 * attributes of every generated function, how a math function is
 * computed, how a runtime helper is reached, and where the report of a
 * failed check goes (the error sink). A compilation gets its target from
 * whoever begins it (uf__jit_begin: the host instance of its uf__jit, one
 * per uf_context, codegen_host.c); the NVVM emitter is the other
 * instance, a sibling file. */
#ifndef UF_COMPILER_CODEGEN_H
#define UF_COMPILER_CODEGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <llvm-c/Core.h>

#include <ufjit/dtype.h>
#include <ufjit/error.h>

typedef struct uf__lower uf__lower;
typedef struct uf__fn uf__fn;
typedef struct uf__codegen_target uf__codegen_target;

/* CUDA's special registers, in the order of the builtins
 * (UF__BI_CUDA_TID_X ...: builtins.h). */
typedef enum uf__sreg {
    UF__SREG_TID_X = 0, /* threadIdx */
    UF__SREG_TID_Y,
    UF__SREG_TID_Z,
    UF__SREG_NTID_X, /* blockDim */
    UF__SREG_NTID_Y,
    UF__SREG_NTID_Z,
    UF__SREG_CTAID_X, /* blockIdx */
    UF__SREG_CTAID_Y,
    UF__SREG_CTAID_Z,
    UF__SREG_NCTAID_X, /* gridDim */
    UF__SREG_NCTAID_Y,
    UF__SREG_NCTAID_Z,
    UF__SREG_LANEID,
    UF__SREG_WARPSIZE,
    UF__SREG_COUNT
} uf__sreg;

/* The atomic read-modify-write operations of the codegen targets (CUDA's
 * atomicAdd ... atomicDec, on a value's integer or float type). */
typedef enum uf__atomic_op {
    UF__ATOMIC_ADD = 0, /* integer */
    UF__ATOMIC_SUB,
    UF__ATOMIC_AND,
    UF__ATOMIC_OR,
    UF__ATOMIC_XOR,
    UF__ATOMIC_XCHG,
    UF__ATOMIC_MAX, /* signed */
    UF__ATOMIC_MIN,
    UF__ATOMIC_UMAX,
    UF__ATOMIC_UMIN,
    UF__ATOMIC_INC, /* unsigned, CUDA's wrapping atomicInc / atomicDec */
    UF__ATOMIC_DEC,
    UF__ATOMIC_FADD, /* float32, float64 */
    UF__ATOMIC_OP_COUNT
} uf__atomic_op;

/* __threadfence_block / __threadfence / __threadfence_system */
typedef enum uf__fence_scope {
    UF__FENCE_BLOCK = 0,
    UF__FENCE_DEVICE,
    UF__FENCE_SYSTEM
} uf__fence_scope;

/* __syncthreads_count / _and / _or */
typedef enum uf__sync_reduce {
    UF__SYNC_COUNT = 0,
    UF__SYNC_AND,
    UF__SYNC_OR
} uf__sync_reduce;
/* Warp-level collectives (numba.cuda's *_sync functions). */
typedef enum uf__warp_op {
    UF__WARP_SHFL_IDX, /* value of lane `arg` (mod 32) */
    UF__WARP_SHFL_UP,  /* of lane - arg, own value below lane 0 */
    UF__WARP_SHFL_DOWN, /* of lane + arg, own value past lane 31 */
    UF__WARP_SHFL_XOR, /* of lane ^ arg */
    UF__WARP_ALL,      /* predicate true on every lane of mask */
    UF__WARP_ANY,
    UF__WARP_EQ,       /* the same on every lane */
    UF__WARP_BALLOT,   /* lanes whose predicate is true */
    UF__WARP_MATCH_ANY, /* lanes whose value equals this lane's */
    UF__WARP_MATCH_ALL, /* mask when every value is the same, else 0 */
    UF__WARP_SYNC,     /* __syncwarp(mask) */
    UF__WARP_ACTIVEMASK
} uf__warp_op;

/* What a failed index check reports (lower_index.c), as values of the
 * function being generated: the sink turns it into the IndexError
 * message "index 5 is out of bounds for axis 0 with size 4 (in 'f' at
 * k.py:7)". */
typedef struct uf__index_report {
    const char *kernel, *file; /* constants of the compilation */
    int line;
    LLVMValueRef index; /* i64: the index as written (before wrapping) */
    bool is_unsigned;   /* print `index` as unsigned */
    int axis;           /* -1: an index into a tuple */
    LLVMValueRef size;  /* i64: the axis' (or tuple's) length */
} uf__index_report;

struct uf__codegen_target {
    const char *name;   /* "host" */
    const char *triple; /* of every module, with its data layout */
    const char *data_layout;
    /* Adds the target's attributes to a function the lowering made (host:
     * target-cpu, target-features, prefer-vector-width, nounwind). */
    void (*function_attrs)(uf__lower *L, LLVMValueRef fn);
    /* Emits the math function `name`, named as C's double-precision libm
     * function ("sin", "atan2", "fabs", "rint", "tgamma"), on args[0..n)
     * of float dtype dt (float32 or float64), giving a value of dt (host:
     * an LLVM intrinsic where LLVM has one, else libm, with libmvec's
     * vector variants named for the vectoriser; NVVM: libdevice). */
    LLVMValueRef (*math)(uf__fn *F, const char *name, uf_dtype dt,
                         LLVMValueRef *args, int n);
    /* The function to call for the runtime helper `name` (common/loop.h
     * lists them: "uf__rt_csqrt"...) of type fty, which returns and does
     * not unwind (host: a declaration of the symbol the JIT resolves). */
    LLVMValueRef (*helper)(uf__lower *L, const char *name, LLVMTypeRef fty);
    /* The error sink: emits at the builder what reports an index out of
     * range (host: a call of a C helper recording the message); the
     * lowering then returns UF__JIT_INDEX, the status its caller turns
     * into the error. The lowering never knows where the message goes. */
    void (*index_error)(uf__fn *F, const uf__index_report *r);
    /* The sink of a ValueError that names shapes where code cannot call
     * the host's UF__RT_BROADCAST_ERROR (NVVM, cudasim: the status word):
     * emits at the builder what records `status` with common/loop.h's
     * `kind`, the dimension counts ndims[0..nshapes) and the dimensions
     * dims[] (i64, one shape after another; nshapes 0: none); the
     * lowering then returns `status`. NULL: the host's helper. */
    void (*shape_error)(uf__fn *F, int status, int kind, int nshapes,
                        const int *ndims, const LLVMValueRef *dims);
    /* Last changes to a module before it is verified and optimised (host:
     * libmvec's declarations kept alive for the vectoriser). 0 or err's
     * code. */
    int (*finish_module)(uf__lower *L, uf_error *err);
    /* The special register `which` as an i32 (NVVM: llvm.nvvm.read.ptx.
     * sreg.*; cudasim: the simulated thread's state). NULL on targets
     * without a CUDA thread model (host). */
    LLVMValueRef (*sreg)(uf__lower *L, uf__sreg which);
    /* __syncthreads() at the builder (NVVM: llvm.nvvm.barrier0; cudasim:
     * the simulator's barrier). NULL where sreg is. */
    void (*syncthreads)(uf__lower *L);
    /* Shared memory, as generic i8* pointers at the builder: a static
     * array of `bytes` (aligned to `align`), one per call per block (a
     * cuda.shared.array site); the block's dynamic shared memory (the
     * launch's bytes, 16-aligned); and an i64 slot per block holding the
     * dynamic bytes' count (written by the kernel entry). NULL where
     * sreg is. */
    LLVMValueRef (*shared_static)(uf__lower *L, uint64_t bytes,
                                  unsigned align);
    LLVMValueRef (*shared_dynamic)(uf__lower *L);
    LLVMValueRef (*shared_dynamic_size)(uf__lower *L);
    /* Atomics at the builder, relaxed as CUDA's atomic functions, on a
     * generic pointer `ptr` to val's type: *ptr = op(*ptr, val), giving
     * the old value; NULL when the target has no single operation for
     * op on that type (the lowering then loops on atomic_cas). atomic_cas
     * compares and swaps the integer *ptr, giving the old value. NULL
     * where sreg is. */
    LLVMValueRef (*atomic_rmw)(uf__lower *L, uf__atomic_op op,
                               LLVMValueRef ptr, LLVMValueRef val);
    LLVMValueRef (*atomic_cas)(uf__lower *L, LLVMValueRef ptr,
                               LLVMValueRef cmp, LLVMValueRef val);
    /* A memory fence of `scope`, and a barrier that also gives the
     * count of threads / whether all / any of the block's threads had
     * the i32 `pred` nonzero (an i32). NULL where sreg is. */
    void (*threadfence)(uf__lower *L, uf__fence_scope scope);
    LLVMValueRef (*syncthreads_reduce)(uf__lower *L, uf__sync_reduce op,
                                       LLVMValueRef pred);
    /* Warp collective `op` on the lanes of i32 `mask`: `value` an i32
     * (shuffles; match: i32 or i64), an i1 (votes) or NULL, `arg` an i32
     * lane / delta or NULL. Gives an i32 (the value, mask or ballot; 0 or
     * 1 for votes); *pred, when not NULL, the i1 of votes and match_all.
     * NULL where sreg is. */
    LLVMValueRef (*warp)(uf__lower *L, uf__warp_op op, LLVMValueRef mask,
                         LLVMValueRef value, LLVMValueRef arg,
                         LLVMValueRef *pred);
    /* Calls of foreign device functions (cuda.declare_device) may stay
     * external declarations, resolved when the module is linked (NVVM:
     * the driver's linker); false: such a call is refused (cudasim,
     * host). */
    bool links_device_code;
    /* The address space of module-level arrays' constant globals
     * (lower_garray.c): 0 (host, cudasim), 4 (NVVM constant memory). */
    unsigned const_as;
    /* The backend expands `frem` inexactly (NVPTX: a - b * trunc(a / b),
     * wrong once the quotient passes 2**24 or 2**53): C's fmod goes
     * through the math hook ("fmod") instead (uf__emit_fmod). */
    bool inexact_frem;
};

#endif
