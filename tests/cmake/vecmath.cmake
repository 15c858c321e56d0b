# Vector math per library and ISA, and the CPU-feature override that forces
# the narrower ISA (UFJIT_CPU_FEATURES, compiler/host/jit_cpu.h):
# - test_mvec_isa (tests/test_mvec_isa.c): every vector-math ISA path this
#   machine runs, forced, checked against libm and the widest path;
# - cli_cpu_override: inspect --asm shows the forced AVX2 calls, sysinfo the
#   override, bad values are errors;
# - kernels_numba_oracle_mvec_avx2: the math kernels against Numba with
#   AVX2 forced (on an AVX-512 CPU; the same as the default run elsewhere).
add_test(NAME cli_cpu_override
  COMMAND bash ${UF_TEST_SOURCE_DIR}/cli/cli_cpu_override.sh
          $<TARGET_FILE:ufjit_cli>)
set_tests_properties(cli_cpu_override PROPERTIES TIMEOUT 120
                     ENVIRONMENT "UFJIT_CPU_NAME=;UFJIT_CPU_FEATURES=")
if(Python3_Interpreter_FOUND)
  add_test(NAME kernels_numba_oracle_mvec_avx2
    COMMAND ${CMAKE_COMMAND} -E env
            NUMBA_CACHE_DIR=${UF_NUMBA_CACHE_DIR}
            UFJIT_CPU_FEATURES=-avx512f
            ${Python3_EXECUTABLE} ${UF_TEST_SOURCE_DIR}/e2e/run_numba_oracle.py
            $<TARGET_FILE:ufjit_cli> -k math_funcs. --mvec-ulps 4)
else()
  add_test(NAME kernels_numba_oracle_mvec_avx2
    COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
endif()
set_tests_properties(kernels_numba_oracle_mvec_avx2 PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 900)

# test_mvec_ulp again on the other libraries and ISAs the JIT can pick:
# libmvec alone (UFJIT_ENABLE_SLEEF=0: test_sleef_covered says skipped and
# why) and AVX2 forced on an AVX-512 CPU (libmvec's _ZGVd* variants, SLEEF's
# AVX2 choices).
add_test(NAME test_mvec_ulp_libmvec COMMAND test_mvec_ulp)
set_tests_properties(test_mvec_ulp_libmvec PROPERTIES
                     ENVIRONMENT "UFJIT_ENABLE_SLEEF=0")
add_test(NAME test_mvec_ulp_avx2 COMMAND test_mvec_ulp)
set_tests_properties(test_mvec_ulp_avx2 PROPERTIES
                     ENVIRONMENT "UFJIT_CPU_FEATURES=-avx512f")

# ufjit's inline exp (compiler/host/codegen_host_inline.c) forced on
# wherever the CPU has AVX2 and FMA (UFJIT_INLINE_VECMATH=1; the default
# uses it only where measured faster): test_mvec_ulp's rows and every ISA
# path of test_mvec_isa then run it (tests/test_inline_vecmath.c forces it
# itself).
add_test(NAME test_mvec_ulp_inline COMMAND test_mvec_ulp)
set_tests_properties(test_mvec_ulp_inline PROPERTIES
                     ENVIRONMENT "UFJIT_INLINE_VECMATH=1")
add_test(NAME test_mvec_isa_inline COMMAND test_mvec_isa)
set_tests_properties(test_mvec_isa_inline PROPERTIES
                     ENVIRONMENT "UFJIT_INLINE_VECMATH=1")
