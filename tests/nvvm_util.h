/* Helpers of the CUDA code generator's tests (test_nvvm_*.c): a kernel
 * file's vectorize signatures as uf__nvvm_spec's, the toolkit's presence. */
#ifndef UF_TESTS_NVVM_UTIL_H
#define UF_TESTS_NVVM_UTIL_H

#include "test_util.h"

#include "common/alloc.h"
#include "compiler/front/kmodule.h"
#include "compiler/nvvm/nvvm.h"

#ifndef UF_TEST_KERNELS_DIR
#define UF_TEST_KERNELS_DIR UF_TEST_DATA_DIR "/../kernels"
#endif

/* A kernel file read and scanned (NULL when it does not parse: the
 * err_*.py files). */
typedef struct nvvm_file {
    char *text;
    uf__source src;
    uf__kmodule *km;
} nvvm_file;

static inline bool nvvm_file_load(nvvm_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    f->text = malloc((size_t)n + 1);
    if (!f->text || fread(f->text, 1, (size_t)n, fp) != (size_t)n) {
        fclose(fp);
        free(f->text);
        f->text = NULL;
        return false;
    }
    fclose(fp);
    f->text[n] = '\0';
    f->src = (uf__source){path, f->text, (size_t)n};
    uf_error err;
    f->km = uf__kmodule_new(&f->src, &err);
    return f->km != NULL;
}

static inline void nvvm_file_free(nvvm_file *f)
{
    if (f->km)
        uf__kmodule_free(f->km);
    free(f->text);
    memset(f, 0, sizeof *f);
}

/* One signature of a kernel, typed; outs holds its output dtypes. */
typedef struct nvvm_sig {
    uf__nvvm_spec spec;
    uf_dtype outs[8];
    const char *kernel, *sig;
} nvvm_sig;

/* The typed signature `text` of `d`; false when the CPU target refuses it
 * too (not the CUDA target's business). */
static inline bool nvvm_sig_make(uf__kmodule *km, const uf__kernel_decl *d,
                                 const char *text, nvvm_sig *s)
{
    uf_error err;
    uf__signature sig;
    memset(s, 0, sizeof *s);
    if (uf__parse_signature(km->tc, km->arena, text, &sig, &err) != 0 ||
        !sig.ret)
        return false;
    uf__typed_func *tf =
        uf__infer(km, d, sig.args, sig.nargs, sig.ret, &err);
    if (!tf)
        return false;
    const uf__type *r = sig.ret;
    if (r->kind == UF__T_TUPLE) {
        if (r->n > 8)
            return false;
        for (int k = 0; k < r->n; k++) {
            if (r->elts[k]->kind != UF__T_SCALAR)
                return false;
            s->outs[k] = r->elts[k]->dtype;
        }
    } else if (r->kind == UF__T_SCALAR) {
        s->outs[0] = r->dtype;
    } else {
        return false;
    }
    s->spec.tf = tf;
    s->spec.out_types = s->outs;
    s->spec.v.layout = UF__NVVM_CONTIG;
    s->kernel = d->name;
    s->sig = text;
    return true;
}

/* Prints why a part is skipped (CTest shows the output). */
static inline bool nvvm_have_libnvvm(void)
{
    const uf__nvvm_toolkit *t = uf__nvvm_toolkit_get();
    if (!t->libnvvm_path || !t->libdevice_path) {
        printf("SKIP libnvvm part: %s\n",
               t->libnvvm_path ? t->libdevice_why : t->libnvvm_why);
        return false;
    }
    return true;
}

static inline bool nvvm_have_ptxas(void)
{
    const uf__nvvm_toolkit *t = uf__nvvm_toolkit_get();
    if (!t->ptxas_path) {
        printf("SKIP ptxas checks: %s\n", t->ptxas_why);
        return false;
    }
    return true;
}

#endif
