/* Large buffers advised to transparent huge pages (common/hugepage.h):
 * arrays of 4 MiB or more start on a 2 MiB boundary and their mapping
 * carries the kernel's "hg" flag (MADV_HUGEPAGE) in /proc/self/smaps, for
 * ufjit's arrays and for the blocks kernels allocate; small ones do not
 * pay the alignment. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/hugepage.h"
#include "common/nrt.h"

#define THP "/sys/kernel/mm/transparent_hugepage/enabled"

static bool have_thp(void)
{
    if (!uf__hugepage_enabled()) {
        print_message("SKIP: UFJIT_MADVISE_HUGEPAGE=0 in the environment\n");
        return false;
    }
    if (access(THP, R_OK) == 0)
        return true;
    print_message("SKIP: no transparent huge pages in this kernel (%s)\n",
                  THP);
    return false;
}

/* The VmFlags line of the mapping holding p, from /proc/self/smaps. */
static bool vm_flags(const void *p, char *out, size_t n)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL)
        return false;
    char line[512];
    bool inside = false, found = false;
    uintptr_t a = (uintptr_t)p;
    while (!found && fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's line */
            inside = a >= lo && a < hi;
        else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            snprintf(out, n, "%s", line + 8);
            found = true;
        }
    }
    fclose(f);
    return found;
}

static bool advised(const void *p)
{
    char flags[512];
    assert_true(vm_flags(p, flags, sizeof flags));
    return strstr(flags, " hg") != NULL;
}

static void test_large_array_on_huge_pages(void **state)
{
    (void)state;
    if (!have_thp())
        skip();
    uf_error err;
    int64_t shape[1] = {1 << 20}; /* 8 MiB of float64 */
    uf_array *a = uf_zeros(UF_FLOAT64, 1, shape, UF_ORDER_C, &err);
    assert_non_null(a);
    const double *d = uf_array_data(a);
    assert_int_equal((uintptr_t)d % UF__HUGEPAGE_ALIGN, 0);
    assert_true(advised(d));
    assert_true(advised(d + shape[0] - 1));
    for (int64_t i = 0; i < shape[0]; i += 4097)
        assert_true(d[i] == 0.0);
    uf_array_release(a);
}

static void test_small_array_keeps_its_alignment(void **state)
{
    (void)state;
    if (!uf__hugepage_enabled()) {
        print_message("SKIP: UFJIT_MADVISE_HUGEPAGE=0 in the environment\n");
        skip();
    }
    uf_error err;
    void *p = uf__malloc_aligned(UF__HUGEPAGE_MIN - 64, &err);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % UF__DATA_ALIGN, 0);
    uf__free(p);
    /* the threshold itself is large */
    p = uf__malloc_aligned(UF__HUGEPAGE_MIN, &err);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % UF__HUGEPAGE_ALIGN, 0);
    uf__free(p);
}

static void test_kernel_block_advised(void **state)
{
    (void)state;
    if (!have_thp())
        skip();
    uf__nrt_meminfo *frame = NULL;
    long live = uf__nrt_live();
    char *d = uf__nrt_alloc(&frame, 16 << 20);
    assert_non_null(d);
    memset(d, 1, 16 << 20);
    /* the whole pages of the block (the header's and the last partial
     * page may stay out) */
    assert_true(advised(d + 4096));
    assert_true(advised(d + (16 << 20) - 8192));
    uf__nrt_sweep(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), live);
}

static void test_advise_ignores_nothing_and_small(void **state)
{
    (void)state;
    uf__hugepage_advise(NULL, UF__HUGEPAGE_MIN); /* no crash */
    char small[64];
    uf__hugepage_advise(small, sizeof small); /* below the threshold */
}

static void test_failure_reports_nomem(void **state)
{
    (void)state;
    uf_error err;
    uf__alloc_fail_at(1);
    assert_null(uf__malloc_aligned(UF__HUGEPAGE_MIN, &err));
    assert_int_equal(err.code, UF_ERR_NOMEM);
    uf__alloc_fail_at(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_array_on_huge_pages),
        cmocka_unit_test(test_small_array_keeps_its_alignment),
        cmocka_unit_test(test_kernel_block_advised),
        cmocka_unit_test(test_advise_ignores_nothing_and_small),
        cmocka_unit_test(test_failure_reports_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
