/* Loading kernel files into uf_modules and looking up their kernels. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"

/* Reads a whole kernel file into a NUL-terminated buffer. Only regular
 * files: a FIFO would block the open and a device (/dev/zero) never end;
 * opened without blocking, then checked with fstat. The size limit is
 * checked while reading, since a file may grow after the check. */
char *uf__module_read_file(const char *path, size_t *len, uf_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        uf__error_set(err, UF_ERR_IO, "cannot open '%s': %s", path,
                      strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        uf__error_set(err, UF_ERR_IO, "'%s' is not a regular file: kernels "
                      "are read from regular files only", path);
        close(fd);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = uf__malloc(cap, 1, err);
    while (buf != NULL) {
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            uf__error_set(err, UF_ERR_IO, "cannot read '%s': %s", path,
                          strerror(errno));
            goto fail;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > UF__MAX_SOURCE_BYTES) {
            uf__error_set(err, UF_ERR_LIMIT, "'%s' is larger than "
                          "the %d MiB kernel files may have", path,
                          UF__MAX_SOURCE_BYTES >> 20);
            goto fail;
        }
        if (n + 1 < cap)
            continue;
        char *bigger = uf__realloc(buf, cap, 2, err);
        if (bigger == NULL)
            goto fail;
        buf = bigger;
        cap *= 2;
    }
    close(fd);
    if (buf != NULL) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;

fail:
    uf__free(buf);
    close(fd);
    return NULL;
}

uf_module *uf__module_new(uf_context *ctx, const char *name, char *text,
                          size_t len, const uf__kind_ops *const *kinds,
                          uf_error *err)
{
    uf_module *m = uf__calloc(1, sizeof *m, err);
    if (m == NULL)
        goto fail_module;
    m->ctx = ctx;
    m->text = text;
    m->name = uf__strdup(name, err);
    if (m->name == NULL)
        goto fail_name;
    if (memchr(text, '\0', len) != NULL) {
        uf__error_set(err, UF_ERR_SYNTAX,
                      "%s: source contains a NUL byte", name);
        goto fail_name;
    }
    m->src = (uf__source){m->name, m->text, len};
    m->km = uf__kmodule_new(&m->src, err);
    if (m->km == NULL)
        goto fail_name;
    m->nfuncs = m->km->nkernels;
    m->funcs = uf__calloc((size_t)m->nfuncs, sizeof *m->funcs, err);
    if (m->funcs == NULL)
        goto fail_funcs;
    for (int i = 0; i < m->nfuncs; i++) {
        uf_func *f = &m->funcs[i];
        f->module = m;
        f->decl = &m->km->kernels[i];
        f->ops = kinds[f->decl->kind];
        atomic_init(&f->ufunc_ready, NULL);
        f->nin = f->decl->def->u.funcdef.nparams;
        f->nout = -1;
        if (f->ops->arity != NULL)
            f->ops->arity(f);
    }
    return m;

fail_funcs:
    uf__kmodule_free(m->km);
fail_name:
    uf__free(m->name);
    uf__free(m);
fail_module:
    uf__free(text);
    return NULL;
}

void uf__module_free(uf_module *m)
{
    uf__free(m->funcs);
    uf__kmodule_free(m->km);
    uf__free(m->name);
    uf__free(m->text);
    uf__free(m);
}

int uf_module_nfuncs(const uf_module *m)
{
    return m->nfuncs;
}

const char *uf_module_func_name(const uf_module *m, int i)
{
    return i >= 0 && i < m->nfuncs ? m->funcs[i].decl->name : NULL;
}

uf_func *uf_module_get(uf_module *m, const char *name, uf_error *err)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].decl->name, name) == 0)
            return &m->funcs[i];
    char names[512] = "";
    size_t used = 0;
    for (int i = 0; i < m->nfuncs && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 i ? ", " : "", m->funcs[i].decl->name);
    uf__error_set(err, UF_ERR_NOT_FOUND,
                  "%s has no kernel named '%s' (kernels: %s)", m->name, name,
                  m->nfuncs ? names : "none");
    return NULL;
}
