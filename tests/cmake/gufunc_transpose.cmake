# bench_gu_transpose smoke: the A/B program of the transposed-rows gufunc
# variant (bench/bench_gu_transpose.c) on a tiny odd shape, which also
# checks that its four variants (rule and transposed, host vectors and
# AVX2) give the same bytes. Timings are not checked.
add_test(NAME bench_gu_transpose_smoke
  COMMAND bench_gu_transpose 1 8 13 21)
set_tests_properties(bench_gu_transpose_smoke PROPERTIES TIMEOUT 120
  PASS_REGULAR_EXPRESSION "load average"
  FAIL_REGULAR_EXPRESSION "differs")
