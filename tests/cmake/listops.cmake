# Operations on lists of numbers inside kernels (l.sort(), sorted(x))
# against Numba (tests/e2e/run_listops_oracle.py on
# tests/kernels/host/listops.py): every dtype, NaN and -0.0 placement,
# reverse, empty lists, refusals. Skipped (exit 77) without NumPy or Numba.
# test_listops checks leaks and out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME listops_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_listops_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME listops_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(listops_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
