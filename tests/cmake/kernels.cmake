# The kernel corpus (tests/kernels/*.py, files written for Numba) end to
# end through `ufjit call` and `ufjit inspect`. Every test name contains
# "kernels".
# - kernels_basic: results worked out by hand, read back with
#   `ufjit npy show`, and every failure path of the two commands (messages,
#   exit codes, no output left behind); needs neither NumPy nor Numba.
# - kernels_numba_oracle: each case of tests/e2e/cases.py run by ufjit and
#   by Numba on the same generated inputs, compared bit for bit (a few ulps
#   for transcendental functions). Exits 77 (skipped, with the reason) when
#   NumPy or Numba is missing. Numba's compiled kernels are cached in the
#   build tree, so runs after the first are faster. Numba (without SVML)
#   calls the scalar libm, so this run turns glibc's libmvec off
#   (UFJIT_ENABLE_LIBMVEC=0) to stay bit for bit.
# - kernels_numba_oracle_mvec: the math module cases (one function per
#   kernel, tests/kernels/math_funcs.py) with libmvec on, ufjit's default:
#   transcendental results within libmvec's 4 ulp of Numba's libm (the
#   bound tests/test_mvec_ulp.c asserts), the exact functions bit for bit.
set(UF_E2E_TESTS ${UF_TEST_SOURCE_DIR}/e2e)

add_test(NAME kernels_basic
  COMMAND bash ${UF_E2E_TESTS}/kernels_basic.sh $<TARGET_FILE:ufjit_cli>
          ${UF_TEST_SOURCE_DIR}/kernels ${UF_TEST_SOURCE_DIR}/cli/data)

if(Python3_Interpreter_FOUND)
  add_test(NAME kernels_numba_oracle
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            UFJIT_ENABLE_LIBMVEC=0
            ${Python3_EXECUTABLE} ${UF_E2E_TESTS}/run_numba_oracle.py
            $<TARGET_FILE:ufjit_cli>)
  add_test(NAME kernels_numba_oracle_mvec
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            ${Python3_EXECUTABLE} ${UF_E2E_TESTS}/run_numba_oracle.py
            $<TARGET_FILE:ufjit_cli> -k math_funcs. --mvec-ulps 4)
else()
  foreach(t kernels_numba_oracle kernels_numba_oracle_mvec)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(kernels_numba_oracle kernels_numba_oracle_mvec
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
