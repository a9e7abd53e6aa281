/*
 * perf_collapse: `cli perf collapse [-o OUT] [--event NAME] [--pid]
 * [--tid] [--addrs] [INPUT]`: folds `perf script` text into folded
 * stacks, a drop-in for stackcollapse-perf.pl (SPEC section 3).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "flamegraph/output_file.h"
#include "flamegraph/folded.h"
#include "flamegraph/folded_read.h"
#include "perf/collapse.h"

static const char collapse_help[] =
    "usage: cli perf collapse [-o OUT] [--event NAME] [--pid] [--tid] [--addrs] [INPUT]\n"
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
    "  -h, --help        show this help\n"
    "\n"
    "Exit status: 0, 64 usage error, 65 input that is not perf script text (the\n"
    "error names the line), 66 unreadable input, 73 unwritable output.\n";

struct collapse_args {
    struct perf_collapse_opts opts;
    const char *input; /* NULL: stdin */
    const char *output;
};

enum { OPT_EVENT = 256, OPT_PID, OPT_TID, OPT_ADDRS };

static int parse_args(int argc, char **argv, struct collapse_args *a)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"event", required_argument, NULL, OPT_EVENT},
        {"event-filter", required_argument, NULL, OPT_EVENT}, /* the script's name */
        {"pid", no_argument, NULL, OPT_PID},
        {"tid", no_argument, NULL, OPT_TID},
        {"addrs", no_argument, NULL, OPT_ADDRS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *a = (struct collapse_args){0};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(collapse_help, stdout); return 0;
        case 'o': a->output = optarg; break;
        case OPT_EVENT:
            if (!*optarg) {
                cli_error("--event wants an event name such as cycles");
                return EXIT_USAGE;
            }
            a->opts.event = optarg;
            break;
        case OPT_PID: a->opts.names.pid = true; break;
        case OPT_TID: a->opts.names.tid = true; break;
        case OPT_ADDRS: a->opts.names.addrs = true; break;
        case ':':
            cli_error("option '%s' needs a value; see 'cli perf collapse --help'",
                      argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("unknown option '%s'; see 'cli perf collapse --help'", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind + 1 < argc) {
        cli_error("more than one input ('%s', '%s'); cli perf collapse reads one", argv[optind],
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    if (optind < argc && strcmp(argv[optind], "-") != 0)
        a->input = argv[optind];
    return -1; /* go on */
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
        fprintf(stderr,
                "warning: %s: line %zu: skipped a line that is not perf script output "
                "('%s')%s\n",
                in, r->first_unrecognized, r->first_unrecognized_text,
                r->unrecognized > 1 ? " and more like it" : "");
    char events[512];
    list_events(r, events, sizeof(events));
    if (a->opts.event && !r->counted_event)
        fprintf(stderr, "warning: %s: no sample of event '%s'%s%s%s\n", in, a->opts.event,
                r->other_count ? " (the input has: " : "", events, r->other_count ? ")" : "");
    else if (r->skipped_samples && !a->opts.event)
        fprintf(stderr,
                "warning: %s: counted only the first event, '%s'; left out %llu samples of "
                "%s (choose with --event NAME)\n",
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
    char why[256] = "";
    int rc = perf_collapse(in, &a->opts, t, names, &report, why, sizeof(why));
    int saved = errno;
    if (in != stdin)
        fclose(in);
    int status = 0;
    if (rc == PERF_COLLAPSE_MALFORMED) {
        cli_error("%s: %s", in_name, why);
        status = EXIT_DATAERR;
    } else if (rc == PERF_COLLAPSE_READ_ERROR) {
        cli_error("cannot read %s: %s", in_name, strerror(saved));
        status = EXIT_NOINPUT;
    } else if (rc == PERF_COLLAPSE_NO_MEMORY) {
        cli_error("out of memory folding %s", in_name);
        status = EXIT_OSERR;
    } else {
        warn_report(a, &report);
    }
    perf_collapse_report_free(&report);
    return status;
}

static int write_folded(const struct collapse_args *a, const struct trie *t, struct strtab *names)
{
    if (!a->output) {
        if (folded_write(stdout, t, folded_name_of, names) != 0 || fflush(stdout) != 0) {
            cli_error("cannot write the folded stacks to stdout: %s", strerror(errno));
            return EXIT_CANTCREAT;
        }
        return 0;
    }
    struct output_file out;
    if (!output_file_open(&out, a->output)) {
        cli_error("cannot create %s: %s", a->output, strerror(errno));
        return EXIT_CANTCREAT;
    }
    if (folded_write(out.fp, t, folded_name_of, names) != 0) {
        int e = errno;
        output_file_abort(&out);
        cli_error("cannot write %s: %s", a->output, strerror(e));
        return EXIT_CANTCREAT;
    }
    if (!output_file_commit(&out)) {
        cli_error("cannot write %s: %s", a->output, strerror(errno));
        return EXIT_CANTCREAT;
    }
    return 0;
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
    if (status == 0)
        status = write_folded(&a, &t, &names);
    trie_free(&t);
    strtab_free(&names);
    return status;
}
