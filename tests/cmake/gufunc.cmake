# test_gufunc_layout against NumPy: the committed oracle is always used by
# test_gufunc_layout itself; these regenerate it with the installed NumPy,
# run the C code on the fresh copy, and check the committed copy has not
# drifted.
set(UF_GUFUNC_GEN ${UF_TEST_SOURCE_DIR}/gen/gufunc_cases.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME gufunc_numpy_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_GUFUNC_GEN}
            ${UF_TEST_BINARY_DIR}/gufunc_cases.txt
            --run $<TARGET_FILE:test_gufunc_layout>)
  add_test(NAME gufunc_numpy_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_GUFUNC_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/gufunc_cases.txt)
else()
  foreach(t gufunc_numpy_fresh gufunc_numpy_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(gufunc_numpy_fresh gufunc_numpy_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
