/* Out-of-memory sweeps for tests of kernels that allocate: allocation
 * number k of a call fails, for every k until the call succeeds. */
#ifndef UF_TESTS_NRT_TEST_UTIL_H
#define UF_TESTS_NRT_TEST_UTIL_H

#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

/* One call of the kernel under test: 0 on success (its outputs already
 * released), else the uf_error code, with `err` filled. */
typedef int (*uf_oom_call)(void *ud, uf_error *err);

/* Each failing call must return UF_ERR_NOMEM and leave the NRT and
 * allocator live counts where they were; at least one failure must come
 * from inside the kernel (not only from the host side of the call). The
 * caller compiles the kernel first, so compilation allocates nothing. */
static inline void uf_check_oom_each_alloc(const char *what, uf_oom_call call,
                                           void *ud)
{
    uf_error err;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    bool kernel_oom = false;
    for (long k = 1; k < 200; k++) {
        uf__alloc_fail_at(k);
        int rc = call(ud, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            if (!failed)
                break;
            continue;
        }
        if (rc != UF_ERR_NOMEM)
            uf_fail_at(__FILE__, __LINE__, "%s: allocation %ld failing gave "
                       "%s (%s), want UF_ERR_NOMEM", what, k,
                       uf_err_name(rc), err.message);
        kernel_oom |= strstr(err.message, "inside a kernel") != NULL;
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (!kernel_oom)
        uf_fail_at(__FILE__, __LINE__, "%s: no failure reached the kernel",
                   what);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

#endif
