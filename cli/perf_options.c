/*
 * perf_options: --event and the naming flags of `cli perf fold` and `cli
 * perf collapse`.
 */
#include "cli/perf_options.h"

#include "cli/cli.h"

int perf_options_take(int opt, const char *arg, const char **event, struct perf_name_opts *names)
{
    switch (opt) {
    case PERF_OPT_EVENT:
        if (!*arg) {
            cli_error("--event wants an event name such as cycles");
            return EXIT_USAGE;
        }
        *event = arg;
        return CLI_GO_ON;
    case PERF_OPT_PID: names->pid = true; return CLI_GO_ON;
    case PERF_OPT_TID: names->tid = true; return CLI_GO_ON;
    case PERF_OPT_ADDRS: names->addrs = true; return CLI_GO_ON;
    case PERF_OPT_KERNEL: names->kernel = true; return CLI_GO_ON;
    case PERF_OPT_JIT: names->jit = true; return CLI_GO_ON;
    case PERF_OPT_ALL: names->kernel = names->jit = true; return CLI_GO_ON;
    default: return CLI_NOT_OURS;
    }
}
