/*
 * cmd_diff: `cli diff BEFORE.folded AFTER.folded`: a differential
 * flamegraph (the after profile's shape, red where a frame grew, blue
 * where it shrank), or with --folded both counts per stack as
 * difffolded.pl prints them; with --summary or --fail-above, what changed
 * as tables and a gate for CI (diff_gate.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/diff_gate.h"
#include "cli/folded_input.h"
#include "cli/render_options.h"
#include "flamegraph/flamegraph.h"
#include "profile/profile.h"

static const char diff_help_head[] =
    "usage: cli diff BEFORE.folded AFTER.folded [-o OUT] [--folded] [options]\n"
    "       cli diff BEFORE AFTER --summary md|json|text [--top N] [--fail-above [NAME=]PCT]\n"
    "       cli diff --before FILE... --after FILE... --summary ...\n"
    "\n"
    "Compares two folded profiles. The SVG is a differential flamegraph: the\n"
    "shape and widths of AFTER, each frame red where its total grew from BEFORE,\n"
    "blue where it shrank, deeper the larger the change (relative to the largest\n"
    "change shown); hovering shows both counts and the change. One of the files\n"
    "may be '-' (stdin). Exit status: 0, 64 usage error, 65 a malformed line (its\n"
    "file and number are reported), 66 unreadable input, 73 unwritable output.\n"
    "\n"
    "  --folded             print 'stack BEFORE AFTER' lines instead (the format of\n"
    "                       difffolded.pl): every stack of either file, 0 where a\n"
    "                       file lacks it, sorted bytewise; same as --format folded\n"
    "\n"
    "Summaries and gates (docs/CI.md): the profiles may be of any format zkprof\n"
    "reads; several files per side are summed, as `cli merge` sums them. Exit 1\n"
    "when a --fail-above limit is exceeded (after the summary); 65 when the sides\n"
    "weigh different things or one holds no samples.\n"
    "  --summary FORMAT     what changed instead of a graph: per weight the totals,\n"
    "                       the functions whose inclusive or self cost changed most,\n"
    "                       new and vanished functions, the zkVM calls that changed;\n"
    "                       md (Markdown for a pull request), json\n"
    "                       (docs/FORMATS.md), or text\n"
    "  --top N              functions shown per weight before the rest folds away\n"
    "                       (default 20; 0: all)\n"
    "  --fail-above [NAME=]PCT\n"
    "                       exit 1 when a cost grew by more than PCT percent: the\n"
    "                       first weight's total, or NAME: a weight's total or a\n"
    "                       function's inclusive cost of the first weight;\n"
    "                       repeatable (implies --summary text unless given)\n"
    "  --before FILE, --after FILE\n"
    "                       the sides one file at a time (repeatable), instead of\n"
    "                       the two positional files\n"
    "\n";

enum { OPT_FOLDED = 2000, OPT_SUMMARY, OPT_TOP, OPT_FAIL_ABOVE, OPT_BEFORE, OPT_AFTER };

struct diff_job {
    struct render_options opts;
    const char *before_path, *after_path;
    struct trie trie;
    struct strtab names;
    struct diff_counts counts;
    char *subtitle; /* the default subtitle, when none is given */
    struct diff_gate_args gate;
    bool summary; /* --summary or --fail-above: the gate's path */
};

static int write_output(FILE *out, void *ctx)
{
    struct diff_job *job = ctx;
    if (job->opts.format == RENDER_FOLDED)
        return folded_write_pair(out, &job->trie, job->counts.before, folded_name_of, &job->names);
    return svg_write(out, &job->trie, &job->names, &job->opts.svg);
}

static int check_arguments(struct diff_job *job, int argc, char **argv)
{
    if (argc - optind != 2) {
        cli_error("cli diff wants two folded files, BEFORE and AFTER, not %d; see 'cli diff "
                  "--help'",
                  argc - optind);
        return EXIT_USAGE;
    }
    job->before_path = argv[optind];
    job->after_path = argv[optind + 1];
    if (strcmp(job->before_path, "-") == 0 && strcmp(job->after_path, "-") == 0) {
        cli_error("only one of BEFORE and AFTER can be '-' (stdin)");
        return EXIT_USAGE;
    }
    int rc = render_options_finish(&job->opts, "diff", RENDER_SVG);
    if (rc == 0 && job->opts.format != RENDER_SVG && job->opts.format != RENDER_FOLDED) {
        cli_error("speedscope, pprof and Firefox Profiler files have no differential "
                  "profiles; write .svg or use --folded");
        rc = EXIT_USAGE;
    }
    return rc;
}

/* --before FILE, --after FILE: one more file of a side. */
static int take_side_file(struct diff_job *job, bool before, const char *arg)
{
    size_t *n = before ? &job->gate.nbefore : &job->gate.nafter;
    if (*n == DIFF_GATE_MAX_FILES) {
        cli_error("at most %d files per side", DIFF_GATE_MAX_FILES);
        return EXIT_USAGE;
    }
    (before ? job->gate.before : job->gate.after)[(*n)++] = (char *)arg;
    job->summary = true;
    return CLI_GO_ON;
}

/* The options of summaries and gates; CLI_NOT_OURS for the others. */
static int take_gate_option(struct diff_job *job, int c, const char *arg)
{
    uint64_t top;
    switch (c) {
    case OPT_SUMMARY:
        if (!diff_gate_format(arg, &job->gate.format)) {
            cli_error("--summary wants md, json or text, not '%s'", arg);
            return EXIT_USAGE;
        }
        job->summary = true;
        return CLI_GO_ON;
    case OPT_TOP:
        if (!cli_parse_count(arg, false, &top) || top > 1000000000) {
            cli_error("--top wants a number of rows such as 20 (0: all), not '%s'", arg);
            return EXIT_USAGE;
        }
        job->gate.top = (size_t)top;
        return CLI_GO_ON;
    case OPT_FAIL_ABOVE:
        if (job->gate.nlimits == DIFF_GATE_MAX_LIMITS ||
            !diff_gate_limit((char *)arg, &job->gate.limits[job->gate.nlimits])) {
            cli_error("--fail-above wants a percentage such as 2 or 0.5%%, or NAME=PCT such as "
                      "cycles=3 (at most %d), not '%s'",
                      DIFF_GATE_MAX_LIMITS, arg);
            return EXIT_USAGE;
        }
        job->gate.nlimits++;
        job->summary = true;
        return CLI_GO_ON;
    case OPT_BEFORE:
    case OPT_AFTER: return take_side_file(job, c == OPT_BEFORE, arg);
    }
    return CLI_NOT_OURS;
}

/* The gate's sides: --before/--after, or the two positional files. */
static int check_gate_arguments(struct diff_job *job, int argc, char **argv)
{
    int positional = argc - optind;
    if (job->gate.nbefore || job->gate.nafter) {
        if (positional || !job->gate.nbefore || !job->gate.nafter) {
            cli_error("give the sides with --before and --after (both), or as two files, not "
                      "both ways");
            return EXIT_USAGE;
        }
    } else if (positional != 2) {
        cli_error("cli diff wants two profiles, BEFORE and AFTER, not %d; see 'cli diff --help'",
                  positional);
        return EXIT_USAGE;
    } else {
        job->gate.before[job->gate.nbefore++] = argv[optind];
        job->gate.after[job->gate.nafter++] = argv[optind + 1];
    }
    if (job->opts.format_name && strcmp(job->opts.format_name, "folded") == 0) {
        cli_error("--summary and --fail-above write a summary, not folded stacks");
        return EXIT_USAGE;
    }
    job->gate.output = job->opts.output;
    return 0;
}

static int take_option(void *ctx, int c, const char *arg)
{
    struct diff_job *job = ctx;
    int rc = take_gate_option(job, c, arg);
    if (rc != CLI_NOT_OURS)
        return rc;
    switch (c) {
    case OPT_FOLDED: job->opts.format_name = "folded"; return CLI_GO_ON;
    case 'h':
        fputs(diff_help_head, stdout);
        fputs(render_options_help, stdout);
        fputs("\n--colors does not apply (differential graphs are red and blue), nor .json.\n\n",
              stdout);
        fputs(render_viewer_help, stdout);
        return 0;
    default: return render_options_take(&job->opts, c, arg);
    }
}

/* Returns CLI_GO_ON to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct diff_job *job)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"summary", required_argument, NULL, OPT_SUMMARY},
        {"top", required_argument, NULL, OPT_TOP},
        {"fail-above", required_argument, NULL, OPT_FAIL_ABOVE},
        {"before", required_argument, NULL, OPT_BEFORE},
        {"after", required_argument, NULL, OPT_AFTER},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    render_options_init(&job->opts);
    job->gate.top = 20;
    job->gate.format = DIFF_SUMMARY_TEXT;
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "diff", take_option, job);
    if (rc != CLI_GO_ON)
        return rc;
    rc = job->summary ? check_gate_arguments(job, argc, argv) : check_arguments(job, argc, argv);
    return rc ? rc : CLI_GO_ON;
}

/* Both files into one trie: before's counts set aside, after's in the nodes. */
static int read_profiles(struct diff_job *job)
{
    if (!trie_init(&job->trie) || !strtab_init(&job->names)) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    int rc = folded_input_read(job->before_path, &job->trie, &job->names);
    if (rc != 0)
        return rc;
    if (diff_counts_take_before(&job->counts, &job->trie) != 0) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    rc = folded_input_read(job->after_path, &job->trie, &job->names);
    if (rc == 0 && diff_counts_cover(&job->counts, &job->trie) != 0) {
        cli_error("out of memory");
        rc = EXIT_OSERR;
    }
    return rc;
}

/* "from BEFORE to AFTER: red grew, blue shrank", unless --subtitle says otherwise. */
static int set_subtitle(struct diff_job *job)
{
    if (job->opts.svg.subtitle)
        return 0;
    const char *before = folded_path_name(job->before_path);
    const char *after = folded_path_name(job->after_path);
    size_t len = strlen(before) + strlen(after) + 64;
    job->subtitle = malloc(len);
    if (!job->subtitle) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    snprintf(job->subtitle, len, "from %s to %s: red grew, blue shrank", before, after);
    job->opts.svg.subtitle = job->subtitle;
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    struct diff_job job = {0};
    int rc = parse_options(argc, argv, &job);
    if (rc >= 0)
        return rc;
    if (job.summary)
        return diff_gate_run(&job.gate);
    rc = read_profiles(&job);
    if (rc == 0) {
        job.opts.svg.diff = job.counts.before;
        if (job.opts.format == RENDER_SVG && trie_total(&job.trie) == 0)
            cli_warn("%s holds no samples; the flamegraph says so",
                     folded_path_name(job.after_path));
        rc = set_subtitle(&job);
    }
    if (rc == 0)
        rc = cli_write_output(job.opts.output, write_output, &job);
    free(job.subtitle);
    diff_counts_free(&job.counts);
    strtab_free(&job.names);
    trie_free(&job.trie);
    return rc;
}
