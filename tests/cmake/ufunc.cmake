# test_ufunc_call against NumPy: test_ufunc_call itself always runs on the
# committed tests/data/ufunc_numpy.txt; these regenerate the oracle with
# the installed NumPy, run the C code on the fresh copy, and check the
# committed copy has not drifted. Without NumPy they show as skipped.
set(UF_UFUNC_GEN ${UF_TEST_SOURCE_DIR}/gen/ufunc_cases.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME ufunc_numpy_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_UFUNC_GEN}
            ${UF_TEST_BINARY_DIR}/ufunc_numpy.txt
            --run $<TARGET_FILE:test_ufunc_call>)
  add_test(NAME ufunc_numpy_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_UFUNC_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/ufunc_numpy.txt)
else()
  foreach(t ufunc_numpy_fresh ufunc_numpy_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(ufunc_numpy_fresh ufunc_numpy_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
