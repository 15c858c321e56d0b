# The vectorize call path on the CUDA targets (ufunc/cuda_call.c) and the
# device arrays under it: cudasim against cpu, and the real driver table
# through the fake libcuda (tests/cuda/) for the driver's failures.
foreach(t test_cuda_arrays test_cuda_vectorize test_cuda_vectorize_calls)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS cuda)
  endif()
endforeach()

# The same tests on a GPU (scripts/gpu-check.sh runs them there): target
# `cuda`, math compared within measured bounds, not bit for bit; skipped
# (exit 77) where there is no driver and no UFJIT_ENABLE_CUDASIM=1.
foreach(t test_cuda_arrays test_cuda_vectorize test_cuda_vectorize_calls)
  if(TEST ${t})
    add_test(NAME ${t}_gpu COMMAND ${t})
    set_tests_properties(${t}_gpu PROPERTIES LABELS cuda
      ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
  endif()
endforeach()

# The cuda target's call path through the real driver table and the fake
# libcuda (tests/cuda/): one process per scenario, since the runtime is
# made once per process. Without an argument: no driver at all.
add_dependencies(test_cuda_fake_driver fake_cuda)
target_compile_definitions(test_cuda_fake_driver PRIVATE
  UF_FAKE_CUDA="${UF_FAKE_CUDA_PATH}")
target_link_libraries(test_cuda_fake_driver PRIVATE ${CMAKE_DL_LIBS})
set_tests_properties(test_cuda_fake_driver PROPERTIES LABELS cuda)
foreach(scenario nodevice launch oom launchfail index32)
  add_test(NAME test_cuda_fake_driver_${scenario}
           COMMAND test_cuda_fake_driver ${scenario})
  set_tests_properties(test_cuda_fake_driver_${scenario} PROPERTIES
                       LABELS cuda)
endforeach()
# Under ASan the launch scenario runs without the leak check: at exit
# LeakSanitizer's tracer faults (signal 11) scanning the dynamic TLS block
# it recorded for libnvvm.so (DTLS at 0x27a-0x200000137c, a bogus range),
# after the test itself passed; with TLS scanning off instead it reports
# glibc's dlopen and pthread_setspecific blocks. Seen first in session 22
# (fresh clone, every run); launchfail and index32 take the same compile
# path with the leak check on.
if(UFJIT_SANITIZE)
  set_tests_properties(test_cuda_fake_driver_launch PROPERTIES ENVIRONMENT
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0")
endif()

# ufjit call --target cudasim|cuda against --target cpu, and cuda without
# a driver (no NumPy needed: inputs made by `ufjit npy convert`).
add_test(NAME cli_cuda_call
  COMMAND bash ${UF_TEST_SOURCE_DIR}/cli/cli_cuda_call.sh
          $<TARGET_FILE:ufjit_cli> ${UF_TEST_SOURCE_DIR}/kernels
          ${UF_TEST_SOURCE_DIR}/cli/data)
set_tests_properties(cli_cuda_call PROPERTIES LABELS cuda)
