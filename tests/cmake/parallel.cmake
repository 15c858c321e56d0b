# The parallel runtime and the parallel ufunc target under each threading
# layer: the test binaries read UFJIT_THREADING_LAYER / UFJIT_NUM_THREADS
# to know what to expect (the plain runs, with neither set, check the
# default layer and thread count). A bad layer name or thread count must
# be reported through uf_error by every parallel call, never crash.
foreach(layer omp tbb serial bogus)
  add_test(NAME parallel_layer_${layer}
    COMMAND ${CMAKE_COMMAND} -E env UFJIT_THREADING_LAYER=${layer}
            $<TARGET_FILE:test_parallel>)
  if(TARGET test_ufunc_parallel)
    add_test(NAME ufunc_parallel_layer_${layer}
      COMMAND ${CMAKE_COMMAND} -E env UFJIT_THREADING_LAYER=${layer}
              $<TARGET_FILE:test_ufunc_parallel>)
  endif()
endforeach()
add_test(NAME parallel_num_threads_3
  COMMAND ${CMAKE_COMMAND} -E env UFJIT_NUM_THREADS=3
          $<TARGET_FILE:test_parallel>)
add_test(NAME parallel_num_threads_bad
  COMMAND ${CMAKE_COMMAND} -E env UFJIT_NUM_THREADS=two
          $<TARGET_FILE:test_parallel>)

# `ufjit sysinfo` reports the layers built in, the one in use and the
# thread count, or the configuration error.
add_test(NAME parallel_sysinfo
  COMMAND ${CMAKE_COMMAND} -E env UFJIT_THREADING_LAYER=tbb
          UFJIT_NUM_THREADS=7 $<TARGET_FILE:ufjit_cli> sysinfo)
set_tests_properties(parallel_sysinfo PROPERTIES PASS_REGULAR_EXPRESSION
  "Layers built in +: omp tbb serial\n  Layer in use +: tbb \\(UFJIT_THREADING_LAYER\\)\n  Threads +: 7 \\(UFJIT_NUM_THREADS\\)\n")
add_test(NAME parallel_sysinfo_default
  COMMAND ${CMAKE_COMMAND} -E env --unset=UFJIT_THREADING_LAYER
          --unset=UFJIT_NUM_THREADS $<TARGET_FILE:ufjit_cli> sysinfo)
set_tests_properties(parallel_sysinfo_default PROPERTIES
  PASS_REGULAR_EXPRESSION
  "Layer in use +: tbb \\(the default: fastest built in\\)\n  Threads +: [1-9][0-9]* \\(the CPUs this process may use\\)\n")
add_test(NAME parallel_sysinfo_bad_layer
  COMMAND ${CMAKE_COMMAND} -E env UFJIT_THREADING_LAYER=gpu
          $<TARGET_FILE:ufjit_cli> sysinfo)
set_tests_properties(parallel_sysinfo_bad_layer PROPERTIES
  PASS_REGULAR_EXPRESSION
  "Layer in use +: none: UFJIT_THREADING_LAYER='gpu' is not a threading layer \\(choose omp, tbb, serial or default; built: omp tbb serial\\)\n")
