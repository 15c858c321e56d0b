/* Output files written whole or not at all (cli_outfiles.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_outfiles.h"

static void remove_temps(uf__cli_outfiles *o, int from)
{
    for (int i = from; i < o->n; i++)
        if (!o->direct[i])
            unlink(o->tmp[i]);
    o->n = from;
}

/* The mode a new file gets: 0666 less the umask (mkstemp gives 0600). */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* The temporaries a signal (Ctrl-C, timeout's SIGTERM) must not leave
 * behind: the handler unlinks them (unlink is async-signal-safe), then the
 * process dies of the signal as it would have. Every caught signal stays
 * blocked while the handler runs: timeout(1) sends SIGTERM to the child
 * and again to its group, and a second one under the default action would
 * kill us halfway through the unlinks. */
static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static uf__cli_outfiles *volatile signal_files;

static void remove_temps_on_signal(int sig)
{
    uf__cli_outfiles *o = signal_files;
    if (o != NULL)
        for (int i = 0; i < o->n; i++)
            if (!o->direct[i])
                unlink(o->tmp[i]);
    /* delivered when the handler returns and the mask is lifted */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(uf__cli_outfiles *o)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temps_on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught_signals / sizeof caught_signals[0];
         i++)
        sigaddset(&sa.sa_mask, caught_signals[i]);
    signal_files = o;
    for (size_t i = 0; i < sizeof caught_signals / sizeof caught_signals[0];
         i++)
        sigaction(caught_signals[i], &sa, NULL);
}

int uf__cli_outfiles_reserve(uf__cli_outfiles *o, const char *const *names,
                             int n)
{
    o->n = 0;
    catch_signals(o);
    for (int i = 0; i < n; i++) {
        struct stat st;
        bool exists = stat(names[i], &st) == 0;
        if (exists && S_ISDIR(st.st_mode)) {
            remove_temps(o, 0);
            return uf__cli_error("cannot write '%s': it is a directory",
                                 names[i]);
        }
        /* through a symlink to its target; a new name as given */
        char real[PATH_MAX];
        const char *final = exists && realpath(names[i], real) ? real
                                                                 : names[i];
        int w = snprintf(o->final[i], sizeof o->final[i], "%s", final);
        o->direct[i] = exists && !S_ISREG(st.st_mode);
        if (w >= 0 && (size_t)w < sizeof o->final[i] && !o->direct[i])
            w = snprintf(o->tmp[i], sizeof o->tmp[i], "%s.tmp-XXXXXX",
                         o->final[i]);
        if (w < 0 || (size_t)w >= sizeof o->tmp[i]) {
            remove_temps(o, 0);
            return uf__cli_error("output name too long: '%s'", names[i]);
        }
        if (o->direct[i]) {
            o->n = i + 1;
            continue;
        }
        int fd = mkstemp(o->tmp[i]);
        if (fd < 0) {
            int e = errno;
            remove_temps(o, 0);
            return uf__cli_error("cannot write '%s': %s", names[i],
                                 strerror(e));
        }
        (void)fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode());
        close(fd);
        o->n = i + 1;
    }
    return 0;
}

static int io_error(uf_error *err, const char *why)
{
    uf_error_clear(err);
    err->code = UF_ERR_IO;
    snprintf(err->message, sizeof err->message, "%s", why);
    return err->code;
}

/* A 1-D uint32 array of code points as a .npy file of NumPy's 0-d
 * unicode array ('<U n', UTF-32LE; '<U1' holding 0 for the empty
 * string, as NumPy stores np.str_('')). */
static int save_str(const char *path, const uf_array *a, uf_error *err)
{
    int64_t n = uf_array_ndim(a) == 1 ? uf_array_shape(a)[0] : 0;
    char head[128];
    int h = snprintf(head + 10, sizeof head - 10, "{'descr': '<U%lld', "
                     "'fortran_order': False, 'shape': (), }",
                     (long long)(n > 0 ? n : 1));
    int total = (10 + h + 1 + 63) / 64 * 64;
    memset(head + 10 + h, ' ', (size_t)(total - 10 - h - 1));
    head[total - 1] = '\n';
    memcpy(head, "\x93NUMPY\x01\x00", 8);
    head[8] = (char)((total - 10) & 0xFF);
    head[9] = (char)((total - 10) >> 8);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return io_error(err, strerror(errno));
    bool ok = fwrite(head, 1, (size_t)total, f) == (size_t)total;
    const char *d = uf_array_data(a);
    int64_t stride = n > 0 ? uf_array_strides(a)[0] : 0;
    for (int64_t i = 0; i < n && ok; i++) {
        uint32_t c;
        memcpy(&c, d + i * stride, 4);
        unsigned char le[4] = {(unsigned char)c, (unsigned char)(c >> 8),
                               (unsigned char)(c >> 16),
                               (unsigned char)(c >> 24)};
        ok = fwrite(le, 1, 4, f) == 4;
    }
    if (ok && n == 0)
        ok = fwrite("\0\0\0\0", 1, 4, f) == 4;
    if (fclose(f) != 0 || !ok)
        return io_error(err, "write failed");
    return 0;
}

int uf__cli_outfiles_write(uf__cli_outfiles *o, const char *const *names,
                           int n, uf_array *const *arrays, uf_error *err)
{
    for (int i = 0; i < n; i++) {
        const char *path = o->direct[i] ? o->final[i] : o->tmp[i];
        if ((o->str[i] ? save_str(path, arrays[i], err)
                       : uf_npy_save(path, arrays[i], err)) != 0) {
            remove_temps(o, 0);
            char what[4200];
            snprintf(what, sizeof what, "cannot write '%s'", names[i]);
            return uf__cli_fail(err, what);
        }
    }
    for (int i = 0; i < n; i++) {
        if (!o->direct[i] && rename(o->tmp[i], o->final[i]) != 0) {
            int e = errno;
            /* Earlier outputs are in place already; rename cannot be
             * undone, so say which ones. */
            remove_temps(o, i);
            if (i > 0)
                return uf__cli_error("cannot write '%s': %s (the first %d "
                                     "output%s %s written)", names[i],
                                     strerror(e), i, i == 1 ? "" : "s",
                                     i == 1 ? "was" : "were");
            return uf__cli_error("cannot write '%s': %s", names[i],
                                 strerror(e));
        }
    }
    o->n = 0;
    return 0;
}
void uf__cli_outfiles_discard(uf__cli_outfiles *o)
{
    remove_temps(o, 0);
}
