# dtypes as values, array parts (.real/.imag/.conj()) and the builtins
# min/max/sum inside kernels against Numba
# (tests/e2e/run_arrattr_oracle.py on tests/kernels/host/arrattr.py):
# values, dtypes, shapes, errors at FILE:LINE:COL; skipped (exit 77) without
# NumPy or Numba. test_arrattr checks the C API: a dtype returned through
# uf_call is refused, views share memory, nothing leaks.
if(Python3_Interpreter_FOUND)
  add_test(NAME arrattr_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_arrattr_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME arrattr_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(arrattr_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)
