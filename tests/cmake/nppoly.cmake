# numpy.polynomial.polynomial functions inside kernels against
# Numba (tests/e2e/run_nppoly_oracle.py on tests/kernels/host/nppoly.py):
# dtypes and their mixes, tuples, tensor=, m=, trailing zeros, strided
# views, NaN and inf, empty operands, refusals. Skipped (exit 77) without
# NumPy or Numba. test_nppoly checks the runtime, leaks and out of memory
# through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME nppoly_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nppoly_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nppoly_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nppoly_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
