# Numba as the oracle for the compiler's typing rules (compiler/types/types.h):
# - types_numba_fresh: regenerates tests/data/numba_typing.txt with the
#   installed Numba and runs test_types and test_signature on it, so the C
#   rules and Numba cannot drift apart;
# - types_table_committed: the committed table still equals what Numba
#   gives (regenerate it with tests/gen/numba_typing.py -o otherwise).
# test_types and test_signature always run on the committed copy. Without
# Numba the script exits 77 and both show as skipped.
set(UF_TYPES_GEN ${UF_TEST_SOURCE_DIR}/gen/numba_typing.py)
set(UF_TYPES_FRESH ${UF_TEST_BINARY_DIR}/numba_typing.txt)

if(Python3_Interpreter_FOUND)
  add_test(NAME types_numba_fresh COMMAND sh -c
    "\"$0\" \"$1\" -o \"$2\" || exit $?; \"$3\" \"$2\" && exec \"$4\" \"$2\""
    ${Python3_EXECUTABLE} ${UF_TYPES_GEN} ${UF_TYPES_FRESH}
    $<TARGET_FILE:test_types> $<TARGET_FILE:test_signature>)
  add_test(NAME types_table_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_TYPES_GEN}
            --check ${UF_TEST_SOURCE_DIR}/data/numba_typing.txt)
else()
  foreach(t types_numba_fresh types_table_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(types_numba_fresh types_table_committed
                     PROPERTIES SKIP_RETURN_CODE 77)
