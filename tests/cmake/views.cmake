# test_views against NumPy: the committed oracle is always used by
# test_views itself; these regenerate it with the installed NumPy, run the
# C code on the fresh copy, and check the committed copy has not drifted.
set(UF_VIEWS_GEN ${UF_TEST_SOURCE_DIR}/gen/views_cases.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME views_numpy_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_VIEWS_GEN}
            ${UF_TEST_BINARY_DIR}/views_numpy.txt
            --run $<TARGET_FILE:test_views>)
  add_test(NAME views_numpy_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_VIEWS_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/views_numpy.txt)
else()
  foreach(t views_numpy_fresh views_numpy_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(views_numpy_fresh views_numpy_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
