/*
 * perf_fold: `cli perf fold [PERF.DATA] [-o OUT] [--event NAME] [--pid]
 * [--tid] [--addrs] [--no-inline] ...`: folds a perf.data file into folded stacks (or an SVG
 * or speedscope file) without running perf script, with the stacks that
 * `perf script | cli perf collapse` gives (docs/PERF.md#folding-rules).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/perf_options.h"
#include "cli/render_options.h"
#include "flamegraph/flamegraph.h"
#include "perf/perf.h"

static const char fold_help_head[] =
    "usage: cli perf fold [PERF.DATA] [-o OUT] [--event NAME] [--pid] [--tid] [--addrs]\n"
    "                     [--kernel] [--jit] [--all] [--maps FILE] [--no-inline]\n"
    "\n"
    "Folds a perf.data file (default: ./perf.data), as `perf record -g` writes it,\n"
    "into folded stacks, one line per distinct stack: the command name, then the\n"
    "frames from the outermost caller to the sampled function, and the stack's\n"
    "weight. The stacks are those of `perf script | cli perf collapse` on the same\n"
    "machine, without running perf script:\n"
    "\n"
    "  perf record -g -- PROGRAM; cli perf fold perf.data -o out.folded\n"
    "\n"
    "A sample weighs its period when the file records periods, else 1. Functions\n"
    "are named from the binaries on disk, perf's build-id cache (~/.debug) and\n"
    "debug packages (/usr/lib/debug), the kernel's from /proc/kallsyms when it is\n"
    "the recorded kernel. A frame with no symbol is [module basename], or\n"
    "[unknown] when no module is known. docs/PERF.md says what differs from perf\n"
    "script and why.\n"
    "\n"
    "options:\n"
    "  --event NAME         count the samples of event NAME (\"cycles\" also selects\n"
    "                       \"cycles:ppp\"); by default only the first sample's event\n"
    "                       is counted, as mixing events would mislead\n"
    "  --pid                append the process id to the command name: comm-PID\n"
    "  --tid                append process and thread id: comm-PID/TID\n"
    "  --addrs              keep the address of frames without a symbol:\n"
    "                       [libc.so.6 <7f12ab>], [unknown <7f12ab>]\n"
    "  --kernel             mark kernel frames _[k], as cli perf collapse --kernel\n"
    "  --jit                mark JIT frames _[j] (/tmp/perf-PID.map, jitted-*.so)\n"
    "  --all                --kernel and --jit\n"
    "  --kallsyms FILE      read kernel symbols from FILE (a saved /proc/kallsyms)\n"
    "  --buildid-dir DIR    perf's build-id cache (default $PERF_BUILDID_DIR, else\n"
    "                       ~/.debug)\n"
    "  --maps FILE          name code the recording has no mapping for (perf record\n"
    "                       --synth=no, lost events) from a snapshot of the processes'\n"
    "                       /proc/PID/maps: lines 'PID START END PGOFF PATH', as\n"
    "                       cli profile --keep-maps writes them (docs/FORMATS.md)\n"
    "  --no-inline          no inlined functions on DWARF-unwound frames (perf record\n"
    "                       --call-graph dwarf), as `perf script --no-inline`; by\n"
    "                       default they are frames of their own, as perf script\n"
    "                       shows them\n"
    "\n"
    "Without -o, or when OUT's extension is none of .svg, .json and .folded, the\n"
    "output is folded text; --format svg or json picks a picture instead.\n"
    "\n";

static const char fold_help_tail[] =
    "\n"
    "Compressed debug info read for inlined frames is kept inflated in\n"
    "$ZKPROF_CACHE_DIR (empty: not kept), else $XDG_CACHE_HOME/zkprof, else\n"
    "~/.cache/zkprof, for later folds; a child process writes it after the\n"
    "output (not waited for).\n"
    "\n"
    "Exit status: 0, 64 usage error, 65 a file that is not a usable perf.data\n"
    "(the error names what is wrong and its offset), 66 unreadable file, 71 out\n"
    "of memory, 73 unwritable output.\n";

struct fold_args {
    struct perf_fold_opts opts;
    struct render_options render;
    const char *input;
    const char *maps; /* --maps FILE */
};

enum { OPT_KALLSYMS = 256, OPT_BUILDID_DIR, OPT_MAPS, OPT_NO_INLINE };

/* One option: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
static int take_option(void *ctx, int c, const char *arg)
{
    struct fold_args *a = ctx;
    switch (c) {
    case 'h':
        printf("%s%s%s%s", fold_help_head, render_options_help, render_viewer_help, fold_help_tail);
        return 0;
    case OPT_KALLSYMS: a->opts.kallsyms = arg; return CLI_GO_ON;
    case OPT_BUILDID_DIR: a->opts.buildid_dir = arg; return CLI_GO_ON;
    case OPT_MAPS: a->maps = arg; return CLI_GO_ON;
    case OPT_NO_INLINE: a->opts.no_inline = true; return CLI_GO_ON;
    default: break;
    }
    int rc = perf_options_take(c, arg, &a->opts.event, &a->opts.names);
    return rc == CLI_NOT_OURS ? render_options_take(&a->render, c, arg) : rc;
}

static int parse_args(int argc, char **argv, struct fold_args *a)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        PERF_LONG_OPTIONS,
        {"kallsyms", required_argument, NULL, OPT_KALLSYMS},
        {"buildid-dir", required_argument, NULL, OPT_BUILDID_DIR},
        {"maps", required_argument, NULL, OPT_MAPS},
        {"no-inline", no_argument, NULL, OPT_NO_INLINE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    render_options_init(&a->render);
    int rc = cli_getopt(argc, argv, ":ho:", longopts, "perf fold", take_option, a);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind + 1 < argc) {
        cli_error("more than one perf.data file ('%s', '%s'); cli perf fold reads one",
                  argv[optind], argv[optind + 1]);
        return EXIT_USAGE;
    }
    a->input = optind < argc ? argv[optind] : "perf.data";
    rc = render_options_finish(&a->render, "perf fold", RENDER_FOLDED);
    if (rc)
        return rc;
    if (!a->render.svg.unit)
        a->render.svg.unit = "samples";
    return CLI_GO_ON;
}

/* What the lost features cost, as far as folding reads them. */
static const char *lost_features_note(const struct perf_fold_report *r)
{
    if (r->build_ids_lost)
        return " (with the build ids: binaries are read by path, not from the build-id cache)";
    return "";
}

/* Unwound user stacks that ended before their outermost frame, by cause. */
static void warn_dwarf(const char *in, const struct perf_fold_report *r)
{
    static const char *const causes[] = {
        [UNWIND_NO_REGS] = "no user pc or sp among the sampled registers",
        [UNWIND_STACK_CUT] = "the stack copy ended (perf record --call-graph dwarf,SIZE)",
        [UNWIND_NO_MODULE] = "code in no mapped ELF file",
        [UNWIND_BAD_CFI] = "no usable CFI",
        [UNWIND_NO_MEMORY] = "memory ran short",
    };
    for (size_t i = UNWIND_COMPLETE + 1; i < sizeof(causes) / sizeof(causes[0]); i++)
        if (r->dwarf_ends[i])
            cli_warn("%s: %llu of %llu DWARF-unwound user stacks end early: %s; they "
                     "are cut there",
                     in, (unsigned long long)r->dwarf_ends[i], (unsigned long long)r->dwarf_samples,
                     causes[i]);
}

static void warn_report(const struct fold_args *a, const struct perf_fold_report *r)
{
    const char *in = a->input;
    const char *events = r->events;
    if (r->data_size_guessed)
        cli_warn("%s: the header gives no data size (perf record did not finish "
                 "cleanly?); read the records up to the end of the file",
                 in);
    if (r->nr_features_lost)
        cli_warn("%s: the file ends inside its feature sections (cut after the "
                 "data?): %u of them lost%s; the samples are folded without them",
                 in, r->nr_features_lost, lost_features_note(r));
    if (a->opts.event && !r->counted_event)
        cli_warn("%s: no sample of event '%s' (the file has: %s)", in, a->opts.event, events);
    else if (r->other_samples && !a->opts.event)
        cli_warn("%s: counted only the first event, '%s'; left out %llu samples of "
                 "other events (the file has: %s; choose with --event NAME)",
                 in, r->counted_event ? r->counted_event : "?",
                 (unsigned long long)r->other_samples, events);
    if (r->no_callchain)
        cli_warn("%s: '%s' was recorded without call chains (perf record -g): each "
                 "sample folds to the function it hit",
                 in, r->counted_event ? r->counted_event : "?");
    warn_dwarf(in, r);
    if (r->damaged_debug_files)
        cli_warn("%s: %zu debug file(s) have compressed DWARF sections that do not "
                 "inflate (first: %s); frames there may lack their inlined functions",
                 in, r->damaged_debug_files, r->damaged_debug_path);
    if (r->compressed_cut || r->compressed_leftover)
        cli_warn("%s: the compressed records (perf record -z) end inside %s; folded the "
                 "records before it (truncated recording?)",
                 in, r->compressed_cut ? "a zstd block" : "a record");
    if (r->kernel_unresolved)
        cli_warn("%s: kernel frames are [kernel.kallsyms]: no kallsyms matches the "
                 "recorded kernel (run as the recording user on the recording machine, or "
                 "pass --kallsyms FILE)",
                 in);
}

/* Opens, folds and reports. Returns 0 or an exit status. */
static int fold_file(struct fold_args *a, struct trie *t, struct strtab *names)
{
    struct perf_recording *rec;
    struct error e = ERROR_INIT;
    struct perf_fold_report report;
    struct maps_snapshot maps;
    maps_snapshot_init(&maps);
    if (a->maps) {
        if (maps_snapshot_read(&maps, a->maps, &e)) {
            maps_snapshot_free(&maps);
            return cli_fail(&e, NULL);
        }
        a->opts.maps = &maps;
    }
    if (perf_recording_open(&rec, a->input, &e)) {
        maps_snapshot_free(&maps);
        return cli_fail(&e, a->input);
    }
    int status = 0;
    if (perf_recording_fold(rec, &a->opts, t, names, &report, &e)) {
        status = cli_fail(&e, a->input);
    } else {
        warn_report(a, &report);
    }
    perf_recording_close(rec);
    maps_snapshot_free(&maps);
    return status;
}

int cmd_perf_fold(int argc, char **argv)
{
    struct fold_args a;
    memset(&a, 0, sizeof(a));
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    /* inflated DWARF is stored for the next fold after this one's output, by a child */
    struct debug_cache_later later = {NULL, 0};
    a.opts.debug_cache_later = &later;
    struct trie trie;
    struct strtab names;
    if (!trie_init(&trie) || !strtab_init(&names)) {
        trie_free(&trie);
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    status = fold_file(&a, &trie, &names);
    if (status == 0)
        status = render_options_write(&a.render, &trie, &names, a.input);
    trie_free(&trie);
    strtab_free(&names);
    debug_cache_store_detached(&later);
    return status;
}
