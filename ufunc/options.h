/* Reading uf_call_options safely: a caller compiled against an older
 * header passes a smaller `size`, and fields past it are not there. */
#ifndef UF_UFUNC_OPTIONS_H
#define UF_UFUNC_OPTIONS_H

#include <stddef.h>
#include <ufjit/kernel.h>

#define UF__OPT_HAS(o, field)                                             \
    ((o) != NULL &&                                                       \
     (o)->size >= offsetof(uf_call_options, field) + sizeof (o)->field)
/* The field's value, or `dflt` when absent. */
#define UF__OPT(o, field, dflt) (UF__OPT_HAS(o, field) ? (o)->field : (dflt))

#endif
