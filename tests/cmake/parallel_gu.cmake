# The parallel target of gufuncs and reductions under each threading
# layer (the test binaries read UFJIT_THREADING_LAYER to know what to
# expect; the plain runs, with it unset, use the default layer). Under a
# bad layer name every parallel call must fail through uf_error, cpu calls
# must not, and nothing may crash.
foreach(t test_gufunc_parallel test_reduce_parallel)
  if(TARGET ${t})
    string(REPLACE "test_" "" area ${t})
    foreach(layer omp tbb serial bogus)
      add_test(NAME ${area}_layer_${layer}
        COMMAND ${CMAKE_COMMAND} -E env UFJIT_THREADING_LAYER=${layer}
                $<TARGET_FILE:${t}>)
    endforeach()
    add_test(NAME ${area}_num_threads_3
      COMMAND ${CMAKE_COMMAND} -E env UFJIT_NUM_THREADS=3
              $<TARGET_FILE:${t}>)
  endif()
endforeach()
