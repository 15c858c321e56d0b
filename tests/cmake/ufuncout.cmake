# NumPy ufuncs given their outputs positionally (np.add(x, y, out)) inside
# kernels against Numba (tests/e2e/run_ufuncout_oracle.py on
# tests/kernels/host/ufuncout.py): casts to the output's dtype, broadcast
# into it, strided and overlapping outputs, two outputs (np.divmod), and
# NumPy's errors where Numba checks nothing. Skipped (exit 77) without
# NumPy or Numba.
if(Python3_Interpreter_FOUND)
  add_test(NAME ufuncout_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_ufuncout_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME ufuncout_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(ufuncout_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
