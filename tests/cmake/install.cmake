# A downstream program built against the install tree (find_package and
# pkg-config). Under the sanitizers the installed library needs the
# sanitizer runtime in the consumer too, so there it is skipped, visibly.
if(UFJIT_SANITIZE)
  add_test(NAME install_consumer COMMAND sh -c
    "echo 'SKIP: consumer build runs in the normal build only (sanitized library)'; exit 77")
else()
  add_test(NAME install_consumer
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/consumer/run.sh
            ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
endif()
set_tests_properties(install_consumer PROPERTIES SKIP_RETURN_CODE 77)
