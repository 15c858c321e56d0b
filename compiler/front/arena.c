/* Per-compilation arena: a chain of blocks from uf__malloc. Small requests
 * are carved from the current block; a request larger than a quarter of the
 * block size gets a block of its own so that it never wastes the rest of the
 * current one. */
#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/arena.h"

#define ARENA_BLOCK_SIZE 16384
#define ARENA_ALIGN alignof(max_align_t)

typedef struct block {
    struct block *next;
    size_t cap;
    size_t used;
    /* The payload starts at an ARENA_ALIGN multiple after the header. */
    alignas(max_align_t) unsigned char data[];
} block;

struct uf__arena {
    block *head; /* current block; older blocks follow */
};

uf__arena *uf__arena_new(uf_error *err)
{
    uf__arena *a = uf__malloc(1, sizeof *a, err);
    if (a == NULL)
        return NULL;
    a->head = NULL;
    return a;
}

void uf__arena_free(uf__arena *a)
{
    if (a == NULL)
        return;
    block *b = a->head;
    while (b != NULL) {
        block *next = b->next;
        uf__free(b);
        b = next;
    }
    uf__free(a);
}

static block *new_block(size_t cap, uf_error *err)
{
    size_t total;
    if (!uf__add_size(sizeof(block), cap, &total)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "arena block of %zu bytes "
                      "overflows", cap);
        return NULL;
    }
    block *b = uf__malloc(1, total, err);
    if (b == NULL)
        return NULL;
    b->next = NULL;
    b->cap = cap;
    b->used = 0;
    return b;
}

void *uf__arena_alloc(uf__arena *a, size_t nmemb, size_t size, uf_error *err)
{
    size_t n;
    if (!uf__mul_size(nmemb, size, &n)) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "allocation of %zu x %zu bytes overflows", nmemb, size);
        return NULL;
    }
    if (n == 0)
        n = 1;
    size_t rounded;
    if (!uf__add_size(n, ARENA_ALIGN - 1, &rounded)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "allocation of %zu bytes "
                      "overflows", n);
        return NULL;
    }
    rounded &= ~(size_t)(ARENA_ALIGN - 1);

    block *b = a->head;
    if (b == NULL || b->cap - b->used < rounded) {
        if (rounded > ARENA_BLOCK_SIZE / 4) {
            /* Its own block, linked behind the current one so the
             * current block keeps serving small requests. */
            block *big = new_block(rounded, err);
            if (big == NULL)
                return NULL;
            big->used = rounded;
            if (b == NULL) {
                a->head = big;
            } else {
                big->next = b->next;
                b->next = big;
            }
            memset(big->data, 0, rounded);
            return big->data;
        }
        b = new_block(ARENA_BLOCK_SIZE, err);
        if (b == NULL)
            return NULL;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += rounded;
    memset(p, 0, rounded);
    return p;
}

char *uf__arena_strndup(uf__arena *a, const char *s, size_t len,
                        uf_error *err)
{
    size_t n;
    if (!uf__add_size(len, 1, &n)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "string of %zu bytes overflows",
                      len);
        return NULL;
    }
    char *p = uf__arena_alloc(a, n, 1, err);
    if (p == NULL)
        return NULL;
    if (len > 0)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
