# np.linalg of complex64 / complex128 matrices inside kernels against
# Numba (tests/e2e/run_nplinalg_complex_oracle.py on
# tests/kernels/host/nplinalg_complex.py; Numba's LAPACK through SciPy):
# dtypes, shapes, values to n eps cond and errors over square, strided,
# Fortran-ordered, empty, singular and non-finite matrices. Skipped (exit
# 77) without NumPy or Numba. test_nplinalg_complex checks the runtime
# itself (common/nplinalg_complex.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME nplinalg_complex_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nplinalg_complex_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nplinalg_complex_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nplinalg_complex_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
