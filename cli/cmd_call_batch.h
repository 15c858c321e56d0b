/* `ufjit call --batch FILE`: many calls in one process, one per line of
 * FILE, sharing one context, so that each kernel file is read once and
 * each kernel compiled once per signature for the whole batch. */
#ifndef UF_CLI_CMD_CALL_BATCH_H
#define UF_CLI_CMD_CALL_BATCH_H

#include <ufjit/ufjit.h>

typedef struct uf__cli_call_batch uf__cli_call_batch;

/* `ufjit call ARGS...` (argv[0] is "call"); batch NULL: a context and
 * module of its own, else the batch's. The exit code. */
int uf__cli_call_with(int argc, char **argv, uf__cli_call_batch *batch);

/* The module of the kernel file `path`, loaded on its first use and kept
 * for the batch (a file that fails to load is tried again next time, so
 * each call using it reports the error). NULL with *err set. */
uf_module *uf__cli_call_batch_module(uf__cli_call_batch *b, const char *path,
                                     uf_error *err);

/* `ufjit call --batch FILE` (argv[1] is "--batch"). */
int uf__cli_call_batch_run(int argc, char **argv);

#endif
