# guvectorize kernels (tests/kernels/gufuncs*.py). test_guvectorize itself
# always reads the committed tests/data/guvectorize_cases.txt; these
# regenerate it with the installed NumPy and run the test on the fresh
# copy, check the committed copy has not drifted, and compare `ufjit call`
# with Numba's own guvectorize (run_gufunc_oracle.py; skipped, exit 77,
# when NumPy or Numba is missing).
set(UF_GUVEC_GEN ${UF_TEST_SOURCE_DIR}/gen/guvectorize_cases.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME guvectorize_numpy_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_GUVEC_GEN}
            ${UF_TEST_BINARY_DIR}/guvectorize_cases.txt
            --run $<TARGET_FILE:test_guvectorize>)
  add_test(NAME guvectorize_numpy_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_GUVEC_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/guvectorize_cases.txt)
  add_test(NAME guvectorize_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_gufunc_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  foreach(t guvectorize_numpy_fresh guvectorize_numpy_committed
            guvectorize_numba_oracle)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(guvectorize_numpy_fresh guvectorize_numpy_committed
                     guvectorize_numba_oracle
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
