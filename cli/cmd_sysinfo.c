/* ufjit sysinfo: what this build is and what machine it runs on, in the
 * spirit of `numba -s`. Sections for parts not built yet say so, so the
 * report keeps one shape as ufjit grows: each later part fills its own. */
#include <ctype.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define UF__X86 1
#endif

#include "cli/cli_util.h"
#include "cli/commands.h"

extern char **environ;

/* Present only when the program is linked with UBSan's runtime: GCC has no
 * macro for -fsanitize=undefined, so ask the linker instead. */
extern void __ubsan_handle_add_overflow(void) __attribute__((weak));

static const char sysinfo_help[] =
    "usage: ufjit sysinfo\n"
    "\n"
    "Reports, like `numba -s`, what ufjit can tell about itself and the\n"
    "machine: the ufjit version and how it was built (optimisation,\n"
    "assertions, sanitizers, compiler), the CPU (name, count, vector\n"
    "features from cpuid, checked against what the OS enables), memory,\n"
    "the operating system, the threading layers of the parallel target\n"
    "(built in, in use, thread count), the CUDA driver and each GPU (name,\n"
    "compute capability, memory) or why there is none, and the parts not\n"
    "built yet. Paste it into bug reports.\n";

static void section(const char *title)
{
    printf("\n%s\n", title);
}

static void row(const char *label, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void row(const char *label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  %-26s: ", label);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The value of the first "key : value" (or "key=value" with sep '=') line
 * of a text file, or false. */
static bool file_field(const char *path, const char *key, char sep, char *out,
                       size_t size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[4096];
    size_t klen = strlen(key);
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, klen) != 0)
            continue;
        char *p = line + klen;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != sep)
            continue;
        char *v = trim(p + 1);
        size_t n = strlen(v);
        if (sep == '=' && n >= 2 && v[0] == '"' && v[n - 1] == '"') {
            v[n - 1] = '\0';
            v++;
        }
        snprintf(out, size, "%s", v);
        found = true;
    }
    fclose(f);
    return found;
}

/* ---- ufjit build ----------------------------------------------------------- */

static void report_build(void)
{
    section("ufjit");
    const char *lib = uf_version();
    if (strcmp(lib, UFJIT_VERSION_STRING) == 0)
        row("Version", "%s", lib);
    else
        row("Version", "%s (headers say %s: mismatched build)", lib,
            UFJIT_VERSION_STRING);

#if defined(__OPTIMIZE__)
    const char *opt = "optimised";
#else
    const char *opt = "not optimised";
#endif
#if defined(NDEBUG)
    const char *asserts = "assertions off (NDEBUG)";
#else
    const char *asserts = "assertions on";
#endif
    const char *guess = "";
#if defined(__OPTIMIZE__) && defined(NDEBUG)
    guess = ": a Release or RelWithDebInfo build";
#elif !defined(__OPTIMIZE__) && !defined(NDEBUG)
    guess = ": a Debug build";
#endif
    row("Build", "%s, %s%s", opt, asserts, guess);

    bool asan = false;
#if defined(__SANITIZE_ADDRESS__)
    asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    asan = true;
#endif
#endif
    bool ubsan = __ubsan_handle_add_overflow != NULL;
    row("Sanitizers", "AddressSanitizer %s, UBSan %s", asan ? "on" : "off",
        ubsan ? "on" : "off");

#if defined(__clang__)
    row("Compiler", "clang %s", __clang_version__);
#elif defined(__GNUC__)
    row("Compiler", "GCC %s", __VERSION__);
#else
    row("Compiler", "unknown");
#endif
    row("C standard", "%ld (__STDC_VERSION__)", (long)__STDC_VERSION__);
    row("Pointer size", "%zu bits", sizeof(void *) * 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    row("Byte order", "big-endian");
#else
    row("Byte order", "little-endian");
#endif
}

/* ---- CPU -------------------------------------------------------------------- */

#if defined(UF__X86)
typedef struct cpu_feature {
    const char *name; /* as /proc/cpuinfo and LLVM spell it */
    unsigned leaf, subleaf;
    char reg; /* 'b', 'c' or 'd' (EBX, ECX, EDX) or 'a' */
    unsigned bit;
    char state; /* 'x' needs OS-enabled AVX state, 'z' AVX-512 state */
} cpu_feature;

static const cpu_feature cpu_features[] = {
    {"sse2", 1, 0, 'd', 26, 0},       {"sse3", 1, 0, 'c', 0, 0},
    {"ssse3", 1, 0, 'c', 9, 0},       {"sse4_1", 1, 0, 'c', 19, 0},
    {"sse4_2", 1, 0, 'c', 20, 0},     {"popcnt", 1, 0, 'c', 23, 0},
    {"avx", 1, 0, 'c', 28, 'x'},      {"f16c", 1, 0, 'c', 29, 'x'},
    {"fma", 1, 0, 'c', 12, 'x'},      {"bmi1", 7, 0, 'b', 3, 0},
    {"bmi2", 7, 0, 'b', 8, 0},        {"avx2", 7, 0, 'b', 5, 'x'},
    {"avx_vnni", 7, 1, 'a', 4, 'x'},  {"avx512f", 7, 0, 'b', 16, 'z'},
    {"avx512dq", 7, 0, 'b', 17, 'z'}, {"avx512cd", 7, 0, 'b', 28, 'z'},
    {"avx512bw", 7, 0, 'b', 30, 'z'}, {"avx512vl", 7, 0, 'b', 31, 'z'},
    {"avx512ifma", 7, 0, 'b', 21, 'z'},
    {"avx512vbmi", 7, 0, 'c', 1, 'z'},
    {"avx512_vbmi2", 7, 0, 'c', 6, 'z'},
    {"avx512_vnni", 7, 0, 'c', 11, 'z'},
    {"avx512_bitalg", 7, 0, 'c', 12, 'z'},
    {"avx512_vpopcntdq", 7, 0, 'c', 14, 'z'},
    {"avx512_bf16", 7, 1, 'a', 5, 'z'},
    {"avx512_fp16", 7, 0, 'd', 23, 'z'},
};

static bool cpuid_bit(const cpu_feature *f)
{
    unsigned a, b, c, d;
    if ((unsigned)__get_cpuid_max(f->leaf & 0x80000000u, NULL) < f->leaf)
        return false;
    if (!__get_cpuid_count(f->leaf, f->subleaf, &a, &b, &c, &d))
        return false;
    unsigned r = f->reg == 'a' ? a : f->reg == 'b' ? b : f->reg == 'c' ? c : d;
    return (r >> f->bit) & 1u;
}

/* XCR0: which register states the OS saves. AVX needs XMM and YMM (bits
 * 1, 2); AVX-512 also opmask and both ZMM halves (bits 5, 6, 7). */
static unsigned long long os_xcr0(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1u)) /* OSXSAVE */
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static void report_cpu_features(void)
{
    unsigned long long xcr0 = os_xcr0();
    bool avx_os = (xcr0 & 0x6) == 0x6;
    bool avx512_os = (xcr0 & 0xe6) == 0xe6;
    char list[1024] = "";
    size_t used = 0;
    bool avx = false, avx2_cpu = false, avx2 = false;
    bool avx512f = false, avx512f_cpu = false;
    char avx512[256] = "";
    for (size_t i = 0; i < sizeof cpu_features / sizeof cpu_features[0];
         i++) {
        const cpu_feature *f = &cpu_features[i];
        bool cpu = cpuid_bit(f);
        bool usable = cpu && (f->state == 0 ||
                              (f->state == 'x' && avx_os) ||
                              (f->state == 'z' && avx512_os));
        if (strcmp(f->name, "avx") == 0)
            avx = usable;
        if (strcmp(f->name, "avx2") == 0)
            avx2_cpu = cpu, avx2 = usable;
        if (strcmp(f->name, "avx512f") == 0)
            avx512f_cpu = cpu, avx512f = usable;
        if (!usable)
            continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s",
                         used ? " " : "", f->name);
        if (w > 0 && (size_t)w < sizeof list - used)
            used += (size_t)w;
        if (strncmp(f->name, "avx512", 6) == 0) {
            size_t n = strlen(avx512);
            snprintf(avx512 + n, sizeof avx512 - n, "%s%s", n ? " " : "",
                     f->name + (f->name[6] == '_' ? 7 : 6));
        }
    }
    row("CPU features (cpuid)", "%s", used ? list : "none detected");
    if (avx2)
        row("AVX2", "yes");
    else
        row("AVX2", "%s", avx2_cpu ? "no (the CPU has it, the OS has not "
                                     "enabled the AVX state)" : "no");
    if (avx512f)
        row("AVX-512", "yes (%s)", avx512);
    else
        row("AVX-512", "%s", avx512f_cpu ? "no (the CPU has it, the OS has "
                                           "not enabled the ZMM state)"
                                         : "no");
    row("Widest vectors", "%d bits",
        avx512f ? 512 : avx ? 256 : 128);
}
#else
static void report_cpu_features(void)
{
    char flags[4096];
    if (file_field("/proc/cpuinfo", "Features", ':', flags, sizeof flags) ||
        file_field("/proc/cpuinfo", "flags", ':', flags, sizeof flags))
        row("CPU features", "%s", flags);
    else
        row("CPU features", "unknown");
    row("AVX2", "no (not an x86 CPU)");
    row("AVX-512", "no (not an x86 CPU)");
}
#endif

static int count_cpuinfo_processors(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "processor", 9) == 0)
            n++;
    fclose(f);
    return n;
}

/* "2.0 CPUs (200000/100000 us)" from cgroup v2's cpu.max, or "none". */
static void report_cpu_quota(void)
{
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    char quota[64], period[64];
    if (f == NULL) {
        row("CPU quota (cgroup v2)", "unknown (no /sys/fs/cgroup/cpu.max)");
        return;
    }
    if (fscanf(f, "%63s %63s", quota, period) == 2) {
        if (strcmp(quota, "max") == 0)
            row("CPU quota (cgroup v2)", "none");
        else
            row("CPU quota (cgroup v2)", "%.2f CPUs (%s/%s us)",
                atof(quota) / atof(period), quota, period);
    } else {
        row("CPU quota (cgroup v2)", "unknown");
    }
    fclose(f);
}

static void report_hardware(const struct utsname *u, bool have_uname)
{
    section("Hardware");
    row("Machine", "%s", have_uname ? u->machine : "unknown");
    char name[512];
    if (file_field("/proc/cpuinfo", "model name", ':', name, sizeof name))
        row("CPU name", "%s", name);
    else
        row("CPU name", "unknown");
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int listed = count_cpuinfo_processors();
    cpu_set_t set;
    int usable = sched_getaffinity(0, sizeof set, &set) == 0
                     ? CPU_COUNT(&set) : -1;
    row("CPU count", "%ld online, %d in /proc/cpuinfo, %d usable by this "
        "process", online, listed, usable);
    report_cpu_quota();
    report_cpu_features();
    char mem[128];
    if (file_field("/proc/meminfo", "MemTotal", ':', mem, sizeof mem))
        row("Memory total", "%.1f GiB", atof(mem) / (1024.0 * 1024.0));
    if (file_field("/proc/meminfo", "MemAvailable", ':', mem, sizeof mem))
        row("Memory available", "%.1f GiB", atof(mem) / (1024.0 * 1024.0));
}

/* ---- OS, later parts, environment ------------------------------------------ */

/* Transparent huge pages: the kernel's mode (the bracketed word of
 * "always [madvise] never") and whether ufjit advises its large arrays
 * (common/hugepage.h; UFJIT_MADVISE_HUGEPAGE=0 turns that off). */
static void report_huge_pages(void)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f != NULL) {
        if (fgets(line, sizeof line, f) == NULL)
            line[0] = '\0';
        fclose(f);
    }
    char *lo = strchr(line, '['), *hi = lo ? strchr(lo, ']') : NULL;
    if (hi == NULL) {
        row("Huge pages (THP)", "not available (no transparent huge pages "
            "in this kernel)");
        return;
    }
    *hi = '\0';
    const char *e = getenv("UFJIT_MADVISE_HUGEPAGE");
    bool off = e != NULL && strcmp(e, "0") == 0;
    row("Huge pages (THP)", "%s; arrays of 4 MiB or more %s", lo + 1,
        off ? "not advised (UFJIT_MADVISE_HUGEPAGE=0)"
        : strcmp(lo + 1, "never") == 0 ? "advised, but the kernel never "
                                         "uses them"
                                       : "advised (madvise, as NumPy)");
}

static void report_os(const struct utsname *u, bool have_uname)
{
    section("Operating system");
    if (have_uname)
        row("Kernel", "%s %s %s", u->sysname, u->release, u->version);
    else
        row("Kernel", "unknown (uname failed)");
    char distro[256];
    if (file_field("/etc/os-release", "PRETTY_NAME", '=', distro,
                   sizeof distro))
        row("Distribution", "%s", distro);
#if defined(__GLIBC__)
    row("C library", "glibc %s", gnu_get_libc_version());
#endif
    report_huge_pages();
}

/* The parallel target's runtime: what is built, what this process would
 * use (UFJIT_THREADING_LAYER / UFJIT_NUM_THREADS or the defaults), and a
 * bad setting's error, which every parallel call would report. */
static void report_threading(void)
{
    const char *built = uf_threading_layers_available();
    const char *layer_env = getenv("UFJIT_THREADING_LAYER");
    const char *threads_env = getenv("UFJIT_NUM_THREADS");
    uf_error err;

    section("Threading layers");
    row("Layers built in", "%s%sserial", built, built[0] ? " " : "");
    const char *layer = uf_threading_layer(&err);
    if (layer == NULL) {
        row("Layer in use", "none: %s", err.message);
        return;
    }
    row("Layer in use", "%s (%s)", layer,
        layer_env != NULL && layer_env[0] != '\0'
            ? "UFJIT_THREADING_LAYER" : "the default: fastest built in");
    row("Threads", "%d (%s)", uf_threading_default_threads(),
        threads_env != NULL && threads_env[0] != '\0'
            ? "UFJIT_NUM_THREADS" : "the CPUs this process may use");
}

/* The targets of the registry, and the JIT's view of the host. */
static void report_targets_and_jit(void)
{
    section("Targets");
    for (int i = 0; i < uf_target_count(); i++)
        row(uf_target_name(i), "%s", uf_target_summary(i));

    section("LLVM");
    row("LLVM", "%s (ORC LLJIT for the host)", uf_llvm_version());
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    const char *cpu = NULL, *features = NULL;
    bool mvec = false;
    if (ctx == NULL || uf_jit_host(ctx, &cpu, &features, &mvec, &err) != 0) {
        row("Host JIT", "unavailable: %s", err.message);
    } else {
        int n = 0;
        for (const char *p = features; *p != '\0'; p++)
            n += *p == '+';
        row("JIT CPU", "%s (%d features enabled)", cpu, n);
        const char *vmath = uf_jit_vector_math(ctx, &err);
        row("Vector math", "%s", vmath ? vmath
                                 : mvec ? "glibc libmvec"
                                        : "scalar libm (no usable libmvec)");
    }
    uf_context_free(ctx);
}

/* The CUDA driver and each GPU, or the reason there is none. */
static void report_cuda_driver(void)
{
    char version[32], path[4096];
    uf_error err;
    int n = uf_cuda_driver(version, sizeof version, path, sizeof path, &err);
    if (n < 0) {
        row("CUDA driver", "unavailable: %s", err.message);
        return;
    }
    row("CUDA driver", "%s (%s), %d device%s", version, path, n,
        n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char label[32], name[256];
        int major = 0, minor = 0;
        size_t total = 0;
        snprintf(label, sizeof label, "GPU %d", i);
        if (uf_cuda_device(i, name, sizeof name, &major, &minor, &total,
                           &err) != 0)
            row(label, "unreadable: %s", err.message);
        else
            row(label, "%s, compute capability %d.%d, %.1f GiB", name, major,
                minor, (double)total / (1024.0 * 1024.0 * 1024.0));
    }
}

/* What the CUDA target compiles with (the toolkit), each piece or why
 * it is missing. */
static void report_cuda_toolkit(void)
{
    uf_cuda_toolkit t;
    uf_cuda_toolkit_info(&t);
    if (t.libnvvm_path)
        row("libnvvm", "NVVM %d.%d, IR %d.%d (%s)", t.nvvm_version[0],
            t.nvvm_version[1], t.nvvm_ir_version[0], t.nvvm_ir_version[1],
            t.libnvvm_path);
    else
        row("libnvvm", "missing: %s (PTX from LLVM's NVPTX instead)",
            t.libnvvm_missing);
    row("libdevice", "%s", t.libdevice_path ? t.libdevice_path
                                            : t.libdevice_missing);
    if (t.ptxas_path)
        row("ptxas", "%s (%s)", t.ptxas_version[0] ? t.ptxas_version : "?",
            t.ptxas_path);
    else
        row("ptxas", "missing: %s", t.ptxas_missing);
}

static void report_later_parts(void)
{
    report_targets_and_jit();
    report_threading();
    section("CUDA");
    report_cuda_driver();
    report_cuda_toolkit();
}

static void report_environment(void)
{
    section("Environment");
    int n = 0;
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, "UFJIT_", 6) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        if (eq == NULL)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        row(name, "%s", eq + 1);
        n++;
    }
    if (n == 0)
        row("UFJIT_* variables", "none set");
}

int uf__cli_sysinfo(int argc, char **argv)
{
    const char *pos[1];
    int npos;
    int rc = uf__cli_parse("sysinfo", argc - 1, argv + 1, NULL, 0, pos, 0,
                           &npos);
    if (rc == UF__CLI_HELP) {
        fputs(sysinfo_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;

    struct utsname u;
    bool have_uname = uname(&u) == 0;
    char stamp[64] = "unknown";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) != NULL)
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", &tm);

    printf("ufjit system information\n");
    row("Time stamp", "%s", stamp);
    report_build();
    report_hardware(&u, have_uname);
    report_os(&u, have_uname);
    report_later_parts();
    report_environment();
    return UF__CLI_OK;
}
