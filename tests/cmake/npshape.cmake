# np.repeat, np.resize, np.broadcast_to, np.broadcast_arrays, np.trim_zeros against
# Numba (tests/e2e/run_npshape_oracle.py on tests/kernels/host/npshape.py):
# new arrays and read-only views inside kernels: dtypes, shapes, values and errors over N-d, F and
# strided views, empty and 0-d arrays. Skipped (exit 77) without NumPy
# or Numba. test_npshape checks layouts, leaks and out of memory through the
# C API (views of locals returned, loops, errors). About 130 cases, each a
# `ufjit call` and a Numba compile: a longer timeout than one-kernel oracles.
if(Python3_Interpreter_FOUND)
  add_test(NAME npshape_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npshape_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npshape_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npshape_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 1500)
