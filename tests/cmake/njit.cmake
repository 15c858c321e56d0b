# Plain njit functions and arrays inside kernels against Numba
# (tests/e2e/run_njit_oracle.py; kernels tests/kernels/arrays_*.py and
# njit_*.py). test_plain_call always runs the committed table
# tests/data/njit_oracle.txt through uf_call; these need Numba (exit 77,
# skipped, without it):
# - njit_numba_oracle: every case through `ufjit call` and Numba now,
#   compared bit for bit, error messages included (glibc's libmvec off,
#   UFJIT_ENABLE_LIBMVEC=0: Numba calls the scalar libm);
# - njit_numba_committed: the committed table still equals what Numba
#   gives (regenerate with `run_njit_oracle.py --write FILE`).
set(UF_NJIT_ORACLE ${UF_TEST_SOURCE_DIR}/e2e/run_njit_oracle.py)

if(Python3_Interpreter_FOUND)
  add_test(NAME njit_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            UFJIT_ENABLE_LIBMVEC=0
            ${Python3_EXECUTABLE} ${UF_NJIT_ORACLE} $<TARGET_FILE:ufjit_cli>)
  if(UFJIT_SANITIZE)  # no ufjit code runs in it: the normal build's
    add_test(NAME njit_numba_committed COMMAND sh -c
             "echo 'SKIP: Numba against a committed table, no ufjit code: the normal build runs it'; exit 77")
  else()
    add_test(NAME njit_numba_committed
      COMMAND ${Python3_EXECUTABLE} ${UF_NJIT_ORACLE}
              --check ${UF_TEST_SOURCE_DIR}/data/njit_oracle.txt)
  endif()
else()
  foreach(t njit_numba_oracle njit_numba_committed)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(njit_numba_oracle njit_numba_committed
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
