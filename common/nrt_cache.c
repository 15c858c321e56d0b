/* Per-thread cache of small freed NRT blocks (nrt_cache.h). Each class is
 * a LIFO list, so the block freed last (still in L1) is reused first; the
 * lists are bounded (DEPTH blocks of each class, at most 64 KiB a thread)
 * and emptied when the thread ends. A block freed on another thread than
 * the one that made it goes to the freeing thread's cache: both are
 * malloc'd memory, so either may free it. */
#include <pthread.h>
#include <stdlib.h>

#include "common/nrt_cache.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MIN_SHIFT 6 /* 64-byte blocks */
#define CLASSES 7   /* .. 4 KiB */
#define DEPTH 8

typedef struct node {
    struct node *next;
} node;

typedef struct cache {
    node *head[CLASSES];
    unsigned char count[CLASSES];
    bool registered; /* the key's destructor will drain it */
} cache;

static _Thread_local cache mine;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool have_key;

int uf__nrt_cache_class(size_t n)
{
    for (int c = 0; c < CLASSES; c++)
        if (n <= (size_t)1 << (MIN_SHIFT + c))
            return c;
    return -1;
}

size_t uf__nrt_cache_class_size(int c)
{
    return (size_t)1 << (MIN_SHIFT + c);
}

void *uf__nrt_cache_take(int c)
{
    node *b = mine.head[c];
    if (b == NULL)
        return NULL;
    mine.head[c] = b->next;
    mine.count[c]--;
    UNPOISON(b, uf__nrt_cache_class_size(c));
    return b;
}

/* Runs on the ending thread, whose thread-local cache is still there. */
static void drain(void *unused)
{
    (void)unused;
    for (int c = 0; c < CLASSES; c++) {
        void *b;
        while ((b = uf__nrt_cache_take(c)) != NULL)
            free(b);
    }
    mine.registered = false;
}

static void make_key(void)
{
    have_key = pthread_key_create(&key, drain) == 0;
}

/* A thread's cache is used only once its end will empty it: a destructor
 * runs only for a key whose value is not NULL. The main thread's blocks
 * stay reachable from its thread-local storage until the process ends. */
static bool register_thread(void)
{
    pthread_once(&once, make_key);
    if (!have_key || pthread_setspecific(key, &mine) != 0)
        return false;
    mine.registered = true;
    return true;
}

bool uf__nrt_cache_put(int c, void *block)
{
    if (c < 0 || mine.count[c] >= DEPTH)
        return false;
    if (!mine.registered && !register_thread())
        return false;
    node *b = block;
    b->next = mine.head[c];
    mine.head[c] = b;
    mine.count[c]++;
    POISON(b + 1, uf__nrt_cache_class_size(c) - sizeof *b);
    return true;
}
