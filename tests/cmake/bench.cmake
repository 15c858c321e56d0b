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

# The CUDA benchmarks' programs (bench/cuda/): cuda_bench runs every case
# on cudasim (tiny sizes: the GPU run's code path, without its timings);
# cuda_compile compiles a kernel on both backends (libnvvm absent: said in
# its line, NVPTX still compiles). Label cuda: the GPU kit carries them,
# so bench/cuda/run.py finds them there.
set(UF_CUDA_BENCH_KERNELS ${PROJECT_SOURCE_DIR}/bench/cuda/kernels.py)
add_test(NAME cuda_bench
  COMMAND cuda_bench ${UF_CUDA_BENCH_KERNELS} --target cudasim --n 1000
          --calls 1 --rounds 1 triad:float32 rel_diff:float64
          gaussian_pdf:float32 polar_distance:float64 sine:float32
          copy:float64 small:float32)
set_tests_properties(cuda_bench PROPERTIES LABELS cuda TIMEOUT 120
  PASS_REGULAR_EXPRESSION "\"case\": \"small\", \"dtype\": \"float32\", \"n\": 10, \"us\""
  FAIL_REGULAR_EXPRESSION "\"error\"")
add_test(NAME cuda_compile
  COMMAND cuda_compile ${UF_CUDA_BENCH_KERNELS} --reps 1 sine
          "float32(float32)" polar_distance
          "float64(float64, float64, float64, float64)")
set_tests_properties(cuda_compile PROPERTIES LABELS cuda TIMEOUT 120
  PASS_REGULAR_EXPRESSION "\"name\": \"polar_distance\".*\"nvptx_ms\""
  FAIL_REGULAR_EXPRESSION "\"error\"")
# bench/cuda/run.py's report from this build (no GPU part): the table and
# the compile times are written, under the build tree.
if(Python3_Interpreter_FOUND)
  add_test(NAME cuda_bench_report
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/cuda/run.py
            ${CMAKE_BINARY_DIR} --quick --no-gpu
            --out ${CMAKE_BINARY_DIR}/bench-cuda-test)
  set_tests_properties(cuda_bench_report PROPERTIES TIMEOUT 300
    PASS_REGULAR_EXPRESSION "## Compile time of one more CUDA signature|Not measured: no ptxas")
endif()
