# ufjit launch of the cuda.jit kernels on cudasim, its usage and kernel
# errors, and ufjit inspect of kernels (--ptx registers, max_registers=);
# no NumPy needed: inputs made by `ufjit npy convert`.
add_test(NAME cli_cuda_launch
  COMMAND bash ${UF_TEST_SOURCE_DIR}/cli/cli_cuda_launch.sh
          $<TARGET_FILE:ufjit_cli> ${UF_TEST_SOURCE_DIR}/kernels
          ${UF_TEST_SOURCE_DIR}/cli/data)
set_tests_properties(cli_cuda_launch PROPERTIES LABELS cuda)
