/* The build ID in the disk cache's key (compiler/cache/build_id.c): found in the
 * binary the library is linked into (this test links the static library,
 * so it is the test program's own), stable within a process, and the
 * same bytes `readelf -n` prints for that binary. */
#include "test_util.h"

#include <ctype.h>
#include <unistd.h>

#include "compiler/cache/build_id.h"

static void test_found_and_stable(void **state)
{
    (void)state;
    const char *id = uf__build_id();
    assert_string_not_equal(id, "none");
    assert_true(strlen(id) >= 16 && strlen(id) % 2 == 0);
    for (const char *p = id; *p; p++)
        assert_true(isxdigit((unsigned char)*p) && !isupper((unsigned char)*p));
    assert_ptr_equal(uf__build_id(), id);
}

/* The same as the linker's note, as readelf prints it (skipped, visibly,
 * where readelf is missing). */
static void test_matches_readelf(void **state)
{
    (void)state;
    char cmd[64], line[512], want[160] = "";
    snprintf(cmd, sizeof cmd, "readelf -n /proc/%d/exe 2>/dev/null",
             (int)getpid());
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, " Build ID: %159s", want) == 1)
            break;
    pclose(f);
    if (want[0] == '\0') {
        print_message("SKIP: readelf shows no build ID here\n");
        skip();
    }
    assert_string_equal(uf__build_id(), want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_found_and_stable),
        cmocka_unit_test(test_matches_readelf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
