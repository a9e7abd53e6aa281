/*
 * profile_inputs: each file read on its own (profile_read_path), then
 * added to the sum (profile_merge), so every file's weights are matched
 * by name however the files order them.
 */
#include "cli/profile_inputs.h"

#include "cli/cli.h"
#include "flamegraph/flamegraph.h"

int profile_inputs_read(char *const *paths, size_t n, struct profile *sum)
{
    if (!profile_init(sum)) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct profile one;
        struct error e = ERROR_INIT;
        if (!profile_init(&one)) {
            cli_error("out of memory");
            return EXIT_OSERR;
        }
        if (profile_read_path(paths[i], &one, &e) || profile_merge(sum, &one, &e))
            rc = cli_fail(&e, NULL);
        profile_free(&one);
    }
    return rc;
}
