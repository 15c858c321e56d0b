/* What uf_pin_array (cuda_pin.c) and the IPC handles (cuda_ipc.c)
 * share. */
#ifndef UF_TARGETS_CUDA_CUDA_PIN_IPC_H
#define UF_TARGETS_CUDA_CUDA_PIN_IPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes an array of this shape and strides (in bytes) touches,
 * [lo, hi) from its first element (lo <= 0; hi == 0 for an empty array);
 * false when they overflow. */
bool uf__cuda_extent(int ndim, const int64_t *shape, const int64_t *strides,
                     size_t itemsize, int64_t *lo, int64_t *hi);

#endif
