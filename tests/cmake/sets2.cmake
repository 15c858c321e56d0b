# Sets of tuples of numbers, complex numbers and strings, and set(d) of
# dicts, inside kernels against Numba (tests/e2e/run_sets2_oracle.py on
# tests/kernels/host/sets2.py): every operation per key kind, NaN and -0.0
# in tuple and complex keys, 10^4 keys, KeyError. Skipped (exit 77) without
# NumPy or Numba. test_sets2 checks wide keys, string roots, leaks and out
# of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME sets2_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_sets2_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME sets2_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(sets2_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
