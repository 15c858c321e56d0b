# np.insert inside kernels against Numba
# (tests/e2e/run_npinsert_oracle.py on tests/kernels/host/npinsert.py):
# obj an integer, an array or a tuple; values numbers, arrays and tuples
# cast into arr's dtype; N-d, F and strided views, empty arrays, Numba's
# IndexError and ValueError, and the forms Numba refuses. Skipped (exit
# 77) without NumPy or Numba.
if(Python3_Interpreter_FOUND)
  add_test(NAME npinsert_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npinsert_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npinsert_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npinsert_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
