# test_print also runs on a corpus freshly written by the installed NumPy,
# so a change in NumPy's printing shows up as a failure, not as a stale
# committed file. Skipped (77) when NumPy is missing.
if(Python3_Interpreter_FOUND)
  add_test(NAME print_numpy_fresh
    COMMAND ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/gen/print_cases.py
            ${UF_TEST_BINARY_DIR}/print_cases_fresh.txt
            --check $<TARGET_FILE:test_print>)
else()
  add_test(NAME print_numpy_fresh COMMAND sh -c
    "echo 'SKIP: no Python 3 interpreter'; exit 77")
endif()
set_tests_properties(print_numpy_fresh PROPERTIES SKIP_RETURN_CODE 77)
