/* The CUDA target a device test runs on: `cudasim` by default, or what
 * UFJIT_TEST_CUDA_TARGET names ("cuda": the GPU; tests/cmake/cuda_call.cmake
 * registers a *_gpu run so). A target that cannot run here makes the
 * test exit 77, which CTest shows as skipped with the printed reason. */
#ifndef UF_TESTS_CUDA_TEST_TARGET_H
#define UF_TESTS_CUDA_TEST_TARGET_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/ufjit.h>

/* Whether the target runs on a real GPU (results within the device's
 * math bounds, not bit for bit). */
static bool cuda_test_on_gpu;

static const char *cuda_test_target(void)
{
    const char *t = getenv("UFJIT_TEST_CUDA_TARGET");
    if (t == NULL || *t == '\0' || strcmp(t, "cudasim") == 0)
        return "cudasim";
    const char *sim = getenv("UFJIT_ENABLE_CUDASIM");
    if (sim != NULL && strcmp(sim, "1") == 0)
        return "cuda"; /* the simulator, under the cuda target's name */
    uf_error err;
    if (uf_cuda_driver(NULL, 0, NULL, 0, &err) < 1) {
        printf("SKIP: target %s: %s\n", t, err.message);
        exit(77);
    }
    cuda_test_on_gpu = true;
    return "cuda";
}

#endif
