# The ufjit command (cli/). Every test name contains "cli".
# - test_cli_util: CMocka tests of cli/cli_util.c (scalars, options, lists).
# - cli_basic: help, usage errors and exit codes, sysinfo fields, the demo
#   (every section, an "[ok]" line per kernel result checked against C, a
#   refused step that does not stop the tour), and npy show/convert on the
#   committed NumPy-made files in tests/cli/data; needs no NumPy.
# - cli_data_committed: tests/cli/data still matches what NumPy gives.
# - cli_npy_show, cli_npy_convert, cli_demo_numpy: NumPy as the live oracle
#   for many more arrays and option combinations, and a replay of the demo.
# The Python ones exit 77 (skipped) when NumPy is missing.
set(UF_CLI_TESTS ${UF_TEST_SOURCE_DIR}/cli)

add_executable(test_cli_util ${UF_CLI_TESTS}/test_cli_util.c
                             ${PROJECT_SOURCE_DIR}/cli/cli_util.c)
target_link_libraries(test_cli_util PRIVATE ufjit_static PkgConfig::CMOCKA)
target_include_directories(test_cli_util PRIVATE ${PROJECT_SOURCE_DIR}
                                                 ${UF_TEST_SOURCE_DIR})
target_compile_definitions(test_cli_util PRIVATE _GNU_SOURCE)
add_test(NAME test_cli_util COMMAND test_cli_util)

add_test(NAME cli_basic
  COMMAND bash ${UF_CLI_TESTS}/cli_basic.sh $<TARGET_FILE:ufjit_cli>
          ${UF_CLI_TESTS}/data)

set(UF_CLI_PY_TESTS cli_data_committed cli_npy_show cli_npy_convert
                    cli_demo_numpy)
if(Python3_Interpreter_FOUND)
  add_test(NAME cli_data_committed
    COMMAND ${Python3_EXECUTABLE} ${UF_CLI_TESTS}/gen_data.py
            --check ${UF_CLI_TESTS}/data)
  add_test(NAME cli_npy_show
    COMMAND ${Python3_EXECUTABLE} ${UF_CLI_TESTS}/npy_show.py
            $<TARGET_FILE:ufjit_cli>)
  add_test(NAME cli_npy_convert
    COMMAND ${Python3_EXECUTABLE} ${UF_CLI_TESTS}/npy_convert.py
            $<TARGET_FILE:ufjit_cli>)
  add_test(NAME cli_demo_numpy
    COMMAND ${Python3_EXECUTABLE} ${UF_CLI_TESTS}/demo_numpy.py
            $<TARGET_FILE:ufjit_cli>)
else()
  foreach(t ${UF_CLI_PY_TESTS})
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 not found'; exit 77")
  endforeach()
endif()
set_tests_properties(${UF_CLI_PY_TESTS} PROPERTIES SKIP_RETURN_CODE 77)

# Address-space limits during a compilation: clean errors, or LLVM's
# out-of-memory named before the abort (skipped under the sanitizers).
add_test(NAME cli_memory_limit
  COMMAND bash ${UF_CLI_TESTS}/cli_memory_limit.sh $<TARGET_FILE:ufjit_cli>
          ${UF_CLI_TESTS}/data ${UFJIT_SANITIZE})
set_tests_properties(cli_memory_limit PROPERTIES SKIP_RETURN_CODE 77)
