/*
 * execute: `cli execute GUEST.elf`: loads the guest, runs it to its end,
 * and reports its exit status, a fault or a spent budget (docs/CONTRACT.md#5-exit-statuses).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/execute_weights.h"
#include "flamegraph/flamegraph.h"
#include "run/run.h"

static const char execute_help[] =
    "usage: cli execute GUEST.elf [options]\n"
    "\n"
    "Runs a statically linked RV32IMA(C) or RV64IMA(C) ELF guest (or a RISC Zero program\n"
    "binary), instruction by instruction, under its zkVM's ABI: memory map,\n"
    "registers at entry, system calls and precompiles (docs/ZKVMS.md), or with\n"
    "Linux-numbered system calls (read, write, exit, brk) as qemu user mode.\n"
    "The exit status is the guest's own; otherwise 64 usage error, 65 unusable\n"
    "ELF, 66 unreadable file, 70 guest fault or unsupported call, 71 out of\n"
    "memory, 73 an output file cannot be written, 124 --max-cycles ran out.\n"
    "\n"
    "options:\n"
    "  --zkvm NAME            the guest's ABI: linux, sp1, risc0, lambda, nexus,\n"
    "                         openvm, zisk, jolt, pico, ceno, airbender, or auto\n"
    "                         (default: from the marks its toolchain leaves in the\n"
    "                         ELF; linux when there are none; --stats says why)\n"
    "  --symbols ELF          for a raw image (Airbender's app.bin, with --zkvm\n"
    "                         airbender): the ELF it was made from (app.elf), whose\n"
    "                         symbols and DWARF name the frames\n"
    "  --zkvm-release VER     SP1, Pico and Nexus: the release the guest was built with\n"
    "                         (SP1: 1 to 6, or 4.2, 3.4.0; Pico: 1.0 to 1.3.0; Nexus:\n"
    "                         0.2.0 to 0.3.6): each call means what it meant there\n"
    "                         (docs/ZKVMS.md); default: from the ELF (the sp1-zkvm\n"
    "                         version it names, RV64 for v6; Pico: v1.3.0; Nexus:\n"
    "                         0.2.4 for code from 0, else 0.3); --stats says which\n"
    "  --input FILE           the guest's private input; repeatable: one stdin item\n"
    "                         per file for SP1 (HINT_LEN/HINT_READ), the files one\n"
    "                         after the other for RISC Zero's fd 0 and lambda_vm's\n"
    "                         input region, one input item per file for OpenVM\n"
    "                         (HintInput) and ZisK; Nexus: the private tape, then\n"
    "                         the public input; fd 0 for linux (one file)\n"
    "  --private-input FILE   the same as --input\n"
    "  --stdin FILE           SP1 only: an SP1Stdin as SP1's SDK serializes it with\n"
    "                         bincode (bincode::serialize(&stdin)): its items are\n"
    "                         the stdin queue, before any --input items; its proofs\n"
    "                         are counted, not read\n"
    "  --no-deferred-proof-verification\n"
    "                         SP1 only: VERIFY_SP1_PROOF returns without checking a\n"
    "                         proof, as SP1 does with deferred proof verification\n"
    "                         off (a STARK cannot be verified here, so without this\n"
    "                         the call stops the run with exit 70)\n"
    "  --public-output FILE   where the public output goes: linux fd 3, SP1's public\n"
    "                         values, RISC Zero's journal, lambda_vm's commits,\n"
    "                         Nexus's output, OpenVM's revealed values, ZisK's\n"
    "                         outputs\n"
    "                         (default: discarded)\n"
    "  --max-cycles N         stop after N retired instructions (exit 124);\n"
    "                         K, M, G suffixes are powers of 1000\n"
    "  --jolt-memory SIZES    Jolt only: the I/O sizes the guest was built with,\n"
    "                         as its #[jolt::provable(...)] names them:\n"
    "                         max_input_size=N,max_output_size=N,\n"
    "                         max_trusted_advice_size=N,max_untrusted_advice_size=N\n"
    "                         (bytes, decimal or 0x hex; those left out keep\n"
    "                         Jolt's default 4096; stack_size and memory_size are\n"
    "                         taken and do not move the I/O region). They lay out\n"
    "                         the input, output, panic and termination addresses as\n"
    "                         Jolt's MemoryLayout does. Default: the ELF's\n"
    "                         __jolt_max_*_size symbols when it has them, else\n"
    "                         Jolt's defaults; an access below RAM outside that\n"
    "                         layout stops the run (exit 70) naming this option\n"
    "  --stack-size N         size of the guest stack (default 8M; K, M, G are powers\n"
    "                         of 1024; a multiple of 4K)\n"
    "  --strict               linux: unsupported system calls fault instead of\n"
    "                         returning -ENOSYS (zkVM ABIs always fault)\n"
    "  --no-verify-assumptions\n"
    "                         RISC Zero: accept the claims env::verify checks\n"
    "                         (SYS_VERIFY_INTEGRITY) without receipts, as if the host\n"
    "                         had added one for each (a dev-mode receipt); without\n"
    "                         it such a call is exit 70. --stats counts them\n"
    "  --stats                print retired instructions, wall time and MIPS to stderr,\n"
    "                         the ABI and why it was chosen, the engine, and what the\n"
    "                         zkVM reports (committed digest, journal digest,\n"
    "                         cycle-tracker regions)\n"
    "  --engine ENGINE        auto (default): the translation tier (basic blocks as\n"
    "                         x86-64 code) where it can run, else the interpreter;\n"
    "                         interp; or translate (exit 64 where it cannot run: not\n"
    "                         x86-64 Linux, code on writable pages, RISC Zero\n"
    "                         paging). Results are the same; --stats says which ran\n"
    "                         and why\n"
    "  --translate-after N    the tier translates a block once its start has run N\n"
    "                         times in the interpreter (default 15: code that runs a\n"
    "                         few times is not worth translating; 0 translates every\n"
    "                         block at once; at most 255)\n"
    "\n"
    "profiling (every retired instruction counts in its call stack; docs/CONTRACT.md):\n"
    "  --flamegraph FILE      write the profile with function names to FILE: folded\n"
    "                         stacks, or by extension an SVG flamegraph (.svg), a\n"
    "                         speedscope file (.json), pprof (.pb.gz) or Firefox\n"
    "                         Profiler (.gecko.json); may be given several times\n"
    "  --flamegraph-raw FILE  the same with call target addresses (0x<hex>) for\n"
    "                         frames, with DWARF each with its pc (0x<hex>@0x<pc>),\n"
    "                         for scripts/enrich_flamegraph.py\n"
    "  --format FORMAT        folded, svg (interactive flamegraph), json (speedscope),\n"
    "                         pprof or gecko; default: from each FILE's extension\n"
    "                         (.svg, .json, .pb.gz, .gecko.json, else folded)\n"
    "  --report FILE          write a report of the profile to FILE at the end: top\n"
    "                         functions by self and inclusive instructions, zkVM\n"
    "                         calls (as `cli report`; JSON when FILE ends in .json)\n"
    "  --flamegraph-checkpoint-cycles N\n"
    "                         rewrite the flamegraph files every N instructions, so a\n"
    "                         killed run leaves its profile so far\n"
    "  --no-inline            name only functions: by default, when the ELF has DWARF,\n"
    "                         each instruction also counts in the inline frames that\n"
    "                         hold its pc (as llvm-addr2line --inlines names them), and\n"
    "                         each caller's frames in those of its call's pc\n"
    "  --lines                name each instruction's innermost frame NAME:LINE, its\n"
    "                         pc's source line (speedscope and pprof files also get\n"
    "                         the file and line as fields); needs DWARF (-g)\n"
    "Flamegraph files are also written when the guest faults or --max-cycles runs\n"
    "out, always under a temporary name that is renamed into place.\n"
    "  -h, --help             show this help\n";

struct execute_options {
    const char *guest_path;
    const char *zkvm;         /* --zkvm: NULL or "auto" to detect */
    const char *zkvm_release; /* --zkvm-release: NULL to read it from the ELF */
    const char *symbols;      /* --symbols: the ELF of a raw image (Airbender's app.elf) */
    const char *inputs[64];   /* --input and --private-input, in order */
    size_t ninputs;
    const char *sp1_stdin; /* --stdin */
    const char *public_output;
    uint64_t max_cycles; /* 0: no limit */
    uint64_t stack_size;
    bool strict;
    bool unverified_assumptions; /* --no-verify-assumptions */
    bool stats;
    enum machine_engine engine; /* --engine */
    uint64_t translate_after;   /* --translate-after */
    bool no_deferred_proof_verification;
    bool jolt_memory_given;         /* --jolt-memory */
    struct jolt_memory jolt_memory; /* its sizes, over Jolt's defaults */
    struct profile_output {
        const char *path;
        bool raw; /* frames as 0x<target> instead of names */
    } outputs[8]; /* --flamegraph and --flamegraph-raw, in order */
    size_t noutputs;
    const char *format;             /* --format name, checked; NULL: by extension */
    uint64_t checkpoint_cycles;     /* 0: only at the end */
    const char *report;             /* --report FILE */
    bool no_inline;                 /* --no-inline: function frames only */
    bool lines;                     /* --lines: leaf frames name:LINE */
    struct execute_weights weights; /* --weight, --cost-table (resolved per run) */
};

enum {
    OPT_INPUT = 256,
    OPT_SP1_STDIN,
    OPT_ZKVM,
    OPT_ZKVM_RELEASE,
    OPT_SYMBOLS,
    OPT_PUBLIC_OUTPUT,
    OPT_MAX_CYCLES,
    OPT_STACK_SIZE,
    OPT_STRICT,
    OPT_NO_VERIFY_ASSUMPTIONS,
    OPT_STATS,
    OPT_ENGINE,
    OPT_TRANSLATE_AFTER,
    OPT_FLAMEGRAPH,
    OPT_FLAMEGRAPH_RAW,
    OPT_FORMAT,
    OPT_CHECKPOINT,
    OPT_NO_DEFERRED,
    OPT_REPORT,
    OPT_NO_INLINE,
    OPT_LINES,
    OPT_JOLT_MEMORY,
};

/* --jolt-memory SIZES: read strictly, and laid out once to refuse sizes Jolt refuses. */
static int take_jolt_memory(struct execute_options *o, const char *arg)
{
    struct error e = ERROR_INIT;
    if (o->jolt_memory_given) {
        cli_error("give --jolt-memory once, with all the sizes");
        return EXIT_USAGE;
    }
    if (run_jolt_memory(arg, &o->jolt_memory, &e) != 0) {
        cli_error("--jolt-memory: %s", e.msg);
        return EXIT_USAGE;
    }
    o->jolt_memory_given = true;
    return CLI_GO_ON;
}

/* One option: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
/* --engine: auto, interp or translate. */
static int take_engine(struct execute_options *o, const char *arg)
{
    if (strcmp(arg, "auto") == 0)
        o->engine = MACHINE_ENGINE_AUTO;
    else if (strcmp(arg, "interp") == 0)
        o->engine = MACHINE_ENGINE_INTERP;
    else if (strcmp(arg, "translate") == 0)
        o->engine = MACHINE_ENGINE_TRANSLATE;
    else {
        cli_error("--engine wants auto, interp or translate, not '%s'", arg);
        return EXIT_USAGE;
    }
    return CLI_GO_ON;
}

static int take_option(void *ctx, int c, const char *arg)
{
    struct execute_options *o = ctx;
    switch (c) {
    case 'h':
        fputs(execute_help, stdout);
        fputs(execute_weights_help, stdout);
        return 0;
    case OPT_INPUT:
        if (o->ninputs == sizeof(o->inputs) / sizeof(o->inputs[0])) {
            cli_error("at most %zu --input files per run",
                      sizeof(o->inputs) / sizeof(o->inputs[0]));
            return EXIT_USAGE;
        }
        o->inputs[o->ninputs++] = arg;
        return CLI_GO_ON;
    case OPT_SP1_STDIN: o->sp1_stdin = arg; return CLI_GO_ON;
    case OPT_ZKVM:
        if (strcmp(arg, "auto") != 0 && !abi_by_name(arg)) {
            cli_error("--zkvm wants auto, %s, not '%s'", abi_names(), arg);
            return EXIT_USAGE;
        }
        o->zkvm = arg;
        return CLI_GO_ON;
    case OPT_ZKVM_RELEASE: o->zkvm_release = arg; return CLI_GO_ON;
    case OPT_SYMBOLS: o->symbols = arg; return CLI_GO_ON;
    case OPT_PUBLIC_OUTPUT: o->public_output = arg; return CLI_GO_ON;
    case OPT_STRICT: o->strict = true; return CLI_GO_ON;
    case OPT_NO_VERIFY_ASSUMPTIONS: o->unverified_assumptions = true; return CLI_GO_ON;
    case OPT_STATS: o->stats = true; return CLI_GO_ON;
    case OPT_ENGINE: return take_engine(o, arg);
    case OPT_REPORT: o->report = arg; return CLI_GO_ON;
    case OPT_NO_DEFERRED: o->no_deferred_proof_verification = true; return CLI_GO_ON;
    case OPT_NO_INLINE: o->no_inline = true; return CLI_GO_ON;
    case OPT_LINES: o->lines = true; return CLI_GO_ON;
    case OPT_JOLT_MEMORY: return take_jolt_memory(o, arg);
    case OPT_FLAMEGRAPH:
    case OPT_FLAMEGRAPH_RAW:
        if (o->noutputs == sizeof(o->outputs) / sizeof(o->outputs[0])) {
            cli_error("at most %zu flamegraph files per run",
                      sizeof(o->outputs) / sizeof(o->outputs[0]));
            return EXIT_USAGE;
        }
        o->outputs[o->noutputs++] =
            (struct profile_output){.path = arg, .raw = c == OPT_FLAMEGRAPH_RAW};
        return CLI_GO_ON;
    case OPT_FORMAT: {
        enum render_format unused; /* (a block: clang refuses a declaration after a label) */
        if (!render_format_by_name(arg, &unused)) {
            cli_error("--format wants folded, svg, json, pprof or gecko, not '%s'", arg);
            return EXIT_USAGE;
        }
        o->format = arg;
        return CLI_GO_ON;
    }
    case OPT_CHECKPOINT:
        if (!cli_parse_count(arg, false, &o->checkpoint_cycles) || o->checkpoint_cycles == 0) {
            cli_error("--flamegraph-checkpoint-cycles wants a positive count such as 100M, "
                      "not '%s'",
                      arg);
            return EXIT_USAGE;
        }
        return CLI_GO_ON;
    case OPT_MAX_CYCLES:
        if (!cli_parse_count(arg, false, &o->max_cycles) || o->max_cycles == 0) {
            cli_error("--max-cycles wants a positive count such as 1000000 or 5G, not '%s'", arg);
            return EXIT_USAGE;
        }
        return CLI_GO_ON;
    case OPT_TRANSLATE_AFTER:
        if (!cli_parse_count(arg, false, &o->translate_after) || o->translate_after > UINT8_MAX) {
            cli_error("--translate-after wants a count from 0 to 255, such as 15, not '%s'", arg);
            return EXIT_USAGE;
        }
        return CLI_GO_ON;
    case OPT_STACK_SIZE:
        if (!cli_parse_count(arg, true, &o->stack_size) || o->stack_size == 0 ||
            o->stack_size % GUEST_PAGE_SIZE || o->stack_size > (1ull << 30)) {
            cli_error("--stack-size wants a multiple of 4K up to 1G, such as 8M, not '%s'", arg);
            return EXIT_USAGE;
        }
        return CLI_GO_ON;
    default: return execute_weights_option(&o->weights, c, arg);
    }
}

static int parse_options(int argc, char **argv, struct execute_options *o)
{
    static const struct option longopts[] = {
        {"input", required_argument, NULL, OPT_INPUT},
        {"private-input", required_argument, NULL, OPT_INPUT},
        {"stdin", required_argument, NULL, OPT_SP1_STDIN},
        {"zkvm", required_argument, NULL, OPT_ZKVM},
        {"zkvm-release", required_argument, NULL, OPT_ZKVM_RELEASE},
        {"symbols", required_argument, NULL, OPT_SYMBOLS},
        {"public-output", required_argument, NULL, OPT_PUBLIC_OUTPUT},
        {"max-cycles", required_argument, NULL, OPT_MAX_CYCLES},
        {"stack-size", required_argument, NULL, OPT_STACK_SIZE},
        {"jolt-memory", required_argument, NULL, OPT_JOLT_MEMORY},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"no-verify-assumptions", no_argument, NULL, OPT_NO_VERIFY_ASSUMPTIONS},
        {"stats", no_argument, NULL, OPT_STATS},
        {"engine", required_argument, NULL, OPT_ENGINE},
        {"translate-after", required_argument, NULL, OPT_TRANSLATE_AFTER},
        {"no-deferred-proof-verification", no_argument, NULL, OPT_NO_DEFERRED},
        {"flamegraph", required_argument, NULL, OPT_FLAMEGRAPH},
        {"flamegraph-raw", required_argument, NULL, OPT_FLAMEGRAPH_RAW},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"flamegraph-checkpoint-cycles", required_argument, NULL, OPT_CHECKPOINT},
        {"report", required_argument, NULL, OPT_REPORT},
        {"no-inline", no_argument, NULL, OPT_NO_INLINE},
        {"lines", no_argument, NULL, OPT_LINES},
        EXECUTE_WEIGHT_OPTIONS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct execute_options){.stack_size = GUEST_DEFAULT_STACK_SIZE,
                                  .translate_after = MACHINE_TRANSLATE_AFTER};
    int rc = cli_getopt(argc, argv, ":h", longopts, "execute", take_option, o);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind >= argc) {
        cli_error("no guest given; usage: cli execute GUEST.elf [options]");
        return EXIT_USAGE;
    }
    if (optind + 1 < argc) {
        cli_error("unexpected argument '%s' after the guest; see 'cli execute --help'",
                  argv[optind + 1]);
        return EXIT_USAGE;
    }
    o->guest_path = argv[optind];
    if (execute_weights_asked(&o->weights) && o->noutputs == 0 && !o->report) {
        cli_error("--weight and --cost-table need --flamegraph, --flamegraph-raw or --report");
        return EXIT_USAGE;
    }
    if (o->checkpoint_cycles && o->noutputs == 0) {
        cli_error("--flamegraph-checkpoint-cycles needs --flamegraph or --flamegraph-raw");
        return EXIT_USAGE;
    }
    if (o->lines && o->noutputs == 0) {
        cli_error("--lines needs --flamegraph (it names the profile's frames)");
        return EXIT_USAGE;
    }
    return CLI_GO_ON;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether a raw file is asked for: it carries every pc with DWARF, so that
 * the enrichment script can name lines too (docs/FORMATS.md, "Raw folded
 * stacks"), not only those of functions with inlined code.
 */
static bool writes_raw(const struct execute_options *o)
{
    for (size_t i = 0; i < o->noutputs; i++)
        if (o->outputs[i].raw)
            return true;
    return false;
}

/* The linux ABI reads fd 0 from a file: its one --input. */
static int open_linux_input(const struct execute_options *o, int *fd)
{
    *fd = -1;
    if (o->ninputs == 0)
        return 0;
    if (o->ninputs > 1) {
        cli_error("a linux guest reads one input on fd 0: give --input once");
        return EXIT_USAGE;
    }
    *fd = open(o->inputs[0], O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        cli_error("cannot read private input %s: %s", o->inputs[0], strerror(errno));
        return EXIT_NOINPUT;
    }
    return 0;
}

/* The guest's file name without its folders: the profile's name. */
static const char *guest_name(const struct execute_options *o)
{
    const char *slash = strrchr(o->guest_path, '/');
    return slash ? slash + 1 : o->guest_path;
}

/* A profile that could not be made: reported as a failed write of `path`. */
static int profile_failed(const char *path)
{
    cli_error("out of memory writing %s", path ? path : "<stdout>");
    return EXIT_OSERR;
}

/* One --flamegraph or --flamegraph-raw file, titled "GUEST: TOTAL UNIT". */
static int write_one_profile(const struct execute_options *o, struct run *r,
                             const struct profile_output *output)
{
    struct profile p;
    if (run_profile(r, output->raw ? RUN_FRAMES_RAW : RUN_FRAMES_NAMED, &p) != 0) {
        profile_free(&p);
        return profile_failed(output->path);
    }
    struct profile_write_options wo = {
        .format = o->format, .fallback = RENDER_FOLDED, .name = guest_name(o), .title_total = true};
    svg_options_init(&wo.svg);
    struct error e = ERROR_INIT;
    int rc = profile_write(output->path, &p, &wo, &e) ? cli_fail(&e, NULL) : 0;
    profile_free(&p);
    return rc;
}

/* Writes the flamegraph files for everything retired so far. */
static int write_profiles(const struct execute_options *o, struct run *r)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && r->profiling && i < o->noutputs; i++)
        rc = write_one_profile(o, r, &o->outputs[i]);
    return rc;
}

/* --report FILE: the profile's report (flamegraph/report.h), JSON for a .json FILE. */
struct report_job {
    const struct profile *p;
    struct report_options ro;
};

static int write_report_job(FILE *out, void *ctx)
{
    const struct report_job *job = ctx;
    return report_write(out, job->p, &job->ro);
}

static int write_report(const struct execute_options *o, struct run *r)
{
    struct profile p;
    if (run_profile(r, RUN_FRAMES_FUNCTION, &p) != 0) {
        profile_free(&p);
        return profile_failed(o->report);
    }
    const char *dot = strrchr(o->report, '.');
    struct report_job job = {.p = &p,
                             .ro = {.top = 20,
                                    .json = dot && strcmp(dot, ".json") == 0,
                                    .inputs = &o->guest_path,
                                    .ninputs = 1}};
    int rc = cli_write_output(o->report, write_report_job, &job);
    profile_free(&p);
    return rc;
}

/*
 * Runs in steps, so that a long run on a terminal can show its progress
 * and checkpoints can be written. Returns 0 or an exit status for an error
 * of our own (a checkpoint that cannot be written).
 */
static int run_steps(const struct execute_options *o, struct run *r, double start,
                     enum run_stop *stop)
{
    bool progress = isatty(STDERR_FILENO), shown = false;
    int rc = 0;
    for (;;) {
        *stop = run_execute(r);
        if (*stop == RUN_CHECKPOINT)
            rc = write_profiles(o, r);
        else if (*stop != RUN_GOING)
            break;
        if (rc)
            break;
        double elapsed = now_seconds() - start;
        if (progress && elapsed > 1.0) {
            fprintf(stderr, "\r%.2f G instructions, %.0f MIPS ", (double)r->m.retired / 1e9,
                    (double)r->m.retired / elapsed / 1e6);
            shown = true;
        }
    }
    if (shown)
        fputs("\r\033[K", stderr);
    run_finish(r);
    return rc;
}

static void print_stats(const struct run *r, double seconds)
{
    const struct machine *m = &r->m;
    char engine[160];
    machine_engine_text(m, engine, sizeof(engine));
    fprintf(stderr, "instructions: %llu\n", (unsigned long long)m->retired);
    fprintf(stderr, "wall-time: %.6f s\n", seconds);
    fprintf(stderr, "mips: %.1f\n", seconds > 0 ? (double)m->retired / seconds / 1e6 : 0.0);
    fprintf(stderr, "abi: %s (%s)\n", r->abi->name, r->abi_why);
    fprintf(stderr, "engine: %s\n", engine);
    if (m->abi->report)
        m->abi->report(m, stderr);
}

/* Runs the started guest and turns how it stopped into an exit status. */
static int run_and_report(const struct execute_options *o, struct run *r)
{
    double start = now_seconds();
    enum run_stop stop;
    int rc = run_steps(o, r, start, &stop);
    double seconds = now_seconds() - start;
    if (o->stats) {
        print_stats(r, seconds);
        if (execute_weights_asked(&o->weights))
            run_weight_stats(r, stderr);
    }
    if (rc)
        return rc;
    rc = write_profiles(o, r); /* after an exit, a fault or a spent budget alike */
    if (rc == 0 && o->report)
        rc = write_report(o, r);
    char fault[4096], where[512];
    switch (stop) {
    case RUN_EXITED: return rc ? rc : r->m.exit_status;
    case RUN_FAULTED:
        run_fault_text(r, fault, sizeof(fault));
        cli_error("%s", fault);
        return EXIT_SOFTWARE;
    default: break;
    }
    cli_error("the --max-cycles budget of %llu instructions ran out at pc 0x%llx%s; raise "
              "--max-cycles to run longer",
              (unsigned long long)o->max_cycles, (unsigned long long)r->m.pc,
              run_function_at(r, r->m.pc, where, sizeof(where)));
    return EXIT_MAX_CYCLES;
}

/* The guest's input: fd 0 from one file under linux, else every item read whole. */
static int read_inputs(const struct execute_options *o, const struct run *r, int *fd,
                       struct run_inputs *in)
{
    if (r->abi == &abi_linux)
        return open_linux_input(o, fd);
    struct error e = ERROR_INIT;
    return run_inputs_read(in, o->sp1_stdin, o->inputs, o->ninputs, &e) ? cli_fail(&e, NULL) : 0;
}

/* Builds the machine, weighs and traces it, runs, and closes the run. */
static int run_session(const struct execute_options *o, struct run *r, const struct machine_io *io)
{
    struct error e = ERROR_INIT;
    int rc = run_start(r, io, &e) ? cli_fail(&e, NULL) : 0;
    if (rc == 0 && execute_weights_asked(&o->weights))
        rc = execute_weights_resolve(&o->weights, r->abi->name, r->m.xlen, &r->weights);
    if (rc == 0 && run_trace(r, &e) != 0)
        rc = cli_fail(&e, NULL);
    if (rc == 0 && run_engine(r, &e) != 0) {
        cli_error("%s", e.msg);
        rc = e.status == ERROR_NO_MEMORY ? cli_fail(&e, NULL) : EXIT_USAGE;
    }
    if (rc == 0)
        rc = run_and_report(o, r);
    run_close(r); /* its warnings before the public output is committed */
    return rc;
}

/* Opens the inputs and the public output, then runs. */
static int run_with_io(const struct execute_options *o, struct run *r)
{
    struct machine_io io = {.private_input_fd = -1,
                            .stdout_fd = STDOUT_FILENO,
                            .stderr_fd = STDERR_FILENO,
                            .public_output_fd = -1,
                            .strict = o->strict,
                            .unverified_assumptions = o->unverified_assumptions,
                            .warnings = cli_warning_sink(),
                            .stack_size = o->stack_size,
                            .engine = o->engine,
                            .translate_after = (unsigned)o->translate_after};
    struct run_inputs inputs = {.count = 0};
    struct output_file public_out = {0};
    if (o->sp1_stdin && r->abi != &abi_sp1) {
        cli_error("--stdin is SP1's stdin file; this guest runs as %s", r->abi->name);
        return EXIT_USAGE;
    }
    if (o->no_deferred_proof_verification && r->abi != &abi_sp1) {
        cli_error("--no-deferred-proof-verification is for SP1 guests; this one runs as %s",
                  r->abi->name);
        return EXIT_USAGE;
    }
    if (o->zkvm_release && !r->abi->takes_release) {
        cli_error("--zkvm-release is for SP1, Pico and Nexus guests; this one runs as %s",
                  r->abi->name);
        return EXIT_USAGE;
    }
    io.zkvm_release = o->zkvm_release;
    if (o->jolt_memory_given && r->abi != &abi_jolt) {
        cli_error("--jolt-memory is for Jolt guests; this one runs as %s", r->abi->name);
        return EXIT_USAGE;
    }
    io.jolt_memory = o->jolt_memory_given ? &o->jolt_memory : NULL;
    struct error e = ERROR_INIT;
    int rc = read_inputs(o, r, &io.private_input_fd, &inputs);
    io.inputs = inputs.list;
    io.ninputs = inputs.count;
    io.deferred_proofs = inputs.proofs;
    io.skip_deferred_proof_verification = o->no_deferred_proof_verification;
    if (rc == 0 && o->public_output) {
        if (output_file_open(&public_out, o->public_output, &e) == 0)
            io.public_output_fd = fileno(public_out.fp);
        else
            rc = cli_fail(&e, "public output");
    }
    if (rc == 0)
        rc = run_session(o, r, &io);
    if (public_out.fp && output_file_commit(&public_out, &e) != 0) {
        int failed = cli_fail(&e, "public output");
        if (rc == 0)
            rc = failed;
    }
    if (io.private_input_fd >= 0)
        close(io.private_input_fd);
    run_inputs_free(&inputs);
    return rc;
}

/* What the run is asked for, from the options. */
static struct run_options run_options_of(const struct execute_options *o)
{
    return (struct run_options){.guest_path = o->guest_path,
                                .zkvm = o->zkvm,
                                .symbols = o->symbols,
                                .max_cycles = o->max_cycles,
                                .checkpoint_cycles = o->checkpoint_cycles,
                                .profile = o->noutputs > 0 || o->report,
                                .no_inline = o->no_inline,
                                .lines = o->lines,
                                .raw = writes_raw(o),
                                .warnings = cli_warning_sink()};
}

int cmd_execute(int argc, char **argv)
{
    struct execute_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    struct run_options ro = run_options_of(&o);
    if (o.symbols && !run_raw_image(&ro)) {
        cli_error("--symbols is for a raw image (Airbender's app.bin with --zkvm airbender); "
                  "%s's own symbols name its frames",
                  o.guest_path);
        return EXIT_USAGE;
    }
    struct run run;
    struct error e = ERROR_INIT;
    rc = run_open(&run, &ro, &e) ? cli_fail(&e, o.guest_path) : run_with_io(&o, &run);
    run_close(&run);
    return rc;
}
