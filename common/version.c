#include <ufjit/ufjit.h>

const char *uf_version(void)
{
    return UFJIT_VERSION_STRING;
}
