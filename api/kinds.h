/* The kind table the module loader fills uf_funcs from (kinds.c). */
#ifndef UF_API_KINDS_H
#define UF_API_KINDS_H

#include "compiler/module.h"

extern const uf__kind_ops *const uf__kinds[UF__K_COUNT];

#endif
