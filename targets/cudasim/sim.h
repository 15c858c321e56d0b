/* cudasim: the in-process implementation of the CUDA driver table
 * (uf__cu_driver_sim in targets/cuda/cu_driver.h) and the runtime that
 * kernels compiled for it call (common/sim_abi.h). What the rest of ufjit
 * needs of it is here; the simulator's own pieces share sim_internal.h. */
#ifndef UF_TARGETS_CUDASIM_SIM_H
#define UF_TARGETS_CUDASIM_SIM_H

#include "common/loop.h"
#include "common/sim_abi.h"

/* UF__SIM_SELF: the running simulated thread, NULL outside a kernel. */
const uf__sim_thread *uf__sim_self(void);
/* UF__SIM_SYNCTHREADS: __syncthreads(); returns at once outside a
 * kernel. */
void uf__sim_syncthreads(void);
int32_t uf__sim_syncthreads_reduce(int32_t op, int32_t pred);
/* UF__SIM_WARP_FN: a warp collective (common/sim_abi.h); 0 outside a
 * kernel. */
uint64_t uf__sim_warp(uint32_t op, uint32_t mask, uint64_t value,
                      uint32_t arg);

/* The functions simulated kernels call by name (uf__sim_self,
 * uf__sim_syncthreads), for the host JIT's uf__jit_new as the CPU
 * runtime's uf__cpu_runtime_symbols. */
const uf__runtime_symbol *uf__sim_runtime_symbols(int *n);

#endif
