# NumPy as the oracle for broadcasting, the iterator's layout and the
# layout of copies (ndarray/broadcast.c, iter.c, copy.c):
# - <area>_numpy_fresh: regenerates the cases with the installed NumPy and
#   runs test_<area> on them, so the C code and NumPy cannot drift apart;
# - <area>_data_committed: the committed file in tests/data still equals
#   what NumPy gives (regenerate it with the script otherwise).
# test_broadcast, test_iter and test_copy always run on the committed
# copies. Without NumPy the scripts exit 77 and these show as skipped.
set(UF_ITER_ORACLES
    "broadcast:broadcast_shapes" "iter:iter_order" "copy:copy_layout")
foreach(pair ${UF_ITER_ORACLES})
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 area)
  list(GET pair 1 name)
  set(gen ${UF_TEST_SOURCE_DIR}/gen/${name}.py)
  if(Python3_Interpreter_FOUND)
    add_test(NAME ${area}_numpy_fresh
      COMMAND ${Python3_EXECUTABLE} ${gen} ${UF_TEST_BINARY_DIR}/${name}.txt
              --run $<TARGET_FILE:test_${area}>)
    add_test(NAME ${area}_data_committed
      COMMAND ${Python3_EXECUTABLE} ${gen}
              --check ${UF_TEST_SOURCE_DIR}/data/${name}.txt)
  else()
    foreach(t ${area}_numpy_fresh ${area}_data_committed)
      add_test(NAME ${t}
               COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
    endforeach()
  endif()
  set_tests_properties(${area}_numpy_fresh ${area}_data_committed
                       PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
