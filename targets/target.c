/* The target registry (target.h): one line per target. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cpu/cpu_target.h"
#include "targets/cuda/cuda_target.h"
#include "targets/parallel/parallel_target.h"
#include "targets/target.h"

const uf__target *const uf__target_registry[] = {
    &uf__target_cpu,
    &uf__target_parallel,
    &uf__target_cuda,
    &uf__target_cudasim,
    NULL,
};

#define NTARGETS ((int)(sizeof uf__target_registry / \
                        sizeof uf__target_registry[0]) - 1)

/* Every target ufjit defines (DESIGN.md, section 5) is built now: a
 * name the registry lacks is a usage error. */
bool uf__target_defined(const char *name)
{
    return uf__target_find(name) != NULL;
}

const char *uf__target_names(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < NTARGETS && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                                uf__target_registry[i]->name);
    return buf;
}

int uf__target_count(void)
{
    return NTARGETS;
}

const uf__target *uf__target_at(int i)
{
    return i >= 0 && i < NTARGETS ? uf__target_registry[i] : NULL;
}

const char *uf__target_list(unsigned caps, char *buf, size_t size)
{
    int n = 0, k = 0;
    size_t len = 0;

    for (int i = 0; i < NTARGETS; i++)
        n += (uf__target_registry[i]->caps & caps) == caps;
    buf[0] = '\0';
    for (int i = 0; i < NTARGETS && len < size; i++) {
        if ((uf__target_registry[i]->caps & caps) != caps)
            continue;
        const char *sep = k == 0 ? "" : k == n - 1 ? " and " : ", ";
        len += (size_t)snprintf(buf + len, size - len, "%s'%s'", sep,
                                uf__target_registry[i]->name);
        k++;
    }
    return buf;
}

const uf__target *uf__target_unavailable(const char *name, unsigned caps,
                                         uf_error *err)
{
    char list[128];
    if (name != NULL && uf__target_find(name) == NULL) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "unknown target '%s' (the targets are %s)", name,
                      uf__target_names(list, sizeof list));
        return NULL;
    }
    uf__error_set(err, UF_ERR_UNSUPPORTED,
                  "target '%s' is not available yet (only %s)",
                  name != NULL ? name : UF__TARGET_DEFAULT,
                  uf__target_list(caps, list, sizeof list));
    return NULL;
}
