/*
 * perf_fold: `cli perf fold` (SPEC section 3). Not built yet: issue [5].
 */
#include "cli/cli.h"

int cmd_perf_fold(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("'cli perf fold' is not built yet");
    return EXIT_USAGE;
}
