/* The per-thread cache of small freed NRT blocks (common/nrt_cache.c):
 * size classes, the block freed last handed out first, the bound on what
 * a thread keeps, large blocks never kept, the failure hook still
 * applying to cached blocks, blocks freed on another thread, a thread's
 * cache emptied when it ends (LeakSanitizer checks it in the ASan build),
 * and under ASan a kept block poisoned until it is handed out again. */
#include <pthread.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "common/nrt_cache.h"
#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

/* Frees every block of *frame (the end of a function keeping nothing). */
static void drop(uf__nrt_meminfo **frame)
{
    uf__nrt_frame_return(frame, NULL, 0);
}

static void test_classes(void **state)
{
    (void)state;
    assert_int_equal(uf__nrt_cache_class(1), 0);
    assert_int_equal(uf__nrt_cache_class(64), 0);
    assert_int_equal(uf__nrt_cache_class(65), 1);
    assert_int_equal(uf__nrt_cache_class(129), 2);
    assert_int_equal(uf__nrt_cache_class(4096), 6);
    assert_int_equal(uf__nrt_cache_class(4097), -1);
    assert_int_equal(uf__nrt_cache_class((size_t)-1), -1);
    for (int c = 0; c <= 6; c++) {
        size_t size = uf__nrt_cache_class_size(c);
        assert_int_equal(size, (size_t)64 << c);
        assert_int_equal(uf__nrt_cache_class(size), c);
        assert_int_equal(uf__nrt_cache_class(size + 1), c == 6 ? -1 : c + 1);
    }
}

/* A block freed and one of the same class asked for next: the same memory,
 * aligned, its new size usable; the live count as without a cache. */
static void test_reuse_last_freed(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    uf__nrt_meminfo *frame = NULL;
    double *a = uf__nrt_alloc(&frame, 16 * sizeof(double));
    assert_non_null(a);
    assert_int_equal((uintptr_t)a % UF__DATA_ALIGN, 0);
    a[15] = 1.5;
    assert_int_equal(uf__nrt_live(), live + 1);
    drop(&frame);
    assert_int_equal(uf__nrt_live(), live);

    double *b = uf__nrt_alloc(&frame, 10 * sizeof(double));
    assert_ptr_equal(a, b);
    for (int i = 0; i < 10; i++)
        b[i] = i;
    assert_int_equal(uf__nrt_live(), live + 1);
    drop(&frame);

    /* a zero-byte array is a (header-sized) cached block as well */
    char *z = uf__nrt_alloc(&frame, 0);
    assert_non_null(z);
    drop(&frame);
    assert_int_equal(uf__nrt_live(), live);
}

/* Two blocks freed: handed out again last-freed first (200, 190 and 180
 * bytes with the header are all of the 512-byte class). */
static void test_lifo(void **state)
{
    (void)state;
    uf__nrt_meminfo *f1 = NULL, *f2 = NULL;
    char *p = uf__nrt_alloc(&f1, 200);
    char *q = uf__nrt_alloc(&f2, 200);
    assert_ptr_not_equal(p, q);
    drop(&f1);
    drop(&f2); /* q last */
    uf__nrt_meminfo *frame = NULL;
    assert_ptr_equal(uf__nrt_alloc(&frame, 190), q);
    assert_ptr_equal(uf__nrt_alloc(&frame, 180), p);
    drop(&frame);
}

/* A block too large for the cache goes back to malloc; the allocation of
 * a negative size still fails. */
static void test_large_not_kept(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    uf__nrt_meminfo *frame = NULL;
    double *big = uf__nrt_alloc(&frame, 1 << 20);
    assert_non_null(big);
    big[(1 << 17) - 1] = 2.0;
    drop(&frame);
    assert_null(uf__nrt_alloc(&frame, -8));
    assert_null(frame);
    assert_int_equal(uf__nrt_live(), live);
}

/* At most 8 blocks of a class are kept; the rest are freed. */
static void test_bounded(void **state)
{
    (void)state;
    void *blocks[12];
    int c = uf__nrt_cache_class(1000);
    while (uf__nrt_cache_take(c) != NULL) /* empty this class first */
        ;
    for (int i = 0; i < 12; i++) {
        blocks[i] = malloc(uf__nrt_cache_class_size(c));
        assert_non_null(blocks[i]);
    }
    int kept = 0;
    for (int i = 0; i < 12; i++) {
        if (uf__nrt_cache_put(c, blocks[i]))
            kept++;
        else
            free(blocks[i]);
    }
    assert_int_equal(kept, 8);
    assert_false(uf__nrt_cache_put(-1, blocks[0])); /* no class: refused */
    for (int i = 7; i >= 0; i--)
        assert_ptr_equal(uf__nrt_cache_take(c), blocks[i]);
    assert_null(uf__nrt_cache_take(c));
    for (int i = 0; i < 8; i++)
        free(blocks[i]);
}

/* The failure hook (the tests' out-of-memory) applies even when a cached
 * block could be handed out. */
static void test_failure_hook(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    assert_non_null(uf__nrt_alloc(&frame, 64));
    drop(&frame); /* one block of its class now cached */
    uf__alloc_fail_at(1);
    assert_null(uf__nrt_alloc(&frame, 64));
    uf__alloc_fail_at(0);
    assert_null(frame);
    assert_non_null(uf__nrt_alloc(&frame, 64));
    drop(&frame);
}

typedef struct handoff {
    uf__nrt_meminfo *mi;
    double *data;
} handoff;

static void *make_blocks(void *arg)
{
    handoff *h = arg;
    uf__nrt_meminfo *frame = NULL;
    /* blocks of every class, freed on this thread: its cache fills and
     * must be emptied when the thread ends (else LeakSanitizer reports) */
    for (int n = 1; n <= 4000; n += 97) {
        char *p = uf__nrt_alloc(&frame, n);
        if (p == NULL)
            return NULL;
        p[n - 1] = 1;
    }
    drop(&frame);
    /* one block handed to the main thread, which frees it */
    h->data = uf__nrt_alloc(&frame, 32 * sizeof(double));
    if (h->data != NULL)
        h->data[31] = 7.0;
    h->mi = frame;
    return h;
}

static void test_threads(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    for (int round = 0; round < 4; round++) {
        handoff h = {0};
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, make_blocks, &h), 0);
        void *ret = NULL;
        assert_int_equal(pthread_join(t, &ret), 0);
        assert_ptr_equal(ret, &h);
        assert_non_null(h.data);
        assert_true(h.data[31] == 7.0);
        uf__nrt_decref(h.mi); /* made there, freed (and kept) here */
    }
    assert_int_equal(uf__nrt_live(), live);
}

/* Under AddressSanitizer a kept block's data is poisoned, so that an array
 * used after its release is still reported; handed out again, it is not. */
static void test_poisoned_while_kept(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    uf__nrt_meminfo *frame = NULL;
    char *p = uf__nrt_alloc(&frame, 100);
    assert_false(__asan_address_is_poisoned(p + 99));
    drop(&frame);
    assert_true(__asan_address_is_poisoned(p));
    assert_true(__asan_address_is_poisoned(p + 99));
    char *q = uf__nrt_alloc(&frame, 100);
    assert_ptr_equal(p, q);
    assert_false(__asan_address_is_poisoned(q));
    assert_false(__asan_address_is_poisoned(q + 99));
    drop(&frame);
#else
    print_message("SKIPPED: kept blocks are poisoned only in the ASan "
                  "build\n");
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_reuse_last_freed),
        cmocka_unit_test(test_lifo),
        cmocka_unit_test(test_large_not_kept),
        cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_failure_hook),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_poisoned_while_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
