/* The target registry (target.h): one line per target. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cpu/cpu_target.h"
#include "targets/parallel/parallel_target.h"
#include "targets/target.h"

const uf__target *const uf__target_registry[] = {
    &uf__target_cpu,
    &uf__target_parallel,
    NULL,
};

#define NTARGETS ((int)(sizeof uf__target_registry / \
                        sizeof uf__target_registry[0]) - 1)

/* Targets ufjit defines (DESIGN.md, section 5) that this build has not
 * yet: a call naming one is refused as "not available yet", where the
 * command line refuses an unknown name as a usage error. A target leaves
 * this list when it joins the registry. */
static const char *const not_built[] = {"cuda", "cudasim"};

bool uf__target_defined(const char *name)
{
    if (uf__target_find(name) != NULL)
        return true;
    for (size_t i = 0; i < sizeof not_built / sizeof not_built[0]; i++)
        if (strcmp(not_built[i], name) == 0)
            return true;
    return false;
}

const char *uf__target_names(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < NTARGETS && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                                uf__target_registry[i]->name);
    for (size_t i = 0; i < sizeof not_built / sizeof not_built[0] &&
                       len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, ", %s", not_built[i]);
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
    uf__error_set(err, UF_ERR_UNSUPPORTED,
                  "target '%s' is not available yet (only %s)",
                  name != NULL ? name : UF__TARGET_DEFAULT,
                  uf__target_list(caps, list, sizeof list));
    return NULL;
}
