# Generator objects inside kernels against Numba
# (tests/e2e/run_generators2_oracle.py on tests/kernels/host/generators2.py):
# next(), for loops over a kept object, zip() of several generators (state
# machines), refusals at FILE:LINE:COL. Skipped (exit 77) without NumPy or
# Numba. test_generators2 checks arrays held by a suspended generator,
# leaks and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME generators2_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_generators2_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME generators2_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(generators2_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
