/* The allocation layer: overflow-checked sizes, a live-allocation count and
 * a fail-at-N switch for out-of-memory tests. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/hugepage.h"

static atomic_long fail_countdown; /* 0: never fail */
static atomic_bool failed_once;
static atomic_long live;

void uf__alloc_fail_at(long n)
{
    atomic_store(&fail_countdown, n > 0 ? n : 0);
    atomic_store(&failed_once, false);
}

bool uf__alloc_failed(void)
{
    return atomic_load(&failed_once);
}

long uf__alloc_live(void)
{
    return atomic_load(&live);
}

/* True when the test hook says this allocation must fail. */
static bool should_fail(void)
{
    long n = atomic_load(&fail_countdown);
    while (n > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &n, n - 1)) {
            if (n == 1) {
                atomic_store(&failed_once, true);
                return true;
            }
            return false;
        }
    }
    return false;
}

bool uf__alloc_fail_now(void)
{
    return should_fail();
}

static bool total_size(size_t nmemb, size_t size, size_t *out, uf_error *err)
{
    if (!uf__mul_size(nmemb, size, out)) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "allocation of %zu x %zu bytes overflows", nmemb, size);
        return false;
    }
    if (*out == 0)
        *out = 1;
    return true;
}

void *uf__malloc(size_t nmemb, size_t size, uf_error *err)
{
    size_t n;
    if (!total_size(nmemb, size, &n, err))
        return NULL;
    void *p = should_fail() ? NULL : malloc(n);
    if (p == NULL) {
        uf__error_nomem(err);
        return NULL;
    }
    atomic_fetch_add(&live, 1);
    return p;
}

void *uf__calloc(size_t nmemb, size_t size, uf_error *err)
{
    size_t n;
    if (!total_size(nmemb, size, &n, err))
        return NULL;
    void *p = should_fail() ? NULL : calloc(1, n);
    if (p == NULL) {
        uf__error_nomem(err);
        return NULL;
    }
    atomic_fetch_add(&live, 1);
    return p;
}

void *uf__realloc(void *p, size_t nmemb, size_t size, uf_error *err)
{
    if (p == NULL)
        return uf__malloc(nmemb, size, err);
    size_t n;
    if (!total_size(nmemb, size, &n, err))
        return NULL;
    void *q = should_fail() ? NULL : realloc(p, n);
    if (q == NULL) {
        uf__error_nomem(err);
        return NULL;
    }
    return q;
}

void *uf__malloc_aligned(size_t nbytes, uf_error *err)
{
    /* aligned_alloc wants a multiple of the alignment. */
    size_t n;
    if (!uf__add_size(nbytes, UF__DATA_ALIGN - 1, &n)) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "allocation of %zu bytes overflows", nbytes);
        return NULL;
    }
    n -= n % UF__DATA_ALIGN;
    if (n == 0)
        n = UF__DATA_ALIGN;
    /* a large buffer starts on a huge page, so that all its whole huge
     * pages can be ones (hugepage.h); costs address space only */
    void *p = NULL;
    if (!should_fail()) {
        if (n < UF__HUGEPAGE_MIN || !uf__hugepage_enabled())
            p = aligned_alloc(UF__DATA_ALIGN, n);
        else if (posix_memalign(&p, UF__HUGEPAGE_ALIGN, n) != 0)
            p = NULL;
    }
    if (p == NULL) {
        uf__error_nomem(err);
        return NULL;
    }
    uf__hugepage_advise(p, n);
    atomic_fetch_add(&live, 1);
    return p;
}

void uf__free(void *p)
{
    if (p == NULL)
        return;
    atomic_fetch_sub(&live, 1);
    free(p);
}

char *uf__strdup(const char *s, uf_error *err)
{
    size_t n = strlen(s) + 1;
    char *p = uf__malloc(n, 1, err);
    if (p != NULL)
        memcpy(p, s, n);
    return p;
}
