# Numba as the oracle for NumPy ufuncs on scalars (tests/gen/
# npufunc_scalars.py): npufunc_numba_fresh checks that the committed
# tests/data/npufunc_scalars.txt, which test_npufunc always reads, is what
# the installed Numba gives for tests/kernels/npufunc_scalars.py
# (regenerate it with `npufunc_scalars.py -o tests/data/npufunc_scalars.txt`).
# Without Numba the script exits 77 and the test shows as skipped. No ufjit
# code runs in it, so the sanitizer build skips it (the normal build runs it).
if(UFJIT_SANITIZE)
  add_test(NAME npufunc_numba_fresh COMMAND sh -c
           "echo 'SKIP: Numba against a committed table, no ufjit code: the normal build runs it'; exit 77")
elseif(Python3_Interpreter_FOUND)
  add_test(NAME npufunc_numba_fresh
    COMMAND ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/gen/npufunc_scalars.py
            --check ${UF_TEST_SOURCE_DIR}/data/npufunc_scalars.txt)
else()
  add_test(NAME npufunc_numba_fresh
           COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(npufunc_numba_fresh PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 600)
