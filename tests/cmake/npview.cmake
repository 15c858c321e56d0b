# np.flip, np.rot90, np.expand_dims, np.swapaxes, np.transpose(a, axes) ... against
# Numba (tests/e2e/run_npview_oracle.py on tests/kernels/host/npview.py):
# views inside kernels: dtypes, shapes, values and errors over N-d, F and
# strided views, empty and 0-d arrays. Skipped (exit 77) without NumPy
# or Numba. test_npview checks layouts, leaks and out of memory through the
# C API (views of locals returned, loops, errors). About 180 cases, each a
# `ufjit call` and a Numba compile: a longer timeout than one-kernel oracles.
if(Python3_Interpreter_FOUND)
  add_test(NAME npview_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npview_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npview_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npview_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 1500)
