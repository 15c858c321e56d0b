# np.interp inside kernels against Numba
# (tests/e2e/run_npnum_oracle.py on tests/kernels/host/npnum.py): dtypes of
# x, xp and fp, N-d and strided views, NaN and infinities in x and the
# table (compared bit for bit), complex fp, numbers and tuples, errors.
# Skipped (exit 77) without NumPy or Numba. test_npnum checks the runtime
# itself (common/npnum.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME npnum_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npnum_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npnum_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npnum_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
