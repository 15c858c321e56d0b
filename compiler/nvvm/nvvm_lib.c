/* libnvvm loaded with dlopen (never linked: ufjit builds and runs where no
 * toolkit is), found through CUDA_HOME, CUDA_PATH, /usr/local/cuda or the
 * loader; libdevice and ptxas found beside it; one program per compile,
 * libdevice added lazily, or the part of it the module calls. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

typedef int nvvm_result;
typedef struct nvvm_program_s *nvvm_program;

static struct {
    void *handle;
    nvvm_result (*version)(int *, int *);
    nvvm_result (*ir_version)(int *, int *, int *, int *);
    nvvm_result (*create)(nvvm_program *);
    nvvm_result (*destroy)(nvvm_program *);
    nvvm_result (*add)(nvvm_program, const char *, size_t, const char *);
    nvvm_result (*lazy_add)(nvvm_program, const char *, size_t, const char *);
    nvvm_result (*compile)(nvvm_program, int, const char **);
    nvvm_result (*result_size)(nvvm_program, size_t *);
    nvvm_result (*result)(nvvm_program, char *);
    nvvm_result (*log_size)(nvvm_program, size_t *);
    nvvm_result (*log)(nvvm_program, char *);
    const char *(*error_string)(nvvm_result);
} nv;

static pthread_once_t find_once = PTHREAD_ONCE_INIT;
static uf__nvvm_toolkit tk;
static char libnvvm_path[640], libdevice_path[640], ptxas_path[640];
static char ptxas_version[32], searched[1024];
static void *libdevice_bytes;
static size_t libdevice_len;
/* libnvvm's programs are independent, but one compile at a time keeps
 * its memory bounded and its (older) releases safe */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The toolkit roots to search, in order (NULLs skipped). */
static int roots(const char *out[4])
{
    int n = 0;
    const char *e;
    if ((e = getenv("CUDA_HOME")) && *e)
        out[n++] = e;
    if ((e = getenv("CUDA_PATH")) && *e)
        out[n++] = e;
    out[n++] = "/usr/local/cuda";
    return n;
}

static void note_searched(const char *p)
{
    size_t len = strlen(searched);
    if (len + strlen(p) + 3 < sizeof searched)
        snprintf(searched + len, sizeof searched - len, "%s%s",
                 len ? ", " : "", p);
}

static void *sym(const char *name, bool *ok)
{
    void *s = dlsym(nv.handle, name);
    if (!s)
        *ok = false;
    return s;
}

static bool bind(void)
{
    bool ok = true;
    *(void **)&nv.version = sym("nvvmVersion", &ok);
    *(void **)&nv.ir_version = sym("nvvmIRVersion", &ok);
    *(void **)&nv.create = sym("nvvmCreateProgram", &ok);
    *(void **)&nv.destroy = sym("nvvmDestroyProgram", &ok);
    *(void **)&nv.add = sym("nvvmAddModuleToProgram", &ok);
    *(void **)&nv.lazy_add = sym("nvvmLazyAddModuleToProgram", &ok);
    *(void **)&nv.compile = sym("nvvmCompileProgram", &ok);
    *(void **)&nv.result_size = sym("nvvmGetCompiledResultSize", &ok);
    *(void **)&nv.result = sym("nvvmGetCompiledResult", &ok);
    *(void **)&nv.log_size = sym("nvvmGetProgramLogSize", &ok);
    *(void **)&nv.log = sym("nvvmGetProgramLog", &ok);
    *(void **)&nv.error_string = sym("nvvmGetErrorString", &ok);
    return ok;
}

static void find_libnvvm(const char *const *r, int nr)
{
    static const char *const rel[] = {
        "nvvm/lib64/libnvvm.so", "nvvm/lib64/libnvvm.so.4",
        "lib64/libnvvm.so.4",    "lib/libnvvm.so.4",
        "lib64/libnvvm.so",      "lib/libnvvm.so"};
    char p[512];
    for (int i = 0; i < nr && !nv.handle; i++)
        for (size_t j = 0; j < sizeof rel / sizeof rel[0] && !nv.handle;
             j++) {
            snprintf(p, sizeof p, "%s/%s", r[i], rel[j]);
            if (!is_file(p))
                continue;
            nv.handle = dlopen(p, RTLD_NOW | RTLD_LOCAL);
        }
    for (int i = 0; i < nr; i++) {
        snprintf(p, sizeof p, "%s/{nvvm/lib64,lib64,lib}/libnvvm.so*", r[i]);
        note_searched(p);
    }
    note_searched("libnvvm.so.4 and libnvvm.so through the loader");
    if (!nv.handle)
        nv.handle = dlopen("libnvvm.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!nv.handle)
        nv.handle = dlopen("libnvvm.so", RTLD_NOW | RTLD_LOCAL);
    if (!nv.handle) {
        tk.libnvvm_why = "libnvvm not found (set CUDA_HOME)";
        return;
    }
    if (!bind()) {
        dlclose(nv.handle);
        nv.handle = NULL;
        tk.libnvvm_why = "libnvvm lacks the NVVM API (too old?)";
        return;
    }
    Dl_info info;
    if (dladdr(*(void **)&nv.version, &info) && info.dli_fname)
        snprintf(libnvvm_path, sizeof libnvvm_path, "%s", info.dli_fname);
    tk.libnvvm_path = libnvvm_path;
    nv.version(&tk.nvvm_major, &tk.nvvm_minor);
    int dmaj, dmin;
    nv.ir_version(&tk.nvvm_ir_major, &tk.nvvm_ir_minor, &dmaj, &dmin);
}

/* <root>/nvvm/libdevice/libdevice.10.bc, also for the root libnvvm was
 * found in (<root>/lib/libnvvm.so.4 or <root>/nvvm/lib64/...) */
static void find_libdevice(const char *const *r, int nr)
{
    char p[600];
    for (int i = 0; i < nr; i++) {
        snprintf(p, sizeof p, "%s/nvvm/libdevice/libdevice.10.bc", r[i]);
        if (is_file(p)) {
            snprintf(libdevice_path, sizeof libdevice_path, "%s", p);
            tk.libdevice_path = libdevice_path;
            return;
        }
    }
    if (tk.libnvvm_path) {
        char dir[520];
        snprintf(dir, sizeof dir, "%s", tk.libnvvm_path);
        for (int up = 0; up < 3; up++) {
            char *s = strrchr(dir, '/');
            if (!s)
                break;
            *s = '\0';
            snprintf(p, sizeof p, "%s/nvvm/libdevice/libdevice.10.bc", dir);
            if (is_file(p)) {
                snprintf(libdevice_path, sizeof libdevice_path, "%s", p);
                tk.libdevice_path = libdevice_path;
                return;
            }
        }
    }
    tk.libdevice_why = "libdevice.10.bc not found under <cuda>/nvvm/libdevice";
}

static void find_ptxas(const char *const *r, int nr)
{
    char p[600];
    for (int i = 0; i < nr && !tk.ptxas_path; i++) {
        snprintf(p, sizeof p, "%s/bin/ptxas", r[i]);
        if (access(p, X_OK) == 0) {
            snprintf(ptxas_path, sizeof ptxas_path, "%s", p);
            tk.ptxas_path = ptxas_path;
        }
    }
    const char *path = getenv("PATH");
    while (!tk.ptxas_path && path && *path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(p, sizeof p, "%.*s/ptxas", (int)n, path);
        if (n && access(p, X_OK) == 0) {
            snprintf(ptxas_path, sizeof ptxas_path, "%s", p);
            tk.ptxas_path = ptxas_path;
        }
        path = e ? e + 1 : NULL;
    }
    if (!tk.ptxas_path) {
        tk.ptxas_why = "ptxas not found (<cuda>/bin, PATH)";
        return;
    }
    /* "Cuda compilation tools, release 13.0, V13.0.88" */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", ptxas_path);
    FILE *f = popen(cmd, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        char *v = strstr(line, ", V");
        if (v) {
            v[3 + strcspn(v + 3, "\r\n")] = '\0';
            snprintf(ptxas_version, sizeof ptxas_version, "%s", v + 3);
        }
    }
    if (f)
        pclose(f);
}

static void find_toolkit(void)
{
    const char *r[4];
    int nr = roots(r);
    tk.ptxas_version = ptxas_version;
    find_libnvvm(r, nr);
    find_libdevice(r, nr);
    find_ptxas(r, nr);
}

const uf__nvvm_toolkit *uf__nvvm_toolkit_get(void)
{
    pthread_once(&find_once, find_toolkit);
    return &tk;
}

int uf__nvvm_lib_load(uf_error *err)
{
    uf__nvvm_toolkit_get();
    if (nv.handle)
        return 0;
    return uf__error_set(err, UF_ERR_NOT_FOUND, "%s; searched %s",
                         tk.libnvvm_why, searched);
}

void uf__nvvm_lib_ir_version(int *major, int *minor)
{
    uf__nvvm_toolkit_get();
    *major = nv.handle ? tk.nvvm_ir_major : 2;
    *minor = nv.handle ? tk.nvvm_ir_minor : 0;
}

static pthread_once_t libdevice_once = PTHREAD_ONCE_INIT;

static void read_libdevice(void)
{
    if (!tk.libdevice_path)
        return;
    FILE *f = fopen(tk.libdevice_path, "rb");
    if (!f)
        return;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        rewind(f);
        void *b = n > 0 ? malloc((size_t)n) : NULL;
        if (b && fread(b, 1, (size_t)n, f) == (size_t)n) {
            libdevice_bytes = b;
            libdevice_len = (size_t)n;
        } else {
            free(b);
        }
    }
    fclose(f);
}

const void *uf__nvvm_libdevice(size_t *len, uf_error *err)
{
    uf__nvvm_toolkit_get();
    pthread_once(&libdevice_once, read_libdevice);
    if (!libdevice_bytes) {
        uf__error_set(err, UF_ERR_NOT_FOUND, "CUDA: %s",
                      tk.libdevice_path ? "cannot read libdevice.10.bc"
                                        : tk.libdevice_why);
        return NULL;
    }
    *len = libdevice_len;
    return libdevice_bytes;
}

/* The program's log, appended to err's message. */
static int fail(nvvm_program prog, nvvm_result r, const char *what,
                uf_error *err)
{
    size_t n = 0;
    char *log = NULL;
    if (nv.log_size(prog, &n) == 0 && n > 1 && (log = malloc(n)) &&
        nv.log(prog, log) != 0) {
        free(log);
        log = NULL;
    }
    uf__error_set(err, UF_ERR_INTERNAL, "libnvvm: %s: %s%s%s", what,
                  nv.error_string(r), log ? "\n" : "", log ? log : "");
    free(log);
    return UF_ERR_INTERNAL;
}

int uf__nvvm_lib_compile(const void *bc, size_t len, const void *ld,
                         size_t ldlen, bool ld_text, const char *atomics,
                         const char *arch,
                         const uf__nvvm_options *opts, char **ptx,
                         size_t *ptxlen, uf_error *err)
{
    int rc = uf__nvvm_lib_load(err);
    if (rc != 0)
        return rc;
    /* options: -arch, fastmath's four, then the caller's extra words */
    char archopt[48], extra[256];
    const char *o[32];
    int no = 0;
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    o[no++] = archopt;
    if (opts && opts->fastmath) {
        o[no++] = "-ftz=1";
        o[no++] = "-prec-div=0";
        o[no++] = "-prec-sqrt=0";
        o[no++] = "-fma=1";
    }
    if (opts && opts->extra) {
        snprintf(extra, sizeof extra, "%s", opts->extra);
        for (char *s = strtok(extra, " "); s && no < 32; s = strtok(NULL, " "))
            o[no++] = s;
    }
    pthread_mutex_lock(&compile_lock);
    nvvm_program prog = NULL;
    nvvm_result r = nv.create(&prog);
    if (r != 0) {
        pthread_mutex_unlock(&compile_lock);
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "libnvvm: cannot create a program: %s",
                             nv.error_string(r));
    }
    if ((r = nv.add(prog, bc, len, "ufjit")) != 0) {
        rc = fail(prog, r, "adding the module", err);
        goto out;
    }
    if (ld && (r = (ld_text ? nv.add : nv.lazy_add)(prog, ld, ldlen,
                                                      "libdevice")) != 0) {
        rc = fail(prog, r, "adding libdevice", err);
        goto out;
    }
    if (atomics && (r = nv.add(prog, atomics, strlen(atomics),
                               "atomics")) != 0) {
        rc = fail(prog, r, "adding the atomic helpers", err);
        goto out;
    }
    if ((r = nv.compile(prog, no, o)) != 0) {
        rc = fail(prog, r, "compiling", err);
        goto out;
    }
    size_t n = 0;
    if ((r = nv.result_size(prog, &n)) != 0) {
        rc = fail(prog, r, "result size", err);
        goto out;
    }
    char *s = uf__malloc(n + 1, 1, err);
    if (!s) {
        rc = UF_ERR_NOMEM;
        goto out;
    }
    if ((r = nv.result(prog, s)) != 0) {
        uf__free(s);
        rc = fail(prog, r, "result", err);
        goto out;
    }
    s[n] = '\0';
    *ptx = s;
    *ptxlen = strlen(s);
out:
    nv.destroy(&prog);
    pthread_mutex_unlock(&compile_lock);
    return rc;
}

int uf__nvvm_ptxas(const char *ptx, const char *sm, char **log,
                   uf_error *err)
{
    *log = NULL;
    const uf__nvvm_toolkit *t = uf__nvvm_toolkit_get();
    if (!t->ptxas_path)
        return uf__error_set(err, UF_ERR_UNSUPPORTED, "%s", t->ptxas_why);
    char tmpl[] = "/tmp/ufjit-ptxas-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return uf__error_set(err, UF_ERR_IO, "ptxas: cannot create a file");
    size_t len = strlen(ptx);
    bool wrote = write(fd, ptx, len) == (ssize_t)len;
    close(fd);
    if (!wrote) {
        unlink(tmpl);
        return uf__error_set(err, UF_ERR_IO, "ptxas: cannot write %s", tmpl);
    }
    /* a module calling foreign device functions (cuda.declare_device) is
     * relocatable code until the driver's linker resolves them */
    const char *reloc = strstr(ptx, ".extern .func") ? " -c" : "";
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s%s -v -o /dev/null '%s' 2>&1",
             t->ptxas_path, sm, reloc, tmpl);
    FILE *f = popen(cmd, "r");
    size_t cap = 4096, n = 0;
    char *out = uf__malloc(cap, 1, err);
    int rc = 0;
    if (!f || !out) {
        if (f)
            pclose(f);
        unlink(tmpl);
        uf__free(out);
        return out ? uf__error_set(err, UF_ERR_IO, "cannot run ptxas")
                   : UF_ERR_NOMEM;
    }
    size_t got;
    while ((got = fread(out + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *bigger = uf__realloc(out, cap * 2, 1, err);
            if (!bigger)
                break;
            out = bigger;
            cap *= 2;
        }
    }
    out[n] = '\0';
    int status = pclose(f);
    unlink(tmpl);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        rc = uf__error_set(err, UF_ERR_INTERNAL, "ptxas -arch=%s: %s", sm,
                           out);
    *log = out;
    return rc;
}
