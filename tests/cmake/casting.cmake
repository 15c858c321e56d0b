# NumPy as the oracle for casting rules, promotion and cast loops:
# - casting_numpy_fresh: regenerates the table with the installed NumPy and
#   runs test_casting on it, so C code and NumPy cannot drift apart;
# - casting_table_committed: the committed tests/data/casting_table.txt
#   still equals what NumPy gives (regenerate it with the script otherwise).
# test_casting itself always runs on the committed copy. Without NumPy the
# script exits 77 and both show as skipped.
set(UF_CASTING_GEN ${UF_TEST_SOURCE_DIR}/gen/casting_table.py)
set(UF_CASTING_FRESH ${UF_TEST_BINARY_DIR}/casting_table.txt)

if(Python3_Interpreter_FOUND)
  add_test(NAME casting_numpy_fresh COMMAND sh -c
    "\"$0\" \"$1\" -o \"$2\" || exit $?; exec \"$3\" \"$2\""
    ${Python3_EXECUTABLE} ${UF_CASTING_GEN} ${UF_CASTING_FRESH}
    $<TARGET_FILE:test_casting>)
  add_test(NAME casting_table_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_CASTING_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/casting_table.txt)
else()
  foreach(t casting_numpy_fresh casting_table_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(casting_numpy_fresh casting_table_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
