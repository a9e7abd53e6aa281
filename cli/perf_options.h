/*
 * perf_options: the options both perf commands take alike: --event NAME
 * and the frame naming flags --pid, --tid, --addrs, --kernel, --jit and
 * --all (struct perf_name_opts, perf/perf.h).
 */
#ifndef CLI_PERF_OPTIONS_H
#define CLI_PERF_OPTIONS_H

#include <getopt.h>

#include "perf/perf.h"

enum {
    PERF_OPT_EVENT = 1100,
    PERF_OPT_PID,
    PERF_OPT_TID,
    PERF_OPT_ADDRS,
    PERF_OPT_KERNEL,
    PERF_OPT_JIT,
    PERF_OPT_ALL
};

/* The getopt_long entries of the shared options. */
/* clang-format off */
#define PERF_LONG_OPTIONS                                   \
    {"event", required_argument, NULL, PERF_OPT_EVENT},     \
    {"pid", no_argument, NULL, PERF_OPT_PID},               \
    {"tid", no_argument, NULL, PERF_OPT_TID},               \
    {"addrs", no_argument, NULL, PERF_OPT_ADDRS},           \
    {"kernel", no_argument, NULL, PERF_OPT_KERNEL},         \
    {"jit", no_argument, NULL, PERF_OPT_JIT},               \
    {"all", no_argument, NULL, PERF_OPT_ALL}
/* clang-format on */

/*
 * Takes one option getopt_long returned into *event and *names: CLI_GO_ON
 * when it was one of ours, CLI_NOT_OURS when not, EXIT_USAGE after
 * reporting an empty event name.
 */
int perf_options_take(int opt, const char *arg, const char **event, struct perf_name_opts *names);

#endif
