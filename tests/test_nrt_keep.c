/* The blocks a sweep or a frame's return keeps (common/nrt_keep.c) when a
 * list of arrays hands many pointers: blocks whose data start an item
 * (the hash set), an item pointing inside a block or one past its end (a
 * view: the sorted pointers left), items pointing outside every block of
 * the frame, and blocks nothing points into, which are freed. */
#include <stdlib.h>
#include <string.h>

#include "common/list.h"
#include "common/list_items.h"
#include "common/nrt.h"
#include "test_util.h"

#define N 200 /* items: past the pointers searched one by one */

/* A list of 1-D array items in *frame whose data pointers are ptr[]. */
static uf__list *list_of(uf__nrt_meminfo **frame, char *const *ptr, int n)
{
    int64_t step = uf__list_item_bytes(1);
    uf__list *l = uf__list_new(frame, n, step);
    assert_non_null(l);
    memset(l->items, 0, (size_t)(n * step));
    for (int i = 0; i < n; i++)
        memcpy(l->items + i * step, &ptr[i], sizeof ptr[i]);
    return l;
}

/* Blocks of N doubles each, item i pointing at block i's start, inside
 * it or one past its end by i % 3; N more blocks nothing points into;
 * foreign memory after them. A sweep keeps exactly the list's blocks and
 * its header, all still readable; the frame's return keeps what the list
 * still holds. */
static void test_sweep_keeps_items(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    uf__nrt_meminfo *frame = NULL;
    char *ptr[N + 2];
    double *blk[N];
    for (int i = 0; i < N; i++) {
        blk[i] = uf__nrt_alloc(&frame, 4 * sizeof(double));
        assert_non_null(blk[i]);
        blk[i][0] = i;
        ptr[i] = (char *)blk[i] + (i % 3 == 0 ? 0 : i % 3 == 1 ? 8 : 32);
        assert_non_null(uf__nrt_alloc(&frame, 16)); /* garbage */
    }
    char *foreign = malloc(64);
    assert_non_null(foreign);
    ptr[N] = foreign;
    ptr[N + 1] = NULL;
    uf__list *l = list_of(&frame, ptr, N + 2);
    assert_int_equal(uf__nrt_live(), live + 2 * N + 1);

    char *keep[2] = {(char *)UF__LIST_ROOT_MARK(1), (char *)l};
    uf__nrt_sweep(&frame, keep, 2);
    assert_int_equal(uf__nrt_live(), live + N + 1);
    for (int i = 0; i < N; i++)
        assert_true(blk[i][0] == (double)i);
    assert_int_equal(l->size, N + 2);

    /* the list's items dropped but one (the sweep just made waits: few
     * blocks were made since) */
    l->size = 1;
    uf__nrt_frame_return(&frame, keep, 2);
    assert_int_equal(uf__nrt_live(), live + 2);
    assert_true(blk[0][0] == 0.0);
    uf__nrt_drop_returned();
    assert_int_equal(uf__nrt_live(), live);
    free(foreign);
}

/* A frame's return hands the list's blocks to the caller, which adopts
 * them; the rest are freed at once. */
static void test_return_keeps_items(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    uf__nrt_meminfo *frame = NULL;
    char *ptr[N];
    for (int i = 0; i < N; i++) {
        double *a = uf__nrt_alloc(&frame, 3 * sizeof(double));
        assert_non_null(a);
        a[2] = -i;
        ptr[i] = (char *)a + (i % 2 == 0 ? 0 : 16);
        assert_non_null(uf__nrt_alloc(&frame, 8));
    }
    uf__list *l = list_of(&frame, ptr, N);
    char *keep[2] = {(char *)UF__LIST_ROOT_MARK(1), (char *)l};
    uf__nrt_frame_return(&frame, keep, 2);
    assert_null(frame);
    assert_int_equal(uf__nrt_live(), live + N + 1);
    uf__nrt_meminfo *caller = NULL;
    uf__nrt_adopt(&caller);
    for (int i = 0; i < N; i++) {
        char *p = ptr[i] - (i % 2 == 0 ? 0 : 16);
        assert_true(((double *)(void *)p)[2] == -i);
    }
    uf__nrt_frame_return(&caller, NULL, 0);
    uf__nrt_drop_returned();
    assert_int_equal(uf__nrt_live(), live);
}

/* Many plain pointers (no list), some twice, some NULL. */
static void test_many_plain_pointers(void **state)
{
    (void)state;
    long live = uf__nrt_live();
    uf__nrt_meminfo *frame = NULL;
    char *keep[2 * N];
    for (int i = 0; i < N; i++) {
        char *a = uf__nrt_alloc(&frame, 24);
        assert_non_null(a);
        keep[2 * i] = i % 4 == 3 ? NULL : a;
        keep[2 * i + 1] = i % 4 == 3 ? NULL : a + (i % 2) * 24;
    }
    uf__nrt_sweep(&frame, keep, 2 * N);
    assert_int_equal(uf__nrt_live(), live + N - N / 4);
    uf__nrt_frame_return(&frame, NULL, 0);
    uf__nrt_drop_returned();
    assert_int_equal(uf__nrt_live(), live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_keeps_items),
        cmocka_unit_test(test_return_keeps_items),
        cmocka_unit_test(test_many_plain_pointers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
