/* cudasim's device memory: where cuMemAlloc's bytes live. Every block is
 * shared memory (a memfd mapped MAP_SHARED), so that cuIpcGetMemHandle can
 * name it and another process can map the same pages (sim_ipc.c): a
 * handle is (process, file descriptor, offset, size), opened there through
 * /proc/<pid>/fd/<fd>, as the driver maps an allocation into a second
 * process at an address of its own.
 *
 * Making a memfd and mapping it per allocation costs tens of
 * microseconds (a syscall each, fresh pages faulted in), so blocks come
 * from power-of-two size classes (256 bytes to 32 MiB), each class one
 * memfd grown by chunks, and a freed block goes back to its class's free
 * list: a warm allocation and free touch no syscall and no new page, as
 * malloc's reuse did. Larger allocations get a memfd of their own, given
 * back to the system when freed. Freed blocks of the classes are kept
 * until the context's teardown (as a pool keeps them); device memory
 * accounting (sim_memory.c) counts what was asked for, not the class
 * size. ASan builds poison free blocks and each block's slack, so a
 * kernel overrunning a buffer is still reported. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MIN_SHIFT 8   /* 256 bytes: cuMemAlloc's alignment */
#define MAX_SHIFT 25  /* 32 MiB; larger blocks get a memfd each */
#define NCLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define CHUNK ((size_t)1 << 20) /* a small class grows by 1 MiB */

/* A mapped range of a memfd: a class's chunk, or one large block. */
typedef struct chunk {
    uintptr_t addr;
    size_t len;
    int fd;
    uint64_t file_off; /* of addr in fd */
    int cls;           /* -1: a large block (its own fd) */
} chunk;

typedef struct size_class {
    int fd;         /* -1 until first used */
    uint64_t fsize; /* the memfd's size */
    void **free_v;  /* free blocks, a stack with room for every block */
    size_t free_n, free_cap, total;
} size_class;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_class classes[NCLASSES];
static bool classes_ready;
static chunk *chunks; /* sorted by address */
static size_t nchunks, chunks_cap;

static void ready(void)
{
    if (classes_ready)
        return;
    for (int c = 0; c < NCLASSES; c++)
        classes[c] = (size_class){.fd = -1};
    classes_ready = true;
}

static int class_of(size_t bytes)
{
    int c = 0;
    while (c < NCLASSES && ((size_t)1 << (MIN_SHIFT + c)) < bytes)
        c++;
    return c < NCLASSES ? c : -1;
}

static int new_memfd(void)
{
    return memfd_create("ufjit-cudasim", MFD_CLOEXEC);
}

/* Adds a chunk to the sorted table (lock held). */
static bool chunk_add(chunk ch)
{
    if (nchunks == chunks_cap) {
        size_t ncap = chunks_cap ? 2 * chunks_cap : 32;
        chunk *g = uf__realloc(chunks, ncap, sizeof *g, NULL);
        if (g == NULL)
            return false;
        chunks = g;
        chunks_cap = ncap;
    }
    size_t at = nchunks;
    while (at > 0 && chunks[at - 1].addr > ch.addr)
        at--;
    memmove(&chunks[at + 1], &chunks[at], (nchunks - at) * sizeof *chunks);
    chunks[at] = ch;
    nchunks++;
    return true;
}

/* The chunk holding p, or -1 (lock held). */
static ptrdiff_t chunk_find(uintptr_t p)
{
    size_t lo = 0, hi = nchunks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (chunks[mid].addr <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || p - chunks[lo - 1].addr >= chunks[lo - 1].len)
        return -1;
    return (ptrdiff_t)(lo - 1);
}

/* A new memfd region of len bytes at file offset off of fd (grown to
 * hold it), mapped; NULL on failure. */
static void *map_region(int fd, uint64_t off, size_t len)
{
    if (ftruncate(fd, (off_t)(off + len)) != 0)
        return NULL;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                   (off_t)off);
    return m == MAP_FAILED ? NULL : m;
}

/* Grows class c by a chunk of free blocks (lock held). */
static bool grow(int c)
{
    size_class *k = &classes[c];
    size_t block = (size_t)1 << (MIN_SHIFT + c);
    size_t len = block > CHUNK ? block : CHUNK;
    size_t n = len / block;
    if (k->fd < 0 && (k->fd = new_memfd()) < 0)
        return false;
    if (k->total + n > k->free_cap) {
        size_t ncap = k->free_cap ? 2 * k->free_cap : 64;
        while (ncap < k->total + n)
            ncap *= 2;
        void **g = uf__realloc(k->free_v, ncap, sizeof *g, NULL);
        if (g == NULL)
            return false;
        k->free_v = g;
        k->free_cap = ncap;
    }
    char *m = map_region(k->fd, k->fsize, len);
    if (m == NULL)
        return false;
    if (!chunk_add((chunk){(uintptr_t)m, len, k->fd, k->fsize, c})) {
        munmap(m, len);
        return false;
    }
    k->fsize += len;
    k->total += n;
    POISON(m, len);
    for (size_t i = n; i-- > 0;) /* the lowest address on top */
        k->free_v[k->free_n++] = m + i * block;
    return true;
}

/* A large block: its own memfd (lock held). */
static void *large_alloc(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (bytes + page - 1) & ~(page - 1);
    int fd = new_memfd();
    if (fd < 0)
        return NULL;
    void *m = map_region(fd, 0, len);
    if (m == NULL || !chunk_add((chunk){(uintptr_t)m, len, fd, 0, -1})) {
        if (m != NULL)
            munmap(m, len);
        close(fd);
        return NULL;
    }
    return m;
}

void *uf__sim_devmem_alloc(size_t bytes)
{
    if (bytes == 0)
        return NULL;
    pthread_mutex_lock(&lock);
    ready();
    int c = class_of(bytes);
    void *p = NULL;
    if (c < 0)
        p = large_alloc(bytes);
    else if (classes[c].free_n > 0 || grow(c))
        p = classes[c].free_v[--classes[c].free_n];
    pthread_mutex_unlock(&lock);
    if (p != NULL)
        UNPOISON(p, bytes);
    return p;
}

void uf__sim_devmem_free(void *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&lock);
    ptrdiff_t i = chunk_find((uintptr_t)p);
    if (i >= 0 && chunks[i].cls < 0) {
        chunk ch = chunks[i];
        memmove(&chunks[i], &chunks[i + 1],
                (nchunks - (size_t)i - 1) * sizeof *chunks);
        nchunks--;
        UNPOISON((void *)ch.addr, ch.len);
        munmap((void *)ch.addr, ch.len);
        close(ch.fd);
    } else if (i >= 0) {
        size_class *k = &classes[chunks[i].cls];
        /* the stack has room for every block of the class */
        k->free_v[k->free_n++] = p;
        POISON(p, (size_t)1 << (MIN_SHIFT + chunks[i].cls));
    }
    pthread_mutex_unlock(&lock);
}

bool uf__sim_devmem_locate(uintptr_t p, int *fd, uint64_t *file_off)
{
    pthread_mutex_lock(&lock);
    ptrdiff_t i = chunk_find(p);
    if (i >= 0) {
        *fd = chunks[i].fd;
        *file_off = chunks[i].file_off + (p - chunks[i].addr);
    }
    pthread_mutex_unlock(&lock);
    return i >= 0;
}

void uf__sim_devmem_teardown(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nchunks; i++) {
        UNPOISON((void *)chunks[i].addr, chunks[i].len);
        munmap((void *)chunks[i].addr, chunks[i].len);
        if (chunks[i].cls < 0)
            close(chunks[i].fd);
    }
    uf__free(chunks);
    chunks = NULL;
    nchunks = chunks_cap = 0;
    for (int c = 0; classes_ready && c < NCLASSES; c++) {
        if (classes[c].fd >= 0)
            close(classes[c].fd);
        uf__free(classes[c].free_v);
        classes[c] = (size_class){.fd = -1};
    }
    pthread_mutex_unlock(&lock);
}
