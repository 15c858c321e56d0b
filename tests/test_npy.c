/* .npy files against NumPy: files NumPy made, and round trips of views
 * saved by ufjit (other .npy tests: test_npy_header.c, test_npy_errors.c).
 *
 *   test_npy             the files NumPy made (tests/data/npy, committed)
 *                        and round trips
 *   test_npy DIR         the same checks on a fresh set from
 *                        tests/gen/make_npy.py, plus its fuzz.bin of
 *                        damaged headers with NumPy's verdict on each
 *   test_npy --write DIR saves every dtype in every `layouts` entry into
 *                        DIR for make_npy.py to check with NumPy, byte
 *                        for byte
 *
 * Files hold pattern(dtype, i) at C-order index i, the formula of
 * make_npy.py. */
#include "npy_test_util.h"

static const char *gen_dir;

/* ---- files NumPy made ------------------------------------------------- */

/* Checks every file of DIR/MANIFEST ("FILE ok DTYPE FLAGS NDIM DIMS..." or
 * "FILE err") and returns how many were checked. */
static int check_manifest(const char *dir)
{
    char mpath[4096], path[4096], line[2048];
    snprintf(mpath, sizeof mpath, "%s/MANIFEST", dir);
    FILE *m = fopen(mpath, "r");
    if (!m)
        uf_fail_at(mpath, 0, "cannot open: %s", strerror(errno));
    int lineno = 0, nfiles = 0;
    long live = uf__alloc_live();
    while (fgets(line, sizeof line, m)) {
        lineno++;
        char name[256], verdict[8], dtname[32], flags[8];
        int nd, used;
        if (sscanf(line, "%255s %7s%n", name, verdict, &used) != 2)
            uf_fail_at(mpath, lineno, "bad line");
        snprintf(path, sizeof path, "%s/%s", dir, name);
        uf_error err;
        uf_array *a = uf_npy_load(path, &err);
        nfiles++;
        if (!strcmp(verdict, "err")) {
            if (a)
                uf_fail_at(mpath, lineno, "%s: loaded, NumPy refuses it",
                           name);
            if (err.code != UF_ERR_FORMAT || !strstr(err.message, name))
                uf_fail_at(mpath, lineno, "%s: %s: %s", name,
                           uf_err_name(err.code), err.message);
            continue;
        }
        const char *rest = line + used;
        int n2;
        if (sscanf(rest, "%31s %7s %d%n", dtname, flags, &nd, &n2) != 3)
            uf_fail_at(mpath, lineno, "bad line");
        rest += n2;
        int64_t shape[UF_MAXDIMS];
        for (int k = 0; k < nd; k++) {
            long long d;
            if (sscanf(rest, "%lld%n", &d, &n2) != 1)
                uf_fail_at(mpath, lineno, "bad shape");
            shape[k] = d;
            rest += n2;
        }
        uf_dtype dt = UF_BOOL;
        if (!dtype_by_name(dtname, &dt))
            uf_fail_at(mpath, lineno, "unknown dtype %s", dtname);
        if (!a)
            uf_fail_at(mpath, lineno, "%s: %s", name, err.message);
        if (uf_array_dtype(a) != dt || uf_array_ndim(a) != nd ||
            memcmp(uf_array_shape(a), shape, sizeof shape[0] * (size_t)nd))
            uf_fail_at(mpath, lineno, "%s: wrong dtype or shape", name);
        int f = uf_array_flags(a);
        char got[4] = "";
        if (f & UF_ARRAY_C_CONTIGUOUS)
            strcat(got, "C");
        if (f & UF_ARRAY_F_CONTIGUOUS)
            strcat(got, "F");
        if (strcmp(got, flags) ||
            !(f & UF_ARRAY_WRITEABLE) || !(f & UF_ARRAY_OWNDATA))
            uf_fail_at(mpath, lineno, "%s: flags %#x, NumPy has %s", name, f,
                       flags);
        int64_t cs[UF_MAXDIMS];
        c_strides_elems(nd, shape, cs);
        int64_t bad = first_mismatch(a, 0, cs);
        if (bad >= 0)
            uf_fail_at(mpath, lineno, "%s: element %lld (C order) differs",
                       name, (long long)bad);
        uf_array_release(a);
    }
    fclose(m);
    assert_int_equal(uf__alloc_live(), live);
    return nfiles;
}

static void test_committed_files(void **state)
{
    (void)state;
    int n = check_manifest(UF_TEST_DATA_DIR "/npy");
    assert_true(n >= 90);
}

static void test_generated_files(void **state)
{
    (void)state;
    /* 13 dtypes x C/F x both byte orders x 3 versions x 5 shapes */
    int n = check_manifest(gen_dir);
    assert_true(n >= 13 * 2 * 2 * 3 * 5);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Compares a loaded array, in C order, with NumPy's bytes. */
static bool same_bytes_c_order(const uf_array *a, const unsigned char *raw,
                               size_t rawlen)
{
    int nd = uf_array_ndim(a);
    size_t isz = uf_array_itemsize(a);
    int64_t size = uf_array_size(a);
    if ((size_t)size * isz != rawlen)
        return false;
    int64_t idx[UF_MAXDIMS] = {0};
    for (int64_t pos = 0; pos < size; pos++) {
        const char *p = uf_array_data(a);
        for (int k = 0; k < nd; k++)
            p += idx[k] * uf_array_strides(a)[k];
        if (!same_value(uf_array_dtype(a), p, raw + (size_t)pos * isz))
            return false;
        for (int k = nd - 1; k >= 0; k--) {
            if (++idx[k] < uf_array_shape(a)[k])
                break;
            idx[k] = 0;
        }
    }
    return true;
}

/* fuzz.bin: NumPy files with one header byte overwritten, each with what
 * np.load made of it. We must agree on every one. */
static void test_generated_fuzz(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/fuzz.bin", gen_dir);
    size_t len;
    unsigned char *all = read_whole(path, &len);
    if (!all)
        uf_fail_at(path, 0, "cannot read");
    long live = uf__alloc_live();
    int records = 0, ok = 0, bad = 0;
    for (size_t pos = 0; pos < len;) {
        uint32_t flen = get_u32(all + pos);
        const unsigned char *file = all + pos + 4;
        uint32_t vlen = get_u32(file + flen);
        char verdict[2048];
        memcpy(verdict, file + flen + 4, vlen);
        verdict[vlen] = '\0';
        uint32_t rlen = get_u32(file + flen + 4 + vlen);
        const unsigned char *raw = file + flen + 8 + vlen;
        pos += 12 + (size_t)flen + vlen + rlen;
        records++;

        /* an exact-size copy so ASan sees any read past the end */
        unsigned char *copy = malloc(flen);
        memcpy(copy, file, flen);
        uf_error err;
        uf_array *a = uf_npy_load_buffer(copy, flen, &err);
        bool agree;
        if (!strcmp(verdict, "err")) {
            agree = !a && err.code == UF_ERR_FORMAT;
        } else {
            char dtname[32], flags[8];
            int nd, used;
            sscanf(verdict, "ok %31s %7s %d%n", dtname, flags, &nd, &used);
            uf_dtype dt = UF_BOOL;
            agree = a && dtype_by_name(dtname, &dt) &&
                    uf_array_dtype(a) == dt && uf_array_ndim(a) == nd;
            const char *rest = verdict + used;
            for (int k = 0; agree && k < nd; k++) {
                long long d;
                int n2;
                agree = sscanf(rest, "%lld%n", &d, &n2) == 1 &&
                        uf_array_shape(a)[k] == d;
                rest += n2;
            }
            if (agree) {
                int f = uf_array_flags(a);
                agree = (strchr(flags, 'C') != NULL) ==
                            ((f & UF_ARRAY_C_CONTIGUOUS) != 0) &&
                        (strchr(flags, 'F') != NULL) ==
                            ((f & UF_ARRAY_F_CONTIGUOUS) != 0) &&
                        same_bytes_c_order(a, raw, rlen);
            }
            ok++;
        }
        if (!agree && bad++ < 10) {
            size_t hl = flen < 140 ? flen : 140;
            char shown[600];
            size_t n = 0;
            for (size_t i = 0; i < hl; i++)
                n += (size_t)snprintf(shown + n, sizeof shown - n,
                                      file[i] >= 32 && file[i] < 127 &&
                                              file[i] != '\\'
                                          ? "%c"
                                          : "\\x%02x",
                                      file[i]);
            print_error("fuzz record %d: NumPy says '%s', ufjit %s (%s)\n"
                        "  %s\n", records, verdict, a ? "loads it" :
                        "refuses it", a ? "" : err.message, shown);
        }
        uf_array_release(a);
        free(copy);
    }
    free(all);
    print_message("fuzz: %d damaged headers, %d loadable by NumPy, %d "
                  "disagreements\n", records, ok, bad);
    assert_int_equal(uf__alloc_live(), live);
    assert_true(records > 1000);
    assert_int_equal(bad, 0);
}

/* Save, load back (file and buffer), compare values and memory order. */
static void test_round_trip(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/rt.npy", dir);
    long live = uf__alloc_live();
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++) {
        const layout *l = &layouts[r];
        for (int t = 0; t < UF_NTYPES; t++) {
            if (!use_layout(l, (uf_dtype)t))
                continue;
            uf_array *base;
            int64_t base_n, es[10];
            uf_array *v = make_view(l, (uf_dtype)t, &base, &base_n);
            layout_strides(l, es);
            uf_error err;
            if (uf_npy_save(path, v, &err))
                uf_fail_at(l->file, l->line, "%s %s: %s", l->name,
                           dtype_names[t], err.message);
            size_t len;
            unsigned char *bytes = read_whole(path, &len);
            for (int via = 0; via < 2; via++) {
                uf_array *a = via ? uf_npy_load_buffer(bytes, len, &err)
                                  : uf_npy_load(path, &err);
                if (!a)
                    uf_fail_at(l->file, l->line, "%s", err.message);
                bool want_f = l->fortran;
                int f = uf_array_flags(a);
                if (uf_array_dtype(a) != (uf_dtype)t ||
                    uf_array_ndim(a) != l->ndim ||
                    memcmp(uf_array_shape(a), l->shape,
                           sizeof l->shape[0] * (size_t)l->ndim) ||
                    !(f & (want_f ? UF_ARRAY_F_CONTIGUOUS
                                  : UF_ARRAY_C_CONTIGUOUS)))
                    uf_fail_at(l->file, l->line, "%s %s: dtype, shape or "
                               "order", l->name, dtype_names[t]);
                int64_t bad = first_mismatch(a, l->offset, es);
                if (bad >= 0)
                    uf_fail_at(l->file, l->line, "%s %s: element %lld",
                               l->name, dtype_names[t], (long long)bad);
                uf_array_release(a);
            }
            /* header length % 64 == 0 and the data follows exactly */
            int major;
            size_t plen, hlen;
            assert_int_equal(uf__npy_parse_prefix(bytes, len, "x", &major,
                                                  &plen, &hlen, &err), 0);
            assert_int_equal(major, 1);
            assert_int_equal((plen + hlen) % 64, 0);
            assert_int_equal(len - plen - hlen, uf_array_nbytes(v));
            free(bytes);
            uf_array_release(v);
            uf_array_release(base);
        }
    }
    assert_int_equal(uf__alloc_live(), live);
    /* only the target is left: no temporary files */
    assert_int_equal(count_entries(dir), 1);
    rm_tree(dir);
    free(dir);
}

/* --write DIR: the files make_npy.py checks against np.save. */
static int write_cases(const char *dir)
{
    char path[4200], list[4200];
    snprintf(list, sizeof list, "%s/saved.txt", dir);
    FILE *out = fopen(list, "w");
    if (!out) {
        fprintf(stderr, "cannot write %s: %s\n", list, strerror(errno));
        return 1;
    }
    for (size_t r = 0; r < sizeof layouts / sizeof layouts[0]; r++) {
        const layout *l = &layouts[r];
        for (int t = 0; t < UF_NTYPES; t++) {
            if (!use_layout(l, (uf_dtype)t))
                continue;
            uf_array *base;
            int64_t base_n, es[10];
            uf_array *v = make_view(l, (uf_dtype)t, &base, &base_n);
            layout_strides(l, es);
            char name[128];
            snprintf(name, sizeof name, "%s_%s.npy", l->name, dtype_names[t]);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            uf_error err;
            if (uf_npy_save(path, v, &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
            size_t isz = uf_dtype_itemsize((uf_dtype)t);
            fprintf(out, "%s %s %lld %lld %d", name, dtype_names[t],
                    (long long)base_n, (long long)(l->offset * (int64_t)isz),
                    l->ndim);
            for (int k = 0; k < l->ndim; k++)
                fprintf(out, " %lld", (long long)l->shape[k]);
            for (int k = 0; k < l->ndim; k++)
                fprintf(out, " %lld", (long long)(es[k] * (int64_t)isz));
            fprintf(out, "\n");
            uf_array_release(v);
            uf_array_release(base);
        }
    }
    return fclose(out) != 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write"))
        return write_cases(argv[2]);
    if (argc == 2) {
        char done[4096];
        gen_dir = argv[1];
        snprintf(done, sizeof done, "%s/DONE", gen_dir);
        if (access(done, F_OK) != 0) {
            printf("no files from make_npy.py in %s (is NumPy installed?): "
                   "skipping\n", gen_dir);
            return 77;
        }
        const struct CMUnitTest generated[] = {
            cmocka_unit_test(test_generated_files),
            cmocka_unit_test(test_generated_fuzz),
        };
        return cmocka_run_group_tests(generated, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_files),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
