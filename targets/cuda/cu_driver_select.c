/* Which driver the `cuda` target runs on (cu_driver.h). */
#include <stdlib.h>
#include <string.h>

#include "targets/cuda/cu_driver.h"

/* UFJIT_ENABLE_CUDASIM=1 runs `cuda` on the simulator, as Numba's
 * NUMBA_ENABLE_CUDASIM; read at each call, as cheap as the lookup it
 * guards (the runtime itself is made once per driver). */
static int sim_enabled(void)
{
    const char *v = getenv("UFJIT_ENABLE_CUDASIM");
    return v != NULL && strcmp(v, "1") == 0;
}

const uf__cu_driver *uf__cu_driver_for_cuda(uf_error *err)
{
    return sim_enabled() ? uf__cu_driver_sim() : uf__cu_driver_real(err);
}
