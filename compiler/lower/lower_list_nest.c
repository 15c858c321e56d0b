/* Lists whose items are lists or dicts (Numba's list(list(T)), any
 * depth) or tuples holding strings (list(Tuple(unicode_type, int64))),
 * and dicts whose values are lists or dicts (DictType[K, ListType[T]]),
 * as the frames see them.
 *
 * Such a list stores each inner list or dict as its header's pointer
 * (8 bytes; a dict its values the same way)
 * and each string field of a tuple as the string's pointer; like a list
 * of arrays (lower_list_items.c) it owns no reference: the blocks stay in
 * the frame that made them. The sweeps and returns get three pointers for
 * it, UF__LIST_DESC_MARK, a constant descriptor of its items and the
 * header (common/list_items.h), so that the runtime keeps every inner
 * header and every block an item points into while the outer list is
 * reachable, and hands them to the caller with it. */
#include <stdio.h>

#include "common/list_items.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

/* The longest descriptor: three words per level of lists and dicts the
 * typing allows (UF__LIST_NEST_MAX), then the innermost items' three
 * words and one offset per string field of a tuple. */
enum { DESC_MAX = 3 * UF__LIST_NEST_MAX + 3 + UF__TUPLE_MAX + 2 };

static bool tuple_has_string(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE)
        return false;
    for (int i = 0; i < t->n; i++)
        if (t->elts[i]->kind == UF__T_USTR)
            return true;
    return false;
}

static bool is_container(const uf__type *t)
{
    return (t->kind == UF__T_LIST && t->n == 1) ||
           (t->kind == UF__T_DICT && t->n == 2 && t->layout == 0);
}

bool uf__list_described(const uf__type *lt)
{
    if (lt == NULL)
        return false;
    if (lt->kind == UF__T_DICT) /* values that are lists or dicts */
        return lt->n == 2 && is_container(lt->elts[1]);
    if (lt->kind != UF__T_LIST || lt->n != 1)
        return false;
    const uf__type *t = lt->elts[0];
    return is_container(t) || tuple_has_string(t);
}

int uf__list_root_slots(const uf__type *lt)
{
    if (uf__list_described(lt))
        return 3;
    if (lt != NULL && (lt->kind == UF__T_DICT || lt->kind == UF__T_SET))
        return 1 + (uf__dict_root_what(lt) != 0);
    return 1 + uf__list_holds_arrays(lt);
}

static bool describe(const uf__type *ct, int64_t *d, int *n);

/* What a slot holding a value of type t keeps (from its kind word on). */
static bool describe_slot(const uf__type *t, int64_t *d, int *n)
{
    if (*n + 2 > DESC_MAX)
        return false;
    if (t != NULL && is_container(t)) {
        d[(*n)++] = t->kind == UF__T_LIST ? UF__LIST_DESC_LIST
                                          : UF__LIST_DESC_DICT;
        return describe(t, d, n);
    }
    d[(*n)++] = UF__LIST_DESC_PTRS;
    int at = (*n)++;
    d[at] = 0;
    if (t == NULL)
        return true;
    if (t->kind == UF__T_ARRAY || t->kind == UF__T_USTR) { /* data first */
        d[(*n)++] = 0;
        d[at] = 1;
    } else if (t->kind == UF__T_TUPLE) {
        for (int k = 0; k < t->n; k++) {
            if (t->elts[k]->kind != UF__T_USTR)
                continue;
            if (*n + 1 > DESC_MAX)
                return false;
            d[(*n)++] = uf__list_field_offset(t, k);
            d[at]++;
        }
    }
    return true;
}

/* The descriptor of container type ct (a list's items, or a dict's keys
 * and values: common/list_items.h) into d[*n...]; false when it does not
 * fit. */
static bool describe(const uf__type *ct, int64_t *d, int *n)
{
    if (*n + 3 > DESC_MAX)
        return false;
    if (ct->kind == UF__T_DICT) {
        d[(*n)++] = UF__DICT_DESC_HEAD;
        d[(*n)++] = ct->elts[0]->kind == UF__T_USTR;
        return describe_slot(ct->elts[1], d, n);
    }
    d[(*n)++] = ct->n == 1 ? uf__list_itemsize(ct) : 1;
    return describe_slot(ct->n == 1 ? ct->elts[0] : NULL, d, n);
}

/* The descriptor of lt as a constant i8* (one global per descriptor and
 * module), or NULL when too long. */
static LLVMValueRef descriptor(uf__fn *F, const uf__type *lt)
{
    int64_t d[DESC_MAX];
    int n = 0;
    if (!describe(lt, d, &n))
        return NULL;
    char name[24 + DESC_MAX * 8];
    int len = snprintf(name, 24, "uf.listdesc");
    for (int i = 0; i < n && len < (int)sizeof name - 24; i++)
        len += snprintf(name + len, sizeof name - (size_t)len, ".%lld",
                        (long long)d[i]);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMValueRef g = LLVMGetNamedGlobal(F->L->mod, name);
    if (g == NULL) {
        LLVMValueRef v[DESC_MAX];
        for (int i = 0; i < n; i++)
            v[i] = LLVMConstInt(i64, (unsigned long long)d[i], 1);
        LLVMValueRef init = LLVMConstArray(i64, v, (unsigned)n);
        g = LLVMAddGlobal(F->L->mod, LLVMTypeOf(init), name);
        LLVMSetInitializer(g, init);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        LLVMSetAlignment(g, 8);
    }
    return LLVMConstPointerCast(g, i8p);
}

void uf__list_push_described(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                             LLVMValueRef *out, int *n, int cap)
{
    LLVMValueRef d = descriptor(F, lt);
    /* d is never NULL (the typing bounds the depth); past cap the list is
     * left out as uf__list_push_root leaves out a list of arrays */
    if (d == NULL || *n + 3 > cap)
        return;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    out[(*n)++] = LLVMConstIntToPtr(
        LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                     (unsigned long long)UF__LIST_DESC_MARK, 0),
        i8p);
    out[(*n)++] = d;
    out[(*n)++] = l;
}
