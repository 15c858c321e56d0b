/* Input arguments of the kernel-running commands (cli_operands.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli_operands.h"

int uf__cli_kernel_fail(const uf_error *err, const char *what)
{
    if (err->file[0] != '\0' && err->line > 0) {
        fprintf(stderr, "ufjit: %s:%d:%d: %s\n", err->file, err->line,
                err->column, err->message);
        return UF__CLI_ERROR;
    }
    return uf__cli_fail(err, what);
}

static bool is_npy_name(const char *s)
{
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".npy") == 0;
}

/* "a.npy[::2, 1]" -> the file name's length and the index expression's
 * bounds; false when `arg` is not of that form. */
static bool split_indexed(const char *arg, size_t *path_len,
                          const char **expr, size_t *expr_len)
{
    size_t n = strlen(arg);
    if (n < 6 || arg[n - 1] != ']')
        return false;
    const char *open = NULL;
    for (const char *p = strstr(arg, ".npy["); p; p = strstr(p + 1, ".npy["))
        open = p;
    if (open == NULL)
        return false;
    *path_len = (size_t)(open - arg) + 4;
    *expr = open + 5;
    *expr_len = (size_t)(arg + n - 1 - *expr);
    return *path_len > 4;
}

int uf__cli_input_parse(const char *text, uf__cli_input *in, uf_error *err)
{
    size_t pl = 0, el = 0;
    const char *e = NULL;
    memset(in, 0, sizeof *in);
    in->text = text;
    if (strncmp(text, "str:", 4) == 0) {
        in->is_str = true;
        return 0;
    }
    if (is_npy_name(text) || split_indexed(text, &pl, &e, &el))
        return 0;
    int rc = uf__cli_parse_scalar(text, &in->scalar, err);
    in->is_scalar = rc == 0;
    return rc;
}

uf_array *uf__cli_input_load(const uf__cli_input *in, uf_error *err)
{
    const char *arg = in->text;
    if (in->is_str)
        return uf_array_from_utf8(arg + 4, strlen(arg + 4), err);
    if (in->is_scalar)
        return uf_full(in->scalar.dtype, 0, NULL, &in->scalar.v,
                       in->scalar.dtype, UF_ORDER_C, err);
    if (is_npy_name(arg))
        return uf_npy_load(arg, err);
    size_t plen = 0, elen = 0;
    const char *expr = "";
    char path[4096], index[1024];
    if (!split_indexed(arg, &plen, &expr, &elen) || plen >= sizeof path ||
        elen >= sizeof index) {
        uf__cli_seterr(err, UF_ERR_VALUE, "name or index too long");
        return NULL;
    }
    memcpy(path, arg, plen);
    path[plen] = '\0';
    memcpy(index, expr, elen);
    index[elen] = '\0';
    uf_array *a = uf_npy_load(path, err);
    if (a == NULL)
        return NULL;
    uf_array *v = uf_array_slice(a, index, err);
    uf_array_release(a);
    return v;
}
