# NumPy as the oracle for broadcasting and for the layout of copies
# (ndarray/broadcast.c, ndarray/copy.c):
# - broadcast_numpy_fresh / copy_numpy_fresh: regenerate the cases with the
#   installed NumPy and run test_broadcast / test_copy on them, so the C
#   code and NumPy cannot drift apart;
# - broadcast_data_committed / copy_data_committed: the committed files in
#   tests/data still equal what NumPy gives (regenerate them otherwise).
# test_broadcast and test_copy always run on the committed copies. Without
# NumPy the scripts exit 77 and these show as skipped.
foreach(area broadcast copy)
  if(area STREQUAL "broadcast")
    set(gen ${UF_TEST_SOURCE_DIR}/gen/broadcast_shapes.py)
    set(data broadcast_shapes.txt)
  else()
    set(gen ${UF_TEST_SOURCE_DIR}/gen/copy_layout.py)
    set(data copy_layout.txt)
  endif()
  if(Python3_Interpreter_FOUND)
    add_test(NAME ${area}_numpy_fresh
      COMMAND ${Python3_EXECUTABLE} ${gen} ${UF_TEST_BINARY_DIR}/${data}
              --run $<TARGET_FILE:test_${area}>)
    add_test(NAME ${area}_data_committed
      COMMAND ${Python3_EXECUTABLE} ${gen}
              --check ${UF_TEST_SOURCE_DIR}/data/${data})
  else()
    foreach(t ${area}_numpy_fresh ${area}_data_committed)
      add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
    endforeach()
  endif()
  set_tests_properties(${area}_numpy_fresh ${area}_data_committed
                       PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
