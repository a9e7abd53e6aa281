/*
 * cmd_flamegraph: `cli flamegraph [IN.folded]`: renders folded stacks as
 * an interactive SVG flamegraph, a speedscope JSON file, or normalized
 * folded text (sorted, merged).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/folded_input.h"
#include "cli/render_options.h"
#include "flamegraph/svg.h"

static const char flamegraph_help_head[] =
    "usage: cli flamegraph [IN.folded] [-o OUT] [options]\n"
    "\n"
    "Renders folded stacks ('main;f;g 123' lines, as `cli execute --flamegraph`,\n"
    "stackcollapse-perf.pl and inferno write them) as an interactive SVG\n"
    "flamegraph: a box per frame, as wide as its count. IN is read from stdin\n"
    "when absent or '-'. Exit status: 0, 64 usage error, 65 a malformed line\n"
    "(its number is reported), 66 unreadable input, 73 unwritable output.\n"
    "\n";

struct flamegraph_job {
    const struct render_options *opts;
    const char *input_name;
    struct trie trie;
    struct strtab names;
};

/* speedscope's name for the unit: its own time and byte units pass, counts are "none". */
static const char *speedscope_unit(const char *unit)
{
    static const char *const units[] = {"nanoseconds", "microseconds", "milliseconds", "seconds",
                                        "bytes"};
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(unit, units[i]) == 0)
            return unit;
    return "none";
}

static int write_output(FILE *out, void *ctx)
{
    struct flamegraph_job *job = ctx;
    const struct svg_options *svg = &job->opts->svg;
    return render_write_trie(out, &job->trie, &job->names, job->opts->format, svg,
                             svg->title ? svg->title : job->input_name, speedscope_unit(svg->unit));
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct render_options *r, const char **input)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    render_options_init(r);
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
        int taken = render_options_take(r, c, optarg);
        if (taken == 1)
            continue;
        if (taken != 0)
            return taken;
        switch (c) {
        case 'h':
            fputs(flamegraph_help_head, stdout);
            fputs(render_options_help, stdout);
            fputc('\n', stdout);
            fputs(render_viewer_help, stdout);
            return 0;
        case ':':
            cli_error("option '%s' needs a value; see 'cli flamegraph --help'", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("unknown option '%s'; see 'cli flamegraph --help'", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind + 1 < argc) {
        cli_error("unexpected argument '%s': cli flamegraph reads one folded file",
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    *input = optind < argc ? argv[optind] : NULL;
    int rc = render_options_finish(r, "flamegraph");
    return rc ? rc : -1;
}

int cmd_flamegraph(int argc, char **argv)
{
    struct render_options opts;
    const char *input;
    int rc = parse_options(argc, argv, &opts, &input);
    if (rc >= 0)
        return rc;
    struct flamegraph_job job = {.opts = &opts, .input_name = folded_input_name(input)};
    if (!trie_init(&job.trie) || !strtab_init(&job.names)) {
        cli_error("out of memory");
        rc = EXIT_OSERR;
    } else {
        rc = folded_input_read(input, &job.trie, &job.names);
    }
    if (rc == 0 && trie_total(&job.trie) == 0)
        fprintf(stderr, "warning: %s holds no samples%s\n", job.input_name,
                opts.format == RENDER_SVG ? "; the flamegraph says so" : "");
    if (rc == 0)
        rc = render_options_write(&opts, write_output, &job);
    strtab_free(&job.names);
    trie_free(&job.trie);
    return rc;
}
