# np.linalg.eigh / eigvalsh / lstsq / eig / eigvals inside kernels against
# Numba (tests/e2e/run_nplinalg2_oracle.py on
# tests/kernels/host/nplinalg2.py; Numba's LAPACK through SciPy), to the
# tolerances the driver states: eigenvalues, eigenvectors by their
# defining equations, lstsq's (x, residuals, rank, s), dtypes, layouts,
# empty matrices, NaN and inf, errors. Skipped (exit 77) without NumPy or
# Numba. test_nplinalg2 checks the runtime itself (common/nplinalg_eig.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME nplinalg2_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nplinalg2_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nplinalg2_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nplinalg2_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
