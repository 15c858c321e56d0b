/* Records every call of instrumented code (-finstrument-functions) as
 * "> FUNCTION CALL_SITE" (addresses relative to the program's load bias)
 * and every return as "<", into $UF_WALK_OUT: call-walk.sh builds ufjit
 * with it and walk.py names the functions and folds the walk by folder. */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINST __attribute__((no_instrument_function))

static FILE *out;
static uintptr_t bias;

NOINST static int first_object(struct dl_phdr_info *info, size_t size,
                               void *data)
{
    (void)size;
    (void)data;
    bias = info->dlpi_addr; /* the program itself comes first */
    return 1;
}

NOINST __attribute__((constructor)) static void start(void)
{
    const char *path = getenv("UF_WALK_OUT");
    dl_iterate_phdr(first_object, NULL);
    out = path != NULL ? fopen(path, "w") : NULL;
}

NOINST void __cyg_profile_func_enter(void *fn, void *site)
{
    if (out != NULL)
        fprintf(out, "> %lx %lx\n", (unsigned long)((uintptr_t)fn - bias),
                (unsigned long)((uintptr_t)site - bias));
}

NOINST void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
    if (out != NULL)
        fputs("<\n", out);
}
