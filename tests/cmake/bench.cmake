# bench_smoke: the benchmark suite (bench/run.py --smoke) on tiny sizes and
# a few cases, so the harness cannot rot between `make bench` runs: every C
# program of bench/ answers its commands with parseable JSON, every result
# matches NumPy's, and RESULTS.md and the chart are written (under the
# build tree, never bench/). Timings are not checked. Uses the build's
# bench-venv when `make bench` made one, else the system Python; peers
# that are not installed (numexpr, Numba, matplotlib) are left out and
# named; no NumPy: skipped (77).
if(Python3_Interpreter_FOUND)
  add_test(NAME bench_smoke
    COMMAND ${CMAKE_COMMAND} -E env --unset=BENCH_QUICK --unset=BENCH_PYENV
            ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/run.py
            ${CMAKE_BINARY_DIR} --smoke)
else()
  add_test(NAME bench_smoke COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(bench_smoke PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# bench_selftest: the harness's own logic without timings (bench/selftest.py):
# only a full run may write bench/RESULTS.md, goals use the default (libmvec)
# contenders, issue 4's goal rows from a made-up run. 77 without NumPy.
if(Python3_Interpreter_FOUND)
  add_test(NAME bench_selftest
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/selftest.py)
  set_tests_properties(bench_selftest PROPERTIES SKIP_RETURN_CODE 77
                                                 TIMEOUT 60)
endif()
