# NumPy as the oracle for .npy files (tests/gen/make_npy.py):
# - npy_numpy_fresh: NumPy writes every dtype x C/F x byte order x version
#   x shape, hand-written headers, and header bytes overwritten one at a
#   time with its verdict on each; test_npy must agree on all of them;
# - npy_numpy_readback: ufjit saves strided, reversed, broadcast, empty and
#   0-d arrays; NumPy loads each and np.save must give the same bytes;
# - npy_data_committed: tests/data/npy (which test_npy always reads) is
#   still what NumPy writes (regenerate with `make_npy.py gen DIR --small`).
# Without NumPy the script exits 77 and these show as skipped.
set(UF_NPY_GEN ${UF_TEST_SOURCE_DIR}/gen/make_npy.py)

set(UF_NPY_TESTS npy_numpy_fresh npy_numpy_readback npy_data_committed)
if(Python3_Interpreter_FOUND)
  add_test(NAME npy_numpy_fresh COMMAND sh -c
    "\"$0\" \"$1\" gen \"$2\" || exit $?; exec \"$3\" \"$2\""
    ${Python3_EXECUTABLE} ${UF_NPY_GEN} ${UF_TEST_BINARY_DIR}/npy_fresh
    $<TARGET_FILE:test_npy>)
  add_test(NAME npy_numpy_readback
    COMMAND ${Python3_EXECUTABLE} ${UF_NPY_GEN} check
            $<TARGET_FILE:test_npy> ${UF_TEST_BINARY_DIR}/npy_saved)
  add_test(NAME npy_data_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_NPY_GEN} compare
            ${UF_TEST_SOURCE_DIR}/data/npy ${UF_TEST_BINARY_DIR}/npy_small)
else()
  foreach(t ${UF_NPY_TESTS})
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(${UF_NPY_TESTS} PROPERTIES SKIP_RETURN_CODE 77)
