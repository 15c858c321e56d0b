/* ufjit npy show / convert: look inside a NumPy .npy file, or rewrite it
 * sliced, transposed, cast or reordered. Option values that can be checked
 * without the file (dtype names, order, axes and slice syntax) are checked
 * first and are usage errors; what depends on the data fails later with
 * exit 1. Output files are written atomically by uf_npy_save. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"

static const char npy_help[] =
    "usage: ufjit npy show FILE [--slice EXPR]\n"
    "       ufjit npy convert IN OUT [--slice EXPR] [--transpose AXES]\n"
    "                                [--dtype T] [--order C|F]\n"
    "\n"
    "  show     print a .npy file's header facts and the array as NumPy's\n"
    "           repr prints it\n"
    "  convert  write a sliced, transposed, cast or reordered copy\n"
    "\n"
    "Run 'ufjit npy show --help' or 'ufjit npy convert --help' for more.\n";

static const char show_help[] =
    "usage: ufjit npy show FILE [--slice EXPR]\n"
    "\n"
    "Prints what the file says (format version, the header as written,\n"
    "dtype, shape, strides, memory order, size, flags of the loaded array)\n"
    "and then repr(a) exactly as NumPy prints it (summarised with '...'\n"
    "past 1000 elements).\n"
    "\n"
    "  --slice EXPR  show a[EXPR] instead, with NumPy's basic indexing:\n"
    "                \"::2, 1:-1\", \"0, ..., None\", \"::-1\". The view's\n"
    "                shape, strides, order and flags are printed too.\n"
    "\n"
    "Exit status: 0 shown, 1 the file cannot be read or the slice does not\n"
    "fit the array, 2 bad arguments (including slice syntax).\n";

static const char convert_help[] =
    "usage: ufjit npy convert IN OUT [--slice EXPR] [--transpose AXES]\n"
    "                                [--dtype T] [--order C|F]\n"
    "\n"
    "Reads IN, transforms it and writes OUT. The steps always run in this\n"
    "order, whatever the order of the options on the command line:\n"
    "\n"
    "  1. --slice EXPR      a[EXPR], NumPy basic indexing: \"::2, 1:-1\",\n"
    "                       \"0, ..., None\", \"::-1\" (a view, no copy)\n"
    "  2. --transpose AXES  .transpose(AXES), AXES a comma list such as\n"
    "                       \"1,0,2\" (negative axes count from the end);\n"
    "                       an empty AXES (--transpose \"\") reverses the\n"
    "                       axes like a.T\n"
    "  3. --dtype T         .astype(T) with unsafe casting, as NumPy's\n"
    "                       astype: floats truncate toward zero, complex\n"
    "                       keeps the real part, to bool is != 0. T is a\n"
    "                       NumPy name: float32, f4, <i8, complex128, ...\n"
    "  4. --order C|F       the memory order of the result; without it the\n"
    "                       result keeps the layout it has (astype's\n"
    "                       order='K')\n"
    "\n"
    "In NumPy terms: r = np.load(IN)[EXPR].transpose(AXES)\n"
    "                r = r.astype(T, order=O)    (--dtype, with --order)\n"
    "                r = np.array(r, order=O)    (--order alone)\n"
    "                np.save(OUT, r)\n"
    "\n"
    "OUT is written like np.save: Fortran order when the result is F- and\n"
    "not C-contiguous, else C order. It appears whole or not at all (the\n"
    "data goes to a file beside it that is renamed into place), so OUT may\n"
    "be IN.\n"
    "\n"
    "Exit status: 0 written, 1 IN cannot be read or a step does not fit the\n"
    "array (index out of range, axes that do not match), 2 bad arguments\n"
    "(unknown dtype name, order other than C or F, malformed axes or\n"
    "slice).\n";

/* Room for the longest basic index a UF_MAXDIMS array can take. */
#define MAX_INDEX (2 * UF_MAXDIMS + 2)

/* ---- what the file says ------------------------------------------------ */

typedef struct npy_preamble {
    int major, minor;
    unsigned long header_len;
    unsigned long data_offset;
    char text[4096]; /* the header dict, trailing padding removed */
    bool truncated;
} npy_preamble;

/* Reads the magic, version and header text of a file uf_npy_load has
 * already accepted, to show it as written (byte order, fortran_order). */
static bool read_preamble(const char *path, npy_preamble *p)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    unsigned char m[12];
    bool ok = false;
    if (fread(m, 1, 10, f) != 10 || memcmp(m, "\x93NUMPY", 6) != 0)
        goto done;
    p->major = m[6];
    p->minor = m[7];
    size_t lenbytes = p->major == 1 ? 2 : 4;
    if (lenbytes == 4 && fread(m + 10, 1, 2, f) != 2)
        goto done;
    p->header_len = 0;
    for (size_t i = 0; i < lenbytes; i++)
        p->header_len |= (unsigned long)m[8 + i] << (8 * i);
    p->data_offset = 8 + lenbytes + p->header_len;
    size_t want = p->header_len < sizeof p->text - 1 ? p->header_len
                                                     : sizeof p->text - 1;
    size_t got = fread(p->text, 1, want, f);
    p->text[got] = '\0';
    p->truncated = got < p->header_len;
    while (got > 0 && (p->text[got - 1] == ' ' || p->text[got - 1] == '\n'))
        p->text[--got] = '\0';
    ok = true;
done:
    fclose(f);
    return ok;
}

static const char *order_name(int flags)
{
    bool c = flags & UF_ARRAY_C_CONTIGUOUS, f = flags & UF_ARRAY_F_CONTIGUOUS;
    if (c && f)
        return "C and F (contiguous either way)";
    if (c)
        return "C";
    if (f)
        return "F";
    return "neither (strided)";
}

static const char *flag_names(int flags, char *buf, size_t size)
{
    static const struct {
        int bit;
        const char *name;
    } names[] = {
        {UF_ARRAY_C_CONTIGUOUS, "C_CONTIGUOUS"},
        {UF_ARRAY_F_CONTIGUOUS, "F_CONTIGUOUS"},
        {UF_ARRAY_OWNDATA, "OWNDATA"},
        {UF_ARRAY_WRITEABLE, "WRITEABLE"},
        {UF_ARRAY_ALIGNED, "ALIGNED"},
    };
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & names[i].bit))
            continue;
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? " " : "", names[i].name);
    }
    if (buf[0] == '\0')
        snprintf(buf, size, "none");
    return buf;
}

/* dtype, shape, strides, order, size and flags, one "label: value" each. */
static void print_facts(const char *indent, const uf_array *a)
{
    char buf[1024], ts[8];
    int nd = uf_array_ndim(a);
    uf_dtype dt = uf_array_dtype(a);
    printf("%s%-8s: %s (%s)\n", indent, "dtype", uf_dtype_name(dt),
           uf_dtype_typestr(dt, ts));
    printf("%s%-8s: %s\n", indent, "shape",
           uf__cli_tuple(nd, uf_array_shape(a), buf, sizeof buf));
    printf("%s%-8s: %s\n", indent, "strides",
           uf__cli_tuple(nd, uf_array_strides(a), buf, sizeof buf));
    printf("%s%-8s: %s\n", indent, "order", order_name(uf_array_flags(a)));
    printf("%s%-8s: %lld elements, %lld bytes\n", indent, "size",
           (long long)uf_array_size(a), (long long)uf_array_nbytes(a));
    printf("%s%-8s: %s\n", indent, "flags",
           flag_names(uf_array_flags(a), buf, sizeof buf));
}

/* ---- show ---------------------------------------------------------------- */

static int npy_show(int argc, char **argv)
{
    const char *slice = NULL;
    const uf__cli_opt opts[] = {{"--slice", &slice, NULL}};
    const char *pos[1];
    int npos;
    int rc = uf__cli_parse("npy show", argc - 1, argv + 1, opts, 1, pos, 1,
                           &npos);
    if (rc == UF__CLI_HELP) {
        fputs(show_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;
    if (npos < 1)
        return uf__cli_usage("npy show", "missing FILE");

    uf_error err;
    uf_error_clear(&err);
    uf_index idx[MAX_INDEX];
    int nidx = 0;
    if (slice != NULL &&
        uf_index_parse(slice, idx, MAX_INDEX, &nidx, &err) != 0)
        return uf__cli_usage("npy show", "bad --slice '%s': %s", slice,
                             err.message);

    const char *path = pos[0];
    uf_array *a = uf_npy_load(path, &err);
    if (a == NULL) /* the library's messages name the file */
        return uf__cli_fail(&err, NULL);
    uf_array *shown = a;
    if (slice != NULL) {
        shown = uf_array_index(a, idx, nidx, &err);
        if (shown == NULL) {
            uf_array_release(a);
            return uf__cli_error("--slice '%s': %s", slice, err.message);
        }
    }
    char *repr = uf_array_repr(shown, &err);
    if (repr == NULL) {
        rc = uf__cli_fail(&err, "cannot print the array");
        goto done;
    }

    printf("%-8s: %s\n", "file", path);
    npy_preamble pre;
    if (read_preamble(path, &pre)) {
        printf("%-8s: .npy version %d.%d, data at byte %lu\n", "format",
               pre.major, pre.minor, pre.data_offset);
        printf("%-8s: %s%s\n", "header", pre.text,
               pre.truncated ? " ... (truncated)" : "");
    }
    print_facts("", a);
    if (slice != NULL) {
        printf("\nview a[%s]\n", slice);
        print_facts("  ", shown);
    }
    printf("\n%s\n", repr);
    uf_free(repr);
    rc = UF__CLI_OK;
done:
    if (shown != a)
        uf_array_release(shown);
    uf_array_release(a);
    return rc;
}

/* ---- convert ------------------------------------------------------------- */

typedef struct convert_plan {
    const char *in, *out;
    const char *slice, *transpose, *dtype_name, *order_name;
    uf_index idx[MAX_INDEX];
    int nidx;
    int axes[UF_MAXDIMS];
    int naxes;
    uf_dtype dtype;
    uf_order order;
} convert_plan;

/* Checks every option value before any file is touched. */
static int plan_convert(convert_plan *p)
{
    uf_error err;
    uf_error_clear(&err);
    if (p->slice != NULL &&
        uf_index_parse(p->slice, p->idx, MAX_INDEX, &p->nidx, &err) != 0)
        return uf__cli_usage("npy convert", "bad --slice '%s': %s", p->slice,
                             err.message);
    if (p->transpose != NULL &&
        uf__cli_parse_int_list(p->transpose, p->axes, UF_MAXDIMS, &p->naxes,
                               &err) != 0)
        return uf__cli_usage("npy convert", "bad --transpose: %s",
                             err.message);
    if (p->dtype_name != NULL &&
        uf_dtype_from_name(p->dtype_name, &p->dtype, &err) != 0)
        return uf__cli_usage("npy convert", "bad --dtype '%s': %s",
                             p->dtype_name, err.message);
    if (p->order_name != NULL) {
        if (strcmp(p->order_name, "C") == 0 || strcmp(p->order_name, "c") == 0)
            p->order = UF_ORDER_C;
        else if (strcmp(p->order_name, "F") == 0 ||
                 strcmp(p->order_name, "f") == 0)
            p->order = UF_ORDER_F;
        else
            return uf__cli_usage("npy convert",
                                 "bad --order '%s': must be C or F",
                                 p->order_name);
    }
    return 0;
}

/* Replaces *cur by next (or reports the failure of the step). */
static int step(uf_array **cur, uf_array *next, const uf_error *err,
                const char *what)
{
    if (next == NULL)
        return uf__cli_fail(err, what);
    uf_array_release(*cur);
    *cur = next;
    return 0;
}

static int run_convert(const convert_plan *p)
{
    uf_error err;
    uf_error_clear(&err);
    char what[256];
    uf_array *a = uf_npy_load(p->in, &err);
    if (a == NULL)
        return uf__cli_fail(&err, NULL);
    int rc = 0;
    if (p->slice != NULL) {
        snprintf(what, sizeof what, "--slice '%s'", p->slice);
        rc = step(&a, uf_array_index(a, p->idx, p->nidx, &err), &err, what);
    }
    if (rc == 0 && p->transpose != NULL) {
        int nd = uf_array_ndim(a);
        if (p->naxes != 0 && p->naxes != nd) {
            rc = uf__cli_error("--transpose '%s': axes don't match array: "
                               "%d ax%s given for an array of %d "
                               "dimension%s", p->transpose, p->naxes,
                               p->naxes == 1 ? "is" : "es", nd,
                               nd == 1 ? "" : "s");
        } else {
            snprintf(what, sizeof what, "--transpose '%s'", p->transpose);
            rc = step(&a, uf_array_transpose(a, p->naxes ? p->axes : NULL,
                                             &err), &err, what);
        }
    }
    if (rc == 0 && p->dtype_name != NULL) {
        snprintf(what, sizeof what, "--dtype %s", p->dtype_name);
        uf_order order = p->order_name != NULL ? p->order : UF_ORDER_K;
        rc = step(&a, uf_array_astype(a, p->dtype, UF_CASTING_UNSAFE, order,
                                      &err), &err, what);
    } else if (rc == 0 && p->order_name != NULL) {
        snprintf(what, sizeof what, "--order %s", p->order_name);
        rc = step(&a, uf_array_copy(a, p->order, &err), &err, what);
    }
    if (rc == 0 && uf_npy_save(p->out, a, &err) != 0)
        rc = uf__cli_fail(&err, NULL);
    uf_array_release(a);
    return rc;
}

static int npy_convert(int argc, char **argv)
{
    convert_plan p;
    memset(&p, 0, sizeof p);
    const uf__cli_opt opts[] = {
        {"--slice", &p.slice, NULL},
        {"--transpose", &p.transpose, NULL},
        {"--dtype", &p.dtype_name, NULL},
        {"--order", &p.order_name, NULL},
    };
    const char *pos[2];
    int npos;
    int rc = uf__cli_parse("npy convert", argc - 1, argv + 1, opts,
                           (int)(sizeof opts / sizeof opts[0]), pos, 2,
                           &npos);
    if (rc == UF__CLI_HELP) {
        fputs(convert_help, stdout);
        return UF__CLI_OK;
    }
    if (rc != 0)
        return rc;
    if (npos < 2)
        return uf__cli_usage("npy convert", npos == 0 ? "missing IN and OUT"
                                                      : "missing OUT");
    p.in = pos[0];
    p.out = pos[1];
    rc = plan_convert(&p);
    if (rc != 0)
        return rc;
    return run_convert(&p);
}

int uf__cli_npy(int argc, char **argv)
{
    if (argc < 2)
        return uf__cli_usage("npy", "missing 'show' or 'convert'");
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
        fputs(npy_help, stdout);
        return UF__CLI_OK;
    }
    if (strcmp(sub, "show") == 0)
        return npy_show(argc - 1, argv + 1);
    if (strcmp(sub, "convert") == 0)
        return npy_convert(argc - 1, argv + 1);
    return uf__cli_usage("npy", "unknown subcommand '%s': 'show' or "
                         "'convert'", sub);
}
