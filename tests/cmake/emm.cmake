# Memory managers (targets/cuda/cuda_mm*.c): the example plug-ins of
# examples/emm/ built as shared objects; the default manager's tests once
# more with other thresholds from the environment; the plug-in tests with
# each plug-in loaded by UFJIT_CUDA_MEMORY_MANAGER (and a bad value); and
# both on a GPU (*_gpu, skipped with exit 77 without one), as
# cuda_launch.cmake does.
add_subdirectory(${PROJECT_SOURCE_DIR}/examples/emm
                 ${PROJECT_BINARY_DIR}/examples/emm)
# the plug-ins' paths, also in the environment: the GPU kit moves the
# build tree and rewrites these (scripts/gpu_kit.py)
set(UF_EMM_ENV "UF_EMM_POOL_SO=$<TARGET_FILE:uf_emm_pool>"
               "UF_EMM_LIMIT_SO=$<TARGET_FILE:uf_emm_limit>")
foreach(t test_cuda_memory_manager test_cuda_emm)
  set_tests_properties(${t} PROPERTIES LABELS cuda
    ENVIRONMENT "${UF_EMM_ENV}")
  target_compile_definitions(${t} PRIVATE
    UF_EMM_POOL_SO="$<TARGET_FILE:uf_emm_pool>"
    UF_EMM_LIMIT_SO="$<TARGET_FILE:uf_emm_limit>")
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/examples/emm)
  add_dependencies(${t} uf_emm_pool uf_emm_limit)
  add_test(NAME ${t}_gpu COMMAND ${t})
  set_tests_properties(${t}_gpu PROPERTIES LABELS cuda
    ENVIRONMENT "UFJIT_TEST_CUDA_TARGET=cuda;${UF_EMM_ENV}"
    SKIP_RETURN_CODE 77)
endforeach()
add_test(NAME test_cuda_memory_manager_env COMMAND test_cuda_memory_manager)
set_tests_properties(test_cuda_memory_manager_env PROPERTIES LABELS cuda
  ENVIRONMENT "UFJIT_CUDA_MAX_PENDING_DEALLOCS_COUNT=3;UFJIT_CUDA_MAX_PENDING_DEALLOCS_RATIO=0.5")
foreach(p pool limit)
  add_test(NAME test_cuda_emm_env_${p} COMMAND test_cuda_emm)
  set_tests_properties(test_cuda_emm_env_${p} PROPERTIES LABELS cuda
    ENVIRONMENT "UFJIT_CUDA_MEMORY_MANAGER=$<TARGET_FILE:uf_emm_${p}>:uf_emm_${p}_factory;UF_EXPECT_MANAGER=${p};${UF_EMM_ENV}")
endforeach()
add_test(NAME test_cuda_emm_env_bad COMMAND test_cuda_emm)
set_tests_properties(test_cuda_emm_env_bad PROPERTIES LABELS cuda
  ENVIRONMENT "UFJIT_CUDA_MEMORY_MANAGER=/nonexistent/plugin.so:factory;UF_EXPECT_MANAGER=error;${UF_EMM_ENV}")
# the pool's benchmark, as a smoke test (timings are printed, not asserted)
add_test(NAME bench_emm_pool_smoke COMMAND bench_emm_pool 2000)
set_tests_properties(bench_emm_pool_smoke PROPERTIES LABELS "cuda;bench")
