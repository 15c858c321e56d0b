# Reductions (reduce/, compiler/host/jit_reduce.c): NumPy's ufunc methods on
# vectorize kernels and @cuda.reduce kernels, against Numba and NumPy.
# Every test name contains "reduce".
# - test_reduce (registered by the glob) runs the committed oracle
#   tests/data/reduce_cases.txt plus its own checks.
# - reduce_oracle_fresh: the oracle regenerated with the installed Numba
#   and NumPy, then test_reduce run on it.
# - reduce_oracle_committed: the committed file still matches them.
# - reduce_cli_oracle: every case end to end through `ufjit call`, and the
#   accuracy of float sums of 1e6+ elements against math.fsum.
# The Python ones exit 77 (skipped, with the reason) without Numba/NumPy.
set(UF_REDUCE_ORACLE ${UF_TEST_SOURCE_DIR}/e2e/run_reduce_oracle.py)
set(UF_REDUCE_PY_TESTS reduce_oracle_fresh reduce_oracle_committed
                       reduce_cli_oracle)
if(Python3_Interpreter_FOUND)
  add_test(NAME reduce_oracle_fresh
    COMMAND ${CMAKE_COMMAND} -E env NUMBA_ENABLE_CUDASIM=1
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_REDUCE_ORACLE}
            --write ${UF_TEST_BINARY_DIR}/reduce_cases.txt
            --run $<TARGET_FILE:test_reduce>)
  add_test(NAME reduce_oracle_committed
    COMMAND ${CMAKE_COMMAND} -E env NUMBA_ENABLE_CUDASIM=1
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_REDUCE_ORACLE}
            --check ${UF_TEST_SOURCE_DIR}/data/reduce_cases.txt)
  # @cuda.reduce kernels run on their default target, cuda: the
  # simulator here, as Numba's oracle runs them on its own
  add_test(NAME reduce_cli_oracle
    COMMAND ${CMAKE_COMMAND} -E env NUMBA_ENABLE_CUDASIM=1
            UFJIT_ENABLE_CUDASIM=1
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_REDUCE_ORACLE}
            --cli $<TARGET_FILE:ufjit_cli>)
else()
  foreach(t ${UF_REDUCE_PY_TESTS})
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(${UF_REDUCE_PY_TESTS} PROPERTIES SKIP_RETURN_CODE 77
                                                       TIMEOUT 900)
