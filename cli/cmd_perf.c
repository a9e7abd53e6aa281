/*
 * cmd_perf: `cli perf SUBCOMMAND`: host profiles from Linux perf (docs/PERF.md#folding-rules),
 * folded by the same core as guest profiles.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char perf_help[] =
    "usage: cli perf <fold|collapse> [options]\n"
    "\n"
    "  fold PERF.DATA [-o OUT]   fold a perf.data file (perf record -g) into stacks,\n"
    "                            without running perf script ('cli perf fold --help')\n"
    "  collapse                  fold `perf script` text from stdin, as\n"
    "                            stackcollapse-perf.pl does ('cli perf collapse --help')\n"
    "\n"
    "To record and fold in one step: cli profile -- CMD ARGS ('cli profile --help').\n";

int cmd_perf(int argc, char **argv)
{
    if (argc < 2) {
        fputs(perf_help, stderr);
        cli_error("no perf subcommand given; try 'cli perf fold perf.data'");
        return EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
        fputs(perf_help, stdout);
        return 0;
    }
    if (strcmp(sub, "fold") == 0)
        return cmd_perf_fold(argc - 1, argv + 1);
    if (strcmp(sub, "collapse") == 0)
        return cmd_perf_collapse(argc - 1, argv + 1);
    cli_error("unknown perf subcommand '%s'; see 'cli perf --help'", sub);
    return EXIT_USAGE;
}
