# Matrix products (np.dot / @ with a 2-D operand) and reductions over an
# axis inside kernels against Numba (tests/e2e/run_npaxis_oracle.py on
# tests/kernels/host/dot2d.py and axis_reductions.py): njit and
# guvectorize through `ufjit call`, dtypes and shapes exact, floats within
# a tolerance, Numba's exceptions; skipped (exit 77) without NumPy or
# Numba. test_matmul checks layouts, empty sizes, NaN and leaks through
# the C API.
foreach(which dot2d axis)
  if(Python3_Interpreter_FOUND)
    add_test(NAME npaxis_${which}_numba_oracle
      COMMAND ${CMAKE_COMMAND} -E env
              NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
              ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_npaxis_oracle.py
              $<TARGET_FILE:ufjit_cli> ${which})
  else()
    add_test(NAME npaxis_${which}_numba_oracle
      COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endif()
  set_tests_properties(npaxis_${which}_numba_oracle PROPERTIES
                       SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
