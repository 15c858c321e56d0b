/* What the real driver's loader (cu_driver_real.c) and its error text
 * (cu_errors.c) share with each other, with sysinfo's API and with tests;
 * nothing here is for the layers that run kernels. */
#ifndef UF_TARGETS_CUDA_CU_DRIVER_INTERNAL_H
#define UF_TARGETS_CUDA_CU_DRIVER_INTERNAL_H

#include <stddef.h>

#include "targets/cuda/cu_driver.h"

/* The oldest driver the real table loads: cuDriverGetVersion's 11000 is
 * CUDA 11.0, the first with every _v2 symbol the table takes
 * (cuDevicePrimaryCtxRelease_v2, cuIpcOpenMemHandle_v2). */
#define UF__CU_MIN_DRIVER_VERSION 11000

/* The file the real driver was loaded from (the loader's full path), or
 * NULL while none is loaded. */
const char *uf__cu_driver_real_path(void);

/* Tests only: unloads the real driver and forgets a remembered failure, so
 * that one test process can load several scripted fake drivers in turn.
 * Not thread-safe against other users of the table, which it invalidates. */
void uf__cu_driver_real_reset_for_tests(void);

/* "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the name and description of
 * rc from the driver's cuGetErrorName/String when d has them and knows rc,
 * else from ufjit's own table, else "CUDA error 12345 (unknown to ...)".
 * Returns buf. d may be NULL or a table still being filled in. */
const char *uf__cu_error_text(const uf__cu_driver *d, uf__cu_result rc,
                              char *buf, size_t size);

/* The UF_ERR_* code of a failed driver call (see uf__cu_check). */
int uf__cu_error_code(uf__cu_result rc);

#endif
