/*
 * perf_collapse: `cli perf collapse [-o OUT] [--event NAME] [--pid]
 * [--tid] [--addrs] [--kernel] [--jit] [--all] [INPUT]`: folds `perf
 * script` text into folded stacks, a drop-in for stackcollapse-perf.pl
 * (docs/PERF.md#folding-rules), its options spelt as it spells them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/perf_options.h"
#include "flamegraph/flamegraph.h"
#include "perf/perf.h"
#include "profile/profile.h"

static const char collapse_help[] =
    "usage: cli perf collapse [-o OUT] [--event NAME] [--pid] [--tid] [--addrs]\n"
    "                         [--kernel] [--jit] [--all] [INPUT]\n"
    "\n"
    "Folds the text of `perf script` (from INPUT, or stdin when it is absent or\n"
    "'-') into folded stacks, one line per distinct stack: the command name,\n"
    "then the frames from the outermost caller to the sampled function, and the\n"
    "stack's weight. A drop-in for stackcollapse-perf.pl:\n"
    "\n"
    "  perf record -g -- PROGRAM; perf script | cli perf collapse > out.folded\n"
    "\n"
    "A sample weighs its period when the header line gives one, else 1. Frames\n"
    "are symbol names without their +0x offset and argument list; a frame with\n"
    "no symbol is [module basename], or [unknown] when perf knows no module.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT  write the folded stacks to OUT (under a temporary name,\n"
    "                    renamed when complete) instead of stdout\n"
    "  --event NAME      count the samples of event NAME (\"cycles\" also selects\n"
    "                    \"cycles:ppp\"); by default only the first event in the\n"
    "                    input is counted, as mixing events would mislead\n"
    "  --pid             append the process id to the command name: comm-PID\n"
    "  --tid             append process and thread id: comm-PID/TID (PID is \"?\"\n"
    "                    unless perf script prints it: perf script -F +pid)\n"
    "  --addrs           keep the address of frames without a symbol:\n"
    "                    [libc.so.6 <7f12ab>], [unknown <7f12ab>]\n"
    "  --kernel          mark kernel frames _[k] (module [...] or .../vmlinux)\n"
    "  --jit             mark JIT frames _[j] (module /tmp/perf-PID.map or\n"
    "                    .../jitted-*.so)\n"
    "  --all             --kernel and --jit\n"
    "  --event-filter NAME  stackcollapse-perf.pl's name for --event\n"
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0, 64 usage error, 65 input that is not perf script text (the\n"
    "error names the line), 66 unreadable input, 73 unwritable output.\n";

struct collapse_args {
    struct perf_collapse_opts opts;
    const char *input; /* NULL: stdin */
    const char *output;
};

enum { OPT_INLINE = 1200, OPT_CONTEXT, OPT_SRCLINE };

/*
 * stackcollapse-perf.pl's options that run addr2line on the binaries
 * (--inline, --context) or append source lines (--srcline): refused,
 * saying what serves instead, rather than folding without them.
 */
static int refuse(const char *option)
{
    if (strcmp(option, "--srcline") == 0)
        cli_error("--srcline: cli perf collapse names a frame by its function alone, not "
                  "by source line; fold perf script's text without -F+srcline");
    else
        cli_error("%s: stackcollapse-perf.pl runs addr2line on the binaries for it, and cli "
                  "perf collapse reads the text alone: let perf name inlined functions "
                  "(perf script --inline prints each as a frame of its own), or fold the "
                  "perf.data file with 'cli perf fold', which names them itself",
                  option);
    return EXIT_USAGE;
}

static int take_option(void *ctx, int c, const char *arg)
{
    struct collapse_args *a = ctx;
    switch (c) {
    case 'h': fputs(collapse_help, stdout); return 0;
    case 'o': a->output = arg; return CLI_GO_ON;
    case OPT_INLINE: return refuse("--inline");
    case OPT_CONTEXT: return refuse("--context");
    case OPT_SRCLINE: return refuse("--srcline");
    default: return perf_options_take(c, arg, &a->opts.event, &a->opts.names);
    }
}

static int parse_args(int argc, char **argv, struct collapse_args *a)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        PERF_LONG_OPTIONS,
        {"event-filter", required_argument, NULL, PERF_OPT_EVENT}, /* the script's name */
        {"inline", no_argument, NULL, OPT_INLINE},
        {"context", no_argument, NULL, OPT_CONTEXT},
        {"srcline", no_argument, NULL, OPT_SRCLINE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *a = (struct collapse_args){0};
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "perf collapse", take_option, a);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind + 1 < argc) {
        cli_error("more than one input ('%s', '%s'); cli perf collapse reads one", argv[optind],
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    if (optind < argc && strcmp(argv[optind], "-") != 0)
        a->input = argv[optind];
    return CLI_GO_ON;
}

/* "a, b, c" of the first events left out, for the warnings. */
static void list_events(const struct perf_collapse_report *r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->other_count && i < PERF_COLLAPSE_MAX_EVENTS && used < size; i++)
        used +=
            (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", r->other_events[i]);
    if (r->other_count > PERF_COLLAPSE_MAX_EVENTS && used < size)
        snprintf(buf + used, size - used, ", ...");
}

static void warn_report(const struct collapse_args *a, const struct perf_collapse_report *r)
{
    const char *in = a->input ? a->input : "stdin";
    if (r->unrecognized)
        cli_warn("%s: line %zu: skipped a line that is not perf script output "
                 "('%s')%s",
                 in, r->first_unrecognized, r->first_unrecognized_text,
                 r->unrecognized > 1 ? " and more like it" : "");
    if (r->stray_frames)
        cli_warn("%s: line %zu: skipped %zu frame line%s that belong%s to no sample "
                 "(after a blank line, with no sample header before %s)",
                 in, r->first_stray, r->stray_frames, r->stray_frames > 1 ? "s" : "",
                 r->stray_frames > 1 ? "" : "s", r->stray_frames > 1 ? "them" : "it");
    if (r->unterminated)
        cli_warn("%s: line %zu: left out the last sample: no blank line ends it (the "
                 "input may be cut short; stackcollapse-perf.pl leaves it out too)",
                 in, r->unterminated);
    char events[512];
    list_events(r, events, sizeof(events));
    if (a->opts.event && !r->counted_event)
        cli_warn("%s: no sample of event '%s'%s%s%s", in, a->opts.event,
                 r->other_count ? " (the input has: " : "", events, r->other_count ? ")" : "");
    else if (r->skipped_samples && !a->opts.event)
        cli_warn("%s: counted only the first event, '%s'; left out %llu samples of "
                 "%s (choose with --event NAME)",
                 in, r->counted_event ? r->counted_event : "?",
                 (unsigned long long)r->skipped_samples, events);
}

/* Reads and folds the input. Returns 0 or an exit status. */
static int collapse_input(const struct collapse_args *a, struct trie *t, struct strtab *names)
{
    FILE *in = stdin;
    const char *in_name = a->input ? a->input : "stdin";
    if (a->input && !(in = fopen(a->input, "rb"))) {
        cli_error("cannot read %s: %s", a->input, strerror(errno));
        return EXIT_NOINPUT;
    }
    struct perf_collapse_report report;
    struct error e = ERROR_INIT;
    int rc = perf_collapse(in, in_name, &a->opts, t, names, &report, &e);
    if (in != stdin)
        fclose(in);
    int status = rc ? cli_fail(&e, NULL) : 0;
    if (rc == 0)
        warn_report(a, &report);
    perf_collapse_report_free(&report);
    return status;
}

struct collapse_job {
    const struct trie *t;
    struct strtab *names;
};

static int write_folded(FILE *out, void *ctx)
{
    struct collapse_job *job = ctx;
    return folded_write(out, job->t, folded_name_of, job->names);
}

int cmd_perf_collapse(int argc, char **argv)
{
    struct collapse_args a;
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    struct trie t;
    struct strtab names;
    if (!trie_init(&t) || !strtab_init(&names)) {
        trie_free(&t);
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    status = collapse_input(&a, &t, &names);
    struct collapse_job job = {.t = &t, .names = &names};
    if (status == 0)
        status = cli_write_output(a.output, write_folded, &job);
    trie_free(&t);
    strtab_free(&names);
    return status;
}
