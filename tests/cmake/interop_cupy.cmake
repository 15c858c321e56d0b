# cupy_interop: ufjit and CuPy sharing GPU memory through the CUDA Array
# Interface and DLPack, both ways (tests/interop/cupy_interop.py, through
# ctypes). Here it runs as its dry run: on cudasim, with ufjit itself in
# CuPy's place, so its structures and calls stay proven; the real check
# runs on the GPU machine (scripts/gpu-interop-kit.sh), where a `cuda` run
# without CuPy or a GPU skips (exit 77).
if(Python3_Interpreter_FOUND)
  add_test(NAME cupy_interop_cudasim
    COMMAND ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/interop/cupy_interop.py
            $<TARGET_FILE:ufjit> --target cudasim)
  add_test(NAME cupy_interop
    COMMAND ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/interop/cupy_interop.py
            $<TARGET_FILE:ufjit>)
else()
  foreach(t cupy_interop_cudasim cupy_interop)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(cupy_interop_cudasim cupy_interop PROPERTIES
                     LABELS interop SKIP_RETURN_CODE 77)
uf_ctypes_test(cupy_interop_cudasim)
uf_ctypes_test(cupy_interop)
