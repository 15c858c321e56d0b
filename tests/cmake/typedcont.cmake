# numba.typed.List and numba.typed.Dict inside kernels against Numba
# (tests/e2e/run_typedcont_oracle.py on tests/kernels/host/typedcont.py):
# List(), List(iterable), List.empty_list(T), Dict(), Dict.empty(K, V),
# declared types converting stores, the import forms, the refusals.
# Skipped (exit 77) without NumPy or Numba.
if(Python3_Interpreter_FOUND)
  add_test(NAME typedcont_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_typedcont_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME typedcont_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(typedcont_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
