/* Helpers shared by the ufjit commands: error reporting with the exit-code
 * convention, a small option parser, tuple formatting and scalar literals. */
#ifndef UF_CLI_UTIL_H
#define UF_CLI_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ufjit/ufjit.h>

/* Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
enum {
    UF__CLI_OK = 0,
    UF__CLI_ERROR = 1,
    UF__CLI_USAGE = 2,
    /* Returned by uf__cli_parse only: --help was given. */
    UF__CLI_HELP = -1
};

/* Prints "ufjit: <message>" on stderr and returns UF__CLI_ERROR. */
int uf__cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "ufjit: <what>: <err's message>" and returns UF__CLI_ERROR. */
int uf__cli_fail(const uf_error *err, const char *what);

/* Prints "ufjit: <cmd>: <message> (see 'ufjit <cmd> --help')" on stderr
 * and returns UF__CLI_USAGE. */
int uf__cli_usage(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One option of a command. `value` non-NULL: the option takes a value
 * ("--dtype f4" or "--dtype=f4"), stored there. Otherwise it is a flag and
 * `*flag` is set. Giving an option twice is a usage error. */
typedef struct uf__cli_opt {
    const char *name; /* with the dashes: "--dtype" */
    const char **value;
    bool *flag;
} uf__cli_opt;

/* Parses argv[0..argc) of command `cmd` (used in messages). Options may
 * come anywhere; "--" ends them; "-" alone and negative numbers ("-3",
 * "-.5") are positionals. Positionals go to pos[], at most max_pos of them
 * (the caller checks the minimum, so it can name what is missing). Returns
 * 0, UF__CLI_HELP for -h/--help (nothing printed), or UF__CLI_USAGE after
 * printing why. An option's value is always the next argument, even when
 * it starts with '-' ("--slice -1"). At most 64 options. */
int uf__cli_parse(const char *cmd, int argc, char **argv,
                  const uf__cli_opt *opts, int nopts, const char **pos,
                  int max_pos, int *npos);

/* Formats n integers as a Python tuple, "(2, 3)", "(4,)", "()", into buf.
 * Returns buf (truncated with "..." if too small). */
const char *uf__cli_tuple(int n, const int64_t *v, char *buf, size_t size);

/* Parses a comma list of integers ("1,0,2", " -1, 0 "). An empty or
 * all-blank string gives *n = 0. At most `max` entries. */
int uf__cli_parse_int_list(const char *text, int *out, int max, int *n,
                           uf_error *err);

/* A scalar argument: a dtype and its value in native representation. */
typedef struct uf__cli_scalar {
    uf_dtype dtype;
    union {
        bool b;
        int8_t i8;
        uint8_t u8;
        int16_t i16;
        uint16_t u16;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f32;
        double f64;
        float _Complex c64;
        double _Complex c128;
    } v;
} uf__cli_scalar;

/* Parses a scalar literal as `ufjit call` takes it (DESIGN.md section 4),
 * with Numba's typing of Python literals:
 *   "3" int64 (uint64 when only that fits), "2.5" / "1e3" / "inf" / "nan"
 *   float64, "true" / "false" bool, "1+2j" / "2j" complex128, and
 *   "TYPE:VALUE" for any dtype name ("float32:2.5", "int32:7", "u1:255",
 *   "complex64:1-2j").
 * Typed values must be representable: integers in range and written as
 * integers, finite floats not overflowing float32, bool from true/false/0/1.
 * Fails with UF_ERR_VALUE (or the dtype parser's error). */
int uf__cli_parse_scalar(const char *text, uf__cli_scalar *out,
                         uf_error *err);

/* Fills err like the library does (the CLI keeps off internal headers). */
int uf__cli_seterr(uf_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
