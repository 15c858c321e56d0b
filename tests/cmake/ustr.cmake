# Run-time strings (Numba's unicode_type) inside kernels against Numba
# (tests/e2e/run_ustr_oracle.py on tests/kernels/host/ustr.py): joins,
# +, *, comparisons, in, indexing, slicing, loops, str/ord/chr, strings
# returned through `ufjit call`, the refusals. Skipped (exit 77) without
# NumPy or Numba. test_ustr checks non-ASCII kinds, errors, leaks and out
# of memory through the C API.
if(Python3_Interpreter_FOUND)
  add_test(NAME ustr_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_ustr_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME ustr_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(ustr_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
