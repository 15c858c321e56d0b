/* Memory manager tables from outside: the checks every table passes
 * before use, and UFJIT_CUDA_MEMORY_MANAGER=path.so:symbol's loader. */
#include <dlfcn.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_mm_plugin.h"

int uf__cuda_mm_validate(const uf_cuda_memory_manager *mm, const char *where,
                         uf_error *err)
{
    const char *name = mm->name ? mm->name : "(unnamed)";
    if (mm->interface_version != UF_CUDA_MM_INTERFACE_VERSION)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: memory manager '%s' implements interface "
                             "version %d; ufjit speaks version %d", where,
                             name, mm->interface_version,
                             UF_CUDA_MM_INTERFACE_VERSION);
    const char *missing =
        !mm->memalloc ? "memalloc"
        : !mm->memfree ? "memfree"
        : !mm->memhostalloc != !mm->memhostfree ? "memhostalloc/memhostfree"
        : !mm->mempin != !mm->memunpin ? "mempin/memunpin"
        : !mm->defer_cleanup_begin != !mm->defer_cleanup_end
            ? "defer_cleanup_begin/end"
            : NULL;
    if (missing)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: memory manager '%s' lacks %s (device "
                             "memory needs both memalloc and memfree; the "
                             "other pairs come both or neither)", where,
                             name, missing);
    return 0;
}

int uf__cuda_mm_load_plugin(const char *spec, const char *where,
                            uf_cuda_memory_manager *out, uf_error *err)
{
    char path[4096];
    const char *colon = strrchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : 0;
    if (colon == NULL || n == 0 || colon[1] == '\0' || n >= sizeof path)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s='%s': expected "
                             "/path/to/plugin.so:factory_symbol", where,
                             spec);
    memcpy(path, spec, n);
    path[n] = '\0';
    /* kept loaded for the process's life: its tables may be in use */
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL)
        return uf__error_set(err, UF_ERR_NOT_FOUND,
                             "%s: cannot load %s: %s", where, path,
                             dlerror());
    uf_cuda_mm_factory factory;
    void *sym = dlsym(dl, colon + 1);
    memcpy(&factory, &sym, sizeof factory); /* object to function pointer */
    if (sym == NULL)
        return uf__error_set(err, UF_ERR_NOT_FOUND,
                             "%s: %s has no symbol '%s'", where, path,
                             colon + 1);
    uf_error perr;
    uf_error_clear(&perr);
    memset(out, 0, sizeof *out);
    if (factory(UF_CUDA_MM_INTERFACE_VERSION, out, &perr) != 0)
        return uf__error_set(err, perr.code ? perr.code : UF_ERR_INTERNAL,
                             "%s: %s's %s failed: %s", where, path,
                             colon + 1,
                             perr.message[0] ? perr.message
                                             : "(no message)");
    return uf__cuda_mm_validate(out, where, err);
}

int uf_cuda_memory_manager_load(const char *spec, uf_cuda_memory_manager *out,
                                uf_error *err)
{
    if (spec == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_memory_manager_load: NULL argument");
    return uf__cuda_mm_load_plugin(spec, "uf_cuda_memory_manager_load", out,
                                   err);
}
