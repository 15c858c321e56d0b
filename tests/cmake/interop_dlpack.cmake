# DLPack 1.1 (interop/): test_interop_dlpack runs its device half on
# cudasim; the *_gpu run (scripts/gpu-check.sh) the same on target `cuda`,
# skipped (exit 77) where there is no driver and no UFJIT_ENABLE_CUDASIM=1.
# dlpack_numpy: NumPy's own from_dlpack and __dlpack__ against ufjit's
# through ctypes (skipped, exit 77, without NumPy).
if(TEST test_interop_dlpack)
  set_tests_properties(test_interop_dlpack PROPERTIES LABELS "cuda;interop")
  add_test(NAME test_interop_dlpack_gpu COMMAND test_interop_dlpack)
  set_tests_properties(test_interop_dlpack_gpu PROPERTIES
    LABELS "cuda;interop"
    ENVIRONMENT UFJIT_TEST_CUDA_TARGET=cuda SKIP_RETURN_CODE 77)
endif()

if(Python3_Interpreter_FOUND)
  add_test(NAME dlpack_numpy
    COMMAND ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/interop/dlpack_numpy.py
            $<TARGET_FILE:ufjit>)
else()
  add_test(NAME dlpack_numpy
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(dlpack_numpy PROPERTIES LABELS interop
                     SKIP_RETURN_CODE 77)
uf_ctypes_test(dlpack_numpy)

# bench/bench_dlpack.c on a few rounds, so that it cannot rot.
add_test(NAME bench_dlpack_smoke COMMAND bench_dlpack 100)
set_tests_properties(bench_dlpack_smoke PROPERTIES LABELS "interop;bench")
