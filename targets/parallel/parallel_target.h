/* The `parallel` target: calls shared out between threads by the
 * threading layer of the process (parallel.h), on host memory. */
#ifndef UF_TARGETS_PARALLEL_PARALLEL_TARGET_H
#define UF_TARGETS_PARALLEL_PARALLEL_TARGET_H

#include "targets/target.h"

extern const uf__target uf__target_parallel;

#endif
