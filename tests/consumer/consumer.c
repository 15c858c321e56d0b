/* Builds against the installed headers and library and uses them. */
#include <stdio.h>
#include <string.h>

#include <ufjit/ufjit.h>

int main(void)
{
    uf_error err;
    uf_error_clear(&err);
    uf_array *a = uf_arange(0, 6, 1, UF_INT32, &err);
    if (a == NULL) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    const int32_t *p = uf_array_data(a);
    int ok = uf_array_size(a) == 6 && p[5] == 5 &&
             strcmp(uf_version(), UFJIT_VERSION_STRING) == 0;
    uf_array_release(a);
    printf("consumer: ufjit %s %s\n", uf_version(), ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
