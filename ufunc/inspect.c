/* The listings of a vectorize kernel's specialisations for
 * uf_func_inspect: typed source, optimised LLVM IR and host assembly
 * (from the context's loop cache: inspecting after a call compiles
 * nothing). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/strbuf.h"
#include "compiler/context.h"
#include "compiler/module.h"
#include "compiler/nvvm/nvvm.h"
#include "ufunc/inspect.h"
#include "ufunc/vectorize.h"

/* The part of a listing from the line holding `start` to the end of the
 * line holding `end` (searched after start), appended to out; false when
 * `start` is not there. */
static bool append_between(uf__strbuf *out, const char *text,
                           const char *start, const char *end)
{
    const char *a = strstr(text, start);
    if (a == NULL)
        return false;
    while (a > text && a[-1] != '\n')
        a--;
    const char *b = strstr(a, end);
    b = b ? strchr(b + 1, '\n') : NULL; /* the line after a leading \n */
    size_t n = b ? (size_t)(b - a) + 1 : strlen(a);
    uf__strbuf_printf(out, "%.*s\n", (int)n, a);
    return true;
}

/* The listing of contig `sym` in `ir`, or in `asm_text` when not NULL (a
 * blocked contig, lower.h, is the loop function itself: "..._blk"). */
static void append_contig(uf__strbuf *out, const char *ir,
                          const char *asm_text, const char *sym)
{
    char start[UF__JIT_SYMBOL_MAX + 16], end[UF__JIT_SYMBOL_MAX + 16];
    if (asm_text == NULL) {
        snprintf(start, sizeof start, "@%s(", sym);
        append_between(out, ir, start, "\n}");
    } else {
        snprintf(start, sizeof start, "\n%s:", sym);
        snprintf(end, sizeof end, ".size\t%s,", sym);
        append_between(out, asm_text, start + 1, end);
    }
}

int uf__inspect_append_ptx(uf__strbuf *out, const uf__nvvm_spec *specs,
                           int n, uf_error *err)
{
    return uf__inspect_append_ptx_opts(out, specs, n, NULL, err);
}

int uf__inspect_append_ptx_opts(uf__strbuf *out, const uf__nvvm_spec *specs,
                                int n, const uf__nvvm_options *opts,
                                uf_error *err)
{
    uf__nvvm_ptx ptx;
    if (uf__nvvm_ufuncs_ptx(specs, n, opts, &ptx, err) != 0)
        return err->code;
    uf__strbuf_printf(out, "// PTX (%s, %s)\n%s\n",
                      ptx.backend == UF__NVVM_LIBNVVM ? "libnvvm" : "LLVM NVPTX",
                      ptx.arch, ptx.ptx);
    char sm[24], *log = NULL;
    const char *d = strchr(ptx.arch, '_');
    snprintf(sm, sizeof sm, "sm_%s", d ? d + 1 : "80");
    uf_error perr;
    if (uf__nvvm_ptxas(ptx.ptx, sm, &log, &perr) == 0) {
        uf__strbuf_printf(out, "// ptxas -arch=%s -v:\n", sm);
        for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
            uf__strbuf_printf(out, "//   %s\n", line);
    } else {
        uf__strbuf_printf(out, "// ptxas: %s\n", perr.message);
    }
    uf__free(log);
    uf__nvvm_ptx_free(&ptx);
    return 0;
}

/* The PTX of tf's CUDA kernel (contiguous variant). */
static int append_ptx(uf__strbuf *out, const uf__typed_func *tf,
                      const uf__type *ret, uf_error *err)
{
    uf_dtype outs[UF__LOOP_MAXARGS];
    if (ret->kind == UF__T_TUPLE) {
        for (int k = 0; k < ret->n && k < UF__LOOP_MAXARGS; k++)
            outs[k] = ret->elts[k]->dtype;
    } else {
        outs[0] = ret->dtype;
    }
    uf__nvvm_spec spec = {.tf = tf, .out_types = outs};
    return uf__inspect_append_ptx(out, &spec, 1, err);
}

/* One signature's listings: the typed source (typing is cached by the
 * module), and the signature's loop in the optimised IR and the assembly
 * -- the loop taken from the context's loop cache (compiling it if it is
 * not there yet), its listing made by optimising it again on its own
 * (compiles keep no IR text). */
int uf__vectorize_inspect(uf_func *f, const char *sigtext, unsigned what,
                          uf__strbuf *out, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    if (uf__parse_signature(km->tc, km->arena, sigtext, &sig, err) < 0)
        return err->code;
    uf__ufunc_loop loop;
    const uf__cached_loop *entry = NULL;
    bool listing = (what & (UF_INSPECT_LLVM | UF_INSPECT_ASM)) != 0;
    int nout = 0, rc = 0;
    if (listing &&
        uf__vectorize_loops(f->module->ctx, km, f->module->text,
                            f->module->src.len, f->decl, 1, &sig, &loop,
                            &nout, &entry, NULL, err) < 0)
        return err->code;
    uf__strbuf_printf(out, "== %s %s ==\n", f->decl->name, sigtext);
    uf__typed_func *tf = NULL;
    if (what & (UF_INSPECT_TYPES | UF_INSPECT_PTX) || listing) {
        tf = uf__infer(km, f->decl, sig.args, sig.nargs, sig.ret, err);
        if (tf == NULL)
            return err->code;
    }
    if (what & UF_INSPECT_TYPES) {
        char *dump = uf__typed_func_dump(tf, err);
        if (dump == NULL)
            return err->code;
        uf__strbuf_printf(out, "%s\n", dump);
        uf__free(dump);
    }
    if (listing) {
        uf__jit *jit = uf__context_jit(f->module->ctx, err);
        if (jit == NULL)
            return err->code;
        char symbol[UF__JIT_SYMBOL_MAX], *ir = (char *)entry->module_ir;
        bool own = ir == NULL;
        if (ir)
            snprintf(symbol, sizeof symbol, "%s", entry->symbol);
        else if (uf__jit_ufunc_contig_ir(jit, tf, entry->loop.types + sig.nargs,
                                         symbol, &ir, err) != 0)
            return err->code;
        if (what & UF_INSPECT_LLVM)
            append_contig(out, ir, NULL, symbol);
        if (what & UF_INSPECT_ASM) {
            char *asm_text = uf__jit_asm_from_ir(jit, ir, err);
            if (asm_text == NULL)
                rc = err->code;
            else
                append_contig(out, ir, asm_text, symbol);
            uf__free(asm_text);
        }
        if (own)
            uf__free(ir);
    }
    if (rc == 0 && (what & UF_INSPECT_PTX))
        rc = append_ptx(out, tf, sig.ret ? sig.ret : tf->ret, err);
    if (rc == 0 && out->failed)
        rc = err->code;
    return rc;
}
