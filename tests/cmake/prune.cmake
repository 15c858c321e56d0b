# Branch pruning (compiler/types/infer_prune.c) against Numba: every kernel of
# tests/kernels/prune.py through `ufjit call` and Numba, compared bit for
# bit, and the kernels Numba refuses because it does not prune them must
# fail in ufjit too (tests/e2e/run_prune_oracle.py; exit 77, skipped,
# without NumPy/Numba). test_prune runs the same rules without Python.
if(Python3_Interpreter_FOUND)
  add_test(NAME prune_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_prune_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME prune_numba_oracle
           COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(prune_numba_oracle PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 300)
