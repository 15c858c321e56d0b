# More of lists and dicts inside kernels (slice assignment l[a:b:c] = m)
# against Numba (tests/e2e/run_contmore_oracle.py on
# tests/kernels/host/contmore.py): growing, shrinking, steps, aliasing,
# refusals. Skipped (exit 77) without NumPy or Numba.
# test_contmore checks leaks and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME contmore_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_contmore_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME contmore_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(contmore_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
