/* The parallel runtime: one small interface over the threading layers
 * (OpenMP through libgomp, oneTBB through one extern "C" C++ file), in the
 * style of TVM's backend parallel-launch API. Generated code and the call
 * machinery only ever see uf__parallel_for. One layer per process
 * (TOOLCHAIN.md: libgomp and TBB slow each other down). */
#ifndef UF_TARGETS_PARALLEL_H
#define UF_TARGETS_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/error.h>

#include "targets/target.h"

/* Runs [begin, end) of the iteration space (target.h). */
typedef uf__target_body uf__parallel_body;

/* Splits [0, n) into chunks of at least `grain` iterations over
 * `nthreads` threads (0: the default count) and runs `body` on each;
 * serial (one call on the caller's thread) when n <= grain or one thread.
 * Returns 0, or the first failing chunk's status with its error in err. */
int uf__parallel_for(int64_t n, int64_t grain, int nthreads,
                     uf__parallel_body body, void *ctx, uf_error *err);

/* The layer in use ("omp", "tbb" or "serial"), chosen once per process by
 * UFJIT_THREADING_LAYER or the best available; and the default thread
 * count (UFJIT_NUM_THREADS, else the cores this process may use). */
const char *uf__parallel_layer(void);
int uf__parallel_default_threads(void);
/* Whether the layer in use is the serial one (every call on the caller's
 * thread). */
bool uf__parallel_is_serial(void);
/* Layers built in, for sysinfo: "omp tbb". */
const char *uf__parallel_layers_available(void);
/* 0, or the configuration error (a bad UFJIT_THREADING_LAYER or
 * UFJIT_NUM_THREADS) that every uf__parallel_for reports, set in err. */
int uf__parallel_config_error(uf_error *err);

#endif
