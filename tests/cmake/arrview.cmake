# a.view(dtype), np.frombuffer and isinstance inside kernels against
# Numba (tests/e2e/run_arrview_oracle.py on tests/kernels/host/arrview.py):
# every itemsize pair over C, F, strided, empty and 0-d arrays, writes
# through views, the branches isinstance prunes. Skipped (exit 77) without
# NumPy or Numba. test_arrview checks strides, the base kept alive and
# leaks through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME arrview_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_arrview_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME arrview_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(arrview_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
