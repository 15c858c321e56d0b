/* .npy failures: every prefix and damaged headers refused cleanly,
 * out-of-memory paths, save errors and the modes of saved files. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npy_test_util.h"

/* ---- robustness ------------------------------------------------------- */

/* Loads `len` bytes from an exact-size heap copy (ASan sees over-reads).
 * A loaded array must be consistent with what the buffer holds. */
static uf_array *load_exact(const unsigned char *src, size_t len,
                            uf_error *err)
{
    unsigned char *copy = malloc(len ? len : 1);
    memcpy(copy, src, len);
    uf_array *a = uf_npy_load_buffer(copy, len, err);
    if (a) {
        assert_true(uf_array_ndim(a) <= UF_MAXDIMS);
        assert_true(uf_array_nbytes(a) >= 0 &&
                    (size_t)uf_array_nbytes(a) <= len);
        /* touch every byte */
        const unsigned char *p = uf_array_data(a);
        unsigned sum = 0;
        for (int64_t i = 0; i < uf_array_nbytes(a); i++)
            sum += p[i];
        (void)sum;
    } else {
        assert_int_equal(err->code, UF_ERR_FORMAT);
        assert_true(err->message[0] != '\0');
    }
    free(copy);
    return a;
}

static const char *const robust_files[] = {
    "float64_C_le_v1_2x3x4.npy", "complex64_F_be_v2_2x3x4.npy",
    "int16_C_be_v3_5.npy",       "bool_C_be_v3_s.npy",
    "complex64_C_be_v3_3x0x2.npy", "hdr_long_v1.npy",
    "hdr_comment.npy",
};

/* Every proper prefix of a valid file is refused, the whole file loads. */
static void test_every_prefix(void **state)
{
    (void)state;
    long live = uf__alloc_live();
    for (size_t f = 0; f < sizeof robust_files / sizeof robust_files[0];
         f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/npy/%s", UF_TEST_DATA_DIR,
                 robust_files[f]);
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        if (!buf)
            uf_fail_at(path, 0, "missing");
        for (size_t n = 0; n <= len; n++) {
            uf_error err;
            uf_array *a = load_exact(buf, n, &err);
            if ((a != NULL) != (n == len))
                uf_fail_at(path, 0, "prefix of %zu of %zu bytes: %s", n, len,
                           a ? "loaded" : err.message);
            uf_array_release(a);
        }
        free(buf);
    }
    /* the same through files for one of them */
    char *dir = make_tmpdir();
    char src[4096], dst[4200];
    snprintf(src, sizeof src, "%s/npy/%s", UF_TEST_DATA_DIR, robust_files[1]);
    snprintf(dst, sizeof dst, "%s/prefix.npy", dir);
    size_t len;
    unsigned char *buf = read_whole(src, &len);
    for (size_t n = 0; n < len; n++) {
        write_whole(dst, buf, n);
        uf_error err;
        uf_array *a = uf_npy_load(dst, &err);
        if (a || err.code != UF_ERR_FORMAT || !strstr(err.message, dst))
            uf_fail_at(src, 0, "prefix of %zu bytes: %s", n,
                       a ? "loaded" : err.message);
    }
    free(buf);
    rm_tree(dir);
    free(dir);
    assert_int_equal(uf__alloc_live(), live);
}

/* Every header byte overwritten with each of several values, then runs of
 * random damage: each file loads consistently or is refused cleanly. */
static void test_damaged_headers(void **state)
{
    (void)state;
    static const unsigned char values[] = {
        0x00, ' ', '\n', '\t', '#', ',', '(', ')', '{', '}', '\'', '"', ':',
        '0', '1', '9', '-', 'L', 'x', '\\', 0x80, 0xff, 0x7f};
    long live = uf__alloc_live();
    uint64_t rng = 0x9e3779b97f4a7c15u;
    int loaded = 0, tried = 0;
    for (size_t f = 0; f < sizeof robust_files / sizeof robust_files[0];
         f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/npy/%s", UF_TEST_DATA_DIR,
                 robust_files[f]);
        size_t len;
        unsigned char *buf = read_whole(path, &len);
        if (!buf)
            uf_fail_at(path, 0, "missing");
        int major;
        size_t plen, hlen;
        uf_error err;
        assert_int_equal(uf__npy_parse_prefix(buf, len, "x", &major, &plen,
                                              &hlen, &err), 0);
        size_t end = plen + hlen;
        unsigned char *m = malloc(len);
        for (size_t pos = 0; pos < end; pos++) {
            for (size_t v = 0; v < sizeof values; v++) {
                memcpy(m, buf, len);
                m[pos] = values[v];
                uf_array *a = load_exact(m, len, &err);
                loaded += a != NULL;
                tried++;
                uf_array_release(a);
            }
        }
        for (int run = 0; run < 1000; run++) {
            memcpy(m, buf, len);
            int changes = 1 + run % 4;
            for (int c = 0; c < changes; c++) {
                rng = rng * 6364136223846793005u + 1442695040888963407u;
                m[(rng >> 33) % end] = (unsigned char)(rng >> 20);
            }
            uf_array *a = load_exact(m, len, &err);
            loaded += a != NULL;
            tried++;
            uf_array_release(a);
        }
        free(m);
        free(buf);
    }
    print_message("damaged headers: %d tried, %d still loadable\n", tried,
                  loaded);
    assert_int_equal(uf__alloc_live(), live);
}

/* ---- out of memory ---------------------------------------------------- */

static void test_out_of_memory(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char src[4096], dst[4200];
    snprintf(src, sizeof src, "%s/npy/complex64_F_be_v2_2x3x4.npy",
             UF_TEST_DATA_DIR);
    snprintf(dst, sizeof dst, "%s/oom.npy", dir);
    size_t len;
    unsigned char *buf = read_whole(src, &len);
    static const char precious[] = "keep me";
    write_whole(dst, precious, sizeof precious);
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("reversed"), UF_COMPLEX64, &base,
                            &base_n);
    long live = uf__alloc_live();
    for (int op = 0; op < 3; op++) {
        int failures = 0;
        for (long n = 1;; n++) {
            uf_error err;
            uf__alloc_fail_at(n);
            uf_array *a = NULL;
            int rc;
            if (op == 0) {
                a = uf_npy_load(src, &err);
                rc = a ? 0 : err.code;
            } else if (op == 1) {
                a = uf_npy_load_buffer(buf, len, &err);
                rc = a ? 0 : err.code;
            } else {
                rc = uf_npy_save(dst, v, &err);
            }
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            uf_array_release(a);
            if (!failed) {
                assert_int_equal(rc, 0);
                break;
            }
            failures++;
            if (rc != UF_ERR_NOMEM)
                fail_msg("op %d, allocation %ld: %s", op, n, err.message);
            assert_int_equal(uf__alloc_live(), live);
            if (op == 2) {
                size_t got;
                unsigned char *now = read_whole(dst, &got);
                assert_int_equal(got, sizeof precious);
                assert_memory_equal(now, precious, got);
                free(now);
                assert_int_equal(count_entries(dir), 1);
            }
        }
        assert_true(failures >= 1);
    }
    uf_array_release(v);
    uf_array_release(base);
    free(buf);
    rm_tree(dir);
    free(dir);
}

/* ---- save errors ------------------------------------------------------ */

static void assert_unchanged(const char *path, const char *want)
{
    size_t got;
    unsigned char *now = read_whole(path, &got);
    assert_non_null(now);
    assert_int_equal(got, strlen(want));
    assert_memory_equal(now, want, got);
    free(now);
}

static void test_save_errors(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200], sub[4200];
    uf_error err;
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("big_f"), UF_FLOAT64, &base, &base_n);

    assert_int_equal(uf_npy_save(NULL, v, &err), UF_ERR_INVALID);
    assert_int_equal(uf_npy_save("x.npy", NULL, &err), UF_ERR_INVALID);

    static const struct {
        const char *file;
        int line;
        const char *rel; /* under dir */
        int errnum;
    } rows[] = {
        {LOC, "no/such/dir/a.npy", ENOENT},
        {LOC, "plain/a.npy", ENOTDIR},   /* plain is a file */
        {LOC, "adir", EISDIR},           /* the target is a directory */
    };
    snprintf(path, sizeof path, "%s/plain", dir);
    write_whole(path, "x", 1);
    snprintf(sub, sizeof sub, "%s/adir", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        snprintf(path, sizeof path, "%s/%s", dir, rows[r].rel);
        int rc = uf_npy_save(path, v, &err);
        if (rc != UF_ERR_IO || !strstr(err.message, path) ||
            !strstr(err.message, strerror(rows[r].errnum)))
            uf_fail_at(rows[r].file, rows[r].line, "%d: %s", rc,
                       err.message);
        if (count_entries(dir) != 2)
            uf_fail_at(rows[r].file, rows[r].line, "left a file behind");
    }

    /* a directory we may not write to (root may write anywhere) */
    snprintf(sub, sizeof sub, "%s/ro", dir);
    assert_int_equal(mkdir(sub, 0500), 0);
    snprintf(path, sizeof path, "%s/ro/a.npy", dir);
    if (geteuid() != 0) {
        assert_int_equal(uf_npy_save(path, v, &err), UF_ERR_IO);
        assert_non_null(strstr(err.message, strerror(EACCES)));
        assert_int_equal(count_entries(sub), 0);
    }

    /* the disk fills up halfway (a file size limit): the old file stays */
    static const char old[] = "the previous contents";
    snprintf(path, sizeof path, "%s/full.npy", dir);
    write_whole(path, old, strlen(old));
    struct rlimit saved, small = {4096, 0};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small.rlim_max = saved.rlim_max;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = uf_npy_save(path, v, &err);
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, UF_ERR_IO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, strerror(EFBIG)));
    assert_unchanged(path, old);
    assert_int_equal(count_entries(dir), 4); /* plain adir ro full.npy */

    /* and the same save succeeds without the limit, replacing it */
    assert_int_equal(uf_npy_save(path, v, &err), 0);
    uf_array *a = uf_npy_load(path, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_size(a), 30000);
    uf_array_release(a);
    assert_int_equal(count_entries(dir), 4);

    uf_array_release(v);
    uf_array_release(base);
    rm_tree(dir);
    free(dir);
}

/* Killed in the middle of the write (SIGXFSZ from a file size limit, as
 * deterministic as a timeout is not): the temporary had no name yet, so
 * nothing is left behind and the old file is intact. */
static void test_save_killed_mid_write(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    int probe = open(dir, O_TMPFILE | O_WRONLY, 0600);
    if (probe < 0) {
        print_message("SKIP: %s has no O_TMPFILE: a killed save leaves its "
                      "named temporary behind there\n", dir);
        rm_tree(dir);
        free(dir);
        skip();
    }
    close(probe);
    static const char old[] = "the previous contents";
    char path[4200];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    write_whole(path, old, strlen(old));
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("big_f"), UF_FLOAT64, &base, &base_n);
    fflush(NULL);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        struct rlimit no_core = {0, 0}, small = {4096, 4096};
        setrlimit(RLIMIT_CORE, &no_core);
        signal(SIGXFSZ, SIG_DFL);
        setrlimit(RLIMIT_FSIZE, &small);
        uf_error err;
        uf_npy_save(path, v, &err);
        _exit(0); /* not reached: the signal ends the write */
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGXFSZ);
    assert_unchanged(path, old);
    assert_int_equal(count_entries(dir), 1);
    uf_array_release(v);
    uf_array_release(base);
    rm_tree(dir);
    free(dir);
}

/* A new file gets 0666 minus the umask, an existing one keeps its mode,
 * and a symlink is written through, as np.save's open(path, "wb") does. */
static void test_save_file_modes(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200], link[4200];
    uf_error err;
    uf_array *base;
    int64_t base_n;
    uf_array *v = make_view(find_layout("c234"), UF_INT32, &base, &base_n);
    struct stat st;

    mode_t old_mask = umask(027);
    snprintf(path, sizeof path, "%s/new.npy", dir);
    uf_assert_ok(uf_npy_save(path, v, &err) == 0, &err);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);

    assert_int_equal(chmod(path, 0604), 0);
    uf_assert_ok(uf_npy_save(path, v, &err) == 0, &err);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0604);
    umask(old_mask);

    snprintf(link, sizeof link, "%s/link.npy", dir);
    assert_int_equal(symlink("new.npy", link), 0);
    write_whole(path, "old", 3);
    uf_assert_ok(uf_npy_save(link, v, &err) == 0, &err);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    uf_array *a = uf_npy_load(path, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_size(a), 24);
    uf_array_release(a);
    assert_int_equal(count_entries(dir), 2);

    uf_array_release(v);
    uf_array_release(base);
    rm_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_damaged_headers),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_save_errors),
        cmocka_unit_test(test_save_file_modes),
        cmocka_unit_test(test_save_killed_mid_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
