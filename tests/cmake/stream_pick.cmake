# test_stream_pick once more with streaming turned off: nothing is timed,
# no large call streams (common/stream_pick.h).
add_test(NAME test_stream_pick_never COMMAND test_stream_pick)
set_tests_properties(test_stream_pick_never PROPERTIES
                     ENVIRONMENT "UFJIT_STREAM_STORES=never")
