/* libFuzzer target: the disk-cache loader on a damaged entry
 * (compiler/cache/disk_cache.c). Each input is the whole content of a
 * cache file: it is written at the path of a fixed key (of the kind its
 * header names, so that the kind check passes) in a scratch directory of
 * this process, and loaded (uf__disk_file_load, and uf__disk_cache_load
 * for vectorize files). It is then written again with its checksum made
 * right, so that the checks after the checksum are reached too. A load
 * that succeeds must describe bytes inside the file.
 *
 * The object code itself is not handed to the JIT: the checksum guards
 * against damage, and LLVM's object loader is not ours to harden.
 *
 * UFJIT_FUZZ_CACHE_SEEDS=DIR writes one valid file of each kind to DIR
 * (how corpus/cache/ was made). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "compiler/cache/disk_cache.h"
#include "fuzz_util.h"

#define HEADER_SIZE 56 /* disk_cache.c's header */

static char dir[64];
static uf__loop_key keys[UF__OBJ_NKINDS];

static const char kernel_text[] =
    "1\nfrom numba import vectorize\n3\n@vectorize\ndef f(x):\n"
    "    return x + 1\n";

static void remove_dir(void)
{
    char path[UF__DISK_CACHE_PATH_MAX];
    for (int k = 0; k < UF__OBJ_NKINDS; k++) {
        uf__disk_cache_path(dir, &keys[k], path, sizeof path);
        unlink(path);
    }
    rmdir(dir);
}

static void write_file(const char *path, const void *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || (n > 0 && write(fd, p, n) != (ssize_t)n) || close(fd))
        abort();
}

/* A valid file of each kind in `out` (the seeds of corpus/cache/). */
static void write_seeds(const char *out)
{
    static const char obj[] = "\x7f" "ELF not really an object";
    const char *one[] = {"ufjit_f_contig"};
    const char *two[] = {"ufjit_g_loop", "ufjit_g_init"};
    uf_dtype types[] = {UF_FLOAT64, UF_FLOAT64};
    int32_t meta[UF__DISK_MAXMETA] = {3, -1, 7}; /* nmeta is the kind */
    char from[UF__DISK_CACHE_PATH_MAX], to[UF__DISK_CACHE_PATH_MAX];
    for (int k = 0; k < UF__OBJ_NKINDS; k++) {
        int rc = k == UF__OBJ_VECTORIZE
                     ? uf__disk_cache_store(dir, &keys[k], one[0], types, 2,
                                            1, obj, sizeof obj)
                     : uf__disk_file_store(dir, &keys[k], two, 1 + k % 2,
                                           meta, k, obj, sizeof obj, true);
        uf__disk_cache_path(dir, &keys[k], from, sizeof from);
        snprintf(to, sizeof to, "%s/kind%d.ufo", out, k);
        /* copied, not renamed: `out` may be on another file system */
        static char buf[4096];
        FILE *f = rc == 0 ? fopen(from, "rb") : NULL;
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f == NULL || n == 0 || n == sizeof buf)
            abort();
        fclose(f);
        write_file(to, buf, n);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode)
                           ? "/dev/shm"
                           : "/tmp";
    snprintf(dir, sizeof dir, "%s/ufjit-fuzz-cache-XXXXXX", base);
    if (mkdtemp(dir) == NULL)
        abort();
    for (int k = 0; k < UF__OBJ_NKINDS; k++) {
        keys[k].text = kernel_text;
        keys[k].len = sizeof kernel_text - 1;
        keys[k].kernel = "f";
        snprintf(keys[k].sig, sizeof keys[k].sig, "float64->float64");
        snprintf(keys[k].opts, sizeof keys[k].opts, "nopython,x86_64");
        keys[k].kind = (uf__obj_kind)k;
    }
    atexit(remove_dir);
    const char *seeds = getenv("UFJIT_FUZZ_CACHE_SEEDS");
    if (seeds != NULL && *seeds != '\0')
        write_seeds(seeds);
    return 0;
}

static volatile unsigned sink;

/* Reads every byte a successful load points at (ASan checks them). */
static void touch(const void *p, size_t n)
{
    const unsigned char *c = p;
    unsigned s = 0;
    for (size_t i = 0; i < n; i++)
        s += c[i];
    sink = s;
}

static void load(int kind)
{
    uf__disk_file f;
    if (!uf__disk_file_load(dir, &keys[kind], &f))
        return; /* so would uf__disk_cache_load: it loads the same way */
    FZ_CHECK(f.nsyms >= 1 && f.nsyms <= UF__DISK_MAXSYMS);
    FZ_CHECK(f.nmeta >= 0 && f.nmeta <= UF__DISK_MAXMETA);
    for (int i = 0; i < f.nsyms; i++) {
        size_t l = strlen(f.syms[i]);
        FZ_CHECK(l > 0 && l < UF__JIT_SYMBOL_MAX);
    }
    FZ_CHECK(f.objlen > 0);
    touch(f.obj, f.objlen);
    /* the vectorize words, for the input count they give (a wrong one
     * is a plain miss) */
    int64_t d = f.nmeta >= 2 ? (int64_t)f.meta[0] - f.meta[1] : 1;
    int nin = d >= 0 && d <= UF__LOOP_MAXARGS ? (int)d : 1;
    uf__disk_file_release(&f);
    if (kind != UF__OBJ_VECTORIZE)
        return;
    uf__disk_entry e;
    if (!uf__disk_cache_load(dir, &keys[kind], nin, &e))
        return;
    FZ_CHECK(e.nargs >= 1 && e.nargs <= UF__LOOP_MAXARGS && e.nout >= 1 &&
             e.nargs - e.nout == nin);
    for (int i = 0; i < e.nargs; i++)
        FZ_CHECK(uf_dtype_valid((int)e.types[i]));
    FZ_CHECK(e.symbol[0] != '\0');
    touch(e.obj, e.objlen);
    uf__disk_entry_release(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the kind the header names (u32 at offset 12), so its check passes */
    int kind = size >= 16 ? data[12] % UF__OBJ_NKINDS : 0;
    char path[UF__DISK_CACHE_PATH_MAX];
    uf__disk_cache_path(dir, &keys[kind], path, sizeof path);

    write_file(path, data, size);
    load(kind);

    if (size >= HEADER_SIZE) {
        unsigned char *fixed = malloc(size);
        if (fixed == NULL)
            abort();
        memcpy(fixed, data, size);
        uf__hash128 sum;
        uf__hash128_init(&sum);
        uf__hash128_add(&sum, fixed + HEADER_SIZE, size - HEADER_SIZE);
        memcpy(fixed + 40, &sum.a, 8);
        memcpy(fixed + 48, &sum.b, 8);
        write_file(path, fixed, size);
        load(kind);
        free(fixed);
    }
    unlink(path);
    return 0;
}
