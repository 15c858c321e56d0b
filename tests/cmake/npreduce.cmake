# NumPy reductions, dot products, .T/.itemsize/.nbytes inside kernels
# against Numba (tests/e2e/run_npreduce_oracle.py on
# tests/kernels/np_reductions*.py): njit and guvectorize through `ufjit
# call`, dtypes exact, floats within a few ulps (another order of
# additions); skipped (exit 77) without NumPy or Numba; without SciPy the
# dot products are checked against NumPy. test_npreduce checks the same
# through the C API with expectations of its own, on cpu, parallel and
# cudasim.
if(Python3_Interpreter_FOUND)
  add_test(NAME npreduce_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_npreduce_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npreduce_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npreduce_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 900)

# test_npreduce's device part runs on cudasim; the same test on a GPU
# (scripts/gpu-check.sh runs the tests labelled cuda there) with target
# `cuda`, skipped (exit 77) where there is no driver.
if(TEST test_npreduce)
  set_tests_properties(test_npreduce PROPERTIES LABELS cuda)
  add_test(NAME test_npreduce_gpu COMMAND test_npreduce)
  set_tests_properties(test_npreduce_gpu PROPERTIES LABELS cuda
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endif()
