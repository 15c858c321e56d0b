/* CUDA C link files (cuda.jit link=['f.cu']) to PTX with the toolkit's
 * nvcc, as numba-cuda compiles them with NVRTC: relocatable device code
 * (-rdc=true, else nvcc drops device functions no kernel of the file
 * calls), for the architecture the kernel is compiled for.
 *
 * nvcc rather than NVRTC through dlopen: the toolkit ufjit finds libnvvm
 * and ptxas in has it, it resolves the file's #includes relative to the
 * file itself, and its diagnostics name the file and line as the user
 * wrote them; NVRTC would need the CUDA headers' include path spelled out
 * and a second library to load. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm.h"

extern char **environ;

static bool find_nvcc(char *out, size_t size, char *searched, size_t ssize)
{
    const char *roots[3];
    int n = 0;
    const char *e;
    if ((e = getenv("CUDA_HOME")) && *e)
        roots[n++] = e;
    if ((e = getenv("CUDA_PATH")) && *e)
        roots[n++] = e;
    roots[n++] = "/usr/local/cuda";
    size_t used = 0;
    searched[0] = '\0';
    for (int i = 0; i < n; i++) {
        snprintf(out, size, "%s/bin/nvcc", roots[i]);
        if (access(out, X_OK) == 0)
            return true;
        used += (size_t)snprintf(searched + used, ssize - used, "%s%s",
                                 i ? ", " : "", out);
        if (used >= ssize)
            used = ssize - 1;
    }
    return false;
}

/* The whole of file `path` as a NUL-terminated string; NULL when it
 * cannot be read. */
static char *slurp(const char *path, uf_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *s = uf__malloc(cap, 1, err);
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *t = uf__realloc(s, cap * 2, 1, err);
            if (!t) {
                uf__free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

char *uf__nvvm_read_text(const char *path, uf_error *err)
{
    char *s = slurp(path, err);
    if (!s && err->code != UF_ERR_NOMEM)
        uf__error_set(err, UF_ERR_IO, "cannot read %s", path);
    return s;
}

int uf__nvvm_nvcc_ptx(const char *cu, const char *arch, char **ptx,
                      uf_error *err)
{
    *ptx = NULL;
    char nvcc[600], searched[1200];
    if (!find_nvcc(nvcc, sizeof nvcc, searched, sizeof searched))
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "compiling the link "
                             "file %s needs the CUDA toolkit's nvcc, which "
                             "was not found (looked for %s; set CUDA_HOME), "
                             "or link its PTX instead", cu, searched);
    char dir[] = "/tmp/ufjit-nvcc-XXXXXX";
    if (!mkdtemp(dir))
        return uf__error_set(err, UF_ERR_IO, "nvcc: cannot create a "
                             "temporary folder");
    char out[64], log[64], archarg[48];
    snprintf(out, sizeof out, "%s/out.ptx", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    const char *a = arch ? arch : "compute_80";
    /* nvcc -ptx takes a virtual architecture: sm_90 -> compute_90 */
    snprintf(archarg, sizeof archarg, "-arch=compute_%s",
             strncmp(a, "sm_", 3) == 0     ? a + 3
             : strncmp(a, "compute_", 8) == 0 ? a + 8
                                               : a);
    char *argv[] = {nvcc, "-ptx", "-rdc=true", archarg, "-o", out,
                    (char *)cu, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, nvcc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (rc == 0)
        while (waitpid(pid, &status, 0) < 0)
            ;
    if (rc != 0) {
        uf__error_set(err, UF_ERR_IO, "cannot run %s", nvcc);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        uf_error quiet;
        uf_error_clear(&quiet);
        char *msg = slurp(log, &quiet);
        size_t len = msg ? strlen(msg) : 0;
        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
            msg[--len] = '\0';
        uf__error_set(err, UF_ERR_FORMAT, "nvcc cannot compile the link "
                      "file %s: %s", cu, msg && *msg ? msg : "(no output)");
        uf__free(msg);
    } else {
        *ptx = uf__nvvm_read_text(out, err);
    }
    unlink(out);
    unlink(log);
    rmdir(dir);
    return *ptx ? 0 : err->code;
}
