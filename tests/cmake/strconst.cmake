# Strings known at compile time inside kernels (Numba's Literal[str]) against
# Numba (tests/e2e/run_strconst_oracle.py on tests/kernels/host/strconst.py):
# folds, pruning, per-value callees, keyword values, messages, and the
# run-time strings refused. Skipped (exit 77) without NumPy or Numba.
# test_strconst checks the C API's refusals and leaks.
if(Python3_Interpreter_FOUND)
  add_test(NAME strconst_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_strconst_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME strconst_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(strconst_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
