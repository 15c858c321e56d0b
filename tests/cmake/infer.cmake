# Numba as the oracle for type inference (tests/gen/numba_infer.py):
# infer_numba_fresh types every kernel of the table with the installed
# Numba, runs test_infer on that fresh table (so the C code and Numba
# cannot drift apart), then checks that the committed
# tests/data/numba_infer.txt (which test_infer always reads) still equals
# it (regenerate it with `numba_infer.py -o tests/data/numba_infer.txt`).
# Typing ~1400 kernels with Numba takes 10-30 s. Without Numba the script
# exits 77 and the test shows as skipped.
set(UF_INFER_GEN ${UF_TEST_SOURCE_DIR}/gen/numba_infer.py)
set(UF_INFER_FRESH ${UF_TEST_BINARY_DIR}/numba_infer.txt)

if(Python3_Interpreter_FOUND)
  add_test(NAME infer_numba_fresh COMMAND sh -c
    "\"$0\" \"$1\" -o \"$2\" || exit $?; \"$3\" \"$2\" || exit 1; exec \"$0\" \"$1\" --compare \"$4\" \"$2\""
    ${Python3_EXECUTABLE} ${UF_INFER_GEN} ${UF_INFER_FRESH}
    $<TARGET_FILE:test_infer> ${UF_TEST_SOURCE_DIR}/data/numba_infer.txt)
else()
  add_test(NAME infer_numba_fresh COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(infer_numba_fresh PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)
