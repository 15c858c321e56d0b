/* ufjit call --batch FILE: one call per line of FILE (tab-separated
 * arguments), all in this process and one context. Starting a process
 * (the dynamic linker, LLVM's initialisation, under the sanitizers their
 * runtime) costs as much as compiling a small kernel; the Numba-oracle
 * tests make thousands of calls, so they make them here.
 *
 * After each call a marker line goes to stdout and to stderr, so that a
 * reader can split both streams by call; stdout is flushed after it, so
 * a program feeding calls through a pipe reads each result as it comes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/cmd_call_batch.h"

/* arguments of one line: as many as `ufjit call` takes, and one more to
 * find a line with too many */
#define MAX_LINE_ARGS 160

typedef struct loaded {
    char *path;
    uf_module *m;
} loaded;

struct uf__cli_call_batch {
    uf_context *ctx; /* made on the first call */
    loaded *mods;
    int nmods, cap;
};

uf_module *uf__cli_call_batch_module(uf__cli_call_batch *b, const char *path,
                                     uf_error *err)
{
    for (int i = 0; i < b->nmods; i++)
        if (strcmp(b->mods[i].path, path) == 0)
            return b->mods[i].m;
    if (b->ctx == NULL && (b->ctx = uf_context_new(err)) == NULL)
        return NULL;
    if (b->nmods == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        loaded *mods = realloc(b->mods, (size_t)cap * sizeof *mods);
        if (mods == NULL) {
            uf__cli_seterr(err, UF_ERR_NOMEM, "out of memory");
            return NULL;
        }
        b->mods = mods;
        b->cap = cap;
    }
    char *copy = strdup(path);
    if (copy == NULL) {
        uf__cli_seterr(err, UF_ERR_NOMEM, "out of memory");
        return NULL;
    }
    uf_module *m = uf_module_load(b->ctx, path, err);
    if (m == NULL) {
        free(copy);
        return NULL;
    }
    b->mods[b->nmods++] = (loaded){copy, m};
    return m;
}

static void batch_free(uf__cli_call_batch *b)
{
    for (int i = 0; i < b->nmods; i++) {
        uf_module_free(b->mods[i].m);
        free(b->mods[i].path);
    }
    free(b->mods);
    uf_context_free(b->ctx);
}

/* Splits `line` at tabs into av[1..]; av[0] is "call". The count, or -1
 * when there are more than MAX_LINE_ARGS. */
static int split_line(char *line, char **av)
{
    int n = 0;
    av[n++] = (char *)"call";
    for (char *p = line;;) {
        if (n == MAX_LINE_ARGS)
            return -1;
        av[n++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL)
            return n;
        *tab = '\0';
        p = tab + 1;
    }
}

static int run_lines(FILE *in, uf__cli_call_batch *b)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int ncalls = 0, failed = 0;
    while ((len = getline(&line, &cap, in)) >= 0) {
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *av[MAX_LINE_ARGS];
        int ac = split_line(line, av);
        int rc = ac < 0 ? uf__cli_usage("call", "more than %d arguments on "
                                        "one line", MAX_LINE_ARGS - 2)
                        : uf__cli_call_with(ac, av, b);
        failed += rc != 0;
        ncalls++;
        fflush(stdout);
        fprintf(stderr, "#ufjit-batch %d exit %d\n", ncalls, rc);
        printf("#ufjit-batch %d exit %d\n", ncalls, rc);
        if (fflush(stdout) != 0)
            break; /* nobody reads the results: main() says so */
    }
    free(line);
    return failed ? UF__CLI_ERROR : UF__CLI_OK;
}

int uf__cli_call_batch_run(int argc, char **argv)
{
    if (argc != 3)
        return uf__cli_usage("call", "--batch takes one FILE ('-' for "
                             "standard input) and nothing else");
    const char *path = argv[2];
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (in == NULL)
        return uf__cli_usage("call", "--batch: cannot read '%s': %s", path,
                             strerror(errno));
    uf__cli_call_batch b = {0};
    int rc = run_lines(in, &b);
    if (ferror(in))
        rc = uf__cli_error("--batch: reading '%s' failed", path);
    if (in != stdin)
        fclose(in);
    batch_free(&b);
    return rc;
}
