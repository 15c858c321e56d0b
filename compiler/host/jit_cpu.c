/* UFJIT_CPU_NAME and UFJIT_CPU_FEATURES (jit_cpu.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_cpu.h"

/* '+' or '-' for the last mention of `name` in a comma-separated LLVM
 * feature list, 0 for none. */
static char last_mention(const char *features, const char *name, size_t len)
{
    char sign = 0;
    for (const char *p = features; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len + 1 && (*p == '+' || *p == '-') &&
            strncmp(p + 1, name, len) == 0)
            sign = *p;
        p += n + (end != NULL);
    }
    return sign;
}

bool uf__jit_cpu_has(const char *features, const char *name)
{
    if (last_mention(features, name, strlen(name)) != '+')
        return false;
    if (strcmp(name, "avx512f") == 0)
        return uf__jit_cpu_has(features, "avx2");
    if (strcmp(name, "avx2") == 0)
        return uf__jit_cpu_has(features, "avx");
    return true;
}

/* Checks the UFJIT_CPU_FEATURES list: "+name" or "-name" entries, names
 * of letters, digits, '_', '.' and '-', none turning on what the host's
 * list turns off. */
static int check_edits(const char *host, const char *edits, uf_error *err)
{
    for (const char *p = edits; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        bool ok = n >= 2 && (*p == '+' || *p == '-');
        for (size_t i = 1; ok && i < n; i++)
            ok = isalnum((unsigned char)p[i]) || strchr("_.-", p[i]);
        if (!ok)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "UFJIT_CPU_FEATURES: '%.*s' is not +FEATURE "
                                 "or -FEATURE (LLVM's names, comma-separated)",
                                 (int)n, p);
        if (*p == '+' && last_mention(host, p + 1, n - 1) == '-')
            return uf__error_set(err, UF_ERR_VALUE,
                                 "UFJIT_CPU_FEATURES: '%.*s': this CPU does "
                                 "not have %.*s (code using it would not run)",
                                 (int)n, p, (int)(n - 1), p + 1);
        p += n + (end != NULL);
    }
    return 0;
}

int uf__jit_cpu_override(char **cpu, char **features, uf_error *err)
{
    const char *name = getenv("UFJIT_CPU_NAME");
    if (name && *name) {
        char *s = uf__strdup(name, err);
        if (!s)
            return err->code;
        uf__free(*cpu);
        *cpu = s;
    }
    const char *edits = getenv("UFJIT_CPU_FEATURES");
    if (!edits || !*edits)
        return 0;
    if (check_edits(*features, edits, err) != 0)
        return err->code;
    size_t n = strlen(*features), m = strlen(edits);
    char *s = uf__malloc(n + m + 2, 1, err);
    if (!s)
        return err->code;
    snprintf(s, n + m + 2, "%s%s%s", *features, n ? "," : "", edits);
    uf__free(*features);
    *features = s;
    return 0;
}
