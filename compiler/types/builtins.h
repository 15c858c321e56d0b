/* Every function and constant the kernel language knows besides the
 * kernels of the file itself. One table: the name as written in Python,
 * the enum the typer records and the lowering switches on. */
#ifndef UF_COMPILER_BUILTINS_H
#define UF_COMPILER_BUILTINS_H

#include <stdbool.h>

/* NumPy ufuncs on scalars beyond the first ones above, with Numba's
 * semantics; their loops and lowerings are tables of infer_npufunc.c and
 * lower_npufunc.c. */
#define UF__NPUFUNC_MAP(X)                                                  \
    X(NP_ADD, "numpy.add") X(NP_SUBTRACT, "numpy.subtract")                 \
    X(NP_MULTIPLY, "numpy.multiply")                                        \
    X(NP_TRUE_DIVIDE, "numpy.true_divide")                                  \
    X(NP_FLOOR_DIVIDE, "numpy.floor_divide")                                \
    X(NP_REMAINDER, "numpy.remainder") X(NP_DIVMOD, "numpy.divmod")         \
    X(NP_NEGATIVE, "numpy.negative") X(NP_POSITIVE, "numpy.positive")       \
    X(NP_FLOAT_POWER, "numpy.float_power")                                  \
    X(NP_RECIPROCAL, "numpy.reciprocal")                                    \
    X(NP_LOGADDEXP, "numpy.logaddexp") X(NP_LOGADDEXP2, "numpy.logaddexp2") \
    X(NP_EXP2, "numpy.exp2") X(NP_CBRT, "numpy.cbrt")                       \
    X(NP_ARCSINH, "numpy.arcsinh") X(NP_ARCCOSH, "numpy.arccosh")           \
    X(NP_ARCTANH, "numpy.arctanh") X(NP_GCD, "numpy.gcd")                   \
    X(NP_LCM, "numpy.lcm") X(NP_BITWISE_AND, "numpy.bitwise_and")           \
    X(NP_BITWISE_OR, "numpy.bitwise_or")                                    \
    X(NP_BITWISE_XOR, "numpy.bitwise_xor") X(NP_INVERT, "numpy.invert")     \
    X(NP_LEFT_SHIFT, "numpy.left_shift")                                    \
    X(NP_RIGHT_SHIFT, "numpy.right_shift") X(NP_GREATER, "numpy.greater")   \
    X(NP_GREATER_EQUAL, "numpy.greater_equal") X(NP_LESS, "numpy.less")     \
    X(NP_LESS_EQUAL, "numpy.less_equal") X(NP_EQUAL, "numpy.equal")         \
    X(NP_NOT_EQUAL, "numpy.not_equal")                                      \
    X(NP_LOGICAL_AND, "numpy.logical_and")                                  \
    X(NP_LOGICAL_OR, "numpy.logical_or")                                    \
    X(NP_LOGICAL_XOR, "numpy.logical_xor")                                  \
    X(NP_LOGICAL_NOT, "numpy.logical_not") X(NP_SIGNBIT, "numpy.signbit")   \
    X(NP_NEXTAFTER, "numpy.nextafter") X(NP_SPACING, "numpy.spacing")       \
    X(NP_LDEXP, "numpy.ldexp")

/* NumPy's whole-array reductions, dot products and the array attributes
 * and methods that need no allocation (infer_npreduce.c,
 * lower_npreduce.c): NP_SUM .. NP_ATTR_NBYTES keep their places. The
 * methods a.sum() ... are typed as the functions with the receiver
 * first. */
#define UF__NPREDUCE_MAP(X)                                                 \
    X(NP_SUM, "numpy.sum") X(NP_PROD, "numpy.prod")                         \
    X(NP_MIN, "numpy.min") X(NP_MAX, "numpy.max")                           \
    X(NP_AMIN, "numpy.amin") X(NP_AMAX, "numpy.amax")                       \
    X(NP_MEAN, "numpy.mean") X(NP_VAR, "numpy.var") X(NP_STD, "numpy.std")  \
    X(NP_ARGMIN, "numpy.argmin") X(NP_ARGMAX, "numpy.argmax")               \
    X(NP_ALL, "numpy.all") X(NP_ANY, "numpy.any")                           \
    X(NP_NANSUM, "numpy.nansum") X(NP_NANPROD, "numpy.nanprod")             \
    X(NP_NANMIN, "numpy.nanmin") X(NP_NANMAX, "numpy.nanmax")               \
    X(NP_NANMEAN, "numpy.nanmean") X(NP_NANVAR, "numpy.nanvar")             \
    X(NP_NANSTD, "numpy.nanstd") X(NP_DOT, "numpy.dot")                     \
    X(NP_VDOT, "numpy.vdot") X(NP_TRANSPOSE, "numpy.transpose")             \
    X(NP_ATTR_T, ".T") X(NP_ATTR_ITEMSIZE, ".itemsize")                     \
    X(NP_ATTR_NBYTES, ".nbytes")
/* Whole-array reductions Numba 0.68 added beside those (infer_npreduce.c
 * types them with the rest; lower_npextra.c): NP_NANARGMIN .. NP_PTP
 * keep their places (uf__builtin_is_npreduce). */
#define UF__NPREDUCE_EXTRA_MAP(X)                                           \
    X(NP_NANARGMIN, "numpy.nanargmin") X(NP_NANARGMAX, "numpy.nanargmax")   \
    X(NP_COUNT_NONZERO, "numpy.count_nonzero") X(NP_PTP, "numpy.ptp")
/* NumPy's array constructors (infer_alloc.c, lower_alloc.c): arrays
 * allocated inside kernels through common/nrt.h; NP_EMPTY .. NP_LINSPACE
 * keep their places (uf__builtin_is_alloc). */
#define UF__NPALLOC_MAP(X)                                                  \
    X(NP_EMPTY, "numpy.empty") X(NP_ZEROS, "numpy.zeros")                   \
    X(NP_ONES, "numpy.ones") X(NP_FULL, "numpy.full")                       \
    X(NP_EMPTY_LIKE, "numpy.empty_like")                                    \
    X(NP_ZEROS_LIKE, "numpy.zeros_like")                                    \
    X(NP_ONES_LIKE, "numpy.ones_like") X(NP_FULL_LIKE, "numpy.full_like")   \
    X(NP_ARANGE, "numpy.arange") X(NP_LINSPACE, "numpy.linspace")
/* NumPy functions and array methods that copy, reshape, sort or round
 * arrays (infer_arrmeth.c, lower_arrmeth.c, lower_arrsort.c); the methods
 * a.copy() ... are typed as the functions with the receiver first, the
 * METH_ ones exist as methods only. NP_COPY .. METH_SORT keep their places
 * (uf__builtin_is_arrmeth). */
#define UF__ARRMETH_MAP(X)                                                  \
    X(NP_COPY, "numpy.copy") X(NP_RESHAPE, "numpy.reshape")                 \
    X(NP_RAVEL, "numpy.ravel") X(NP_CUMSUM, "numpy.cumsum")                 \
    X(NP_CUMPROD, "numpy.cumprod") X(NP_SORT, "numpy.sort")                 \
    X(NP_ARGSORT, "numpy.argsort")                                          \
    X(NP_SEARCHSORTED, "numpy.searchsorted") X(NP_ROUND, "numpy.round")     \
    X(NP_AROUND, "numpy.around") X(METH_COPY, ".copy")                      \
    X(METH_FLATTEN, ".flatten") X(METH_ASTYPE, ".astype")                   \
    X(METH_FILL, ".fill") X(ATTR_FLAT, ".flat") X(METH_SORT, ".sort")

/* dtypes as values (a.dtype, np.dtype('f4'), d.type, dtype == dtype),
 * .real/.imag/.conj() of arrays, and the builtins min/max/sum over an
 * array or a tuple (infer_arrattr.c, lower_arrattr.c): ATTR_DTYPE ..
 * ITER_MAX keep their places (uf__builtin_is_arrattr). */
#define UF__ARRATTR_MAP(X)                                                  \
    X(ATTR_DTYPE, ".dtype") X(NP_DTYPE, "numpy.dtype")                      \
    X(DTYPE_TYPE, "dtype.type") X(DTYPE_EQ, "<dtype == dtype>")             \
    X(ARR_REAL, "array.real") X(ARR_IMAG, "array.imag")                     \
    X(ARR_CONJ, "array.conj") X(SUM, "sum")                                 \
    X(ITER_MIN, "<min of an array>") X(ITER_MAX, "<max of an array>")

/* NumPy's nan-skipping accumulations, differences and weighted average
 * (infer_npcum.c, lower_npcum.c): NP_NANCUMSUM .. NP_AVERAGE keep their
 * places (uf__builtin_is_npcum). */
#define UF__NPCUM_MAP(X)                                                    \
    X(NP_NANCUMSUM, "numpy.nancumsum")                                      \
    X(NP_NANCUMPROD, "numpy.nancumprod") X(NP_DIFF, "numpy.diff")           \
    X(NP_AVERAGE, "numpy.average")
/* NumPy's joins of a tuple of arrays, np.append, and np.array /
 * np.asarray of numbers and tuples (infer_npjoin.c, lower_npjoin.c):
 * NP_CONCATENATE .. NP_ASARRAY keep their places (uf__builtin_is_npjoin). */
#define UF__NPJOIN_MAP(X)                                                   \
    X(NP_CONCATENATE, "numpy.concatenate") X(NP_STACK, "numpy.stack")       \
    X(NP_HSTACK, "numpy.hstack") X(NP_VSTACK, "numpy.vstack")               \
    X(NP_ROW_STACK, "numpy.row_stack") X(NP_DSTACK, "numpy.dstack")         \
    X(NP_COLUMN_STACK, "numpy.column_stack") X(NP_APPEND, "numpy.append")  \
    X(NP_ARRAY, "numpy.array") X(NP_ASARRAY, "numpy.asarray")
/* NumPy's matrix constructors and diagonals (infer_npmatrix.c,
 * lower_npmatrix.c): NP_EYE .. NP_VANDER keep their places
 * (uf__builtin_is_npmatrix). */
#define UF__NPMATRIX_MAP(X)                                                 \
    X(NP_EYE, "numpy.eye") X(NP_IDENTITY, "numpy.identity")                 \
    X(NP_TRI, "numpy.tri")                                                  \
    X(NP_DIAG, "numpy.diag") X(NP_DIAGFLAT, "numpy.diagflat")               \
    X(NP_TRACE, "numpy.trace") X(NP_FILL_DIAGONAL, "numpy.fill_diagonal")   \
    X(NP_TRIL, "numpy.tril") X(NP_TRIU, "numpy.triu")                       \
    X(NP_OUTER, "numpy.outer") X(NP_KRON, "numpy.kron")                     \
    X(NP_TRIL_INDICES, "numpy.tril_indices")                                \
    X(NP_TRIU_INDICES, "numpy.triu_indices")                                \
    X(NP_TRIL_INDICES_FROM, "numpy.tril_indices_from")                      \
    X(NP_TRIU_INDICES_FROM, "numpy.triu_indices_from")                      \
    X(NP_VANDER, "numpy.vander")
/* NumPy's order statistics of whole arrays (infer_npselect.c,
 * lower_npselect.c, the runtime common/npselect.h): NP_MEDIAN ..
 * NP_NANQUANTILE keep their places (uf__builtin_is_npselect). */
#define UF__NPSELECT_MAP(X)                                                 \
    X(NP_MEDIAN, "numpy.median") X(NP_NANMEDIAN, "numpy.nanmedian")         \
    X(NP_PERCENTILE, "numpy.percentile")                                    \
    X(NP_NANPERCENTILE, "numpy.nanpercentile")                              \
    X(NP_QUANTILE, "numpy.quantile") X(NP_NANQUANTILE, "numpy.nanquantile")
/* np.partition and np.argpartition (infer_nppart.c, lower_nppart.c, the
 * runtime common/nppart.h); they keep their places
 * (uf__builtin_is_nppart). */
#define UF__NPPART_MAP(X)                                                   \
    X(NP_PARTITION, "numpy.partition")                                      \
    X(NP_ARGPARTITION, "numpy.argpartition")
/* Statistics (infer_npstats.c, lower_npstats.c, the runtime
 * common/npstats.h): NP_HISTOGRAM .. NP_CORRCOEF keep their places
 * (uf__builtin_is_npstats). */
#define UF__NPSTATS_MAP(X)                                                  \
    X(NP_HISTOGRAM, "numpy.histogram") X(NP_COV, "numpy.cov")               \
    X(NP_CORRCOEF, "numpy.corrcoef")
/* Results whose length depends on the data (infer_npfind.c,
 * lower_npfind.c, the runtime common/npfind.h); np.where(cond) of one
 * argument is typed and lowered as NP_NONZERO; and the set routines.
 * NP_NONZERO .. NP_DELETE keep their places (uf__builtin_is_npfind).
 * np.insert has its own files (infer_npinsert.c, lower_npinsert.c). */
#define UF__NPFIND_MAP(X)                                                   \
    X(NP_NONZERO, "numpy.nonzero") X(NP_FLATNONZERO, "numpy.flatnonzero")   \
    X(NP_ARGWHERE, "numpy.argwhere") X(NP_EXTRACT, "numpy.extract")         \
    X(NP_UNIQUE, "numpy.unique") X(NP_UNION1D, "numpy.union1d")            \
    X(NP_INTERSECT1D, "numpy.intersect1d") X(NP_SETXOR1D, "numpy.setxor1d") \
    X(NP_SETDIFF1D, "numpy.setdiff1d") X(NP_ISIN, "numpy.isin")            \
    X(NP_DELETE, "numpy.delete")                                            \
    X(NP_INSERT, "numpy.insert")

/* NumPy's predicates and small functions of numbers or arrays
 * (infer_nppred.c, lower_nppred.c): the properties known at compile time
 * (NP_SHAPE .. NP_ISREALOBJ), the three reductions (NP_ALLCLOSE,
 * NP_ARRAY_EQUAL, NP_ASARRAY_CHKFINITE's check), then the elementwise functions (NP_ISCLOSE ..
 * NP_ANGLE), fused into array expressions; NP_SHAPE .. NP_ANGLE keep
 * their places (uf__builtin_is_nppred). */
#define UF__NPPRED_MAP(X)                                                   \
    X(NP_SHAPE, "numpy.shape") X(NP_SIZE, "numpy.size")                     \
    X(NP_ISSCALAR, "numpy.isscalar")                                        \
    X(NP_ISCOMPLEXOBJ, "numpy.iscomplexobj")                                \
    X(NP_ISREALOBJ, "numpy.isrealobj") X(NP_ALLCLOSE, "numpy.allclose")     \
    X(NP_ARRAY_EQUAL, "numpy.array_equal")                                  \
    X(NP_ASARRAY_CHKFINITE, "numpy.asarray_chkfinite")                      \
    X(NP_ISCLOSE, "numpy.isclose")                                          \
    X(NP_ISNEGINF, "numpy.isneginf") X(NP_ISPOSINF, "numpy.isposinf")       \
    X(NP_ISCOMPLEX, "numpy.iscomplex") X(NP_ISREAL, "numpy.isreal")         \
    X(NP_NAN_TO_NUM, "numpy.nan_to_num") X(NP_SINC, "numpy.sinc")           \
    X(NP_ANGLE, "numpy.angle")
/* np.random on Numba's own per-thread Mersenne Twister (infer_nprandom.c,
 * lower_nprandom.c, the runtime common/nprandom.h): NP_RANDOM_SEED ..
 * NP_RANDOM_DIRICHLET keep their places (uf__builtin_is_nprandom). */
#define UF__NPRANDOM_MAP(X)                                                 \
    X(NP_RANDOM_SEED, "numpy.random.seed")                                  \
    X(NP_RANDOM_RANDOM, "numpy.random.random")                              \
    X(NP_RANDOM_RANDOM_SAMPLE, "numpy.random.random_sample")                \
    X(NP_RANDOM_SAMPLE, "numpy.random.sample")                              \
    X(NP_RANDOM_RANF, "numpy.random.ranf")                                  \
    X(NP_RANDOM_RAND, "numpy.random.rand")                                  \
    X(NP_RANDOM_UNIFORM, "numpy.random.uniform")                            \
    X(NP_RANDOM_RANDN, "numpy.random.randn")                                \
    X(NP_RANDOM_STANDARD_NORMAL, "numpy.random.standard_normal")            \
    X(NP_RANDOM_NORMAL, "numpy.random.normal")                              \
    X(NP_RANDOM_EXPONENTIAL, "numpy.random.exponential")                    \
    X(NP_RANDOM_STANDARD_EXPONENTIAL, "numpy.random.standard_exponential")  \
    X(NP_RANDOM_RANDINT, "numpy.random.randint")                            \
    X(NP_RANDOM_SHUFFLE, "numpy.random.shuffle")                            \
    X(NP_RANDOM_PERMUTATION, "numpy.random.permutation")                    \
    X(NP_RANDOM_CHOICE, "numpy.random.choice")                              \
    X(NP_RANDOM_GAMMA, "numpy.random.gamma")                                \
    X(NP_RANDOM_STANDARD_GAMMA, "numpy.random.standard_gamma")              \
    X(NP_RANDOM_BETA, "numpy.random.beta")                                  \
    X(NP_RANDOM_CHISQUARE, "numpy.random.chisquare")                        \
    X(NP_RANDOM_F, "numpy.random.f")                                        \
    X(NP_RANDOM_LOGNORMAL, "numpy.random.lognormal")                        \
    X(NP_RANDOM_LAPLACE, "numpy.random.laplace")                            \
    X(NP_RANDOM_LOGISTIC, "numpy.random.logistic")                          \
    X(NP_RANDOM_GUMBEL, "numpy.random.gumbel")                              \
    X(NP_RANDOM_WEIBULL, "numpy.random.weibull")                            \
    X(NP_RANDOM_PARETO, "numpy.random.pareto")                              \
    X(NP_RANDOM_POWER, "numpy.random.power")                                \
    X(NP_RANDOM_RAYLEIGH, "numpy.random.rayleigh")                          \
    X(NP_RANDOM_STANDARD_CAUCHY, "numpy.random.standard_cauchy")            \
    X(NP_RANDOM_STANDARD_T, "numpy.random.standard_t")                      \
    X(NP_RANDOM_VONMISES, "numpy.random.vonmises")                          \
    X(NP_RANDOM_WALD, "numpy.random.wald")                                  \
    X(NP_RANDOM_TRIANGULAR, "numpy.random.triangular")                      \
    X(NP_RANDOM_POISSON, "numpy.random.poisson")                            \
    X(NP_RANDOM_BINOMIAL, "numpy.random.binomial")                          \
    X(NP_RANDOM_GEOMETRIC, "numpy.random.geometric")                        \
    X(NP_RANDOM_NEGATIVE_BINOMIAL, "numpy.random.negative_binomial")        \
    X(NP_RANDOM_HYPERGEOMETRIC, "numpy.random.hypergeometric")              \
    X(NP_RANDOM_LOGSERIES, "numpy.random.logseries")                        \
    X(NP_RANDOM_ZIPF, "numpy.random.zipf")                                  \
    X(NP_RANDOM_NONCENTRAL_CHISQUARE, "numpy.random.noncentral_chisquare")  \
    X(NP_RANDOM_MULTINOMIAL, "numpy.random.multinomial")                    \
    X(NP_RANDOM_DIRICHLET, "numpy.random.dirichlet")
/* NumPy's interpolation and binning (infer_npnum.c, lower_npnum.c, the
 * runtime common/npnum.h): NP_INTERP .. NP_BINCOUNT keep their places
 * (uf__builtin_is_npnum). */
#define UF__NPNUM_MAP(X)                                                    \
    X(NP_INTERP, "numpy.interp") X(NP_DIGITIZE, "numpy.digitize")           \
    X(NP_BINCOUNT, "numpy.bincount")
/* np.linalg without LAPACK (infer_nplinalg.c, lower_nplinalg.c, the
 * runtime common/nplinalg.h): NP_LINALG_NORM .. NP_LINALG_EIGVALS keep
 * their places (uf__builtin_is_nplinalg). */
#define UF__NPLINALG_MAP(X)                                                 \
    X(NP_LINALG_NORM, "numpy.linalg.norm")                                  \
    X(NP_LINALG_DET, "numpy.linalg.det")                                    \
    X(NP_LINALG_SLOGDET, "numpy.linalg.slogdet")                            \
    X(NP_LINALG_INV, "numpy.linalg.inv")                                    \
    X(NP_LINALG_SOLVE, "numpy.linalg.solve")                                \
    X(NP_LINALG_CHOLESKY, "numpy.linalg.cholesky")                          \
    X(NP_LINALG_QR, "numpy.linalg.qr")                                      \
    X(NP_LINALG_MATRIX_POWER, "numpy.linalg.matrix_power")                  \
    X(NP_LINALG_SVD, "numpy.linalg.svd")                                    \
    X(NP_LINALG_COND, "numpy.linalg.cond")                                  \
    X(NP_LINALG_MATRIX_RANK, "numpy.linalg.matrix_rank")                    \
    X(NP_LINALG_PINV, "numpy.linalg.pinv")                                  \
    X(NP_LINALG_LSTSQ, "numpy.linalg.lstsq")                                \
    X(NP_LINALG_EIGH, "numpy.linalg.eigh")                                  \
    X(NP_LINALG_EIGVALSH, "numpy.linalg.eigvalsh")                          \
    X(NP_LINALG_EIG, "numpy.linalg.eig")                                    \
    X(NP_LINALG_EIGVALS, "numpy.linalg.eigvals")
/* NumPy's views that reverse, rotate, permute or add axes, and the
 * conversions that return their argument where its layout and dtype
 * already fit, else a copy (infer_npview.c, lower_npview.c): NP_FLIP ..
 * NP_TRANSPOSE_AXES keep their places
 * (uf__builtin_is_npview); the last is np.transpose(a, axes) and
 * a.transpose(axes), recorded where the call has axes. */
/* NumPy's 1-D signal routines (infer_npsignal.c, lower_npsignal.c, the
 * runtime common/npsignal.h): NP_CONVOLVE .. NP_HANNING keep their
 * places (uf__builtin_is_npsignal), the windows NP_BARTLETT .. last. */
#define UF__NPSIGNAL_MAP(X)                                                 \
    X(NP_CONVOLVE, "numpy.convolve") X(NP_CORRELATE, "numpy.correlate")     \
    X(NP_BARTLETT, "numpy.bartlett") X(NP_BLACKMAN, "numpy.blackman")       \
    X(NP_HAMMING, "numpy.hamming") X(NP_HANNING, "numpy.hanning")         \
    X(NP_KAISER, "numpy.kaiser")
/* np.logspace and np.geomspace (infer_npspace.c, lower_npspace.c):
 * NP_LOGSPACE .. NP_GEOMSPACE keep their places (uf__builtin_is_npspace). */
#define UF__NPSPACE_MAP(X)                                                  \
    X(NP_LOGSPACE, "numpy.logspace") X(NP_GEOMSPACE, "numpy.geomspace")
/* NumPy functions of their own (infer_npfunc.c, lower_npfunc.c, the
 * runtime common/npfunc.h): NP_EDIFF1D .. NP_TRAPEZOID keep their places
 * (uf__builtin_is_npfunc). */
#define UF__NPFUNC_MAP(X)                                                   \
    X(NP_EDIFF1D, "numpy.ediff1d") X(NP_TRAPEZOID, "numpy.trapezoid")
/* np.cross, np.unwrap, np.select, numba.np.extensions.cross2d
 * (infer_npcross.c, lower_npcross.c): NP_CROSS .. NP_CROSS2D keep their
 * places (uf__builtin_is_npcross). */
#define UF__NPCROSS_MAP(X)                                                  \
    X(NP_CROSS, "numpy.cross") X(NP_UNWRAP, "numpy.unwrap")                 \
    X(NP_SELECT, "numpy.select")                                            \
    X(NP_CROSS2D, "numba.np.extensions.cross2d")
/* numpy.polynomial.polynomial's functions, polyutils.trimseq and
 * np.roots (infer_nppoly.c, lower_nppoly.c, the runtime common/nppoly.h):
 * NP_POLYADD .. NP_AS_SERIES keep their places (uf__builtin_is_nppoly);
 * polyutils.as_series has its own files (infer_npseries.c,
 * lower_npseries.c). */
#define UF__NPPOLY_MAP(X)                                                   \
    X(NP_POLYADD, "numpy.polynomial.polynomial.polyadd")                    \
    X(NP_POLYSUB, "numpy.polynomial.polynomial.polysub")                    \
    X(NP_POLYMUL, "numpy.polynomial.polynomial.polymul")                    \
    X(NP_POLYDIV, "numpy.polynomial.polynomial.polydiv")                    \
    X(NP_POLYVAL, "numpy.polynomial.polynomial.polyval")                    \
    X(NP_POLYINT, "numpy.polynomial.polynomial.polyint")                    \
    X(NP_TRIMSEQ, "numpy.polynomial.polyutils.trimseq")                     \
    X(NP_ROOTS, "numpy.roots")                                              \
    X(NP_AS_SERIES, "numpy.polynomial.polyutils.as_series")
/* np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit
 * (infer_npsplit.c, lower_npsplit.c): NP_SPLIT .. NP_DSPLIT keep their
 * places (uf__builtin_is_npsplit). */
#define UF__NPSPLIT_MAP(X)                                                  \
    X(NP_SPLIT, "numpy.split") X(NP_ARRAY_SPLIT, "numpy.array_split")       \
    X(NP_HSPLIT, "numpy.hsplit") X(NP_VSPLIT, "numpy.vsplit")               \
    X(NP_DSPLIT, "numpy.dsplit")
/* Run-time strings (types/infer_ustr.c, lower/lower_ustr.c): str, ord,
 * chr by name; the operators' entries are set by typing on the operation
 * (uf__builtin_is_ustr). */
#define UF__USTR_MAP(X)                                                     \
    X(USTR_STR, "str") X(USTR_ORD, "ord") X(USTR_CHR, "chr")               \
    X(USTR_CONCAT, "<str +>") X(USTR_REPEAT, "<str *>")                     \
    X(USTR_CMP, "<str compare>") X(USTR_IN, "<str in>")                     \
    X(USTR_INDEX, "<str index>") X(USTR_SLICE, "<str slice>")               \
    X(USTR_LEN, "<str len>") X(USTR_NOT, "<str not>")                       \
    /* methods, in common/ustr.h's UF__USTR_OP order */                    \
    X(USTR_UPPER, "str.upper") X(USTR_LOWER, "str.lower")                   \
    X(USTR_TITLE, "str.title") X(USTR_CAPITALIZE, "str.capitalize")         \
    X(USTR_SWAPCASE, "str.swapcase")                                        \
    X(USTR_STRIP, "str.strip") X(USTR_LSTRIP, "str.lstrip")                 \
    X(USTR_RSTRIP, "str.rstrip")                                            \
    X(USTR_STARTSWITH, "str.startswith") X(USTR_ENDSWITH, "str.endswith")   \
    X(USTR_FIND, "str.find") X(USTR_RFIND, "str.rfind")                     \
    X(USTR_SINDEX, "str.index") X(USTR_RINDEX, "str.rindex")                \
    X(USTR_COUNT, "str.count") X(USTR_REPLACE, "str.replace")               \
    X(USTR_ISDIGIT, "str.isdigit") X(USTR_ISALPHA, "str.isalpha")           \
    X(USTR_ISALNUM, "str.isalnum") X(USTR_ISSPACE, "str.isspace")           \
    X(USTR_ISUPPER, "str.isupper") X(USTR_ISLOWER, "str.islower")           \
    X(USTR_ZFILL, "str.zfill") X(USTR_CENTER, "str.center")                 \
    X(USTR_LJUST, "str.ljust") X(USTR_RJUST, "str.rjust")                   \
    X(USTR_ISASCII, "str.isascii") X(USTR_ISDECIMAL, "str.isdecimal")       \
    X(USTR_ISNUMERIC, "str.isnumeric")                                      \
    X(USTR_ISPRINTABLE, "str.isprintable")                                  \
    X(USTR_ISIDENTIFIER, "str.isidentifier") X(USTR_ISTITLE, "str.istitle") \
    X(USTR_CASEFOLD, "str.casefold") X(USTR_EXPANDTABS, "str.expandtabs")   \
    X(USTR_JOIN, "str.join") X(USTR_SPLIT, "str.split")                     \
    X(USTR_RSPLIT, "str.rsplit") X(USTR_SPLITLINES, "str.splitlines")       \
    X(USTR_PARTITION, "str.partition") X(USTR_RPARTITION, "str.rpartition") \
    X(USTR_VALUE, "<str value>")
/* The methods of lists (types/infer_list.c, lower/lower_list.c): the
 * name after "list." is the attribute (uf__builtin_is_list). */
#define UF__LIST_MAP(X)                                                     \
    X(LIST_APPEND, "list.append") X(LIST_POP, "list.pop")                   \
    X(LIST_INSERT, "list.insert") X(LIST_EXTEND, "list.extend")             \
    X(LIST_CLEAR, "list.clear") X(LIST_REVERSE, "list.reverse")             \
    X(LIST_COPY, "list.copy") X(LIST_COUNT, "list.count")                   \
    X(LIST_INDEX, "list.index") X(LIST_REMOVE, "list.remove")               \
    /* `del l[i]`, `del l[a:b:c]` (compiler/front/parser_del.c) */          \
    X(LIST_DELITEM, "list.__delitem__")                                     \
    /* infer_list_ops.c, lower_list_ops.c */                                \
    X(LIST_SORT, "list.sort") X(LIST_SORTED, "sorted")                      \
    X(LIST_NEW, "list")
/* The methods of dicts (types/infer_dict.c, lower/lower_dict.c): the
 * name after "dict." is the attribute (uf__builtin_is_dict); "dict" is
 * dict() and the `{k: v}` literal the parser writes as a call of it. */
#define UF__DICT_MAP(X)                                                     \
    X(DICT_GET, "dict.get") X(DICT_POP, "dict.pop")                         \
    X(DICT_SETDEFAULT, "dict.setdefault") X(DICT_CLEAR, "dict.clear")       \
    X(DICT_COPY, "dict.copy") X(DICT_KEYS, "dict.keys")                     \
    X(DICT_VALUES, "dict.values") X(DICT_ITEMS, "dict.items")               \
    X(DICT_POPITEM, "dict.popitem") X(DICT_UPDATE, "dict.update")         \
    X(DICT_DELITEM, "dict.__delitem__") /* `del d[k]` */                    \
    X(DICT_NEW, "dict")
/* The methods of sets (types/infer_set.c, lower/lower_set.c): the name
 * after "set." is the attribute (uf__builtin_is_set); "set" is set()
 * and the `{a, b}` literal the parser writes as a call of it. */
#define UF__SET_MAP(X)                                                      \
    X(SET_ADD, "set.add") X(SET_DISCARD, "set.discard")                     \
    X(SET_REMOVE, "set.remove") X(SET_POP, "set.pop")                       \
    X(SET_CLEAR, "set.clear") X(SET_COPY, "set.copy")                       \
    X(SET_UPDATE, "set.update") X(SET_UNION, "set.union")                   \
    X(SET_INTERSECTION, "set.intersection")                                 \
    X(SET_DIFFERENCE, "set.difference")                                     \
    X(SET_SYMDIFF, "set.symmetric_difference")                              \
    X(SET_INTERSECTION_UPDATE, "set.intersection_update")                   \
    X(SET_DIFFERENCE_UPDATE, "set.difference_update")                       \
    X(SET_SYMDIFF_UPDATE, "set.symmetric_difference_update")                \
    X(SET_ISSUBSET, "set.issubset") X(SET_ISSUPERSET, "set.issuperset")     \
    X(SET_ISDISJOINT, "set.isdisjoint") X(SET_NEW, "set")
#define UF__NPVIEW_MAP(X)                                                   \
    X(NP_FLIP, "numpy.flip") X(NP_FLIPLR, "numpy.fliplr")                   \
    X(NP_FLIPUD, "numpy.flipud") X(NP_ROT90, "numpy.rot90")                 \
    X(NP_EXPAND_DIMS, "numpy.expand_dims")                                  \
    X(NP_SWAPAXES, "numpy.swapaxes") X(NP_MOVEAXIS, "numpy.moveaxis")       \
    X(NP_PERMUTE_DIMS, "numpy.permute_dims")                                \
    X(NP_ATLEAST_1D, "numpy.atleast_1d")                                    \
    X(NP_ATLEAST_2D, "numpy.atleast_2d")                                    \
    X(NP_ATLEAST_3D, "numpy.atleast_3d")                                    \
    X(NP_ASCONTIGUOUSARRAY, "numpy.ascontiguousarray")                      \
    X(NP_ASFORTRANARRAY, "numpy.asfortranarray")                            \
    X(NP_ROLL, "numpy.roll")                                                \
    X(NP_TAKE, "numpy.take")                                                \
    X(NP_TRANSPOSE_AXES, "<transpose with axes>")
/* NumPy's repeats, resizes and broadcasts (infer_npshape.c,
 * lower_npshape.c): NP_REPEAT .. NP_TRIM_ZEROS keep their places
 * (uf__builtin_is_npshape). */
#define UF__NPSHAPE_MAP(X)                                                  \
    X(NP_REPEAT, "numpy.repeat") X(NP_RESIZE, "numpy.resize")               \
    X(NP_BROADCAST_TO, "numpy.broadcast_to")                                \
    X(NP_BROADCAST_ARRAYS, "numpy.broadcast_arrays")                        \
    X(NP_BROADCAST_SHAPES, "numpy.broadcast_shapes")                        \
    X(NP_TRIM_ZEROS, "numpy.trim_zeros")

/* NumPy's iterators, the iterables of for loops only (infer_npiter.c,
 * lower_npiter.c): NP_NDINDEX .. NP_NDITER keep their places
 * (uf__builtin_is_npiter); and a.item(), what np.nditer's 0-d views are
 * read with. */
#define UF__NPITER_MAP(X)                                                   \
    X(NP_NDINDEX, "numpy.ndindex") X(NP_NDENUMERATE, "numpy.ndenumerate")   \
    X(NP_NDITER, "numpy.nditer")                                            \
    X(METH_ITEM, "array.item")

/* Reinterpreting views and isinstance (infer_arrview.c, lower_arrview.c):
 * METH_VIEW .. NP_FROMBUFFER keep their places (uf__builtin_is_arrview);
 * isinstance is a compile-time constant (also read by infer_prune.c). */
#define UF__ARRVIEW_MAP(X)                                                  \
    X(METH_VIEW, "array.view") X(NP_FROMBUFFER, "numpy.frombuffer")        \
    X(ISINSTANCE, "isinstance")

/* X(ENUM, "qualified name") -- qualified by module for module functions
 * ("math.sin", "numpy.sin", "cmath.sqrt"), bare for Python builtins. */
#define UF__BUILTIN_MAP(X)                                                  \
    X(NONE, "")                                                             \
    /* Python builtins */                                                   \
    X(ABS, "abs") X(MIN, "min") X(MAX, "max") X(ROUND, "round")             \
    X(INT, "int") X(FLOAT, "float") X(BOOL, "bool") X(COMPLEX, "complex")   \
    X(LEN, "len") X(RANGE, "range") X(POW, "pow") X(DIVMOD, "divmod")       \
    X(PRINT, "print") /* infer_raise.c, lower_raise.c */                    \
    X(STR_FOLD, "<string test>") /* infer_str.c: a folded constant */       \
    X(PRANGE, "numba.prange") /* range, parallel in njit(parallel=True) */  \
    /* dtype casts: float32(x) etc. (numba.float32 or np.float32) */        \
    X(CAST, "<cast>")                                                       \
    /* math */                                                              \
    X(SIN, "math.sin") X(COS, "math.cos") X(TAN, "math.tan")                \
    X(ASIN, "math.asin") X(ACOS, "math.acos") X(ATAN, "math.atan")          \
    X(ATAN2, "math.atan2") X(SINH, "math.sinh") X(COSH, "math.cosh")        \
    X(TANH, "math.tanh") X(ASINH, "math.asinh") X(ACOSH, "math.acosh")      \
    X(ATANH, "math.atanh") X(EXP, "math.exp") X(EXPM1, "math.expm1")        \
    X(LOG, "math.log") X(LOG1P, "math.log1p") X(LOG2, "math.log2")          \
    X(LOG10, "math.log10") X(SQRT, "math.sqrt") X(MPOW, "math.pow")         \
    X(HYPOT, "math.hypot") X(FABS, "math.fabs") X(FLOOR, "math.floor")      \
    X(CEIL, "math.ceil") X(TRUNC, "math.trunc")                             \
    X(COPYSIGN, "math.copysign") X(FMOD, "math.fmod") X(ERF, "math.erf")    \
    X(ERFC, "math.erfc") X(GAMMA, "math.gamma") X(LGAMMA, "math.lgamma")    \
    X(ISNAN, "math.isnan") X(ISINF, "math.isinf")                           \
    X(ISFINITE, "math.isfinite") X(DEGREES, "math.degrees")                 \
    X(RADIANS, "math.radians")                                              \
    /* NumPy scalar functions (ufunc semantics: np.floor keeps floats) */   \
    X(NP_SIN, "numpy.sin") X(NP_COS, "numpy.cos") X(NP_TAN, "numpy.tan")    \
    X(NP_ARCSIN, "numpy.arcsin") X(NP_ARCCOS, "numpy.arccos")               \
    X(NP_ARCTAN, "numpy.arctan") X(NP_ARCTAN2, "numpy.arctan2")             \
    X(NP_SINH, "numpy.sinh") X(NP_COSH, "numpy.cosh")                       \
    X(NP_TANH, "numpy.tanh") X(NP_EXP, "numpy.exp")                         \
    X(NP_EXPM1, "numpy.expm1") X(NP_LOG, "numpy.log")                       \
    X(NP_LOG1P, "numpy.log1p") X(NP_LOG2, "numpy.log2")                     \
    X(NP_LOG10, "numpy.log10") X(NP_SQRT, "numpy.sqrt")                     \
    X(NP_POWER, "numpy.power") X(NP_HYPOT, "numpy.hypot")                   \
    X(NP_ABS, "numpy.abs") X(NP_ABSOLUTE, "numpy.absolute")                 \
    X(NP_FABS, "numpy.fabs") X(NP_FLOOR, "numpy.floor")                     \
    X(NP_CEIL, "numpy.ceil") X(NP_TRUNC, "numpy.trunc")                     \
    X(NP_RINT, "numpy.rint") X(NP_COPYSIGN, "numpy.copysign")               \
    X(NP_FMOD, "numpy.fmod") X(NP_ISNAN, "numpy.isnan")                     \
    X(NP_ISINF, "numpy.isinf") X(NP_ISFINITE, "numpy.isfinite")             \
    X(NP_MINIMUM, "numpy.minimum") X(NP_MAXIMUM, "numpy.maximum")           \
    X(NP_FMIN, "numpy.fmin") X(NP_FMAX, "numpy.fmax")                       \
    X(NP_SIGN, "numpy.sign") X(NP_SQUARE, "numpy.square")                   \
    X(NP_DEG2RAD, "numpy.deg2rad") X(NP_RAD2DEG, "numpy.rad2deg")           \
    X(NP_REAL, "numpy.real") X(NP_IMAG, "numpy.imag")                       \
    X(NP_CONJ, "numpy.conj")                                                \
    /* the other NumPy ufuncs Numba takes on scalars (infer_npufunc.c,     \
     * lower_npufunc.c): NP_ADD .. NP_LDEXP keep their places */           \
    UF__NPUFUNC_MAP(X)                                                      \
    UF__NPREDUCE_MAP(X)                                                     \
    UF__NPREDUCE_EXTRA_MAP(X)                                               \
    /* NumPy functions on arrays only (infer_arrexpr.c) */                  \
    X(NP_WHERE, "numpy.where") X(NP_CLIP, "numpy.clip")                     \
    UF__NPALLOC_MAP(X)                                                      \
    UF__ARRMETH_MAP(X)                                                      \
    UF__ARRATTR_MAP(X)                                                      \
    UF__NPCUM_MAP(X)                                                        \
    UF__NPSELECT_MAP(X)                                                     \
    UF__NPPART_MAP(X)                                                       \
    UF__NPSTATS_MAP(X)                                                      \
    UF__NPJOIN_MAP(X)                                                       \
    UF__NPPRED_MAP(X)                                                       \
    UF__NPFIND_MAP(X)                                                       \
    UF__NPRANDOM_MAP(X)                                                     \
    UF__NPNUM_MAP(X)                                                        \
    UF__NPLINALG_MAP(X)                                                     \
    UF__NPMATRIX_MAP(X)                                                     \
    UF__NPVIEW_MAP(X)                                                       \
    UF__NPSHAPE_MAP(X)                                                      \
    UF__NPSIGNAL_MAP(X)                                                     \
    UF__NPSPACE_MAP(X)                                                      \
    UF__NPITER_MAP(X)                                                       \
    UF__NPFUNC_MAP(X)                                                       \
    UF__ARRVIEW_MAP(X)                                                      \
    UF__NPCROSS_MAP(X)                                                      \
    UF__NPSPLIT_MAP(X)                                                      \
    UF__LIST_MAP(X)                                                         \
    UF__USTR_MAP(X)                                                         \
    UF__DICT_MAP(X)                                                         \
    UF__SET_MAP(X)                                                          \
    UF__NPPOLY_MAP(X)                                                       \
    /* cmath basics */                                                      \
    X(C_SQRT, "cmath.sqrt") X(C_EXP, "cmath.exp") X(C_LOG, "cmath.log")     \
    X(C_PHASE, "cmath.phase") X(C_POLAR, "cmath.polar")                     \
    X(C_RECT, "cmath.rect") X(C_ISNAN, "cmath.isnan")                       \
    X(C_ISINF, "cmath.isinf") X(C_ISFINITE, "cmath.isfinite")               \
    /* methods and attributes on values */                                  \
    X(ATTR_REAL, ".real") X(ATTR_IMAG, ".imag")                             \
    X(METH_CONJUGATE, ".conjugate") X(ATTR_SHAPE, ".shape")                 \
    X(ATTR_SIZE, ".size") X(ATTR_NDIM, ".ndim")                             \
    X(ATTR_STRIDES, ".strides")                                             \
    X(ATTR_C_CONTIGUOUS, ".flags.c_contiguous")                             \
    X(ATTR_F_CONTIGUOUS, ".flags.f_contiguous")                             \
    X(ATTR_CTYPES_DATA, ".ctypes.data")                                     \
    /* CUDA (numba.cuda): the thread's indices and sizes are values */      \
    X(CUDA_TID_X, "numba.cuda.threadIdx.x")                                 \
    X(CUDA_TID_Y, "numba.cuda.threadIdx.y")                                 \
    X(CUDA_TID_Z, "numba.cuda.threadIdx.z")                                 \
    X(CUDA_NTID_X, "numba.cuda.blockDim.x")                                 \
    X(CUDA_NTID_Y, "numba.cuda.blockDim.y")                                 \
    X(CUDA_NTID_Z, "numba.cuda.blockDim.z")                                 \
    X(CUDA_CTAID_X, "numba.cuda.blockIdx.x")                                \
    X(CUDA_CTAID_Y, "numba.cuda.blockIdx.y")                                \
    X(CUDA_CTAID_Z, "numba.cuda.blockIdx.z")                                \
    X(CUDA_NCTAID_X, "numba.cuda.gridDim.x")                                \
    X(CUDA_NCTAID_Y, "numba.cuda.gridDim.y")                                \
    X(CUDA_NCTAID_Z, "numba.cuda.gridDim.z")                                \
    X(CUDA_LANEID, "numba.cuda.laneid")                                     \
    X(CUDA_WARPSIZE, "numba.cuda.warpsize")                                 \
    X(CUDA_GRID, "numba.cuda.grid") X(CUDA_GRIDSIZE, "numba.cuda.gridsize") \
    X(CUDA_SYNCTHREADS, "numba.cuda.syncthreads")                          \
    X(CUDA_SHARED_ARRAY, "numba.cuda.shared.array")                         \
    X(CUDA_LOCAL_ARRAY, "numba.cuda.local.array")                           \
    /* cuda.atomic (infer_cuda_atomic.c, lower_cuda_atomic.c): the first   \
     * and last atomic keep their places (uf__builtin_is_cuda_atomic) */   \
    X(CUDA_ATOMIC_ADD, "numba.cuda.atomic.add")                             \
    X(CUDA_ATOMIC_SUB, "numba.cuda.atomic.sub")                             \
    X(CUDA_ATOMIC_AND, "numba.cuda.atomic.and_")                            \
    X(CUDA_ATOMIC_OR, "numba.cuda.atomic.or_")                              \
    X(CUDA_ATOMIC_XOR, "numba.cuda.atomic.xor")                             \
    X(CUDA_ATOMIC_MAX, "numba.cuda.atomic.max")                             \
    X(CUDA_ATOMIC_MIN, "numba.cuda.atomic.min")                             \
    X(CUDA_ATOMIC_NANMAX, "numba.cuda.atomic.nanmax")                       \
    X(CUDA_ATOMIC_NANMIN, "numba.cuda.atomic.nanmin")                       \
    X(CUDA_ATOMIC_INC, "numba.cuda.atomic.inc")                             \
    X(CUDA_ATOMIC_DEC, "numba.cuda.atomic.dec")                             \
    X(CUDA_ATOMIC_EXCH, "numba.cuda.atomic.exch")                           \
    X(CUDA_ATOMIC_CAS, "numba.cuda.atomic.cas")                             \
    X(CUDA_ATOMIC_COMPARE_AND_SWAP, "numba.cuda.atomic.compare_and_swap")   \
    /* fences and the counting barriers (the same two files) */            \
    X(CUDA_THREADFENCE, "numba.cuda.threadfence")                           \
    X(CUDA_THREADFENCE_BLOCK, "numba.cuda.threadfence_block")               \
    X(CUDA_THREADFENCE_SYSTEM, "numba.cuda.threadfence_system")             \
    X(CUDA_SYNCTHREADS_COUNT, "numba.cuda.syncthreads_count")               \
    X(CUDA_SYNCTHREADS_AND, "numba.cuda.syncthreads_and")                   \
    X(CUDA_SYNCTHREADS_OR, "numba.cuda.syncthreads_or")                     \
    /* numba.cuda.random (xoroshiro128+): RANDOM_FIRST .. RANDOM_LAST */    \
    X(CUDA_RANDOM_CREATE, "numba.cuda.random.create_xoroshiro128p_states")  \
    X(CUDA_RANDOM_INIT, "numba.cuda.random.init_xoroshiro128p_states")      \
    X(CUDA_RANDOM_NEXT, "numba.cuda.random.xoroshiro128p_next")             \
    X(CUDA_RANDOM_JUMP, "numba.cuda.random.xoroshiro128p_jump")             \
    X(CUDA_RANDOM_INIT_STATE, "numba.cuda.random.init_xoroshiro128p_state") \
    X(CUDA_RANDOM_UNIFORM_F32,                                              \
      "numba.cuda.random.xoroshiro128p_uniform_float32")                    \
    X(CUDA_RANDOM_UNIFORM_F64,                                              \
      "numba.cuda.random.xoroshiro128p_uniform_float64")                    \
    X(CUDA_RANDOM_NORMAL_F32,                                               \
      "numba.cuda.random.xoroshiro128p_normal_float32")                     \
    X(CUDA_RANDOM_NORMAL_F64,                                               \
      "numba.cuda.random.xoroshiro128p_normal_float64")                     \
    /* warp-level functions (infer_cuda_warp.c, lower_cuda_warp.c) */      \
    X(CUDA_SHFL_SYNC, "numba.cuda.shfl_sync")                               \
    X(CUDA_SHFL_UP_SYNC, "numba.cuda.shfl_up_sync")                         \
    X(CUDA_SHFL_DOWN_SYNC, "numba.cuda.shfl_down_sync")                     \
    X(CUDA_SHFL_XOR_SYNC, "numba.cuda.shfl_xor_sync")                       \
    X(CUDA_ALL_SYNC, "numba.cuda.all_sync")                                 \
    X(CUDA_ANY_SYNC, "numba.cuda.any_sync")                                 \
    X(CUDA_EQ_SYNC, "numba.cuda.eq_sync")                                   \
    X(CUDA_BALLOT_SYNC, "numba.cuda.ballot_sync")                           \
    X(CUDA_MATCH_ANY_SYNC, "numba.cuda.match_any_sync")                     \
    X(CUDA_MATCH_ALL_SYNC, "numba.cuda.match_all_sync")                     \
    X(CUDA_SYNCWARP, "numba.cuda.syncwarp")                                 \
    X(CUDA_ACTIVEMASK, "numba.cuda.activemask")                             \
    X(CUDA_LANEMASK_LT, "numba.cuda.lanemask_lt")                           \
    X(CUDA_CONST_ARRAY_LIKE, "numba.cuda.const.array_like")                 \
    /* new CUDA builtins go above this line (the range check's end) */     \
    X(CUDA_END_, "<numba.cuda end>")

typedef enum uf__builtin {
#define UF__BUILTIN_ENUM(e, name) UF__BI_##e,
    UF__BUILTIN_MAP(UF__BUILTIN_ENUM)
#undef UF__BUILTIN_ENUM
    UF__BI_COUNT
} uf__builtin;

/* The CUDA builtins that are values, not functions (threadIdx.x .. gridDim.z,
 * laneid, warpsize), in uf__sreg's order from UF__BI_CUDA_TID_X. */
#define UF__BI_CUDA_FIRST_VALUE UF__BI_CUDA_TID_X
#define UF__BI_CUDA_LAST_VALUE UF__BI_CUDA_WARPSIZE
static inline bool uf__builtin_is_cuda_value(uf__builtin b)
{
    return b >= UF__BI_CUDA_FIRST_VALUE && b <= UF__BI_CUDA_LAST_VALUE;
}
static inline bool uf__builtin_is_cuda(uf__builtin b)
{
    return b >= UF__BI_CUDA_TID_X && b < UF__BI_CUDA_END_;
}

/* cuda.atomic.*, and the fences and counting barriers after them */
static inline bool uf__builtin_is_cuda_atomic(uf__builtin b)
{
    return b >= UF__BI_CUDA_ATOMIC_ADD &&
           b <= UF__BI_CUDA_ATOMIC_COMPARE_AND_SWAP;
}
static inline bool uf__builtin_is_cuda_sync(uf__builtin b)
{
    return b >= UF__BI_CUDA_THREADFENCE && b <= UF__BI_CUDA_SYNCTHREADS_OR;
}
/* numba.cuda.random's functions (infer_cuda_random.c, lower_cuda_random.c);
 * the first two are host functions, refused in kernels. */
static inline bool uf__builtin_is_cuda_random(uf__builtin b)
{
    return b >= UF__BI_CUDA_RANDOM_CREATE && b <= UF__BI_CUDA_RANDOM_NORMAL_F64;
}

/* The array constructors of UF__NPALLOC_MAP. */
static inline bool uf__builtin_is_alloc(uf__builtin b)
{
    return b >= UF__BI_NP_EMPTY && b <= UF__BI_NP_LINSPACE;
}
/* The functions and methods of UF__ARRMETH_MAP. */
static inline bool uf__builtin_is_arrmeth(uf__builtin b)
{
    return b >= UF__BI_NP_COPY && b <= UF__BI_METH_SORT;
}
/* The dtype values, array parts and iterable builtins of
 * UF__ARRATTR_MAP. */
static inline bool uf__builtin_is_arrattr(uf__builtin b)
{
    return b >= UF__BI_ATTR_DTYPE && b <= UF__BI_ITER_MAX;
}
/* The iterators of UF__NPITER_MAP. */
static inline bool uf__builtin_is_npiter(uf__builtin b)
{
    return b >= UF__BI_NP_NDINDEX && b <= UF__BI_NP_NDITER;
}
/* The functions of UF__NPCUM_MAP. */
static inline bool uf__builtin_is_npcum(uf__builtin b)
{
    return b >= UF__BI_NP_NANCUMSUM && b <= UF__BI_NP_AVERAGE;
}
/* The joins of UF__NPJOIN_MAP. */
static inline bool uf__builtin_is_npjoin(uf__builtin b)
{
    return b >= UF__BI_NP_CONCATENATE && b <= UF__BI_NP_ASARRAY;
}
/* The order statistics of UF__NPSELECT_MAP. */
static inline bool uf__builtin_is_npselect(uf__builtin b)
{
    return b >= UF__BI_NP_MEDIAN && b <= UF__BI_NP_NANQUANTILE;
}
/* np.partition and np.argpartition (UF__NPPART_MAP). */
static inline bool uf__builtin_is_nppart(uf__builtin b)
{
    return b == UF__BI_NP_PARTITION || b == UF__BI_NP_ARGPARTITION;
}
/* The statistics of UF__NPSTATS_MAP. */
static inline bool uf__builtin_is_npstats(uf__builtin b)
{
    return b >= UF__BI_NP_HISTOGRAM && b <= UF__BI_NP_CORRCOEF;
}
/* The functions of UF__NPPRED_MAP; those computed element by element
 * (allclose, array_equal, asarray_chkfinite reduce what they compute
 * so). */
static inline bool uf__builtin_is_nppred(uf__builtin b)
{
    return b >= UF__BI_NP_SHAPE && b <= UF__BI_NP_ANGLE;
}
static inline bool uf__builtin_is_nppred_elem(uf__builtin b)
{
    return b >= UF__BI_NP_ALLCLOSE && b <= UF__BI_NP_ANGLE;
}
/* The functions of UF__NPFIND_MAP. */
static inline bool uf__builtin_is_npfind(uf__builtin b)
{
    return b >= UF__BI_NP_NONZERO && b <= UF__BI_NP_DELETE;
}
/* The np.random functions of UF__NPRANDOM_MAP. */
static inline bool uf__builtin_is_nprandom(uf__builtin b)
{
    return b >= UF__BI_NP_RANDOM_SEED && b <= UF__BI_NP_RANDOM_DIRICHLET;
}
/* The interpolation and binning of UF__NPNUM_MAP. */
static inline bool uf__builtin_is_npnum(uf__builtin b)
{
    return b >= UF__BI_NP_INTERP && b <= UF__BI_NP_BINCOUNT;
}
/* The np.linalg functions of UF__NPLINALG_MAP. */
static inline bool uf__builtin_is_nplinalg(uf__builtin b)
{
    return b >= UF__BI_NP_LINALG_NORM && b <= UF__BI_NP_LINALG_EIGVALS;
}
/* The matrix constructors and diagonals of UF__NPMATRIX_MAP. */
static inline bool uf__builtin_is_npmatrix(uf__builtin b)
{
    return b >= UF__BI_NP_EYE && b <= UF__BI_NP_VANDER;
}
/* The signal routines of UF__NPSIGNAL_MAP. */
static inline bool uf__builtin_is_npsignal(uf__builtin b)
{
    return b >= UF__BI_NP_CONVOLVE && b <= UF__BI_NP_KAISER;
}
/* np.logspace, np.geomspace (UF__NPSPACE_MAP). */
static inline bool uf__builtin_is_npspace(uf__builtin b)
{
    return b >= UF__BI_NP_LOGSPACE && b <= UF__BI_NP_GEOMSPACE;
}
/* The functions of UF__NPFUNC_MAP. */
static inline bool uf__builtin_is_npfunc(uf__builtin b)
{
    return b >= UF__BI_NP_EDIFF1D && b <= UF__BI_NP_TRAPEZOID;
}
/* The functions of UF__NPCROSS_MAP. */
static inline bool uf__builtin_is_npcross(uf__builtin b)
{
    return b >= UF__BI_NP_CROSS && b <= UF__BI_NP_CROSS2D;
}
/* The functions of UF__NPPOLY_MAP. */
static inline bool uf__builtin_is_nppoly(uf__builtin b)
{
    return b >= UF__BI_NP_POLYADD && b <= UF__BI_NP_AS_SERIES;
}
/* The functions of UF__NPSPLIT_MAP. */
static inline bool uf__builtin_is_npsplit(uf__builtin b)
{
    return b >= UF__BI_NP_SPLIT && b <= UF__BI_NP_DSPLIT;
}
/* The entries of UF__USTR_MAP. */
static inline bool uf__builtin_is_ustr(uf__builtin b)
{
    return b >= UF__BI_USTR_STR && b <= UF__BI_USTR_VALUE;
}
/* The methods among them (s.upper() ...: common/ustr_meth.c). */
static inline bool uf__builtin_is_ustr_meth(uf__builtin b)
{
    return b >= UF__BI_USTR_UPPER && b <= UF__BI_USTR_EXPANDTABS;
}
/* The methods of UF__LIST_MAP. */
static inline bool uf__builtin_is_list(uf__builtin b)
{
    return b >= UF__BI_LIST_APPEND && b <= UF__BI_LIST_NEW;
}
/* The methods of UF__DICT_MAP. */
static inline bool uf__builtin_is_dict(uf__builtin b)
{
    return b >= UF__BI_DICT_GET && b <= UF__BI_DICT_NEW;
}
/* The methods of UF__SET_MAP. */
static inline bool uf__builtin_is_set(uf__builtin b)
{
    return b >= UF__BI_SET_ADD && b <= UF__BI_SET_NEW;
}
/* The views of UF__NPVIEW_MAP. */
static inline bool uf__builtin_is_npview(uf__builtin b)
{
    return b >= UF__BI_NP_FLIP && b <= UF__BI_NP_TRANSPOSE_AXES;
}
/* a.view(dtype) and np.frombuffer of UF__ARRVIEW_MAP (not isinstance). */
static inline bool uf__builtin_is_arrview(uf__builtin b)
{
    return b >= UF__BI_METH_VIEW && b <= UF__BI_NP_FROMBUFFER;
}
/* The repeats, resizes and broadcasts of UF__NPSHAPE_MAP. */
static inline bool uf__builtin_is_npshape(uf__builtin b)
{
    return b >= UF__BI_NP_REPEAT && b <= UF__BI_NP_TRIM_ZEROS;
}
/* The ufuncs of UF__NPUFUNC_MAP. */
static inline bool uf__builtin_is_npufunc(uf__builtin b)
{
    return b >= UF__BI_NP_ADD && b <= UF__BI_NP_LDEXP;
}

/* The reductions, dot products and array attributes of UF__NPREDUCE_MAP. */
static inline bool uf__builtin_is_npreduce(uf__builtin b)
{
    return (b >= UF__BI_NP_SUM && b <= UF__BI_NP_ATTR_NBYTES) ||
           (b >= UF__BI_NP_NANARGMIN && b <= UF__BI_NP_PTP);
}

/* "math.sin" -> UF__BI_SIN; UF__BI_NONE when unknown. NumPy's other
 * names of a ufunc ("numpy.mod", "numpy.acos") give the ufunc's. */
uf__builtin uf__builtin_lookup(const char *qualified_name);
const char *uf__builtin_name(uf__builtin b);

#endif
