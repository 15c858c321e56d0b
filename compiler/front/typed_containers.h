/* numba.typed.List and numba.typed.Dict in kernels (typed_containers.c).
 *
 * After the module scan has bound the names, each call of List() / Dict()
 * is rewritten into the expression it means, `list()` / `list(x)` /
 * `dict()` (the empty literals `[]` and `{}`), so that typing and lowering
 * need nothing new. List.empty_list(T) and Dict.empty(K, V) become `list()`
 * and `dict()` whose type is declared: the type is evaluated here once and
 * recorded, and typing starts the empty container at it
 * (uf__typed_declared) instead of at list(undefined) / DictType[undefined,
 * undefined]. */
#ifndef UF_COMPILER_FRONT_TYPED_CONTAINERS_H
#define UF_COMPILER_FRONT_TYPED_CONTAINERS_H

#include "compiler/front/kmodule.h"
#include "compiler/front/kmodule_scan.h"

/* One rewritten List.empty_list / Dict.empty call and the type it makes,
 * or a refused call and its error: a kernel's refusal waits for its
 * typing, so that the file's other kernels still load. */
typedef struct uf__typed_decl {
    const uf__expr *call;
    const uf__type *type;  /* list(T) or DictType[K, V]; NULL: refused */
    const uf_error *error; /* when refused */
} uf__typed_decl;

/* Whether module-level expression e builds a container type, a call of
 * types.ListType(T) or types.DictType(K, V); that type (T, K, V types
 * such as eval_type takes, or module-level container types by name), or
 * NULL with the error set. Inside kernels Numba refuses such calls. */
bool uf__typed_is_type_call(uf__kscan *S, const uf__expr *e);
const uf__type *uf__typed_module_type(uf__kscan *S, const uf__expr *e);

/* Rewrites the calls of every function of the scanned module; 0, or the
 * error's code (out of memory only). */
int uf__typed_containers(uf__kscan *S);

/* For typing call `e`: 1 and *out its declared type (a rewritten
 * List.empty_list / Dict.empty call); 0 when it declares none; -1 with err
 * set (UF_ERR_UNSUPPORTED / UF_ERR_TYPING at file:line:col) when the
 * numba.typed call was refused. */
int uf__typed_declared(const uf__kmodule *km, const uf__expr *e,
                       const uf__type **out, uf_error *err);

/* Whether local `name` of function `def` holds a numba.typed.List (it was
 * assigned a List call): its item type is fixed by its declaration or its
 * first append, and later items are cast into it. */
bool uf__typed_list_var(const uf__kmodule *km, const uf__stmt *def,
                        const char *name);

/* Whether Numba's typed containers cast a number of type `from` into one
 * of type `to` (numba/typed/typedobjectutils.py _sentry_safe_cast: safe
 * conversions, and any int to int or float, float to float, complex to
 * complex; never float to int). */
bool uf__typed_casts(const uf__type *from, const uf__type *to);

#endif
