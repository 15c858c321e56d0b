# np.linalg.norm / det / slogdet / inv / solve / cholesky / qr /
# matrix_power / svd / cond / matrix_rank / pinv inside kernels against
# Numba (tests/e2e/run_nplinalg_oracle.py on tests/kernels/host/nplinalg.py;
# without SciPy, Numba's LAPACK is missing and NumPy in Numba's types is
# the reference): dtypes, F and strided views, empty matrices, NaN and
# inf, singular matrices, errors. Skipped (exit 77) without NumPy or
# Numba. test_nplinalg checks the runtime itself (common/nplinalg.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME nplinalg_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nplinalg_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nplinalg_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nplinalg_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
