/* The helpers generated host code calls by name: the compiler's own error
 * sinks, the allocation runtime (common/nrt.h), strings, containers and the
 * NumPy routines the lowerings call. jit.c defines them, after the target's
 * own, as absolute symbols of this process. A new runtime helper gets its
 * line here. */
#include <stdint.h>

#include "common/matmul.h"
#include "common/npfind.h"
#include "common/npinsert.h"
#include "common/npseries.h"
#include "common/nprandom.h"
#include "common/npnum.h"
#include "common/nplinalg.h"
#include "common/nppart.h"
#include "common/npselect.h"
#include "common/npfunc.h"
#include "common/nppoly.h"
#include "common/npsignal.h"
#include "common/npstats.h"
#include "common/npsort.h"
#include "common/dict.h"
#include "common/set.h"
#include "common/list.h"
#include "common/ustr.h"
#include "common/list_ops.h"
#include "common/list_ustr.h"
#include "common/list_nest.h"
#include "common/nrt.h"
#include "compiler/host/codegen_host.h"
#include "compiler/host/jit_runtime_symbols.h"
#include "compiler/lower/lower.h"

static const uf__runtime_symbol own[] = {
    {UF__RT_INDEX_ERROR, (void *)(uintptr_t)uf__rt_index_error},
    {UF__RT_BROADCAST_ERROR, (void *)(uintptr_t)uf__rt_broadcast_error},
    {UF__NRT_ALLOC, (void *)(uintptr_t)uf__nrt_alloc},
    {UF__NRT_FRAME_RETURN, (void *)(uintptr_t)uf__nrt_frame_return},
    {UF__NRT_ADOPT, (void *)(uintptr_t)uf__nrt_adopt},
    {UF__NRT_TAKE_RETURNED, (void *)(uintptr_t)uf__nrt_take_returned},
    {UF__NRT_SWEEP, (void *)(uintptr_t)uf__nrt_sweep},
    {UF__NRT_TAKE_HOLDING, (void *)(uintptr_t)uf__nrt_take_holding},
    {UF__NRT_DROP_RETURNED, (void *)(uintptr_t)uf__nrt_drop_returned},
    /* run-time strings (lower_ustr.c, common/ustr.h) */
    {UF__USTR_CONCAT, (void *)(uintptr_t)uf__ustr_concat},
    {UF__USTR_REPEAT, (void *)(uintptr_t)uf__ustr_repeat},
    {UF__USTR_CHAR, (void *)(uintptr_t)uf__ustr_char},
    {UF__USTR_SLICE, (void *)(uintptr_t)uf__ustr_slice},
    {UF__USTR_FROM_INT, (void *)(uintptr_t)uf__ustr_from_int},
    {UF__USTR_CMP, (void *)(uintptr_t)uf__ustr_cmp},
    {UF__USTR_FIND, (void *)(uintptr_t)uf__ustr_find},
    {UF__USTR_METH, (void *)(uintptr_t)uf__ustr_meth},
    {UF__USTR_JOIN, (void *)(uintptr_t)uf__ustr_join},
    {UF__USTR_SPLIT, (void *)(uintptr_t)uf__ustr_split},
    {UF__USTR_RSPLIT, (void *)(uintptr_t)uf__ustr_rsplit},
    {UF__USTR_SPLITLINES, (void *)(uintptr_t)uf__ustr_splitlines},
    {UF__USTR_PARTITION, (void *)(uintptr_t)uf__ustr_partition},
    /* lists (lower_list.c, common/list.h) */
    {UF__LIST_NEW, (void *)(uintptr_t)uf__list_new},
    {UF__LIST_RESERVE, (void *)(uintptr_t)uf__list_reserve},
    {UF__LIST_MOVE, (void *)(uintptr_t)uf__list_move},
    {UF__LIST_REVERSE, (void *)(uintptr_t)uf__list_reverse},
    {UF__LIST_SORT, (void *)(uintptr_t)uf__list_sort}, /* list_ops.h */
    {UF__LIST_REPEAT, (void *)(uintptr_t)uf__list_repeat},
    {UF__LIST_IREPEAT, (void *)(uintptr_t)uf__list_irepeat},
    {UF__LIST_SETSLICE, (void *)(uintptr_t)uf__list_setslice},
    {UF__LIST_DELSLICE, (void *)(uintptr_t)uf__list_delslice},
    {UF__LIST_SORT_BY, (void *)(uintptr_t)uf__list_sort_by},
    /* lists of strings (common/list_ustr.h) */
    {UF__LIST_USTR_SORT, (void *)(uintptr_t)uf__list_ustr_sort},
    {UF__LIST_USTR_FIND, (void *)(uintptr_t)uf__list_ustr_find},
    {UF__LIST_USTR_COUNT, (void *)(uintptr_t)uf__list_ustr_count},
    {UF__LIST_USTR_MINMAX, (void *)(uintptr_t)uf__list_ustr_minmax},
    /* lists of lists (common/list_nest.h) */
    {UF__LIST_NEST_SHAPE, (void *)(uintptr_t)uf__list_nest_shape},
    {UF__LIST_NEST_FILL, (void *)(uintptr_t)uf__list_nest_fill},
    /* dicts (lower_dict.c, common/dict.h) */
    {UF__DICT_NEW_KEYED, (void *)(uintptr_t)uf__dict_new_keyed},
    {UF__DICT_FIND_KEY, (void *)(uintptr_t)uf__dict_find_key},
    {UF__DICT_INSERT_KEY, (void *)(uintptr_t)uf__dict_insert_key},
    {UF__DICT_DELETE_KEY, (void *)(uintptr_t)uf__dict_delete_key},
    {UF__DICT_POPITEM_KEY, (void *)(uintptr_t)uf__dict_popitem_key},
    {UF__DICT_NEW, (void *)(uintptr_t)uf__dict_new},
    {UF__DICT_FIND, (void *)(uintptr_t)uf__dict_find},
    {UF__DICT_INSERT, (void *)(uintptr_t)uf__dict_insert},
    {UF__DICT_DELETE, (void *)(uintptr_t)uf__dict_delete},
    {UF__DICT_NEXT, (void *)(uintptr_t)uf__dict_next},
    {UF__DICT_CLEAR, (void *)(uintptr_t)uf__dict_clear},
    {UF__DICT_COPY, (void *)(uintptr_t)uf__dict_copy},
    {UF__DICT_POPITEM, (void *)(uintptr_t)uf__dict_popitem},
    /* sets (lower_set.c, common/set.h) */
    {UF__SET_NEW, (void *)(uintptr_t)uf__set_new},
    {UF__SET_NEW_KEYED, (void *)(uintptr_t)uf__set_new_keyed},
    {UF__SET_ADD_KEY, (void *)(uintptr_t)uf__set_add_key},
    {UF__SET_CONTAINS_KEY, (void *)(uintptr_t)uf__set_contains_key},
    {UF__SET_DISCARD_KEY, (void *)(uintptr_t)uf__set_discard_key},
    {UF__SET_POP_KEY, (void *)(uintptr_t)uf__set_pop_key},
    {UF__SET_ADD, (void *)(uintptr_t)uf__set_add},
    {UF__SET_CONTAINS, (void *)(uintptr_t)uf__set_contains},
    {UF__SET_DISCARD, (void *)(uintptr_t)uf__set_discard},
    {UF__SET_POP, (void *)(uintptr_t)uf__set_pop},
    {UF__SET_NEXT, (void *)(uintptr_t)uf__set_next},
    {UF__SET_CLEAR, (void *)(uintptr_t)uf__set_clear},
    {UF__SET_COPY, (void *)(uintptr_t)uf__set_copy},
    {UF__SET_UPDATE, (void *)(uintptr_t)uf__set_update},
    {UF__SET_WIDEN, (void *)(uintptr_t)uf__set_widen},
    {UF__SET_ADD_DICT_KEYS, (void *)(uintptr_t)uf__set_add_dict_keys},
    {UF__SET_MINMAX, (void *)(uintptr_t)uf__set_minmax},
    {UF__SET_OP, (void *)(uintptr_t)uf__set_op},
    {UF__SET_IOP, (void *)(uintptr_t)uf__set_iop},
    {UF__SET_CMP, (void *)(uintptr_t)uf__set_cmp},
    /* 2-D np.dot / `@` (lower_matmul.c) */
    {UF__RT_AXIS_ERROR, (void *)(uintptr_t)uf__rt_axis_error},
    {UF__RT_RAISE, (void *)(uintptr_t)uf__rt_raise},
    {UF__RT_PRINT, (void *)(uintptr_t)uf__rt_print},
    {UF__RT_MATMUL_F32, (void *)(uintptr_t)uf__rt_matmul_f32},
    {UF__RT_MATMUL_F64, (void *)(uintptr_t)uf__rt_matmul_f64},
    {UF__RT_MATMUL_C64, (void *)(uintptr_t)uf__rt_matmul_c64},
    {UF__RT_MATMUL_C128, (void *)(uintptr_t)uf__rt_matmul_c128},
    /* the sorts of lower_arrsort.c (common/npsort.h) */
    {UF__NP_SORT_ROWS, (void *)(uintptr_t)uf__np_sort_rows},
    {UF__NP_ARGSORT, (void *)(uintptr_t)uf__np_argsort},
    /* np.median, np.percentile ... (lower_npselect.c) */
    {UF__NP_MEDIAN, (void *)(uintptr_t)uf__np_median},
    {UF__NP_PERCENTILE, (void *)(uintptr_t)uf__np_percentile},
    /* np.partition, np.argpartition (lower_nppart.c) */
    {UF__NP_PARTITION, (void *)(uintptr_t)uf__np_partition},
    /* np.convolve, np.correlate (lower_npsignal.c) */
    {UF__NP_CORRELATE, (void *)(uintptr_t)uf__np_correlate},
    {UF__NP_WINDOW, (void *)(uintptr_t)uf__np_window},
    {UF__NP_KAISER, (void *)(uintptr_t)uf__np_kaiser},
    /* numpy.polynomial.polynomial (lower_nppoly.c) */
    {UF__NP_POLYADDSUB, (void *)(uintptr_t)uf__np_polyaddsub},
    {UF__NP_POLYMUL, (void *)(uintptr_t)uf__np_polymul},
    {UF__NP_POLYDIV, (void *)(uintptr_t)uf__np_polydiv},
    {UF__NP_POLYINT, (void *)(uintptr_t)uf__np_polyint},
    {UF__NP_POLYVAL_SHAPE, (void *)(uintptr_t)uf__np_polyval_shape},
    {UF__NP_POLYVAL, (void *)(uintptr_t)uf__np_polyval},
    {UF__NP_TRIMLEN, (void *)(uintptr_t)uf__np_trimlen},
    {UF__NP_ROOTS, (void *)(uintptr_t)uf__np_roots},
    /* np.ediff1d, np.trapezoid (lower_npfunc.c) */
    {UF__NP_EDIFF1D, (void *)(uintptr_t)uf__np_ediff1d},
    {UF__NP_TRAPZ_SHAPE, (void *)(uintptr_t)uf__np_trapz_shape},
    {UF__NP_TRAPZ, (void *)(uintptr_t)uf__np_trapz},
    /* np.histogram (lower_npstats.c) */
    {UF__NP_HIST_RANGE, (void *)(uintptr_t)uf__np_histogram_range},
    {UF__NP_HIST_FILL, (void *)(uintptr_t)uf__np_histogram_fill},
    {UF__NP_HIST_CHECK, (void *)(uintptr_t)uf__np_histogram_check_edges},
    {UF__NP_HIST_EDGES, (void *)(uintptr_t)uf__np_histogram_edges},
    {UF__NP_COV_CHECK, (void *)(uintptr_t)uf__np_cov_check},
    {UF__NP_COV, (void *)(uintptr_t)uf__np_cov},
    /* np.nonzero, np.extract, np.unique ... (lower_npfind.c) */
    {UF__NP_COUNT_TRUE, (void *)(uintptr_t)uf__np_count_true},
    {UF__NP_FIND, (void *)(uintptr_t)uf__np_find},
    {UF__NP_EXTRACT, (void *)(uintptr_t)uf__np_extract},
    {UF__NP_DELETE_MASK, (void *)(uintptr_t)uf__np_delete_mask},
    {UF__NP_UNIQUE, (void *)(uintptr_t)uf__np_unique},
    {UF__NP_SETOP, (void *)(uintptr_t)uf__np_setop},
    {UF__NP_INSERT, (void *)(uintptr_t)uf__np_insert},
    {UF__NP_SERIES_TRIM, (void *)(uintptr_t)uf__np_series_trim},
    /* np.random (lower_nprandom.c) */
    {UF__NP_RANDOM_SEED, (void *)(uintptr_t)uf__np_random_seed},
    {UF__NP_RANDOM_DOUBLE, (void *)(uintptr_t)uf__np_random_double},
    {UF__NP_RANDOM_NORMAL, (void *)(uintptr_t)uf__np_random_normal},
    {UF__NP_RANDOM_UNIFORM, (void *)(uintptr_t)uf__np_random_uniform},
    {UF__NP_RANDOM_FILL, (void *)(uintptr_t)uf__np_random_fill},
    {UF__NP_RANDOM_RANDINT, (void *)(uintptr_t)uf__np_random_randint},
    {UF__NP_RANDOM_SHUFFLE, (void *)(uintptr_t)uf__np_random_shuffle},
    {UF__NP_RANDOM_PERMUTATION,
     (void *)(uintptr_t)uf__np_random_permutation},
    {UF__NP_RANDOM_CHOICE, (void *)(uintptr_t)uf__np_random_choice},
    {UF__NP_RANDOM_IFILL, (void *)(uintptr_t)uf__np_random_ifill},
    {UF__NP_RANDOM_NONCENTRAL_CHISQUARE,
     (void *)(uintptr_t)uf__np_random_noncentral_chisquare},
    {UF__NP_RANDOM_MULTINOMIAL,
     (void *)(uintptr_t)uf__np_random_multinomial},
    {UF__NP_RANDOM_DIRICHLET, (void *)(uintptr_t)uf__np_random_dirichlet},
    {UF__NP_RANDOM_STATE, (void *)(uintptr_t)uf__np_random_state},
    {UF__NP_RANDOM_REGENERATE,
     (void *)(uintptr_t)uf__np_random_regenerate},
    /* np.interp ... (lower_npnum.c) */
    {UF__NP_INTERP, (void *)(uintptr_t)uf__np_interp},
    {UF__NP_DIGITIZE, (void *)(uintptr_t)uf__np_digitize},
    {UF__NP_BINCOUNT_LEN, (void *)(uintptr_t)uf__np_bincount_len},
    {UF__NP_BINCOUNT_FILL, (void *)(uintptr_t)uf__np_bincount_fill},
    /* np.linalg (lower_nplinalg.c) */
    {UF__NP_LINALG_NORM, (void *)(uintptr_t)uf__np_linalg_norm},
    {UF__NP_LINALG_SLOGDET, (void *)(uintptr_t)uf__np_linalg_slogdet},
    {UF__NP_LINALG_INV, (void *)(uintptr_t)uf__np_linalg_inv},
    {UF__NP_LINALG_SOLVE, (void *)(uintptr_t)uf__np_linalg_solve},
    {UF__NP_LINALG_CHOLESKY, (void *)(uintptr_t)uf__np_linalg_cholesky},
    {UF__NP_LINALG_QR, (void *)(uintptr_t)uf__np_linalg_qr},
    {UF__NP_LINALG_MATRIX_POWER,
     (void *)(uintptr_t)uf__np_linalg_matrix_power},
    {UF__NP_LINALG_SVD, (void *)(uintptr_t)uf__np_linalg_svd},
    {UF__NP_LINALG_COND, (void *)(uintptr_t)uf__np_linalg_cond},
    {UF__NP_LINALG_MATRIX_RANK,
     (void *)(uintptr_t)uf__np_linalg_matrix_rank},
    {UF__NP_LINALG_PINV, (void *)(uintptr_t)uf__np_linalg_pinv},
    {UF__NP_LINALG_LSTSQ, (void *)(uintptr_t)uf__np_linalg_lstsq},
    {UF__NP_LINALG_EIGH, (void *)(uintptr_t)uf__np_linalg_eigh},
    {UF__NP_LINALG_EIG, (void *)(uintptr_t)uf__np_linalg_eig},
};

const uf__runtime_symbol *uf__jit_own_symbols(int *n)
{
    *n = (int)(sizeof own / sizeof own[0]);
    return own;
}
