/*
 * cmd_flamegraph: `cli flamegraph [IN]`: renders a profile (folded stacks,
 * speedscope, pprof or Gecko) as an interactive SVG flamegraph, a speedscope,
 * pprof or Firefox Profiler file, or normalized folded text (sorted,
 * merged).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/render_options.h"
#include "flamegraph/flamegraph.h"

static const char flamegraph_help_head[] =
    "usage: cli flamegraph [IN] [-o OUT] [options]\n"
    "\n"
    "Renders folded stacks ('main;f;g 123' lines, as `cli execute --flamegraph`,\n"
    "stackcollapse-perf.pl and inferno write them) as an interactive SVG\n"
    "flamegraph: a box per frame, as wide as its count. IN may also be a\n"
    "speedscope, pprof (.pb.gz) or Firefox Profiler (Gecko) file, as zkprof\n"
    "writes them. IN is read from stdin when absent or '-'. Exit status: 0, 64\n"
    "usage error, 65 a malformed line (its number is reported) or file, 66\n"
    "unreadable input, 73 unwritable output.\n"
    "\n";

static int take_option(void *ctx, int c, const char *arg)
{
    if (c != 'h')
        return render_options_take(ctx, c, arg);
    fputs(flamegraph_help_head, stdout);
    fputs(render_options_help, stdout);
    fputs(render_weight_help, stdout);
    fputc('\n', stdout);
    fputs(render_viewer_help, stdout);
    return 0;
}

/* Returns CLI_GO_ON to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct render_options *r, const char **input)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        RENDER_WEIGHT_OPTION,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    render_options_init(r);
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "flamegraph", take_option, r);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind + 1 < argc) {
        cli_error("unexpected argument '%s': cli flamegraph reads one profile file",
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    *input = optind < argc ? argv[optind] : NULL;
    rc = render_options_finish(r, "flamegraph", RENDER_SVG);
    return rc ? rc : CLI_GO_ON;
}

int cmd_flamegraph(int argc, char **argv)
{
    struct render_options opts;
    const char *input = NULL;
    int rc = parse_options(argc, argv, &opts, &input);
    if (rc >= 0)
        return rc;
    const char *input_name = folded_path_name(input);
    struct profile profile;
    struct error e = ERROR_INIT;
    if (!profile_init(&profile)) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    rc = profile_read_path(input, &profile, &e) ? cli_fail(&e, NULL) : 0;
    if (rc == 0 && (profile.nweights == 0 || profile_total(&profile, 0) == 0))
        cli_warn("%s holds no samples%s", input_name,
                 opts.format == RENDER_SVG ? "; the flamegraph says so" : "");
    if (rc == 0)
        rc = render_options_write_profile(&opts, &profile, input_name);
    profile_free(&profile);
    return rc;
}
