/* Formatting single array elements as NumPy 2 prints them (print.c lays
 * them out). Floats use Dragon4 digit generation: the shortest digits that
 * read back to the same value at the dtype's precision.
 *
 * NumPy picks one format for all the elements it shows, so a formatter is
 * fed every shown element before it writes any:
 *
 *     uf__elem_fmt_init(&f, dtype, is_0d);
 *     for each shown element p: uf__elem_fmt_scan(&f, p);
 *     if (uf__elem_fmt_plan(&f))
 *         for each shown element p: uf__elem_fmt_measure(&f, p);
 *     uf__elem_fmt_finish(&f);
 *     for each element p: uf__elem_fmt_write(&f, p, buf);
 *
 * Elements are read with memcpy: they may be unaligned. Nothing allocates. */
#ifndef UF_NDARRAY_FORMAT_SCALAR_H
#define UF_NDARRAY_FORMAT_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ufjit/dtype.h>

/* Room for one formatted element with its padding, NUL included. */
#define UF__ELEM_MAX 160

/* NumPy's FloatingFormat for one float array (or the real or imaginary
 * parts of a complex one) under precision=8, floatmode='maxprec'. */
typedef struct uf__float_fmt {
    bool f32;        /* float32 values: float32 digits and cut-offs */
    bool plus;       /* sign='+' (imaginary parts) */
    /* uf__elem_fmt_scan */
    bool any_finite, any_nonfinite, neg_inf, any_nonzero;
    double max_abs, min_abs; /* over finite nonzero values */
    /* uf__elem_fmt_plan / measure / finish */
    bool exp_format;
    int pad_left, pad_right, precision, min_digits, exp_size;
} uf__float_fmt;

typedef struct uf__elem_fmt {
    uf_dtype dtype;
    bool zero_d;
    bool any;            /* an element was scanned */
    int64_t imin, imax;  /* signed integers */
    uint64_t umin, umax; /* unsigned integers */
    int width;           /* integers: common width */
    uf__float_fmt re, im;
} uf__elem_fmt;

void uf__elem_fmt_init(uf__elem_fmt *f, uf_dtype dtype, bool zero_d);
/* First pass over the shown elements: ranges, signs, non-finite values. */
void uf__elem_fmt_scan(uf__elem_fmt *f, const char *elem);
/* Chooses positional or scientific notation; true when the widths need a
 * second pass through uf__elem_fmt_measure. */
bool uf__elem_fmt_plan(uf__elem_fmt *f);
void uf__elem_fmt_measure(uf__elem_fmt *f, const char *elem);
void uf__elem_fmt_finish(uf__elem_fmt *f);
/* Writes one element (buf holds UF__ELEM_MAX) and returns its length. */
size_t uf__elem_fmt_write(const uf__elem_fmt *f, const char *elem,
                          char *buf);

/* str() of the NumPy scalar at `elem` ("1.0", "1e+16", "(1+2j)", "True"),
 * which is how NumPy prints a 0-d array with str(). */
size_t uf__scalar_str(uf_dtype dtype, const char *elem, char *buf);

#endif
