/* The parts of the loop contract (loop.h) that are code. */
#include <string.h>

#include "common/loop.h"

int64_t uf__loop_block(const uf_dtype *types, int nargs)
{
    for (int k = 0; k < nargs; k++)
        if (uf_dtype_itemsize(types[k]) < 8)
            return UF__LOOP_BLOCK;
    return 8;
}

bool uf__loop_is_blocked(const char *symbol)
{
    size_t len = strlen(symbol);
    return len > 4 && strcmp(symbol + len - 4, "_blk") == 0;
}
