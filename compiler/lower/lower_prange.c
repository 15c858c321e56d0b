/* prange loops of njit(parallel=True) functions, as Numba's parfors run
 * them: the loop body is outlined into a function of one block of
 * iterations, `i32 body(i8 *ctx, i64 begin, i64 end, i64 block)`, that the
 * runtime (common/loop.h: UF__RT_PRANGE, njit/njit_prange.c) calls on the
 * parallel target's threads.
 *
 * Variables: the body reads the enclosing function's values through ctx
 * (copied in when the loop starts); what it assigns is private to each
 * block, except reductions. After SSA versions (ssa_versions.c) `s += x`
 * in the loop is `s.2 = s.1 + x` with the loop head's join `s.1` fed at
 * the end of the body, so a name's versions are looked at together: a
 * name whose value is carried into the next iteration or out of the loop
 * is a reduction when every assignment of it in the body is `s = s op e`
 * (op one of + - * /, or s = min(s, e) / max, Numba's supported_reduction:
 * | & ^ are its ValueError) with e not reading s, and a number s is read
 * nowhere else in the body (an array s may be: the block's partial). Each block starts from op's
 * identity (min/max: from the value before the loop) and stores its
 * partial; the caller combines the partials in block order (s /= e: the
 * blocks start at 1 and the partials multiply s, Numba's rule). An array
 * s (s += a[i, :]) gets a partial array per block (lower_prange_array.c).
 * Anything else
 * written in the body and seen outside it is a race, refused at
 * file:line:col as Numba refuses it.
 *
 * The blocks depend on the trip count alone (at most
 * UF__PRANGE_MAX_BLOCKS of equal length), never on the threads, so a
 * reduction gives the same bits on any number of threads. The float
 * operations of a reduction carry LLVM's `reassoc` flag in the body, so
 * that the vectoriser may keep several accumulators, as our add.reduce
 * does: the order is then fixed by the trip count and the CPU's vector
 * width, not by the threads. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/loop.h"
#include "compiler/front/ast_visit.h"
#include "compiler/host/llvm_fastmath.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_prange.h"

#define B (F->L->b)

/* What the whole function does with each variable, inside the prange
 * body or outside it. */
typedef struct scan {
    const uf__typed_func *tf;
    const uf__stmt *loop;
    bool inside;
    int depth;               /* loops entered inside the body */
    unsigned char *def_in, *def_out;
    int *reads_in, *reads_out;
    int bad;                 /* first refusal: UF_ERR_* */
    uf__pos bad_pos;
    const char *bad_what;
} scan;

static const char *const op_names[] = {"", "+", "*", "min", "max", "/"};

static int var_of(const scan *S, const uf__expr *e)
{
    return e->kind == UF__EX_NAME ? uf__typed_var(S->tf, e->u.name.id) : -1;
}

/* Versions of one name share what precedes the first dot. */
static size_t base_len(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

static bool same_name(const uf__typed_func *tf, int a, int b)
{
    const char *x = tf->vars[a].name, *y = tf->vars[b].name;
    size_t n = base_len(x);
    return n == base_len(y) && strncmp(x, y, n) == 0;
}

static int count_reads(const uf__expr *e, void *ud)
{
    scan *S = ud;
    int v = var_of(S, e);
    if (v >= 0)
        (S->inside ? S->reads_in : S->reads_out)[v]++;
    return uf__ast_children(e, count_reads, ud);
}

static void reads(scan *S, const uf__expr *e)
{
    if (e != NULL)
        count_reads(e, S);
}

static void defines(scan *S, const uf__expr *t)
{
    int v = var_of(S, t);
    if (v >= 0) {
        (S->inside ? S->def_in : S->def_out)[v] = 1;
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            defines(S, t->u.seq.elts[i]);
    } else {
        reads(S, t); /* a[i] = v reads a and i */
    }
}

static void refuse(scan *S, uf__pos pos, const char *what)
{
    if (S->bad == 0) {
        S->bad = UF_ERR_UNSUPPORTED;
        S->bad_pos = pos;
        S->bad_what = what;
    }
}

static void scan_block(scan *S, const uf__block *b);

static void scan_stmt(scan *S, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        reads(S, s->u.expr.value);
        break;
    case UF__ST_ASSIGN:
        reads(S, s->u.assign.value);
        for (int k = 0; k < s->u.assign.ntargets; k++)
            defines(S, s->u.assign.targets[k]);
        break;
    case UF__ST_AUGASSIGN:
        reads(S, s->u.augassign.value);
        reads(S, s->u.augassign.target);
        defines(S, s->u.augassign.target);
        break;
    case UF__ST_IF:
        reads(S, s->u.if_.cond);
        scan_block(S, &s->u.if_.body);
        scan_block(S, &s->u.if_.orelse);
        break;
    case UF__ST_WHILE:
    case UF__ST_FOR: {
        bool w = s->kind == UF__ST_WHILE;
        if (w) {
            reads(S, s->u.while_.cond);
        } else {
            reads(S, s->u.for_.iter);
        }
        bool was = S->inside;
        if (s == S->loop) {
            S->inside = true;
            S->depth = 0;
        } else if (S->inside) {
            S->depth++;
        }
        if (!w)
            defines(S, s->u.for_.target);
        scan_block(S, w ? &s->u.while_.body : &s->u.for_.body);
        if (s == S->loop)
            S->inside = was;
        else if (S->inside)
            S->depth--;
        scan_block(S, w ? &s->u.while_.orelse : &s->u.for_.orelse);
        break;
    }
    case UF__ST_RETURN:
        if (S->inside)
            refuse(S, s->pos, "'return' inside a prange loop");
        reads(S, s->u.ret.value);
        break;
    case UF__ST_BREAK:
        if (S->inside && S->depth == 0)
            refuse(S, s->pos, "'break' out of a prange loop");
        break;
    case UF__ST_ASSERT:
        reads(S, s->u.assert_.test);
        reads(S, s->u.assert_.msg);
        break;
    case UF__ST_RAISE:
        for (int i = 0; i < s->u.raise.nargs; i++)
            reads(S, s->u.raise.args[i]);
        break;
    default:
        break;
    }
}

static void scan_block(scan *S, const uf__block *b)
{
    for (int i = 0; i < b->n; i++)
        scan_stmt(S, b->stmts[i]);
}

/* ---- reductions -------------------------------------------------------- */

typedef struct red_check {
    scan *S;
    int group; /* a version of the name */
    red_op op;
    int operands; /* reads of the name the assignments account for */
    uf__pos pos;
    bool ok;
    int bad_binop; /* 1 + the operator of a refused s = s op e, or 0 */
    bool rebinds;  /* an array's s = s op e (not s op= e) */
} red_check;

static bool in_group(const red_check *R, const uf__expr *e)
{
    int v = var_of(R->S, e);
    return v >= 0 && same_name(R->S->tf, v, R->group);
}

static int reads_group(const uf__expr *e, void *ud)
{
    const red_check *R = ud;
    if (in_group(R, e))
        return 1;
    return uf__ast_children(e, reads_group, ud);
}

static red_op binop_red(uf__binop op)
{
    switch (op) {
    case UF__OP_ADD:
    case UF__OP_SUB: /* s -= e: blocks start at 0, partials are added */
        return RED_ADD;
    case UF__OP_MUL:
        return RED_MUL;
    case UF__OP_DIV:
        return RED_DIV;
    default:
        return RED_NONE;
    }
}

/* The operator of `s = s op e` (or e op s for commutative ops, min/max),
 * RED_NONE for anything else. */
static red_op pattern(red_check *R, const uf__expr *v)
{
    if (v->kind == UF__EX_BINARY) {
        red_op op = binop_red(v->u.binary.op);
        const uf__expr *l = v->u.binary.left, *r = v->u.binary.right;
        if (op == RED_NONE)
            return RED_NONE;
        if (in_group(R, l) && !reads_group(r, R))
            return op;
        if (v->u.binary.op != UF__OP_SUB && v->u.binary.op != UF__OP_DIV &&
            in_group(R, r) &&
            !reads_group(l, R))
            return op;
        return RED_NONE;
    }
    if (v->kind == UF__EX_CALL && v->u.call.nargs == 2 && v->u.call.nkw == 0) {
        uf__builtin bi = uf__tf_info(R->S->tf, v)->builtin;
        const uf__expr *a = v->u.call.args[0], *b = v->u.call.args[1];
        if (bi != UF__BI_MIN && bi != UF__BI_MAX)
            return RED_NONE;
        if ((in_group(R, a) && !reads_group(b, R)) ||
            (in_group(R, b) && !reads_group(a, R)))
            return bi == UF__BI_MIN ? RED_MIN : RED_MAX;
    }
    return RED_NONE;
}

static int check_assign(uf__stmt *s, void *ud)
{
    red_check *R = ud;
    if (!R->ok || s->kind != UF__ST_ASSIGN)
        return 0;
    for (int k = 0; k < s->u.assign.ntargets; k++) {
        const uf__expr *t = s->u.assign.targets[k];
        if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
            for (int i = 0; i < t->u.seq.n; i++)
                if (in_group(R, t->u.seq.elts[i]))
                    R->ok = false, R->pos = s->pos;
            continue;
        }
        if (!in_group(R, t))
            continue;
        const uf__expr *v = s->u.assign.value;
        if (s->join_feed && in_group(R, v)) {
            R->operands++;
            continue;
        }
        red_op op = pattern(R, v);
        if (op == RED_NONE || (R->op != RED_NONE && R->op != op)) {
            R->ok = false;
            R->pos = s->pos;
            if (op == RED_NONE && v->kind == UF__EX_BINARY &&
                (in_group(R, v->u.binary.left) ||
                 in_group(R, v->u.binary.right)))
                R->bad_binop = 1 + (int)v->u.binary.op;
            return 1;
        }
        R->op = op;
        R->operands++;
        if (v->kind == UF__EX_BINARY && !v->u.binary.inplace)
            R->rebinds = true;
    }
    return 0;
}

static int race(uf__fn *F, uf__pos pos, const char *name, size_t n,
                const char *why)
{
    return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, pos,
                            "variable '%.*s' %s (a race between the threads "
                            "of a prange loop; only reductions such as "
                            "s += e, s -= e, s *= e, s /= e, "
                            "s = min(s, e) or s = max(s, e) may "
                            "carry a scalar across iterations)",
                            (int)n, name, why);
}

/* Numba's errors for a reduction by an operator it does not combine
 * (parfors' supported_reduction): // its NumbaValueError (a TypingError,
 * UF_ERR_TYPE); %, **, shifts and @ a ValueError (UF_ERR_VALUE). */
static int numba_refusal(uf__fn *F, uf__pos pos, const char *name, size_t n,
                         uf__binop op)
{
    if (op == UF__OP_FLOORDIV)
        return uf__source_error(
            F->err, UF_ERR_TYPE, F->tf->km->src, pos,
            "Parallel floordiv reductions are not supported. If all "
            "divisors are integers then a floordiv reduction can in some "
            "cases be parallelized as a multiply reduction followed by a "
            "floordiv of the resulting product (NumbaValueError, a "
            "TypingError, as Numba: variable '%.*s' in a prange loop)",
            (int)n, name);
    return uf__source_error(F->err, UF_ERR_VALUE, F->tf->km->src, pos,
                            "Use of reduction variable '%.*s' in an "
                            "unsupported reduction function (ValueError, as "
                            "Numba: a prange reduction is +=, -=, *=, /=, "
                            "min or max; |=, &=, ^= are not)",
                            (int)n, name);
}

/* Finds the reductions (R, *nred) among the names written in the body and
 * refuses every other carried or escaping write. */
static int find_reductions(uf__fn *F, scan *S, int vi, reduction *R,
                           int *nred, int cap)
{
    const uf__typed_func *tf = F->tf;
    unsigned char *done = uf__calloc((size_t)tf->nvars + 1, 1, F->err);
    if (!done)
        return UF_ERR_NOMEM;
    int rc = 0;
    *nred = 0;
    for (int v = 0; v < tf->nvars && rc == 0; v++) {
        if (!S->def_in[v] || done[v] || same_name(tf, v, vi))
            continue;
        /* the versions of v's name: which of them escape the body */
        int carried = -1, ncarried = 0;
        for (int w = 0; w < tf->nvars; w++) {
            if (!same_name(tf, v, w))
                continue;
            done[w] = 1;
            if (S->def_in[w] && (S->def_out[w] || S->reads_out[w])) {
                carried = w;
                ncarried++;
            }
        }
        if (ncarried == 0)
            continue; /* private to each iteration */
        const char *name = tf->vars[v].name;
        size_t n = base_len(name);
        const uf__type *t = tf->vars[carried].type;
        red_check C = {S, v, RED_NONE, 0, {0}, true, 0, false};
        uf__ast_walk_stmts((uf__block *)&S->loop->u.for_.body, check_assign,
                           &C);
        int reads = 0;
        for (int w = 0; w < tf->nvars; w++)
            if (same_name(tf, v, w))
                reads += S->reads_in[w];
        if (!C.ok && C.bad_binop)
            rc = numba_refusal(F, C.pos, name, n,
                               (uf__binop)(C.bad_binop - 1));
        else if (!C.ok || C.op == RED_NONE)
            rc = race(F, C.ok ? S->loop->pos : C.pos, name, n,
                      "is assigned inside a prange loop and used after it "
                      "or in the next iteration, but not as a reduction");
        /* an array's other reads in the body see the block's partial,
         * as Numba's see the thread's; a number's are refused (Numba's
         * then depend on the threads) */
        else if (ncarried > 1 ||
                 (!(t && t->kind == UF__T_ARRAY) && reads != C.operands))
            rc = race(F, S->loop->pos, name, n,
                      "is a reduction read inside the prange loop");
        else if (t && t->kind == UF__T_ARRAY &&
                 (rc = uf__prange_array_check(F, S->loop->pos, name, n, C.op,
                                              t, C.rebinds)) != 0)
            break;
        else if (!t || (t->kind != UF__T_SCALAR && t->kind != UF__T_ARRAY) ||
                 ((C.op == RED_MIN || C.op == RED_MAX) &&
                  uf__dtype_is_complex(t->dtype)) ||
                 ((C.op == RED_ADD || C.op == RED_MUL) && t->dtype == UF_BOOL)) {
            char ts[64] = "?";
            if (t)
                uf__type_str(t, ts, sizeof ts);
            rc = uf__source_error(F->err, UF_ERR_UNSUPPORTED, tf->km->src,
                                  S->loop->pos, "a prange reduction with %s "
                                  "on '%.*s' of type %s is not supported",
                                  op_names[C.op], (int)n, name, ts);
        }
        else if (*nred == cap)
            rc = uf__source_error(F->err, UF_ERR_UNSUPPORTED, tf->km->src,
                                  S->loop->pos, "more than %d reductions "
                                  "in one prange loop", cap);
        else
            R[(*nred)++] = (reduction){
                .var = carried, .op = C.op, .dt = t->dtype,
                .type = t->kind == UF__T_ARRAY ? t : NULL,
                .rebinds = C.rebinds};
    }
    uf__free(done);
    return rc;
}

/* ---- code -------------------------------------------------------------- */

static LLVMValueRef identity(uf__fn *F, red_op op, uf_dtype dt)
{
    LLVMTypeRef ty = uf__lower_dtype(F->L, dt);
    bool one = op == RED_MUL || op == RED_DIV;
    if (uf__dtype_is_complex(dt)) {
        uf_dtype p = uf__dtype_part(dt);
        return uf__emit_complex(F, dt,
                                uf__emit_const_float(F, p, one),
                                uf__emit_const_float(F, p, 0));
    }
    if (uf__dtype_is_float(dt))
        return LLVMConstReal(ty, one ? 1.0 : 0.0);
    return LLVMConstInt(ty, one ? 1 : 0, 0);
}

/* acc op p, as the partials are combined (min/max as Python's: p only
 * when it is strictly smaller/greater). */
static LLVMValueRef combine(uf__fn *F, red_op op, uf_dtype dt,
                            LLVMValueRef acc, LLVMValueRef p)
{
    static const uf__binop ops[] = {UF__OP_ADD, UF__OP_ADD, UF__OP_MUL};
    if (op == RED_MIN || op == RED_MAX) {
        LLVMValueRef c = uf__emit_cmp(F, op == RED_MIN ? UF__CMP_LT
                                                      : UF__CMP_GT,
                                      dt, p, acc);
        return LLVMBuildSelect(B, c, p, acc, "");
    }
    if (op == RED_DIV) /* each block divided 1 by its e's: Numba's rule */
        return uf__emit_binop(F, UF__OP_MUL, dt, acc, p);
    return uf__emit_binop(F, ops[op], dt, acc, p);
}

/* The float operations of a reduction in the outlined body may be
 * reassociated (several accumulators in the vector loop): those reading a
 * version of a reduction's name. */
static void mark_reassoc(uf__fn *G, const reduction *R, int nred)
{
    for (int r = 0; r < nred; r++)
        for (int w = 0; w < G->tf->nvars; w++) {
            if (!G->vars[w] || !same_name(G->tf, w, R[r].var) ||
                !uf__dtype_is_float(R[r].dt))
                continue;
            for (LLVMUseRef u = LLVMGetFirstUse(G->vars[w]); u;
                 u = LLVMGetNextUse(u)) {
                LLVMValueRef ld = LLVMGetUser(u);
                if (!LLVMIsALoadInst(ld))
                    continue;
                for (LLVMUseRef u2 = LLVMGetFirstUse(ld); u2;
                     u2 = LLVMGetNextUse(u2)) {
                    LLVMValueRef op = LLVMGetUser(u2);
                    LLVMOpcode oc = LLVMIsAInstruction(op)
                                        ? LLVMGetInstructionOpcode(op)
                                        : LLVMRet;
                    if (oc == LLVMFAdd || oc == LLVMFSub || oc == LLVMFMul)
                        uf__llvm_set_fmf(op, uf__llvm_get_fmf(op) |
                                                 UF__FMF_REASSOC);
                }
            }
        }
}

bool uf__prange_parallel(uf__fn *F)
{
    return F->fallible && !F->in_prange && F->tf && F->tf->decl &&
           F->tf->decl->parallel && F->L->cg->name &&
           strcmp(F->L->cg->name, "host") == 0;
}

typedef struct outline {
    LLVMTypeRef ctx_ty;
    int *field;       /* per variable: its field in ctx, or -1 */
    int nfields;
    int f_start, f_step;
} outline;

static LLVMValueRef ctx_field(uf__fn *F, const outline *O, LLVMValueRef ctx,
                              int f)
{
    return LLVMBuildStructGEP2(B, O->ctx_ty, ctx, (unsigned)f, "");
}

/* The outlined body: private copies of every variable, the read ones
 * loaded from ctx, the reductions from their identities; the iterations
 * [begin, end); each reduction's partial stored at [block]. */
static LLVMValueRef lower_outlined(uf__fn *F, const uf__stmt *s,
                                   const outline *O,
                                   reduction *R, int nred, uf_dtype rt,
                                   int vi, LLVMValueRef start0,
                                   LLVMValueRef step0)
{
    uf__lower *L = F->L;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef params[4] = {i8p, i64, i64, i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), params,
                                       4, 0);
    char name[256];
    snprintf(name, sizeof name, "%s_%s_prange_%d", L->prefix,
             F->tf->symbol ? F->tf->symbol : F->tf->decl->name, L->seq++);
    LLVMValueRef fn = LLVMAddFunction(L->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_target_attrs(L, fn);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "noinline");
    uf__fn G;
    uf__fn_begin(&G, L, fn, true, F->numpy_model, F->err);
    G.tf = F->tf;
    G.in_prange = true;
    int rc = 0;
    const uf__typed_func *tf = F->tf;
    if (!(G.vars = uf__calloc((size_t)tf->nvars + 1, sizeof *G.vars,
                              F->err))) {
        uf__fn_end(&G);
        return NULL;
    }
    LLVMValueRef ctx = LLVMBuildPointerCast(
        L->b, LLVMGetParam(fn, 0), LLVMPointerType(O->ctx_ty, 0), "ctx");
    for (int v = 0; v < tf->nvars; v++) {
        if (!F->vars[v])
            continue;
        LLVMTypeRef ty = LLVMGetAllocatedType(F->vars[v]);
        G.vars[v] = uf__fn_alloca(&G, ty, tf->vars[v].name);
        LLVMValueRef init = LLVMConstNull(ty);
        if (O->field[v] >= 0)
            init = LLVMBuildLoad2(L->b, ty, ctx_field(&G, O, ctx,
                                                      O->field[v]), "");
        for (int r = 0; r < nred; r++) {
            if (R[r].var != v || R[r].op == RED_MIN || R[r].op == RED_MAX)
                continue;
            if (!R[r].type) {
                init = identity(&G, R[r].op, R[r].dt);
                continue;
            }
            LLVMValueRef buf = LLVMBuildLoad2(
                L->b, i8p, ctx_field(&G, O, ctx, R[r].field), "");
            init = uf__prange_array_partial(&G, &R[r], init, buf,
                                            LLVMGetParam(fn, 3));
        }
        LLVMBuildStore(L->b, init, G.vars[v]);
    }
    /* constants stay constants (prange(n): i = k, contiguous loads) */
    LLVMValueRef start = LLVMIsConstant(start0)
                             ? start0
                             : LLVMBuildLoad2(L->b, i64,
                                              ctx_field(&G, O, ctx,
                                                        O->f_start),
                                              "start");
    LLVMValueRef step = LLVMIsConstant(step0)
                            ? step0
                            : LLVMBuildLoad2(L->b, i64,
                                             ctx_field(&G, O, ctx, O->f_step),
                                             "step");
    /* blocks start at 0 or later: a[i] with i = k needs no wrapping */
    LLVMTypeRef aty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx),
                                       (LLVMTypeRef[]){LLVMInt1TypeInContext(
                                           L->ctx)},
                                       1, 0);
    LLVMValueRef assume = LLVMGetNamedFunction(L->mod, "llvm.assume");
    if (!assume)
        assume = LLVMAddFunction(L->mod, "llvm.assume", aty);
    LLVMValueRef nonneg = LLVMBuildICmp(L->b, LLVMIntSGE, LLVMGetParam(fn, 1),
                                        LLVMConstNull(i64), "");
    LLVMBuildCall2(L->b, aty, assume, &nonneg, 1, "");
    LLVMValueRef kp = uf__fn_alloca(&G, i64, "k");
    LLVMBuildStore(L->b, LLVMGetParam(fn, 1), kp);
    LLVMBasicBlockRef hdr = uf__fn_block(&G, "prange.cond");
    LLVMBasicBlockRef body = uf__fn_block(&G, "prange.body");
    LLVMBasicBlockRef latch = uf__fn_block(&G, "prange.next");
    LLVMBasicBlockRef done = uf__fn_block(&G, "prange.done");
    LLVMBuildBr(L->b, hdr);
    LLVMPositionBuilderAtEnd(L->b, hdr);
    LLVMValueRef k = LLVMBuildLoad2(L->b, i64, kp, "k");
    LLVMBuildCondBr(L->b,
                    LLVMBuildICmp(L->b, LLVMIntSLT, k, LLVMGetParam(fn, 2),
                                  ""),
                    body, done);
    LLVMPositionBuilderAtEnd(L->b, body);
    LLVMValueRef iv = LLVMBuildAdd(L->b, start,
                                   LLVMBuildMul(L->b, k, step, ""), "");
    LLVMBuildStore(L->b, uf__emit_cast(&G, iv, rt, tf->vars[vi].type->dtype),
                   G.vars[vi]);
    /* what an iteration allocates is swept at the latch, as in a
     * statement loop (lower_nrt_loop.c): memory bounded by the
     * variables, not by the block's length */
    if ((rc = uf__nrt_loop_enter(&G, s, NULL, NULL)) == 0 &&
        (rc = uf__lower_push_loop(&G, done, latch)) == 0) {
        rc = uf__lower_block(&G, &s->u.for_.body);
        G.nloops--;
        if (rc == 0)
            uf__nrt_loop_latch(&G, latch);
        uf__nrt_loop_leave(&G);
    }
    if (rc == 0) {
        if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(L->b)))
            LLVMBuildBr(L->b, latch);
        LLVMPositionBuilderAtEnd(L->b, latch);
        LLVMBuildStore(L->b,
                       LLVMBuildAdd(L->b, LLVMBuildLoad2(L->b, i64, kp, ""),
                                    LLVMConstInt(i64, 1, 0), ""),
                       kp);
        LLVMBuildBr(L->b, hdr);
        LLVMPositionBuilderAtEnd(L->b, done);
        LLVMValueRef status = LLVMConstInt(LLVMInt32TypeInContext(L->ctx), 0,
                                           0);
        for (int r = 0; r < nred; r++) {
            LLVMTypeRef ty = LLVMGetAllocatedType(G.vars[R[r].var]);
            if (R[r].type) { /* an array: its partial, or stored there */
                LLVMValueRef st = uf__prange_array_store(
                    &G, &R[r], LLVMBuildLoad2(L->b, ty, G.vars[R[r].var], ""));
                status = LLVMBuildSelect(
                    L->b, LLVMBuildIsNull(L->b, status, ""), st, status, "");
                continue;
            }
            LLVMValueRef arr = LLVMBuildLoad2(
                L->b, LLVMPointerType(ty, 0),
                ctx_field(&G, O, ctx, R[r].field), "");
            LLVMValueRef ix = LLVMGetParam(fn, 3);
            LLVMBuildStore(L->b,
                           LLVMBuildLoad2(L->b, ty, G.vars[R[r].var], ""),
                           LLVMBuildInBoundsGEP2(L->b, ty, arr, &ix, 1, ""));
        }
        LLVMBuildRet(L->b, status);
        /* blocks opened after a continue or a raise: never reached */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            if (!LLVMGetBasicBlockTerminator(bb)) {
                LLVMPositionBuilderAtEnd(L->b, bb);
                LLVMBuildUnreachable(L->b);
            }
        rc = uf__lower_alloc_finish(&G);
    }
    if (rc == 0) {
        mark_reassoc(&G, R, nred);
        if (tf->decl->fastmath)
            uf__llvm_fastmath_function(fn, UF__FMF_FAST);
    }
    uf__fn_end(&G);
    return rc == 0 ? fn : NULL;
}

/* Block lengths from PRANGE_ALIGN_FROM iterations on are rounded up to a
 * multiple of PRANGE_ALIGN (64 bytes of int8, 512 of float64). */
#define PRANGE_ALIGN 64
#define PRANGE_ALIGN_FROM 4096

/* The blocks of a loop of cnt iterations: nb = min(cnt, most) of length
 * ceil(cnt / nb) (rounded up as above), then as many as that length needs
 * -- a function of cnt (and of most: array reductions' sizes) alone. */
static LLVMValueRef blocks(uf__fn *F, LLVMValueRef cnt, LLVMValueRef most,
                           LLVMValueRef *blen_out)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef maxb = LLVMConstInt(i64, UF__PRANGE_MAX_BLOCKS, 0);
    if (most)
        maxb = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, most, maxb,
                                                ""),
                               most, maxb, "");
    LLVMValueRef nb = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntULT, cnt, maxb, ""), cnt, maxb, "");
    nb = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, nb,
                                          LLVMConstNull(i64), ""),
                         one, nb, "");
    LLVMValueRef blen = LLVMBuildUDiv(
        B, LLVMBuildSub(B, LLVMBuildAdd(B, cnt, nb, ""), one, ""), nb, "");
    blen = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, blen,
                                            LLVMConstNull(i64), ""),
                           one, blen, "");
    /* long blocks start on a multiple of PRANGE_ALIGN iterations, so that
     * a block over x[i] starts on a cache line when x does: otherwise
     * most blocks' vector loads straddle two lines */
    LLVMValueRef mask = LLVMConstInt(i64, PRANGE_ALIGN - 1, 0);
    LLVMValueRef up = LLVMBuildAnd(B, LLVMBuildAdd(B, blen, mask, ""),
                                   LLVMBuildNot(B, mask, ""), "");
    blen = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntUGE, blen,
                         LLVMConstInt(i64, PRANGE_ALIGN_FROM, 0), ""),
        up, blen, "blen");
    *blen_out = blen;
    return LLVMBuildUDiv(B, LLVMBuildSub(B, LLVMBuildAdd(B, cnt, blen, ""),
                                         one, ""),
                         blen, "nblocks");
}

/* The runtime's call: its status. */
static LLVMValueRef run_blocks(uf__fn *F, LLVMValueRef cnt, LLVMValueRef nb,
                               LLVMValueRef blen, LLVMValueRef body,
                               LLVMValueRef ctx)
{
    uf__lower *L = F->L;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef pt[5] = {i64, i64, i64, i8p, i8p};
    LLVMTypeRef fty = LLVMFunctionType(LLVMInt32TypeInContext(L->ctx), pt, 5,
                                       0);
    LLVMValueRef rtfn = L->cg->helper(L, UF__RT_PRANGE, fty);
    L->uses_runtime = true;
    LLVMValueRef args[5] = {cnt, nb, blen,
                            LLVMBuildPointerCast(B, body, i8p, ""), ctx};
    return LLVMBuildCall2(B, fty, rtfn, args, 5, "prange.status");
}

LLVMValueRef uf__lower_prange_call(uf__fn *F, LLVMValueRef cnt,
                                   LLVMValueRef body, LLVMValueRef ctx)
{
    LLVMValueRef blen, nb = blocks(F, cnt, NULL, &blen);
    uf__fn_raise_status(F, run_blocks(F, cnt, nb, blen, body, ctx));
    return nb;
}

/* With array reductions: their partials made (out of memory: the loop
 * does not run), the loop, the partials combined and freed, the status
 * raised. */
static LLVMValueRef call_with_arrays(uf__fn *F, LLVMValueRef cnt,
                                     LLVMValueRef most, reduction *R,
                                     int nred, const outline *O,
                                     LLVMValueRef ctx, LLVMValueRef body)
{
    uf__lower *L = F->L;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef blen, nb = blocks(F, cnt, most, &blen);
    LLVMValueRef ok = uf__prange_array_alloc(F, R, nred, nb);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    for (int r = 0; r < nred; r++)
        if (R[r].type)
            LLVMBuildStore(B, LLVMBuildLoad2(B, i8p, R[r].buf, ""),
                           ctx_field(F, O, ctx, R[r].field));
    LLVMValueRef stp = uf__fn_alloca(F, i32, "prange.st");
    LLVMBuildStore(B, LLVMConstInt(i32, UF__JIT_NOMEM, 0), stp);
    LLVMBasicBlockRef go = uf__fn_block(F, "prange.run");
    LLVMBasicBlockRef after = uf__fn_block(F, "prange.ran");
    LLVMBuildCondBr(B, ok, go, after);
    LLVMPositionBuilderAtEnd(B, go);
    LLVMBuildStore(B,
                   run_blocks(F, cnt, nb, blen, body,
                              LLVMBuildPointerCast(B, ctx, i8p, "")),
                   stp);
    LLVMBuildBr(B, after);
    LLVMPositionBuilderAtEnd(B, after);
    LLVMValueRef st = LLVMBuildLoad2(B, i32, stp, "");
    uf__prange_array_finish(F, R, nred, nb, st);
    uf__fn_raise_status(F, st);
    return nb;
}

int uf__lower_prange(uf__fn *F, const uf__stmt *s, LLVMValueRef cnt,
                     LLVMValueRef start, LLVMValueRef step, uf_dtype rt,
                     int vi)
{
    const uf__typed_func *tf = F->tf;
    uf__lower *L = F->L;
    enum { MAXRED = 32 };
    reduction R[MAXRED];
    int nred = 0, rc;
    size_t nv = (size_t)tf->nvars + 1;
    scan S = {tf, s, false, 0, NULL, NULL, NULL, NULL, 0, {0}, NULL};
    outline O = {0};
    LLVMTypeRef *ftys = NULL;
    S.def_in = uf__calloc(nv, 1, F->err);
    S.def_out = uf__calloc(nv, 1, F->err);
    S.reads_in = uf__calloc(nv, sizeof *S.reads_in, F->err);
    S.reads_out = uf__calloc(nv, sizeof *S.reads_out, F->err);
    O.field = uf__calloc(nv, sizeof *O.field, F->err);
    ftys = uf__calloc(nv + 2 + MAXRED, sizeof *ftys, F->err);
    if (!S.def_in || !S.def_out || !S.reads_in || !S.reads_out || !O.field ||
        !ftys) {
        rc = UF_ERR_NOMEM;
        goto done;
    }
    scan_block(&S, &tf->decl->def->u.funcdef.body);
    if (S.bad) {
        rc = uf__source_error(F->err, S.bad, tf->km->src, S.bad_pos,
                              "%s is not supported", S.bad_what);
        goto done;
    }
    if ((rc = find_reductions(F, &S, vi, R, &nred, MAXRED)) != 0)
        goto done;

    /* ctx: the values the body reads, start, step, the partials */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    int nf = 0;
    for (int v = 0; v < tf->nvars; v++) {
        bool minmax = false; /* or an array: read for its shape */
        for (int r = 0; r < nred; r++)
            minmax |= R[r].var == v &&
                      (R[r].op == RED_MIN || R[r].op == RED_MAX ||
                       R[r].type);
        O.field[v] = -1;
        if (F->vars[v] && v != vi &&
            ((S.reads_in[v] && !S.def_in[v]) || minmax)) {
            O.field[v] = nf;
            ftys[nf++] = LLVMGetAllocatedType(F->vars[v]);
        }
    }
    O.f_start = nf;
    ftys[nf++] = i64;
    O.f_step = nf;
    ftys[nf++] = i64;
    for (int r = 0; r < nred; r++) {
        LLVMTypeRef ty = LLVMGetAllocatedType(F->vars[R[r].var]);
        R[r].field = nf;
        ftys[nf++] = R[r].type ? i8p : LLVMPointerType(ty, 0);
        if (R[r].type)
            continue;
        R[r].partials = uf__fn_alloca(
            F, LLVMArrayType(ty, UF__PRANGE_MAX_BLOCKS), "prange.partials");
    }
    O.nfields = nf;
    O.ctx_ty = LLVMStructTypeInContext(L->ctx, ftys, (unsigned)nf, 0);

    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    LLVMValueRef body = lower_outlined(F, s, &O, R, nred, rt, vi, start,
                                       step);
    if (!body) {
        rc = F->err->code ? F->err->code : UF_ERR_INTERNAL;
        goto done;
    }
    LLVMPositionBuilderAtEnd(B, here);

    LLVMValueRef ctx = uf__fn_alloca(F, O.ctx_ty, "prange.ctx");
    for (int v = 0; v < tf->nvars; v++)
        if (O.field[v] >= 0)
            LLVMBuildStore(B,
                           LLVMBuildLoad2(B, ftys[O.field[v]], F->vars[v], ""),
                           ctx_field(F, &O, ctx, O.field[v]));
    LLVMBuildStore(B, start, ctx_field(F, &O, ctx, O.f_start));
    LLVMBuildStore(B, step, ctx_field(F, &O, ctx, O.f_step));
    bool arrays = false;
    for (int r = 0; r < nred; r++) {
        arrays |= R[r].type != NULL;
        if (!R[r].type)
            LLVMBuildStore(B,
                           LLVMBuildPointerCast(B, R[r].partials,
                                                ftys[R[r].field], ""),
                           ctx_field(F, &O, ctx, R[r].field));
    }
    LLVMValueRef nb, most = NULL;
    if (arrays && !(most = uf__prange_array_prepare(F, R, nred))) {
        rc = F->err->code ? F->err->code : UF_ERR_INTERNAL;
        goto done;
    }
    if (arrays)
        nb = call_with_arrays(F, cnt, most, R, nred, &O, ctx, body);
    else
        nb = uf__lower_prange_call(F, cnt, body,
                                   LLVMBuildPointerCast(B, ctx, i8p, ""));
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);

    /* the partials, in block order */
    for (int r = 0; r < nred; r++) {
        if (R[r].type)
            continue; /* combined by call_with_arrays */
        LLVMTypeRef ty = LLVMGetAllocatedType(F->vars[R[r].var]);
        LLVMValueRef bp = uf__fn_alloca(F, i64, "prange.b");
        LLVMBuildStore(B, LLVMConstNull(i64), bp);
        LLVMBasicBlockRef hdr = uf__fn_block(F, "prange.combine");
        LLVMBasicBlockRef step_bb = uf__fn_block(F, "prange.combine.step");
        LLVMBasicBlockRef end = uf__fn_block(F, "prange.combined");
        LLVMBuildBr(B, hdr);
        LLVMPositionBuilderAtEnd(B, hdr);
        LLVMValueRef b = LLVMBuildLoad2(B, i64, bp, "");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, b, nb, ""), step_bb,
                        end);
        LLVMPositionBuilderAtEnd(B, step_bb);
        LLVMValueRef pp = LLVMBuildPointerCast(B, R[r].partials,
                                               LLVMPointerType(ty, 0), "");
        LLVMValueRef p = LLVMBuildLoad2(
            B, ty, LLVMBuildInBoundsGEP2(B, ty, pp, &b, 1, ""), "");
        LLVMValueRef acc = LLVMBuildLoad2(B, ty, F->vars[R[r].var], "");
        LLVMBuildStore(B, combine(F, R[r].op, R[r].dt, acc, p),
                       F->vars[R[r].var]);
        LLVMBuildStore(B, LLVMBuildAdd(B, b, one, ""), bp);
        LLVMBuildBr(B, hdr);
        LLVMPositionBuilderAtEnd(B, end);
    }
    /* no break leaves a prange loop: its else block always runs */
    rc = uf__lower_block(F, &s->u.for_.orelse);
done:
    uf__free(S.def_in);
    uf__free(S.def_out);
    uf__free(S.reads_in);
    uf__free(S.reads_out);
    uf__free(O.field);
    uf__free(ftys);
    return rc;
}
