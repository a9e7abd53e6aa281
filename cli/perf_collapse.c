/*
 * perf_collapse: `cli perf collapse` (SPEC section 3). Not built yet: issue [5].
 */
#include "cli/cli.h"

int cmd_perf_collapse(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("'cli perf collapse' is not built yet");
    return EXIT_USAGE;
}
