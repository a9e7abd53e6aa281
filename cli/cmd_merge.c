/*
 * cmd_merge: `cli merge A B ... -o OUT`: sums the profiles of many runs
 * (folded, speedscope, pprof or Gecko files) into one, written in the format
 * OUT's extension names.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/profile_inputs.h"
#include "cli/render_options.h"

static const char merge_help_head[] =
    "usage: cli merge PROFILE... [-o OUT] [options]\n"
    "\n"
    "Sums profiles of many runs (folded, speedscope, pprof or Firefox Profiler\n"
    "(Gecko) files, as zkprof writes them, and SP1's Gecko files; '-' is stdin)\n"
    "into one: identical stacks add up, weights are matched by name (a folded\n"
    "file's count adds to the first weight), so the profiles of many inputs,\n"
    "run as separate processes, become one. The sum is written in the format\n"
    "OUT's extension names (default: folded on stdout).\n"
    "Exit status: 0, 64 usage error, 65 a malformed file (named, with the line\n"
    "for folded files), 66 unreadable input, 73 unwritable output.\n"
    "\n";

static int take_option(void *ctx, int c, const char *arg)
{
    if (c != 'h')
        return render_options_take(ctx, c, arg);
    fputs(merge_help_head, stdout);
    fputs(render_options_help, stdout);
    fputs(render_weight_help, stdout);
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        RENDER_WEIGHT_OPTION,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct render_options opts;
    render_options_init(&opts);
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "merge", take_option, &opts);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind >= argc) {
        cli_error("cli merge wants at least one profile; see 'cli merge --help'");
        return EXIT_USAGE;
    }
    rc = render_options_finish(&opts, "merge", RENDER_FOLDED);
    if (rc)
        return rc;
    struct profile sum;
    rc = profile_inputs_read(argv + optind, (size_t)(argc - optind), &sum);
    if (rc == 0)
        rc = render_options_write_profile(&opts, &sum, "merged profile");
    profile_free(&sum);
    return rc;
}
