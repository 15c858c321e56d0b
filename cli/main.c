/* The ufjit command: the table of commands and the dispatch to them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

typedef struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* NULL: listed, not built yet */
} command;

static const command commands[] = {
    {"sysinfo", "the build, CPU and OS, like `numba -s`", uf__cli_sysinfo},
    {"npy", "show a .npy file, or convert it (slice, transpose, dtype, "
            "order)", uf__cli_npy},
    {"demo", "a short tour of the array core and kernels, in NumPy's terms",
     uf__cli_demo},
    {"call", "run a kernel on .npy files and scalars", uf__cli_call},
    {"launch", "run a CUDA kernel (@cuda.jit) over a grid on .npy files",
     uf__cli_launch},
    {"inspect", "show a kernel's types, LLVM IR, assembly or PTX",
     uf__cli_inspect},
};

#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: ufjit [--version] [--help] COMMAND [ARGS...]\n"
            "\n"
            "ufjit %s runs Numba-style array kernels from C: a NumPy-like\n"
            "array core with .npy files, and vectorize, guvectorize, reduce\n"
            "and njit kernels compiled by LLVM. Targets of this build:\n",
            uf_version());
    for (int i = 0; i < uf_target_count(); i++)
        fprintf(out, "  %-9s %s\n", uf_target_name(i), uf_target_summary(i));
    fputs("\nCommands:\n", out);
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-9s %s%s\n", commands[i].name, commands[i].summary,
                commands[i].run ? "" : " (not built yet)");
    fputs("\n"
          "Run 'ufjit help COMMAND' or 'ufjit COMMAND --help' for the\n"
          "command's arguments. Exit status: 0 success, 1 the command\n"
          "failed, 2 the command line was wrong. Errors are one line on\n"
          "stderr starting with 'ufjit:'.\n",
          out);
}

static const command *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int run_command(const command *c, int argc, char **argv)
{
    if (c->run == NULL)
        return uf__cli_error("'%s' is not built yet: it arrives with the "
                             "kernel compiler (see 'ufjit --help')",
                             c->name);
    return c->run(argc, argv);
}

/* "ufjit help CMD [SUB...]" is "ufjit CMD [SUB...] --help". */
static int run_help(int argc, char **argv)
{
    if (argc == 0) {
        print_help(stdout);
        return UF__CLI_OK;
    }
    const command *c = find_command(argv[0]);
    if (c == NULL) {
        uf__cli_error("unknown command '%s' (see 'ufjit --help')", argv[0]);
        return UF__CLI_USAGE;
    }
    char *av[8];
    if (argc + 1 > (int)(sizeof av / sizeof av[0]))
        return uf__cli_usage("help", "too many arguments");
    for (int i = 0; i < argc; i++)
        av[i] = argv[i];
    av[argc] = (char *)"--help";
    return run_command(c, argc + 1, av);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        uf__cli_error("no command given (see 'ufjit --help')");
        return UF__CLI_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
        print_help(stdout);
        return UF__CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("ufjit %s\n", uf_version());
        return UF__CLI_OK;
    }
    if (strcmp(name, "help") == 0)
        return run_help(argc - 2, argv + 2);
    if (name[0] == '-') {
        uf__cli_error("unknown option '%s' (see 'ufjit --help')", name);
        return UF__CLI_USAGE;
    }
    const command *c = find_command(name);
    if (c == NULL) {
        uf__cli_error("unknown command '%s' (see 'ufjit --help')", name);
        return UF__CLI_USAGE;
    }
    return run_command(c, argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* Output that could not be written (a full disk, a closed pipe) is a
     * failure, not a silent success. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        uf__cli_error("cannot write the output: %s", strerror(e));
        if (rc == UF__CLI_OK)
            rc = UF__CLI_ERROR;
    }
    return rc;
}
