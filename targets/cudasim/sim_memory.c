/* cudasim's memory registry: every range the simulated device knows
 * (device allocations, pinned and registered host memory) in a table
 * sorted by address, under a read-write lock. Device memory is host
 * memory tagged as device memory: a pointer is device memory when it lies
 * inside a live device allocation (interior pointers included, as on a
 * GPU), and only such ranges pass uf__sim_mem_check. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_internal.h"

typedef struct sim_range {
    uintptr_t base;
    size_t size;
    size_t charged; /* bytes counted against the device */
    uf__sim_mem_kind kind;
    uint64_t serial;  /* tells reuses of one address apart (IPC) */
    int ipc_opens;    /* open IPC mappings of it */
    bool freed;       /* mem_free'd while mapped: lives until closed */
    /* imported from another process (sim_ipc.c): its mapping here and
     * the allocation it shows */
    bool imported;
    void *map;
    size_t map_len;
    int64_t src_pid;
    uint64_t src_serial;
} sim_range;

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static sim_range *ranges;
static size_t nranges, cap;
static size_t used;
static uint64_t next_serial = 1;
static pthread_once_t total_once = PTHREAD_ONCE_INIT;
static size_t total;

/* UFJIT_CUDASIM_MEMORY bytes (a K, M or G suffix allowed), else the
 * machine's physical memory. */
static void total_init(void)
{
    const char *s = getenv("UFJIT_CUDASIM_MEMORY");
    if (s != NULL && *s) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        unsigned shift = 0;
        if (*end == 'K' || *end == 'k')
            shift = 10;
        else if (*end == 'M' || *end == 'm')
            shift = 20;
        else if (*end == 'G' || *end == 'g')
            shift = 30;
        if (end != s && (shift == 0 ? *end == '\0' : end[1] == '\0') &&
            v <= (SIZE_MAX >> shift)) {
            total = (size_t)v << shift;
            return;
        }
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    total = pages > 0 && page > 0 ? (size_t)pages * (size_t)page
                                  : (size_t)1 << 32;
}

size_t uf__sim_mem_total(void)
{
    pthread_once(&total_once, total_init);
    return total;
}

size_t uf__sim_mem_used(void)
{
    pthread_rwlock_rdlock(&lock);
    size_t u = used;
    pthread_rwlock_unlock(&lock);
    return u;
}

/* The index of the range holding p, or -1 (lock held). */
static ptrdiff_t find(uintptr_t p)
{
    size_t lo = 0, hi = nranges;
    while (lo < hi) { /* the first range with base > p */
        size_t mid = lo + (hi - lo) / 2;
        if (ranges[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const sim_range *r = &ranges[lo - 1];
    return p - r->base < r->size ? (ptrdiff_t)(lo - 1) : -1;
}

uf__cu_result uf__sim_mem_check(uf__cu_dptr p, size_t n)
{
    if (n == 0)
        return UF__CU_SUCCESS;
    uf__cu_result rc = UF__CU_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&lock);
    ptrdiff_t i = find((uintptr_t)p);
    if (i >= 0) {
        const sim_range *r = &ranges[i];
        if ((uintptr_t)p - r->base <= r->size - n && n <= r->size)
            rc = UF__CU_SUCCESS;
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

int uf__sim_mem_kind_of(uf__cu_dptr p)
{
    pthread_rwlock_rdlock(&lock);
    ptrdiff_t i = find((uintptr_t)p);
    int kind = i >= 0 ? (int)ranges[i].kind : 0;
    pthread_rwlock_unlock(&lock);
    return kind;
}

uf__cu_result uf__sim_mem_insert(uintptr_t base, size_t size, size_t charged,
                                 uf__sim_mem_kind kind)
{
    uf__cu_result rc = UF__CU_SUCCESS;
    size_t t = uf__sim_mem_total();
    pthread_rwlock_wrlock(&lock);
    size_t at = 0;
    while (at < nranges && ranges[at].base < base)
        at++;
    /* overlap with the neighbours (only registration can ask for one) */
    if ((at > 0 && base - ranges[at - 1].base < ranges[at - 1].size) ||
        (at < nranges && ranges[at].base - base < size)) {
        rc = UF__CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
        goto done;
    }
    if (charged > 0 && (charged > t || used > t - charged)) {
        rc = UF__CU_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    if (nranges == cap) {
        size_t ncap = cap ? 2 * cap : 64;
        sim_range *grown = uf__realloc(ranges, ncap, sizeof *grown, NULL);
        if (grown == NULL) {
            rc = UF__CU_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        ranges = grown;
        cap = ncap;
    }
    memmove(&ranges[at + 1], &ranges[at], (nranges - at) * sizeof *ranges);
    ranges[at] = (sim_range){.base = base, .size = size, .charged = charged,
                             .kind = kind, .serial = next_serial++};
    nranges++;
    used += charged;
done:
    pthread_rwlock_unlock(&lock);
    return rc;
}

/* Drops range i (lock held). */
static void drop(ptrdiff_t i)
{
    used -= ranges[i].charged;
    memmove(&ranges[i], &ranges[i + 1],
            (nranges - (size_t)i - 1) * sizeof *ranges);
    nranges--;
}

uf__cu_result uf__sim_mem_remove(uintptr_t base, uf__sim_mem_kind kind,
                                 uf__cu_result err, void **storage)
{
    uf__cu_result rc = err;
    *storage = NULL;
    pthread_rwlock_wrlock(&lock);
    ptrdiff_t i = find(base);
    if (i >= 0 && ranges[i].base == base && ranges[i].kind == kind &&
        !ranges[i].freed && !ranges[i].imported) {
        rc = UF__CU_SUCCESS;
        if (ranges[i].ipc_opens > 0) {
            ranges[i].freed = true; /* the mapping keeps it alive */
        } else {
            *storage = (void *)base;
            drop(i);
        }
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

uf__cu_result uf__sim_mem_ipc_find(uf__cu_dptr p, uintptr_t *base,
                                   size_t *size, uint64_t *serial)
{
    uf__cu_result rc = UF__CU_ERROR_INVALID_VALUE;
    pthread_rwlock_rdlock(&lock);
    ptrdiff_t i = find((uintptr_t)p);
    if (i >= 0 && ranges[i].kind == UF__SIM_MEM_DEVICE && !ranges[i].freed &&
        !ranges[i].imported) {
        *base = ranges[i].base;
        *size = ranges[i].size;
        *serial = ranges[i].serial;
        rc = UF__CU_SUCCESS;
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

uf__cu_result uf__sim_mem_ipc_open(uintptr_t base, uint64_t serial)
{
    uf__cu_result rc = UF__CU_ERROR_INVALID_HANDLE;
    pthread_rwlock_wrlock(&lock);
    ptrdiff_t i = find(base);
    if (i >= 0 && ranges[i].base == base && ranges[i].serial == serial &&
        ranges[i].kind == UF__SIM_MEM_DEVICE && !ranges[i].freed &&
        !ranges[i].imported) {
        ranges[i].ipc_opens++;
        rc = UF__CU_SUCCESS;
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

uf__cu_result uf__sim_mem_ipc_close(uintptr_t base, void **storage,
                                    void **unmap, size_t *unmap_len)
{
    uf__cu_result rc = UF__CU_ERROR_INVALID_VALUE;
    *storage = *unmap = NULL;
    *unmap_len = 0;
    pthread_rwlock_wrlock(&lock);
    ptrdiff_t i = find(base);
    if (i >= 0 && ranges[i].base == base && ranges[i].ipc_opens > 0) {
        rc = UF__CU_SUCCESS;
        sim_range *r = &ranges[i];
        if (--r->ipc_opens == 0 && r->imported) {
            *unmap = r->map;
            *unmap_len = r->map_len;
            drop(i);
        } else if (r->ipc_opens == 0 && r->freed) {
            *storage = (void *)base;
            drop(i);
        }
    }
    pthread_rwlock_unlock(&lock);
    return rc;
}

uintptr_t uf__sim_mem_import_find(int64_t pid, uint64_t serial)
{
    uintptr_t base = 0;
    pthread_rwlock_wrlock(&lock);
    for (size_t i = 0; i < nranges && base == 0; i++)
        if (ranges[i].imported && ranges[i].src_pid == pid &&
            ranges[i].src_serial == serial) {
            ranges[i].ipc_opens++;
            base = ranges[i].base;
        }
    pthread_rwlock_unlock(&lock);
    return base;
}

uintptr_t uf__sim_mem_import_add(uintptr_t base, size_t size, void *map,
                                 size_t map_len, int64_t pid,
                                 uint64_t serial)
{
    uintptr_t got = uf__sim_mem_import_find(pid, serial);
    if (got != 0) /* another thread opened it meanwhile */
        return got;
    /* charged 0: the memory is counted by the process that allocated it */
    if (uf__sim_mem_insert(base, size, 0, UF__SIM_MEM_DEVICE) != 0)
        return 0;
    pthread_rwlock_wrlock(&lock);
    ptrdiff_t i = find(base);
    ranges[i].imported = true;
    ranges[i].map = map;
    ranges[i].map_len = map_len;
    ranges[i].src_pid = pid;
    ranges[i].src_serial = serial;
    ranges[i].ipc_opens = 1;
    pthread_rwlock_unlock(&lock);
    return base;
}

void uf__sim_mem_teardown(void)
{
    pthread_rwlock_wrlock(&lock);
    for (size_t i = 0; i < nranges; i++) {
        if (ranges[i].imported)
            munmap(ranges[i].map, ranges[i].map_len);
        else if (ranges[i].kind == UF__SIM_MEM_PINNED)
            free((void *)ranges[i].base);
    }
    uf__sim_devmem_teardown(); /* every device allocation's storage */
    uf__free(ranges);
    ranges = NULL;
    nranges = cap = 0;
    used = 0;
    pthread_rwlock_unlock(&lock);
}
