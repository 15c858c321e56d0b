/* Scratch cache directories for the disk-cache tests
 * (tests/test_disk_cache.c and the per-kind tests through
 * test_disk_cache_kinds.h): made fresh, listed, removed. */
#ifndef UF_TESTS_DISK_CACHE_TEST_UTIL_H
#define UF_TESTS_DISK_CACHE_TEST_UTIL_H

#include <dirent.h>

#include "test_util.h"

/* room for a listed file: the directory (or a subdirectory of it) and a
 * name */
#define DK_NAME_MAX 300

static char dk_dir[256];

static inline void dk_fresh_dir(void)
{
    snprintf(dk_dir, sizeof dk_dir, "/tmp/ufjit-dk-XXXXXX");
    assert_non_null(mkdtemp(dk_dir));
    setenv("UFJIT_CACHE_DIR", dk_dir, 1);
}

static inline void dk_remove_dir(const char *d)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
}

/* The *.ufo files of d (names of the first 16 into names), their number;
 * anything else there (a temporary) fails the test. */
static inline int dk_list(const char *d, char names[16][DK_NAME_MAX])
{
    DIR *dp = opendir(d);
    int n = 0;
    if (!dp)
        return 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".ufo") == 0) {
            if (n < 16 && names)
                if (snprintf(names[n], DK_NAME_MAX, "%s/%s", d,
                             e->d_name) >= DK_NAME_MAX)
                    fail_msg("cache file name too long: %s", e->d_name);
            n++;
        } else if (e->d_name[0] != '.') {
            fail_msg("unexpected file %s in the cache", e->d_name);
        }
    }
    closedir(dp);
    return n;
}

/* For a test_disk_cache_<kind>.c, after test_disk_cache_kinds.h: defines
 * SMALL, the one-compilation kind of the allocation walk and --time, and
 * its check. `source` has one kernel and no called function ($O and $C
 * for the options, kind_options); `run_fn` calls it; its one value is
 * `want` (either callee version); `fixed` is dk_kind.nfixed. */
#define DK_SMALL_KIND(source, run_fn, want, fixed)                          \
    static void check_small(const dk_vals *v, int which)                    \
    {                                                                       \
        (void)which;                                                        \
        assert_int_equal(v->n, 1);                                          \
        assert_true(v->v[0] == (want));                                     \
    }                                                                       \
    static const dk_kind SMALL = {                                          \
        .src = source,                                                      \
        .callee = {"", ""},                                                 \
        .run = run_fn,                                                      \
        .check = check_small,                                               \
        .ncompiles = 1,                                                     \
        .nfiles = 1,                                                        \
        .options = kind_options,                                            \
        .nfixed = fixed,                                                    \
    }

#endif
