/* README's lists of what kernels may use on arrays are printed from the
 * compiler's tables, the ones the typing dispatches on, so they cannot
 * drift: each list sits between `<!-- NAME -->` and `<!-- /NAME -->` in
 * README.md and must be exactly what blocks[] below prints. This test
 * checks that; run with `--write README.md` (or `cmake --build build
 * --target readme-lists`) it rewrites the lists in place, leaving the
 * prose around them alone. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/front/kmodule.h"
#include "compiler/types/array_members.h"
#include "compiler/types/builtins.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npreduce.h"
#include "compiler/types/infer_npufunc.h"

#define README UF_TEST_DATA_DIR "/../../README.md"
#define REGENERATE                                                          \
    "regenerate the lists: cmake --build build --target readme-lists "      \
    "(or build/tests/test_readme_lists --write README.md)"
#define WIDTH 88 /* README's lines, the two spaces of indent included */

/* ---- a list as text ---------------------------------------------------- */

/* Text growing by appends; `items` counts the entries of the list. */
typedef struct text {
    char s[16384];
    size_t n;
    int items;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof t->s - t->n)
        fail_msg("a README list outgrew its buffer");
    t->n += (size_t)k;
}

/* One entry, after a ", " unless it opens the list or a "; " segment. */
static void item(text *t, const char *fmt, ...)
{
    if (t->n > 0 && t->s[t->n - 1] != ' ')
        put(t, ", ");
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof t->s - t->n)
        fail_msg("a README list outgrew its buffer");
    t->n += (size_t)k;
    t->items++;
}

/* `np.NAME` of the qualified "numpy.NAME", with NumPy's other names of it
 * (infer_npufunc.c's aliases) in parentheses. */
static void np_item(text *t, const char *qualified)
{
    item(t, "`np.%s`", qualified + 6);
    const char *alias, *canonical;
    int k = 0;
    for (int i = 0; uf__npufunc_alias_at(i, &alias, &canonical); i++)
        if (strcmp(canonical, qualified) == 0)
            put(t, "%s`np.%s`", k++ ? ", " : " (", alias + 6);
    if (k)
        put(t, ")");
}

/* ---- the lists ----------------------------------------------------------- */

/* Reductions, dot products and their attributes and methods
 * (UF__NPREDUCE_MAP, the reduction methods of array_members.c). */
static void list_reductions(text *t)
{
    const char *name, *kind;
    for (int i = 0; uf__npreduce_listing_at(i, &name, &kind); i++) {
        if (strcmp(kind, "function") == 0)
            item(t, "`np.%s`", name + 6);
        else if (strcmp(kind, "method") == 0)
            item(t, "`.%s()`", name);
        else
            item(t, "`%s`", name);
    }
}

static bool in_array_methods_group(uf__builtin b)
{
    return uf__builtin_is_arrmeth(b) || uf__builtin_is_npcum(b) ||
           uf__builtin_is_npview(b) || uf__builtin_is_npshape(b);
}

/* The families of numpy.* builtins the list prints after the plain ones,
 * in this order, each after its lead-in; a family of new functions adds
 * a row. */
static const struct family {
    bool (*member)(uf__builtin);
    const char *lead;
} families[] = {
    {uf__builtin_is_alloc, "; and the array constructors (allocation, above): "},
    {in_array_methods_group, "; and the array methods' functions (above): "},
    {uf__builtin_is_npselect, "; and the order statistics (above): "},
    {uf__builtin_is_nppart, "; and partitioning (above): "},
    {uf__builtin_is_npjoin,
     "; and the joins and tuple-to-array functions (above): "},
    {uf__builtin_is_nppred,
     "; and the predicates and small functions (above): "},
    {uf__builtin_is_npfind,
     "; and the results sized by the data (above): "},
    {uf__builtin_is_nprandom,
     "; and np.random (above): "},
    {uf__builtin_is_npnum,
     "; and interpolation and binning (above): "},
    {uf__builtin_is_npstats,
     "; and histograms and statistics (above): "},
    {uf__builtin_is_nplinalg,
     "; and np.linalg without LAPACK (above): "},
    {uf__builtin_is_npmatrix,
     "; and the matrix constructors and diagonals (above): "},
    {uf__builtin_is_npsignal, "; and the 1-D signal routines (above): "},
    {uf__builtin_is_npspace, "; and the geometric sequences (above): "},
    {uf__builtin_is_npfunc, "; and the functions of their own (above): "},
    {uf__builtin_is_arrview, "; and the views of an array's bytes (above): "},
    {uf__builtin_is_npcross,
     "; and cross products, phase unwrapping, np.select (above): "},
    {uf__builtin_is_npsplit, "; and splitting into views (above): "},
    {uf__builtin_is_nppoly, "; and numpy.polynomial (above): "},
};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

/* Which part of the list b goes in: 0 the plain functions, 1 those on
 * arrays only, 2 + i the family families[i]. */
static int group_of(uf__builtin b)
{
    for (int i = 0; i < NFAMILIES; i++)
        if (families[i].member(b))
            return 2 + i;
    return b == UF__BI_NP_WHERE || b == UF__BI_NP_CLIP ? 1 : 0;
}

/* Every numpy.* builtin but the reductions, each with its aliases. */
static void list_functions(text *t)
{
    for (int pass = 0; pass < 2 + NFAMILIES; pass++) {
        int before = t->items;
        if (pass >= 2)
            put(t, "%s", families[pass - 2].lead);
        for (int b = 1; b < UF__BI_COUNT; b++) {
            const char *q = uf__builtin_name((uf__builtin)b);
            if (strncmp(q, "numpy.", 6) != 0 ||
                uf__builtin_is_npreduce((uf__builtin)b))
                continue;
            if (group_of((uf__builtin)b) == pass)
                np_item(t, q);
        }
        if (pass == 1 && t->items > before)
            put(t, "%s", " (on arrays only)");
    }
}

/* The constructors with their parameters (infer_alloc.c's table). */
static void list_alloc(text *t)
{
    for (int b = 1; b < UF__BI_COUNT; b++) {
        int n;
        const char *const *p = uf__alloc_params((uf__builtin)b, &n);
        if (p == NULL)
            continue;
        item(t, "`np.%s(", uf__builtin_name((uf__builtin)b) + 6);
        for (int i = 0; i < n; i++)
            put(t, "%s%s", i ? ", " : "", p[i]);
        put(t, ")`");
    }
}

static void member_item(text *t, const uf__array_member *m)
{
    item(t, m->method ? "`.%s()`" : "`.%s`", m->name);
}

/* Every attribute and method of array_members.c, attributes first. */
static void list_members(text *t)
{
    const uf__array_member *m;
    for (int method = 0; method < 2; method++)
        for (int i = 0; (m = uf__array_member_at(i)); i++)
            if (m->builtin != UF__BI_NONE && m->method == method)
                member_item(t, m);
}

/* The functions and methods that copy, reshape, sort and round
 * (UF__ARRMETH_MAP, array_members.c's entries among them), then the
 * accumulations, differences and averages of UF__NPCUM_MAP. */
static void list_arrmeth(text *t)
{
    for (int b = 1; b < UF__BI_COUNT; b++) {
        const char *q = uf__builtin_name((uf__builtin)b);
        if (uf__builtin_is_arrmeth((uf__builtin)b) &&
            strncmp(q, "numpy.", 6) == 0)
            np_item(t, q);
    }
    const uf__array_member *m;
    for (int i = 0; (m = uf__array_member_at(i)); i++)
        if (uf__builtin_is_arrmeth(m->builtin))
            member_item(t, m);
    for (int b = 1; b < UF__BI_COUNT; b++)
        if (uf__builtin_is_npcum((uf__builtin)b))
            np_item(t, uf__builtin_name((uf__builtin)b));
}

/* The views of UF__NPVIEW_MAP, and a.transpose's axes. */
static void list_views(text *t)
{
    for (int b = 1; b < UF__BI_COUNT; b++)
        if (uf__builtin_is_npview((uf__builtin)b) &&
            strncmp(uf__builtin_name((uf__builtin)b), "numpy.", 6) == 0)
            np_item(t, uf__builtin_name((uf__builtin)b));
    item(t, "%s", "`np.transpose(a, axes)`");
    item(t, "%s", "`.transpose(axes)`");
}

/* The repeats, resizes and broadcasts of UF__NPSHAPE_MAP, and a.repeat. */
static void list_shapes(text *t)
{
    for (int b = 1; b < UF__BI_COUNT; b++)
        if (uf__builtin_is_npshape((uf__builtin)b))
            np_item(t, uf__builtin_name((uf__builtin)b));
    item(t, "%s", "`.repeat(repeats)`");
}

/* What module-level arrays are built with (kmodule_array.c's tables). */
static void list_module_arrays(text *t)
{
    const char *name;
    bool method;
    for (int i = 0; uf__kmodule_array_listing_at(i, &name, &method); i++)
        item(t, method ? "`.%s()`" : "`np.%s`", name);
}

static const struct block {
    const char *name;
    void (*list)(text *);
} blocks[] = {
    {"array-members", list_members},
    {"numpy-reductions", list_reductions},
    {"numpy-alloc", list_alloc},
    {"array-methods", list_arrmeth},
    {"numpy-views", list_views},
    {"numpy-shapes", list_shapes},
    {"numpy-functions", list_functions},
    {"module-arrays", list_module_arrays},
};
#define NBLOCKS (sizeof blocks / sizeof *blocks)

/* The list wrapped into lines of WIDTH at most, each after `indent`;
 * never inside a code span. */
static void wrap(const text *t, const char *indent, size_t nindent, text *out)
{
    out->n = 0;
    const char *p = t->s;
    size_t col = 0;
    while (*p) {
        size_t len = 0; /* to the next space outside a `code span` */
        for (bool code = false; p[len] && (code || p[len] != ' '); len++)
            code ^= p[len] == '`';
        if (col > 0 && col + 1 + len > WIDTH) {
            put(out, "\n");
            col = 0;
        }
        if (col == 0) {
            put(out, "%.*s", (int)nindent, indent);
            col = nindent;
        } else {
            put(out, " ");
            col++;
        }
        put(out, "%.*s", (int)len, p);
        col += len;
        p += len;
        while (*p == ' ')
            p++;
    }
    put(out, "\n");
}

/* ---- README ----------------------------------------------------------- */

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *size = (size_t)n;
    }
    return s;
}

/* Where block b's list lies in README text s: [*from, *to) runs from the
 * line after `<!-- NAME -->` to the start of the `<!-- /NAME -->` line;
 * the opening marker's indent goes to *indent. false when absent. */
static bool find_block(const char *s, const struct block *b, size_t *from,
                       size_t *to, const char **indent, size_t *nindent)
{
    char open[64], close[64];
    snprintf(open, sizeof open, "<!-- %s -->\n", b->name);
    snprintf(close, sizeof close, "<!-- /%s -->", b->name);
    const char *o = strstr(s, open);
    const char *c = o ? strstr(o, close) : NULL;
    if (!o || !c)
        return false;
    const char *line = o;
    while (line > s && line[-1] == ' ')
        line--;
    *indent = line;
    *nindent = (size_t)(o - line);
    while (c > o && c[-1] == ' ')
        c--;
    *from = (size_t)(o + strlen(open) - s);
    *to = (size_t)(c - s);
    return true;
}

/* README's text, freed by the teardown (a failing check jumps out) */
static char *readme;

static int free_readme(void **state)
{
    (void)state;
    free(readme);
    readme = NULL;
    return 0;
}

static void readme_lists_the_tables(void **state)
{
    (void)state;
    size_t size;
    char *s = readme = slurp(README, &size);
    if (!s) { /* the GPU kit carries the tests without the sources */
        printf("SKIP: %s is not here\n", README);
        skip();
    }
    for (size_t i = 0; i < NBLOCKS; i++) {
        size_t from, to, nindent;
        const char *indent;
        if (!find_block(s, &blocks[i], &from, &to, &indent, &nindent))
            fail_msg("README.md has no <!-- %s --> list: put the two "
                     "markers where it belongs, then %s", blocks[i].name,
                     REGENERATE);
        static text list, want;
        list.n = 0;
        list.items = 0;
        blocks[i].list(&list);
        if (list.items == 0)
            fail_msg("the table behind <!-- %s --> is empty",
                     blocks[i].name);
        wrap(&list, indent, nindent, &want);
        if (to - from != want.n || memcmp(s + from, want.s, want.n) != 0) {
            size_t k = 0;
            while (k < want.n && from + k < to && s[from + k] == want.s[k])
                k++;
            printf("the tables print <!-- %s --> as:\n%s", blocks[i].name,
                   want.s);
            fail_msg("README.md's <!-- %s --> list differs from the "
                     "compiler's tables from its byte %zu on: %s",
                     blocks[i].name, k, REGENERATE);
        }
    }
}

/* `--write PATH`: PATH with every list replaced by what the tables print. */
static int write_lists(const char *path)
{
    size_t size;
    char *s = slurp(path, &size);
    if (!s) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    for (size_t i = 0; i < NBLOCKS; i++) {
        size_t from, to, nindent;
        const char *indent;
        if (!find_block(s, &blocks[i], &from, &to, &indent, &nindent)) {
            fprintf(stderr, "%s has no <!-- %s --> list: add the markers "
                    "first\n", path, blocks[i].name);
            free(s);
            return 1;
        }
        static text list, want;
        list.n = 0;
        list.items = 0;
        blocks[i].list(&list);
        wrap(&list, indent, nindent, &want);
        char *r = malloc(size - (to - from) + want.n + 1);
        if (!r) {
            free(s);
            return 1;
        }
        memcpy(r, s, from);
        memcpy(r + from, want.s, want.n);
        memcpy(r + from + want.n, s + to, size - to + 1);
        size = size - (to - from) + want.n;
        free(s);
        s = r;
    }
    FILE *f = fopen(path, "wb");
    int rc = !f || fwrite(s, 1, size, f) != size;
    if (f && fclose(f) != 0)
        rc = 1;
    free(s);
    if (rc)
        fprintf(stderr, "cannot write %s\n", path);
    else
        printf("%s: %zu lists written from the compiler's tables\n", path,
               NBLOCKS);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_lists(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(readme_lists_the_tables, free_readme),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
