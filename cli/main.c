/*
 * main: the `cli` program's entry point: picks the subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage_text[] =
    "usage: cli <command> [options]\n"
    "\n"
    "An exact RISC-V guest profiler: runs RV32IMAC/RV64IMAC ELF guests instruction\n"
    "by instruction.\n"
    "\n"
    "commands:\n"
    "  execute GUEST.elf   run a guest (see 'cli execute --help')\n"
    "  flamegraph [IN]     render a profile as an interactive SVG flamegraph, or\n"
    "                      speedscope, pprof or Firefox Profiler files (see\n"
    "                      'cli flamegraph --help')\n"
    "  diff BEFORE.folded AFTER.folded\n"
    "                      a differential flamegraph, or both counts per stack\n"
    "                      with --folded (see 'cli diff --help')\n"
    "  perf fold FILE      fold a Linux perf.data recording (see 'cli perf --help')\n"
    "  perf collapse       fold `perf script` text from stdin\n"
    "  profile -- CMD      record CMD with perf record and write its flamegraph\n"
    "                      (see 'cli profile --help')\n"
    "  report PROFILE...   top functions by self and inclusive cost, zkVM calls\n"
    "                      (see 'cli report --help')\n"
    "  merge PROFILE... -o OUT\n"
    "                      sum the profiles of many runs into one (see\n"
    "                      'cli merge --help')\n"
    "\n"
    "options:\n"
    "  -h, --help          show this help\n"
    "  --version           show the version\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        cli_error("no command given; try 'cli execute GUEST.elf'");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        puts("cli (zkprof) 0.1.0");
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } commands[] = {
        /* clang-format off */
        {"execute", cmd_execute},
        {"flamegraph", cmd_flamegraph},
        {"diff", cmd_diff},
        {"perf", cmd_perf},
        {"profile", cmd_profile},
        {"report", cmd_report},
        {"merge", cmd_merge},
        /* clang-format on */
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s'; see 'cli --help'", cmd);
    return EXIT_USAGE;
}
