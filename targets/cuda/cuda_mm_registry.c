/* The live-address registry (cuda_mm_registry.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_mm_registry.h"

static size_t home(uint64_t key, size_t cap)
{
    /* allocations are 256-byte aligned: mix the high bits down */
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static void put(uf__mm_slot *slots, size_t cap, uint64_t key, size_t bytes)
{
    size_t i = home(key, cap);
    while (slots[i].key != 0)
        i = (i + 1) & (cap - 1);
    slots[i] = (uf__mm_slot){key, bytes};
}

static int grow(uf__mm_registry *r, uf_error *err)
{
    size_t cap = r->cap ? r->cap * 2 : 64;
    uf__mm_slot *slots = uf__calloc(cap, sizeof *slots, err);
    if (slots == NULL)
        return err->code;
    for (size_t i = 0; i < r->cap; i++)
        if (r->slots[i].key != 0)
            put(slots, cap, r->slots[i].key, r->slots[i].bytes);
    uf__free(r->slots);
    r->slots = slots;
    r->cap = cap;
    return 0;
}

static size_t find(const uf__mm_registry *r, uint64_t key)
{
    if (r->cap == 0)
        return SIZE_MAX;
    for (size_t i = home(key, r->cap);; i = (i + 1) & (r->cap - 1)) {
        if (r->slots[i].key == key)
            return i;
        if (r->slots[i].key == 0)
            return SIZE_MAX;
    }
}

int uf__mm_registry_add(uf__mm_registry *r, uint64_t key, size_t bytes,
                        uf_error *err)
{
    if (find(r, key) != SIZE_MAX)
        return uf__error_set(err, UF_ERR_INVALID, "0x%llx is already in use",
                             (unsigned long long)key);
    /* at most half full, so probes stay short */
    if ((r->count + 1) * 2 > r->cap && grow(r, err) != 0)
        return err->code;
    put(r->slots, r->cap, key, bytes);
    r->count++;
    r->bytes += bytes;
    return 0;
}

bool uf__mm_registry_remove(uf__mm_registry *r, uint64_t key)
{
    size_t i = find(r, key);
    if (i == SIZE_MAX)
        return false;
    r->bytes -= r->slots[i].bytes;
    r->count--;
    /* backward shift: pull later entries of the run into the hole */
    size_t mask = r->cap - 1, j = i;
    for (;;) {
        r->slots[i].key = 0;
        for (;;) {
            j = (j + 1) & mask;
            if (r->slots[j].key == 0)
                return true;
            size_t h = home(r->slots[j].key, r->cap);
            /* j's entry may move to i unless its home lies in (i, j] */
            bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
            if (!stays)
                break;
        }
        r->slots[i] = r->slots[j];
        i = j;
    }
}

void uf__mm_registry_clear(uf__mm_registry *r)
{
    uf__free(r->slots);
    memset(r, 0, sizeof *r);
}
