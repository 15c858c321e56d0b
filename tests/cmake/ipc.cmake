# Pinned/mapped arrays and IPC handles (tests/test_cuda_ipc.c): the
# counting plug-in of examples/emm/ (emm.cmake builds it) loaded from its
# shared object; and on a GPU (*_gpu, skipped with exit 77 without one),
# where the cross-process test runs the real driver's IPC in two processes.
set_tests_properties(test_cuda_ipc PROPERTIES LABELS cuda
  ENVIRONMENT "UF_EMM_LIMIT_SO=$<TARGET_FILE:uf_emm_limit>")
target_compile_definitions(test_cuda_ipc PRIVATE
  UF_EMM_LIMIT_SO="$<TARGET_FILE:uf_emm_limit>")
target_include_directories(test_cuda_ipc PRIVATE
  ${PROJECT_SOURCE_DIR}/examples/emm)
add_dependencies(test_cuda_ipc uf_emm_limit)
add_test(NAME test_cuda_ipc_gpu COMMAND test_cuda_ipc)
set_tests_properties(test_cuda_ipc_gpu PROPERTIES LABELS cuda
  ENVIRONMENT "UFJIT_TEST_CUDA_TARGET=cuda;UF_EMM_LIMIT_SO=$<TARGET_FILE:uf_emm_limit>"
  SKIP_RETURN_CODE 77)
