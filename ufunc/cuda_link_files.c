/* A kernel's link files to linker inputs, by extension as numba-cuda's
 * Linker.add_file_guess_ext takes them (cudadrv/driver.py); .cu through
 * nvcc (compiler/nvvm/nvvm_nvcc.c). */
#include <string.h>
#include <sys/stat.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm.h"
#include "ufunc/cuda_link_files.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

static int add_file(uf__cuda_link_inputs *li, const char *path,
                    const char *arch, uf_error *err)
{
    uf__cu_link_input *in = &li->in[li->n];
    in->name = path;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return uf__error_set(err, UF_ERR_NOT_FOUND, "link file %s not found "
                             "(link= paths are relative to the kernel "
                             "file's folder)", path);
    static const struct {
        const char *ext;
        uf__cu_jit_input type;
    } by_path[] = {{".cubin", UF__CU_JIT_INPUT_CUBIN},
                   {".fatbin", UF__CU_JIT_INPUT_FATBINARY},
                   {".o", UF__CU_JIT_INPUT_OBJECT},
                   {".a", UF__CU_JIT_INPUT_LIBRARY}};
    for (size_t i = 0; i < sizeof by_path / sizeof by_path[0]; i++)
        if (ends_with(path, by_path[i].ext)) {
            in->type = by_path[i].type;
            in->path = path;
            li->n++;
            return 0;
        }
    char *text = NULL;
    if (ends_with(path, ".ptx"))
        text = uf__nvvm_read_text(path, err);
    else if (ends_with(path, ".cu"))
        (void)uf__nvvm_nvcc_ptx(path, arch, &text, err);
    else if (ends_with(path, ".ltoir"))
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "link file %s: LTO-IR "
                             "needs link-time optimisation (nvJitLink), "
                             "which ufjit does not do; link PTX, CUDA C, "
                             "a cubin, fatbin, object or library", path);
    else
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "link file %s: unknown "
                             "kind (link= takes .ptx, .cu, .cubin, .fatbin, "
                             ".o and .a files)", path);
    if (text == NULL)
        return err->code;
    li->text[li->n] = text;
    in->type = UF__CU_JIT_INPUT_PTX;
    in->data = text;
    in->size = strlen(text) + 1;
    li->n++;
    return 0;
}

int uf__cuda_link_inputs_get(const uf_func *f, const char *arch,
                             uf__cuda_link_inputs *out, uf_error *err)
{
    memset(out, 0, sizeof *out);
    const char *paths[UF__CUDA_MAX_LINK + 1];
    int n = uf__kmodule_link_files(f->module->km, f->decl, paths,
                                   UF__CUDA_MAX_LINK + 1);
    if (n > UF__CUDA_MAX_LINK)
        return uf__error_set(err, UF_ERR_LIMIT, "kernel '%s' links more than "
                             "%d files", f->decl->name, UF__CUDA_MAX_LINK);
    for (int i = 0; i < n; i++)
        if (add_file(out, paths[i], arch, err) != 0)
            return err->code;
    return 0;
}

void uf__cuda_link_inputs_clear(uf__cuda_link_inputs *li)
{
    for (int i = 0; i < li->n; i++)
        uf__free(li->text[i]);
    li->n = 0;
}
