/* The umbrella header: everything public in ufjit. */
#ifndef UFJIT_UFJIT_H
#define UFJIT_UFJIT_H

#include <ufjit/export.h>
#include <ufjit/version.h>
#include <ufjit/error.h>
#include <ufjit/dtype.h>
#include <ufjit/array.h>
#include <ufjit/npy.h>
#include <ufjit/kernel.h>
#include <ufjit/system.h>
#include <ufjit/cuda.h>
#include <ufjit/launch.h>
#include <ufjit/cuda_random.h>
#include <ufjit/cuda_memory.h>
#include <ufjit/interop.h>

UF_BEGIN_DECLS

/* The version of the library actually linked ("0.1.0"). */
UF_EXPORT const char *uf_version(void);

UF_END_DECLS

#endif
