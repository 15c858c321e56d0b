/* The table of array attributes and methods (array_members.h). Grouped by
 * the typer that owns them: the plain attributes (infer_arrmember.c),
 * dtype and the complex parts (infer_arrattr.c: UF__ARRATTR_MAP), the
 * reductions and dot products (infer_npreduce.c: UF__NPREDUCE_MAP), the
 * copies, reshapes and sorts (infer_arrmeth.c: UF__ARRMETH_MAP), a.take
 * (infer_npview.c: UF__NPVIEW_MAP), a.repeat (infer_npshape.c:
 * UF__NPSHAPE_MAP), a.view (infer_arrview.c: UF__ARRVIEW_MAP). */
#include "compiler/types/array_members.h"

#include <string.h>

#define ATTR(n, b) {n, UF__BI_##b, false, NULL}
#define METHOD(n, b) {n, UF__BI_##b, true, NULL}
#define REFUSED(n, why) {n, UF__BI_NONE, false, why}

static const uf__array_member members[] = {
    ATTR("shape", ATTR_SHAPE),
    ATTR("strides", ATTR_STRIDES),
    ATTR("size", ATTR_SIZE),
    ATTR("ndim", ATTR_NDIM),
    ATTR("T", NP_ATTR_T),
    ATTR("itemsize", NP_ATTR_ITEMSIZE),
    ATTR("nbytes", NP_ATTR_NBYTES),
    ATTR("flat", ATTR_FLAT),
    ATTR("dtype", ATTR_DTYPE),
    ATTR("real", ARR_REAL),
    ATTR("imag", ARR_IMAG),
    METHOD("conj", ARR_CONJ),
    METHOD("conjugate", ARR_CONJ),
    METHOD("sum", NP_SUM),
    METHOD("prod", NP_PROD),
    METHOD("min", NP_MIN),
    METHOD("max", NP_MAX),
    METHOD("mean", NP_MEAN),
    METHOD("var", NP_VAR),
    METHOD("std", NP_STD),
    METHOD("argmin", NP_ARGMIN),
    METHOD("argmax", NP_ARGMAX),
    METHOD("all", NP_ALL),
    METHOD("any", NP_ANY),
    METHOD("dot", NP_DOT),
    METHOD("transpose", NP_TRANSPOSE),
    METHOD("copy", METH_COPY),
    METHOD("reshape", NP_RESHAPE),
    METHOD("ravel", NP_RAVEL),
    METHOD("flatten", METH_FLATTEN),
    METHOD("astype", METH_ASTYPE),
    METHOD("fill", METH_FILL),
    METHOD("cumsum", NP_CUMSUM),
    METHOD("cumprod", NP_CUMPROD),
    METHOD("sort", METH_SORT),
    METHOD("argsort", NP_ARGSORT),
    METHOD("nonzero", NP_NONZERO),
    METHOD("take", NP_TAKE),
    METHOD("repeat", NP_REPEAT),
    METHOD("item", METH_ITEM),
    METHOD("view", METH_VIEW),
};

const uf__array_member *uf__array_member_find(const char *name)
{
    for (size_t i = 0; i < sizeof members / sizeof *members; i++)
        if (strcmp(members[i].name, name) == 0)
            return &members[i];
    return NULL;
}

const uf__array_member *uf__array_member_at(int i)
{
    if (i < 0 || (size_t)i >= sizeof members / sizeof *members)
        return NULL;
    return &members[i];
}
