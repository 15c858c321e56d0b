# Container operations against Numba (tests/e2e/run_containers_oracle.py
# on tests/kernels/host/containers.py): the del statement on dict and
# list items and slices, lists and sorted lists made from dicts, sets of
# tuples and of complex numbers, and what Numba refuses of them. Skipped
# (exit 77) without NumPy or Numba.
if(Python3_Interpreter_FOUND)
  add_test(NAME containers_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_containers_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME containers_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(containers_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
