/*
 * cmd_report: `cli report PROFILE...`: the top functions by self and by
 * inclusive cost for each weight, and the zkVM calls, as text or JSON
 * (flamegraph/report.h), of one profile or of several summed.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/profile_inputs.h"
#include "flamegraph/flamegraph.h"

static const char report_help[] =
    "usage: cli report PROFILE... [--top N] [--json] [-o FILE]\n"
    "\n"
    "Sums a profile up without a browser: for each weight (instructions, samples,\n"
    "a pprof file's sample types) its total, the top functions by self cost\n"
    "(spent in the function itself) and by inclusive cost (spent while it was on\n"
    "the stack, once however deep it recurses), and for each zkVM call (an\n"
    "[ecall:NAME] frame) its calls and cost. PROFILE is any file zkprof writes\n"
    "that it reads: folded stacks, speedscope JSON, pprof (.pb.gz), Firefox\n"
    "Profiler (Gecko) JSON; several are summed as `cli merge` sums them; '-' is\n"
    "stdin. With the weights of `cli execute --weight classes` and `--weight\n"
    "pages` it also prints the opcode-class mix of the whole profile and of the\n"
    "top functions, and the pages touched. Exit status: 0, 64 usage error, 65 a\n"
    "malformed file, 66 unreadable input, 73 unwritable output.\n"
    "\n"
    "  --top N              rows per table (default 20; 0: all)\n"
    "  --json               JSON for machines (docs/FORMATS.md, \"Reports\")\n"
    "  -o, --output FILE    write to FILE (default: stdout), under a temporary\n"
    "                       name renamed into place\n"
    "  -h, --help           show this help\n";

enum { OPT_TOP = 3000, OPT_JSON };

struct report_args {
    struct report_options report;
    const char *output;
};

static int take_option(void *ctx, int c, const char *arg)
{
    struct report_args *a = ctx;
    uint64_t top;
    switch (c) {
    case 'h': fputs(report_help, stdout); return 0;
    case 'o': a->output = arg; return CLI_GO_ON;
    case OPT_JSON: a->report.json = true; return CLI_GO_ON;
    case OPT_TOP:
        if (!cli_parse_count(arg, false, &top) || top > 1000000000) {
            cli_error("--top wants a number of rows such as 20 (0: all), not '%s'", arg);
            return EXIT_USAGE;
        }
        a->report.top = (size_t)top;
        return CLI_GO_ON;
    default: return CLI_NOT_OURS;
    }
}

struct report_job {
    const struct profile *p;
    const struct report_options *o;
};

static int write_job(FILE *out, void *ctx)
{
    const struct report_job *job = ctx;
    return report_write(out, job->p, job->o);
}

int cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"top", required_argument, NULL, OPT_TOP},
        {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct report_args a = {.report = {.top = 20}};
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "report", take_option, &a);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind >= argc) {
        cli_error("cli report wants at least one profile; see 'cli report --help'");
        return EXIT_USAGE;
    }
    a.report.inputs = (const char *const *)argv + optind;
    a.report.ninputs = (size_t)(argc - optind);
    struct profile sum;
    rc = profile_inputs_read(argv + optind, a.report.ninputs, &sum);
    struct report_job job = {.p = &sum, .o = &a.report};
    if (rc == 0)
        rc = cli_write_output(a.output, write_job, &job);
    profile_free(&sum);
    return rc;
}
