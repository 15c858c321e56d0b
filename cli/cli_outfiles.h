/* Output files written whole or not at all (`ufjit call -o`, `ufjit
 * launch --out`). Each output gets a temporary file beside it, created
 * before the kernel runs (so an unwritable place fails before any work),
 * written after, and renamed over the final name when every output is
 * written. A symlink is written through to its target (the link stays); a
 * device, FIFO or socket is written through directly (-o /dev/null
 * discards, as with cp), never renamed over. A new file gets 0666 less
 * the umask, a replaced one keeps its mode. A signal (Ctrl-C, timeout's
 * SIGTERM) removes the temporaries before the process dies of it. */
#ifndef UF_CLI_OUTFILES_H
#define UF_CLI_OUTFILES_H

#include <stdbool.h>

#include "cli/cli_util.h"

#define UF__CLI_MAX_OUTFILES 64

typedef struct uf__cli_outfiles {
    char tmp[UF__CLI_MAX_OUTFILES][4096];
    char final[UF__CLI_MAX_OUTFILES][4096]; /* where each output goes */
    bool direct[UF__CLI_MAX_OUTFILES]; /* a special file, written in place */
    bool str[UF__CLI_MAX_OUTFILES]; /* a string's code points (a 1-D uint32
                                       array), written as NumPy's 0-d
                                       '<U' array: np.load gives the str */
    int n; /* temporaries that exist */
} uf__cli_outfiles;

/* Creates the temporaries of names[0..n) (n <= UF__CLI_MAX_OUTFILES) and
 * removes them on SIGINT/SIGTERM/SIGHUP/SIGQUIT. 0, or UF__CLI_ERROR
 * after printing why (nothing left behind). */
int uf__cli_outfiles_reserve(uf__cli_outfiles *o, const char *const *names,
                             int n);

/* Writes arrays[i] to names[i] and renames each into place. 0, or
 * UF__CLI_ERROR after printing why (temporaries removed). */
int uf__cli_outfiles_write(uf__cli_outfiles *o, const char *const *names,
                           int n, uf_array *const *arrays, uf_error *err);

/* Removes the temporaries (the work failed). */
void uf__cli_outfiles_discard(uf__cli_outfiles *o);

#endif
