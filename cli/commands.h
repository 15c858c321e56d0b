/* The commands of the ufjit tool. Each takes its own argv (argv[0] is the
 * command's name), prints its help for -h/--help, and returns the exit
 * code: 0 success, 1 failure, 2 usage error (cli_util.h). A new command is
 * a new cmd_<name>.c plus one line in main.c's table. */
#ifndef UF_CLI_COMMANDS_H
#define UF_CLI_COMMANDS_H

int uf__cli_sysinfo(int argc, char **argv);
int uf__cli_npy(int argc, char **argv);
int uf__cli_demo(int argc, char **argv);
int uf__cli_call(int argc, char **argv);
int uf__cli_inspect(int argc, char **argv);
int uf__cli_launch(int argc, char **argv);

#endif
