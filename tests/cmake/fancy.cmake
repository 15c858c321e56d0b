# Advanced indexing inside kernels against Numba, NumPy where Numba reads
# out of bounds (tests/e2e/run_fancy_oracle.py on tests/kernels/host/fancy.py):
# a[idx], a[mask], several integer arrays broadcast together (a[i, j],
# a[i, :, j], a[i[:, None], j]), with integers, slices, None, an ellipsis,
# stores and augmented stores, lists as np.array's argument, over dtypes,
# N-d, F and strided views, empty arrays, NaN and inf. Skipped (exit 77)
# without NumPy or Numba. test_fancy checks layouts, leaks and out of memory
# through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME fancy_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_fancy_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME fancy_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(fancy_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
