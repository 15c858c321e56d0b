# The specialised matvec variant (compiler/host/jit_gufunc_spec.c, its
# prefetches in jit_gufunc_spec_prefetch.c) through `ufjit call` at sizes
# above the specialisation threshold, against Numba's own guvectorize, bit
# for bit (run_gufunc_spec_oracle.py; skipped, exit 77, when NumPy or
# Numba is missing). UFJIT_GUFUNC_JAM=always: the jammed variant on every
# CPU (AMD cores run large shapes unjammed: jit_gufunc_spec.c).
if(Python3_Interpreter_FOUND)
  add_test(NAME gufunc_spec_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            UFJIT_GUFUNC_JAM=always
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_gufunc_spec_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME gufunc_spec_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(gufunc_spec_numba_oracle
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
