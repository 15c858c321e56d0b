/* What `ufjit call` and `ufjit launch` share about a kernel's operands:
 * input arguments (a .npy file, 'FILE.npy[EXPR]' views, scalar literals
 * as 0-d arrays) and kernel errors worded with their source position. */
#ifndef UF_CLI_OPERANDS_H
#define UF_CLI_OPERANDS_H

#include <stdbool.h>

#include "cli/cli_util.h"

/* One input argument as given on the command line. */
typedef struct uf__cli_input {
    const char *text;
    bool is_scalar; /* then `scalar` holds it */
    bool is_str;    /* str:TEXT, a string (text + 4) */
    uf__cli_scalar scalar;
} uf__cli_input;

/* "a.npy" and "a.npy[::2, 1]" name files; "str:TEXT" is the string TEXT
 * (UTF-8); anything else must be a scalar literal (uf__cli_parse_scalar). Fails with err set (a usage error for
 * the caller to word). */
int uf__cli_input_parse(const char *text, uf__cli_input *in, uf_error *err);

/* The input as an array: the file loaded (and indexed: a strided view),
 * the scalar as a 0-d array, a string as uf_array_from_utf8's. NULL with err set. */
uf_array *uf__cli_input_load(const uf__cli_input *in, uf_error *err);

/* A kernel error is "ufjit: FILE:LINE:COL: message" (the message holds
 * the source line and its caret); others "ufjit: what: message". Returns
 * UF__CLI_ERROR. */
int uf__cli_kernel_fail(const uf_error *err, const char *what);

#endif
