# Whole-array expressions inside kernels against Numba, and NumPy where an
# operand overlaps the destination (tests/e2e/run_arrexpr_oracle.py on
# tests/kernels/array_exprs.py and array_exprs_errors.py): guvectorize
# outputs and njit digests through `ufjit call`, compared bit for bit;
# skipped (exit 77) without NumPy or Numba. test_array_exprs checks the
# edge cases through the C API, on cudasim too.
if(Python3_Interpreter_FOUND)
  add_test(NAME array_exprs_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_arrexpr_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME array_exprs_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(array_exprs_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)

# test_array_exprs runs the fused store on cudasim too; its _gpu run
# (scripts/gpu-check.sh on a GPU) on the `cuda` target, skipped (exit 77)
# without a driver. NaN/inf and exact arithmetic only, so bit for bit
# there as well.
if(TEST test_array_exprs)
  set_tests_properties(test_array_exprs PROPERTIES LABELS cuda)
  add_test(NAME test_array_exprs_gpu COMMAND test_array_exprs)
  set_tests_properties(test_array_exprs_gpu PROPERTIES LABELS cuda
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endif()
