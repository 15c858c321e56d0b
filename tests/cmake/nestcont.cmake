# Nested typed containers against Numba (tests/e2e/run_nestcont_oracle.py
# on tests/kernels/host/nestcont.py): dicts of typed lists and of dicts,
# lists of typed lists and of dicts, container types bound at module
# level, values mutated in place through d[k], and Numba's refusals.
# Skipped (exit 77) without NumPy or Numba. test_nestcont checks leaks and
# out of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME nestcont_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nestcont_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nestcont_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nestcont_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
