# np.median / np.nanmedian / np.percentile / np.nanpercentile / np.quantile
# / np.nanquantile inside kernels against Numba
# (tests/e2e/run_npselect_oracle.py on tests/kernels/host/npselect.py):
# dtypes, N-d and strided views, NaN and infinities (Numba's selection
# order decides np.median of NaN: compared bit for bit), q forms, empty
# arrays and errors. Skipped (exit 77) without NumPy or Numba.
# test_npselect checks the selection runtime itself (common/npselect.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME npselect_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_npselect_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME npselect_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npselect_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)
