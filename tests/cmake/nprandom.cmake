# np.random inside kernels against Numba (tests/e2e/run_nprandom_oracle.py
# on tests/kernels/host/nprandom.py): after np.random.seed, every draw of
# random / uniform / normal / exponential / randint / shuffle / permutation
# / choice / the other float and the integer distributions, multinomial
# and dirichlet must be Numba's bit for bit (dtype, shape, bytes), in every size
# form; Numba's ValueErrors and TypingErrors; prange bodies on each
# thread's own generator. Skipped (exit 77) without NumPy or Numba.
# test_nprandom checks the generator itself (common/nprandom.c) and the
# C API's errors, leaks and out of memory.
if(Python3_Interpreter_FOUND)
  add_test(NAME nprandom_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE}
            ${UF_TEST_SOURCE_DIR}/e2e/run_nprandom_oracle.py
            $<TARGET_FILE:ufjit_cli>)
else()
  add_test(NAME nprandom_numba_oracle
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(nprandom_numba_oracle PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
