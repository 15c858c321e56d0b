# test_gufunc_call against NumPy: test_gufunc_call itself always runs on
# the committed tests/data/gufunc_call.txt; these regenerate the oracle with
# the installed NumPy (numpy._core._umath_tests' gufuncs), run the C code on
# the fresh copy, and check the committed copy has not drifted. Without
# NumPy they show as skipped.
set(UF_GUFUNC_CALL_GEN ${UF_TEST_SOURCE_DIR}/gen/gen_gufunc_call.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME gufunc_call_numpy_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_GUFUNC_CALL_GEN}
            ${UF_TEST_BINARY_DIR}/gufunc_call.txt
            --run $<TARGET_FILE:test_gufunc_call>)
  add_test(NAME gufunc_call_numpy_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_GUFUNC_CALL_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/gufunc_call.txt)
else()
  foreach(t gufunc_call_numpy_fresh gufunc_call_numpy_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(gufunc_call_numpy_fresh gufunc_call_numpy_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
