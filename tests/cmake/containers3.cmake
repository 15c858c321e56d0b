# The containers' remaining gaps against Numba (tests/e2e/
# run_containers3_oracle.py on tests/kernels/host/containers3.py):
# set(range(...)), set(d.values()), set(d.items()), set(s), min()/max() of
# sets of tuples and strings, dicts with complex and tuple keys, and
# KeyError's text carrying the key. Skipped (exit 77) without NumPy or
# Numba. test_containers3 checks wide dict keys, leaks and out of memory
# through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME containers3_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_containers3_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME containers3_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(containers3_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
