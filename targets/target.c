/* The target registry (target.h): one line per target. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cpu/cpu_target.h"
#include "targets/parallel/parallel_target.h"
#include "targets/target.h"

static const uf__target *const registry[] = {
    &uf__target_cpu,
    &uf__target_parallel,
};

#define NTARGETS ((int)(sizeof registry / sizeof registry[0]))

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
                                registry[i]->name);
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
    return i >= 0 && i < NTARGETS ? registry[i] : NULL;
}

const uf__target *uf__target_find(const char *name)
{
    if (name == NULL)
        return registry[0];
    /* every call asks: a first-character test before strcmp */
    for (int i = 0; i < NTARGETS; i++)
        if (registry[i]->name[0] == name[0] &&
            strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *uf__target_list(unsigned caps, char *buf, size_t size)
{
    int n = 0, k = 0;
    size_t len = 0;

    for (int i = 0; i < NTARGETS; i++)
        n += (registry[i]->caps & caps) == caps;
    buf[0] = '\0';
    for (int i = 0; i < NTARGETS && len < size; i++) {
        if ((registry[i]->caps & caps) != caps)
            continue;
        const char *sep = k == 0 ? "" : k == n - 1 ? " and " : ", ";
        len += (size_t)snprintf(buf + len, size - len, "%s'%s'", sep,
                                registry[i]->name);
        k++;
    }
    return buf;
}

const uf__target *uf__target_get(const char *name, unsigned caps,
                                 uf_error *err)
{
    const uf__target *t = uf__target_find(name);
    if (t != NULL && (t->caps & caps) == caps)
        return t;
    char list[128];
    uf__error_set(err, UF_ERR_UNSUPPORTED,
                  "target '%s' is not available yet (only %s)", name,
                  uf__target_list(caps, list, sizeof list));
    return NULL;
}
