# Generator functions (yield) inside kernels against Numba
# (tests/e2e/run_generators_oracle.py on tests/kernels/host/generators.py):
# consumers inlined, refusals at FILE:LINE:COL. Skipped (exit 77) without
# NumPy or Numba. test_generators checks arrays kept across yields, leaks
# and out of memory (calls and loading) through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME generators_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_generators_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME generators_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(generators_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
