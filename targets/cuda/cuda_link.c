/* The driver's linker, as numba-cuda's cudadrv/driver.py CtypesLinker
 * drives it: one link state with an error and an info log, the kernel's
 * PTX and each input added, the cubin loaded before the state (which owns
 * it) is destroyed. */
#include <stdint.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_link.h"

enum { LOG_BYTES = 8192 };

typedef struct link_logs {
    char error[LOG_BYTES], info[LOG_BYTES];
} link_logs;

/* err from a failed linker call: the call, the input, the driver's
 * error, and the linker's log when it wrote one. */
static int failed(const uf__cu_driver *d, uf__cu_result rc, const char *call,
                  const char *input, const link_logs *logs, uf_error *err)
{
    uf_error base;
    uf_error_clear(&base);
    uf__cu_check(d, rc, call, &base);
    const char *log = logs->error;
    size_t len = strnlen(log, LOG_BYTES);
    while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '))
        len--;
    return uf__error_set(err, base.code, "linking with foreign device code "
                         "failed%s%s: %s%s%.*s", input ? " at " : "",
                         input ? input : "", base.message,
                         len ? "; the linker says: " : "", (int)len, log);
}

int uf__cuda_link_load(const uf__cu_driver *d, const char *ptx,
                       const uf__cu_link_input *in, int n,
                       uf__cu_module *mod, uf_error *err)
{
    if (!d->link_create || !d->link_add_data || !d->link_add_file ||
        !d->link_complete || !d->link_destroy)
        return uf__error_set(err, UF_ERR_NO_DEVICE, "the %s driver has no "
                             "linker (cuLinkCreate_v2 ...): kernels calling "
                             "foreign device code (cuda.declare_device, "
                             "link=) need a GPU and NVIDIA's libcuda",
                             d->name);
    link_logs all = {{0}, {0}}, *logs = &all;
    int opts[] = {UF__CU_JIT_ERROR_LOG_BUFFER,
                  UF__CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                  UF__CU_JIT_INFO_LOG_BUFFER,
                  UF__CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {logs->error, (void *)(uintptr_t)(LOG_BYTES - 1),
                      logs->info, (void *)(uintptr_t)(LOG_BYTES - 1)};
    uf__cu_link state = NULL;
    uf__cu_result rc = d->link_create(4, opts, values, &state);
    if (rc != UF__CU_SUCCESS)
        return failed(d, rc, "cuLinkCreate", NULL, logs, err);
    int code = 0;
    rc = d->link_add_data(state, UF__CU_JIT_INPUT_PTX, (void *)ptx,
                          strlen(ptx) + 1, "kernel.ptx", 0, NULL, NULL);
    if (rc != UF__CU_SUCCESS)
        code = failed(d, rc, "cuLinkAddData", "the kernel's PTX", logs, err);
    for (int i = 0; code == 0 && i < n; i++) {
        if (in[i].data)
            rc = d->link_add_data(state, (int)in[i].type, (void *)in[i].data,
                                  in[i].size, in[i].name, 0, NULL, NULL);
        else
            rc = d->link_add_file(state, (int)in[i].type, in[i].path, 0,
                                  NULL, NULL);
        if (rc != UF__CU_SUCCESS)
            code = failed(d, rc, in[i].data ? "cuLinkAddData"
                                            : "cuLinkAddFile",
                          in[i].name, logs, err);
    }
    void *cubin = NULL;
    size_t size = 0;
    if (code == 0 &&
        (rc = d->link_complete(state, &cubin, &size)) != UF__CU_SUCCESS)
        code = failed(d, rc, "cuLinkComplete", NULL, logs, err);
    if (code == 0 &&
        (rc = d->module_load_data(mod, cubin)) != UF__CU_SUCCESS)
        code = failed(d, rc, "cuModuleLoadData", "the linked cubin", logs,
                      err);
    (void)d->link_destroy(state);
    return code;
}
