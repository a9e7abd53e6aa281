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
#include "run/run_weights.h"
#include "executor/abi/abi.h"
#include "executor/abi/detect_code.h"
#include "executor/abi/jolt_layout.h"
#include "executor/abi/sp1_stdin.h"
#include "executor/elf_image.h"
#include "executor/machine.h"
#include "flamegraph/render.h"
#include "flamegraph/report.h"
#include "tracer/guest_profile.h"
#include "symtab/demangle.h"
#include "symtab/inline_chain.h"
#include "symtab/symtab.h"

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
    "                         the ABI and why it was chosen, and what the zkVM reports\n"
    "                         (committed digest, journal digest, cycle-tracker regions)\n"
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
    struct jolt_layout unused;
    if (o->jolt_memory_given) {
        cli_error("give --jolt-memory once, with all the sizes");
        return EXIT_USAGE;
    }
    o->jolt_memory = jolt_memory_default();
    if (!jolt_memory_parse(arg, &o->jolt_memory, &e) ||
        !jolt_layout_compute(&o->jolt_memory, &unused, &e)) {
        cli_error("--jolt-memory: %s", e.msg);
        return EXIT_USAGE;
    }
    o->jolt_memory_given = true;
    return CLI_GO_ON;
}

/* One option: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
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
    *o = (struct execute_options){.stack_size = GUEST_DEFAULT_STACK_SIZE};
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

/* " in NAME" when a symbol covers addr, else "". */
static const char *function_suffix(const struct symtab *syms, uint64_t addr, char *buf, size_t size)
{
    const struct symtab_func *f = symtab_lookup(syms, addr);
    if (!f)
        return "";
    char *readable = demangle_symbol(f->name);
    snprintf(buf, size, " in %s", readable ? readable : f->name);
    free(readable);
    return buf;
}

/*
 * "unsupported CSR access: csrrw of mstatus (CSR 0x300; only reads of
 * cycle, time, instret and marchid are supported)".
 */
static void describe_csr_fault(const struct fault *f, char *what, size_t size)
{
    static const char *const ops[8] = {"?", "csrrw",  "csrrs",  "csrrc",
                                       "?", "csrrwi", "csrrsi", "csrrci"};
    const char *name = insn_csr_name((unsigned)f->addr);
    snprintf(what, size,
             "%s: %s of %s (CSR 0x%03llx; only reads of cycle, time, instret and marchid are "
             "supported)",
             fault_kind_text(f->kind), ops[(f->word >> 12) & 7], name ? name : "an unknown CSR",
             (unsigned long long)f->addr);
}

/*
 * Why a guest built with C cannot run as it is under a zkVM whose hart has
 * none (abi->without_c), and what to do: ": sp1's executor runs RV32IM, ...".
 */
static void describe_missing_c(const char *abi, int xlen, char *reason, size_t size)
{
    snprintf(reason, size,
             ": %s's executor runs RV%dIM, without compressed instructions: build the guest "
             "without C (-march=rv%dim)",
             abi, xlen, xlen);
}

static void report_fault(const struct machine *m, const struct symtab *syms)
{
    const struct fault *f = &m->fault;
    char where[512], from[512], what[512], reason[512] = "";
    const char *text = fault_kind_text(f->kind);
    switch (f->kind) {
    case FAULT_LOAD_UNMAPPED:
    case FAULT_STORE_UNMAPPED:
    case FAULT_STORE_READONLY:
    case FAULT_MISALIGNED_ACCESS:
        snprintf(what, sizeof(what), "%s (address 0x%llx)", text, (unsigned long long)f->addr);
        if (f->why) /* the ABI's reading of it (Jolt's), after the place */
            snprintf(reason, sizeof(reason), ": %s", f->why);
        break;
    case FAULT_MISALIGNED_LOAD:
    case FAULT_MISALIGNED_STORE:
        snprintf(what, sizeof(what), "%s (address 0x%llx)", text, (unsigned long long)f->addr);
        snprintf(reason, sizeof(reason),
                 ": %s's executor traps loads and stores whose address is not a multiple of "
                 "their size",
                 m->abi->name);
        break;
    case FAULT_MISALIGNED_TARGET:
        snprintf(what, sizeof(what), "%s 0x%llx", text, (unsigned long long)f->addr);
        if (m->abi->without_c && (f->addr & 3) == 2) /* a target only a hart with C could run */
            describe_missing_c(m->abi->name, (int)m->xlen, reason, sizeof(reason));
        break;
    case FAULT_ILLEGAL_INSTRUCTION:
        snprintf(what, sizeof(what), "%s 0x%08x", text, f->word);
        if (m->abi->without_c && (f->word & 3) != 3) /* a compressed instruction's halfword */
            describe_missing_c(m->abi->name, (int)m->xlen, reason, sizeof(reason));
        break;
    case FAULT_UNSUPPORTED_CSR: describe_csr_fault(f, what, sizeof(what)); break;
    case FAULT_UNSUPPORTED_SYSCALL:
        snprintf(what, sizeof(what), "unsupported system call %llu (--strict)",
                 (unsigned long long)f->addr);
        break;
    case FAULT_UNSUPPORTED_ECALL:
        if (f->call)
            snprintf(what, sizeof(what), "%s call %s is not supported%s%s", m->abi->name, f->call,
                     f->why ? ": " : " yet", f->why ? f->why : "");
        else
            snprintf(what, sizeof(what), "%s call 0x%llx: %s", m->abi->name,
                     (unsigned long long)f->addr, f->why ? f->why : "unknown");
        break;
    case FAULT_ECALL_ARGUMENT:
        snprintf(what, sizeof(what), "%s call %s (argument 0x%llx): %s", m->abi->name, f->call,
                 (unsigned long long)f->addr, f->why);
        break;
    case FAULT_GUEST_PANIC:
        snprintf(what, sizeof(what), "guest panicked (%s): %s", f->call, f->why);
        break;
    default: snprintf(what, sizeof(what), "%s", text); break;
    }
    from[0] = '\0';
    if ((f->kind == FAULT_FETCH_UNMAPPED || f->kind == FAULT_FETCH_NOT_EXECUTABLE) && f->from) {
        char fn[400];
        snprintf(from, sizeof(from), " (jumped to from 0x%llx%s)", (unsigned long long)f->from,
                 function_suffix(syms, f->from, fn, sizeof(fn)));
    }
    cli_error("guest fault: %s at pc 0x%llx%s%s, after %llu instructions%s", what,
              (unsigned long long)f->pc, function_suffix(syms, f->pc, where, sizeof(where)), from,
              (unsigned long long)m->retired, reason);
}

/* The --stdin items and --input files, read whole (zkVM ABIs take them as items or one stream). */
struct inputs {
    struct machine_input list[256];
    size_t count;
    uint64_t proofs; /* the --stdin file's proofs, counted */
};

static int read_input_file(const char *path, struct machine_input *in)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    if (!f) {
        cli_error("cannot read input %s: %s", path, strerror(errno));
        return EXIT_NOINPUT;
    }
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                cli_error("out of memory reading input %s", path);
                return EXIT_OSERR;
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(data);
        cli_error("cannot read input %s: read error", path);
        return EXIT_NOINPUT;
    }
    *in = (struct machine_input){.data = data, .size = size};
    return 0;
}

/* The items of the --stdin file, each copied, first in the list. */
static int read_sp1_stdin(const char *path, struct inputs *in)
{
    struct machine_input file, items[192];
    size_t count = 0;
    uint64_t proofs = 0;
    struct error e = ERROR_INIT;
    int rc = read_input_file(path, &file);
    if (rc)
        return rc;
    if (!sp1_stdin_parse(file.data, file.size, items, 192, &count, &proofs, &e)) {
        cli_error("%s is not an SP1Stdin: %s", path, e.msg);
        /* An input the guest cannot take counts as unreadable (docs/CONTRACT.md: exit 66). */
        rc = cli_exit_status(ERROR_UNREADABLE);
    }
    for (size_t i = 0; i < count && rc == 0; i++) {
        uint8_t *copy = malloc(items[i].size ? items[i].size : 1);
        if (!copy) {
            cli_error("out of memory reading input %s", path);
            rc = EXIT_OSERR;
            break;
        }
        memcpy(copy, items[i].data, items[i].size);
        in->list[in->count++] = (struct machine_input){.data = copy, .size = items[i].size};
    }
    in->proofs = proofs;
    free((void *)file.data);
    return rc;
}

static int read_inputs(const struct execute_options *o, struct inputs *in)
{
    in->count = 0;
    if (o->sp1_stdin) {
        int rc = read_sp1_stdin(o->sp1_stdin, in);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < o->ninputs; i++) {
        int rc = read_input_file(o->inputs[i], &in->list[in->count]);
        if (rc)
            return rc;
        in->count++;
    }
    return 0;
}

static void free_inputs(struct inputs *in)
{
    for (size_t i = 0; i < in->count; i++)
        free((void *)in->list[i].data);
    in->count = 0;
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

/* One run of a guest: the machine and, when asked for, its profile. */
struct session {
    const struct execute_options *o;
    const struct elf_image *img;
    struct run_weights weights; /* o's weights, resolved for the guest */
    const struct symtab *syms;
    const struct abi_choice *choice;
    struct machine m;
    struct guest_profile profile;
    bool profiling;
    uint64_t next_checkpoint; /* UINT64_MAX: none */
};

/* One flamegraph file being written: an output_writer's context. */
struct profile_job {
    struct session *s;
    bool raw;
    enum render_format format;
};

/*
 * How the profile is written (GUEST_WRITE_*): raw, or names with --lines
 * (only where `lines`: the report sums functions up) and --no-inline
 * (which keeps the profile per pc only with --lines).
 */
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

static unsigned write_flags(const struct execute_options *o, bool raw, bool lines)
{
    if (raw)
        return GUEST_WRITE_RAW;
    return (lines && o->lines ? GUEST_WRITE_LINES : 0) | (o->no_inline ? GUEST_WRITE_NO_INLINE : 0);
}

/*
 * The profile as a name-keyed trie (`flags`: GUEST_WRITE_*), for the
 * renderers and the report, and the lines' sources in `sources` when not
 * NULL. 0, or -1 with nothing left to free.
 */
static int named_profile(struct session *s, unsigned flags, struct trie *named,
                         struct strtab *names, struct profile *sources)
{
    if (!trie_init(named))
        return -1;
    if (!strtab_init(names) ||
        guest_profile_named(&s->profile, flags, named, names, sources) != 0) {
        strtab_free(names);
        trie_free(named);
        return -1;
    }
    return 0;
}

/* Renders the profile as an SVG flamegraph, a speedscope, pprof or Gecko file, named by the guest.
 */
static int render_profile(const struct profile_job *job, FILE *out)
{
    struct session *s = job->s;
    struct trie named;
    struct strtab names;
    struct profile sources; /* borrows named and names */
    if (!profile_wrap(&sources, &named, &names, "instructions"))
        return -1;
    if (named_profile(s, write_flags(s->o, job->raw, true), &named, &names, &sources) != 0) {
        profile_free(&sources);
        return -1;
    }
    const char *guest = strrchr(s->o->guest_path, '/');
    guest = guest ? guest + 1 : s->o->guest_path;
    struct svg_options o;
    char title[512];
    snprintf(title, sizeof(title), "%s: %llu instructions", guest,
             (unsigned long long)s->m.retired);
    svg_options_init(&o);
    o.title = title;
    o.unit = "instructions";
    int rc = render_write_profile(out, &sources, 0, job->format, &o, guest);
    profile_free(&sources);
    strtab_free(&names);
    trie_free(&named);
    return rc;
}

/*
 * Writes the profile with every weight in `format` (folded and SVG show
 * the first, the SVG titled "NAME: TOTAL WEIGHT"), or its report when
 * `report` is not NULL. Returns 0, or -1 with errno set.
 */
static int weighted_write(FILE *out, struct session *s, unsigned flags, enum render_format format,
                          const struct svg_options *svg, const char *name,
                          const struct report_options *report)
{
    struct profile prof;
    if (!profile_init(&prof)) {
        errno = ENOMEM;
        return -1;
    }
    int rc = run_weights_profile(&s->weights, &s->profile, flags, s->img, &prof);
    if (rc == 0 && report)
        rc = report_write(out, &prof, report);
    else if (rc == 0) {
        struct svg_options o = *svg;
        char title[512];
        o.unit = profile_weight_name(&prof, 0);
        snprintf(title, sizeof(title), "%s: %llu %s", name,
                 (unsigned long long)profile_total(&prof, 0), o.unit);
        o.title = title;
        rc = render_write_profile(out, &prof, 0, format, &o, name);
    }
    int saved = errno;
    profile_free(&prof);
    errno = saved;
    return rc;
}

/* The profile with every weight of --weight and --cost-table. */
static int write_weighted(const struct profile_job *job, FILE *out)
{
    struct session *s = job->s;
    const char *guest = strrchr(s->o->guest_path, '/');
    guest = guest ? guest + 1 : s->o->guest_path;
    struct svg_options o;
    svg_options_init(&o);
    return weighted_write(out, s, write_flags(s->o, job->raw, true), job->format, &o, guest, NULL);
}

static int write_profile(FILE *out, void *ctx)
{
    const struct profile_job *job = ctx;
    if (execute_weights_asked(&job->s->o->weights))
        return write_weighted(job, out);
    if (job->format == RENDER_FOLDED)
        return guest_profile_write_folded(&job->s->profile, out,
                                          write_flags(job->s->o, job->raw, true));
    return render_profile(job, out);
}

static int write_one_profile(struct session *s, const struct profile_output *output)
{
    struct profile_job job = {.s = s, .raw = output->raw, .format = RENDER_FOLDED};
    if (!s->o->format || !render_format_by_name(s->o->format, &job.format))
        job.format = render_format_of_path(output->path, RENDER_FOLDED);
    return cli_write_output(output->path, write_profile, &job);
}

/* Writes the flamegraph files for everything retired so far. */
static int write_profiles(struct session *s)
{
    if (!s->profiling)
        return 0;
    guest_profile_flush(&s->profile, s->m.retired);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->o->noutputs; i++)
        rc = write_one_profile(s, &s->o->outputs[i]);
    return rc;
}

/* --report FILE: the profile's report (flamegraph/report.h), JSON for a .json FILE. */
static int write_report(FILE *out, void *ctx)
{
    struct session *s = ctx;
    const char *dot = strrchr(s->o->report, '.');
    struct report_options ro = {.top = 20,
                                .json = dot && strcmp(dot, ".json") == 0,
                                .inputs = &s->o->guest_path,
                                .ninputs = 1};
    if (execute_weights_asked(&s->o->weights))
        return weighted_write(out, s, write_flags(s->o, false, false), RENDER_FOLDED, NULL, NULL,
                              &ro);
    struct trie named;
    struct strtab names;
    if (named_profile(s, write_flags(s->o, false, false), &named, &names, NULL) != 0)
        return -1;
    int rc = report_write_trie(out, &named, &names, "instructions", &ro);
    strtab_free(&names);
    trie_free(&named);
    return rc;
}

/* How much may run before the next stop for progress, a checkpoint or the budget. */
static uint64_t next_budget(const struct session *s)
{
    uint64_t budget = 1ull << 28, retired = s->m.retired;
    if (s->o->max_cycles && s->o->max_cycles - retired < budget)
        budget = s->o->max_cycles - retired;
    if (s->next_checkpoint - retired < budget)
        budget = s->next_checkpoint - retired;
    return budget;
}

/*
 * Runs in chunks, so that a long run on a terminal can show its progress
 * and checkpoints can be written. Returns 0 or an exit status for an error
 * of our own (a checkpoint that cannot be written).
 */
static int run_guest(struct session *s, double start, enum stop_reason *why)
{
    bool progress = isatty(STDERR_FILENO), shown = false;
    int rc = 0;
    for (;;) {
        *why = s->weights.pages.model ? page_touch_run(&s->weights.pages, &s->m, next_budget(s))
                                      : machine_run(&s->m, next_budget(s));
        if (*why != STOP_BUDGET || (s->o->max_cycles && s->m.retired >= s->o->max_cycles))
            break;
        if (s->m.retired >= s->next_checkpoint) {
            s->next_checkpoint += s->o->checkpoint_cycles;
            rc = write_profiles(s);
            if (rc)
                break;
        }
        double elapsed = now_seconds() - start;
        if (progress && elapsed > 1.0) {
            fprintf(stderr, "\r%.2f G instructions, %.0f MIPS ", (double)s->m.retired / 1e9,
                    (double)s->m.retired / elapsed / 1e6);
            shown = true;
        }
    }
    if (shown)
        fputs("\r\033[K", stderr);
    if (s->weights.pages.model)
        page_touch_finish(&s->weights.pages, &s->m);
    return rc;
}

/* How the ABI was chosen, for --stats. */
struct abi_choice {
    const struct abi *abi;
    char why[560];
};

static void print_stats(const struct machine *m, const struct abi_choice *choice, double seconds)
{
    fprintf(stderr, "instructions: %llu\n", (unsigned long long)m->retired);
    fprintf(stderr, "wall-time: %.6f s\n", seconds);
    fprintf(stderr, "mips: %.1f\n", seconds > 0 ? (double)m->retired / seconds / 1e6 : 0.0);
    fprintf(stderr, "abi: %s (%s)\n", choice->abi->name, choice->why);
    if (m->abi->report)
        m->abi->report(m, stderr);
}

/*
 * Loads the guest. The ELF must fit the whole guest address space; each
 * ABI checks its own memory map when it lays the machine out.
 */
/*
 * A raw image (objcopy -O binary) runs only as Airbender's app.bin, loaded
 * at 0 as Airbender's runner loads it; other guests are ELF files.
 */
static bool raw_image(const struct execute_options *o)
{
    return o->zkvm && strcmp(o->zkvm, "airbender") == 0 && elf_image_file_is_raw(o->guest_path);
}

static int load_guest(const struct execute_options *o, struct elf_image *img)
{
    struct elf_limits limits = {
        .address_space_end = GUEST_SPACE_SIZE,
        .code_span_max = CODE_SPAN_LARGE, /* the widest any ABI takes: fit_span_to_abi */
    };
    struct error e = ERROR_INIT;
    if (raw_image(o))
        return elf_image_load_raw(o->guest_path, 0, o->symbols, &limits, img, &e)
                   ? cli_fail(&e, o->guest_path)
                   : 0;
    if (o->symbols) {
        cli_error("--symbols is for a raw image (Airbender's app.bin with --zkvm airbender); "
                  "%s's own symbols name its frames",
                  o->guest_path);
        return EXIT_USAGE;
    }
    if (elf_image_load(o->guest_path, &limits, img, &e) != 0)
        return cli_fail(&e, o->guest_path);
    char why[400];
    if (detect_not_program(img, why, sizeof(why))) { /* whatever --zkvm says */
        cli_error("%s: %s", o->guest_path, why);
        elf_image_free(img);
        return EXIT_DATAERR;
    }
    return 0;
}

/*
 * The executable span the chosen ABI takes: CODE_SPAN_MAX unless it asks
 * for more (Airbender, whose stack lies in the executable segment), so
 * that other guests keep the cache and the cost clock they had.
 */
static int fit_span_to_abi(const struct execute_options *o, const struct elf_image *img,
                           const struct abi_choice *c)
{
    struct error e = ERROR_INIT;
    uint64_t max = c->abi->code_span_max ? c->abi->code_span_max : CODE_SPAN_MAX;
    return elf_image_check_code_span(img, max, &e) ? cli_fail(&e, o->guest_path) : 0;
}

/*
 * --zkvm NAME, or what the ELF shows. Exit 65 when nothing decides: such a
 * guest would fault as a Linux one, so the user is told which --zkvm to try.
 */
static int choose_abi(const struct execute_options *o, const struct elf_image *img,
                      struct abi_choice *c)
{
    if (o->zkvm && strcmp(o->zkvm, "auto") != 0) {
        c->abi = abi_by_name(o->zkvm);
        snprintf(c->why, sizeof(c->why), "--zkvm %s", o->zkvm);
        return 0;
    }
    char why[480];
    c->abi = abi_detect(img, why, sizeof(why));
    if (!c->abi) {
        cli_error("%s: %s", o->guest_path, why);
        return EXIT_DATAERR;
    }
    snprintf(c->why, sizeof(c->why), "auto: %s%s", why,
             img->container ? ", in a RISC Zero program binary (R0BF)" : "");
    return 0;
}

/*
 * An ELF built with C runs under a zkVM whose hart has none as that
 * executor runs it: without C (abi->without_c; docs/ZKVMS.md, "Compressed
 * instructions").
 */
static int fit_hart_to_abi(const struct execute_options *o, struct elf_image *img,
                           const struct abi_choice *c)
{
    if (!img->rvc || !c->abi->without_c)
        return 0;
    struct error e = ERROR_INIT;
    if (elf_image_drop_c(img, &e) != 0) {
        char reason[256];
        describe_missing_c(c->abi->name, img->xlen, reason, sizeof(reason));
        cli_error("%s: %s%s", o->guest_path, e.msg, reason);
        return cli_exit_status(e.status);
    }
    fprintf(stderr,
            "warning: %s is built with compressed instructions (EF_RISCV_RVC), which %s's "
            "executor does not run: it runs as RV%dIM, where the first one is an illegal "
            "instruction\n",
            o->guest_path, c->abi->name, img->xlen);
    return 0;
}

/* Runs the loaded guest and turns how it stopped into an exit status. */
static int run_and_report(struct session *s)
{
    double start = now_seconds();
    enum stop_reason why;
    int rc = run_guest(s, start, &why);
    double seconds = now_seconds() - start;
    if (s->o->stats) {
        print_stats(&s->m, s->choice, seconds);
        if (execute_weights_asked(&s->o->weights)) {
            if (s->profiling) /* the per-pc counts as written: taken branches folded, open runs
                                 noted */
                guest_profile_flush(&s->profile, s->m.retired);
            run_weights_stats(&s->weights, s->profiling ? &s->profile : NULL, s->img, stderr);
        }
    }
    if (rc)
        return rc;
    rc = write_profiles(s); /* after an exit, a fault or a spent budget alike */
    if (rc == 0 && s->o->report)
        rc = cli_write_output(s->o->report, write_report, s);
    char where[512];
    switch (why) {
    case STOP_EXIT: return rc ? rc : s->m.exit_status;
    case STOP_FAULT: report_fault(&s->m, s->syms); return EXIT_SOFTWARE;
    case STOP_BUDGET: break;
    }
    cli_error("the --max-cycles budget of %llu instructions ran out at pc 0x%llx%s; raise "
              "--max-cycles to run longer",
              (unsigned long long)s->o->max_cycles, (unsigned long long)s->m.pc,
              function_suffix(s->syms, s->m.pc, where, sizeof(where)));
    return EXIT_MAX_CYCLES;
}

/*
 * The machine could not be built: the host refused memory, or the guest
 * does not fit the chosen ABI (said with the ABI and why it was chosen).
 */
static int fail_machine(const struct execute_options *o, const struct abi_choice *choice,
                        const struct error *e)
{
    if (e->status == ERROR_NO_MEMORY)
        return cli_fail(e, NULL);
    cli_error("%s: %s (as a %s guest: %s)", o->guest_path, e->msg, choice->abi->name, choice->why);
    return cli_exit_status(e->status);
}

/*
 * The inline frames of a profile (docs/CONTRACT.md, "Inline frames"): NULL
 * with --no-inline, without DWARF, or when the ELF cannot be read for it
 * (then with a warning: the profile has function frames only). 0, or an
 * exit status.
 */
static int open_inlines(const struct execute_options *o, const struct elf_image *img,
                        struct inline_chains **out)
{
    *out = NULL;
    if ((o->no_inline && !o->lines) || (o->noutputs == 0 && !o->report))
        return 0;
    const char *what = o->lines ? "inline frames and lines" : "inline frames";
    struct error e = ERROR_INIT;
    if (inline_chains_open(out, img->file, img->file_size, &e) != 0) {
        if (e.status == ERROR_NO_MEMORY)
            return cli_fail(&e, NULL);
        fprintf(stderr, "warning: %s: %s; %s left out\n", o->guest_path, e.msg, what);
        return 0;
    }
    if (!inline_chains_has_dwarf(*out)) {
        if (o->lines)
            fprintf(stderr,
                    "warning: %s has no DWARF (.debug_info): --lines writes function names "
                    "without lines; build the guest with -g\n",
                    o->guest_path);
        inline_chains_close(*out);
        *out = NULL;
    }
    return 0;
}

/* Bad DWARF, noticed while the profile was written: said once, after it. */
static void warn_bad_dwarf(const char *guest, const struct inline_chains *ic)
{
    if (ic && inline_chains_warning(ic))
        fprintf(stderr, "warning: %s: %s\n", guest, inline_chains_warning(ic));
}

/* The length of the guest's instruction at pc, for the profile of a guest with C. */
static unsigned guest_insn_length(void *img, uint64_t pc)
{
    return elf_image_insn_length(img, pc);
}

/* Builds the machine and the profile, runs, and tears both down. */
static int run_session(const struct execute_options *o, const struct elf_image *img,
                       const struct symtab *syms, const struct abi_choice *choice,
                       const struct machine_io *io)
{
    struct session s = {
        .o = o, .img = img, .syms = syms, .choice = choice, .next_checkpoint = UINT64_MAX};
    struct error e = ERROR_INIT;
    struct inline_chains *inlines;
    int rc = open_inlines(o, img, &inlines);
    if (rc)
        return rc;
    if (machine_init(&s.m, img, choice->abi, io, &e) != 0) {
        inline_chains_close(inlines);
        return fail_machine(o, choice, &e);
    }
    s.profiling = o->noutputs > 0 || o->report;
    bool weighted = execute_weights_asked(&o->weights);
    rc = weighted ? execute_weights_resolve(&o->weights, choice->abi->name, s.m.xlen, &s.weights)
                  : 0;
    bool every_pc = inlines && (o->lines || writes_raw(o));
    bool weigh_pcs = rc == 0 && weighted && run_weights_need_pcs(&s.weights);
    /* one such weight, beside any of one cost per instruction: the clock counts it */
    bool cost_clock =
        weigh_pcs && !every_pc && s.profiling && run_weights_clock(&s.weights, &s.m, syms);
    if (cost_clock)
        weigh_pcs = false;
    struct guest_profile_options po = {
        .inlines = inlines,
        .all_pcs = every_pc || weigh_pcs,
        .insn_length = img->rvc ? guest_insn_length : NULL,
        .insn_ctx = (void *)img,
        .cost_clock = cost_clock,
    };
    if (weigh_pcs && !every_pc) /* only functions whose pcs' costs differ */
        run_weights_watch(&s.weights, &po, img);
    if (rc == 0 && s.profiling && !guest_profile_init_with(&s.profile, syms, img->entry, &po)) {
        cli_error("out of memory setting up the profile");
        rc = EXIT_OSERR;
    }
    if (rc) {
        run_weights_free(&s.weights);
        machine_destroy(&s.m);
        inline_chains_close(inlines);
        return rc;
    }
    if (s.profiling)
        machine_attach_tracer(&s.m, &s.profile.tracer);
    if (!run_weights_start(&s.weights, &s.m)) {
        cli_error("out of memory setting up the page tracker");
        rc = EXIT_OSERR;
    }
    if (rc) {
        run_weights_free(&s.weights);
        guest_profile_free(&s.profile);
        machine_destroy(&s.m);
        inline_chains_close(inlines);
        return rc;
    }
    if (o->checkpoint_cycles)
        s.next_checkpoint = o->checkpoint_cycles;
    rc = run_and_report(&s);
    warn_bad_dwarf(o->guest_path, inlines);
    if (s.profiling && s.profile.runs_rewritten)
        fprintf(stderr,
                "warning: %s: the guest rewrote a branch it had taken: per-pc counts "
                "around it are off\n",
                o->guest_path);
    if (s.profiling)
        guest_profile_free(&s.profile);
    run_weights_free(&s.weights);
    machine_destroy(&s.m);
    inline_chains_close(inlines);
    return rc;
}

/* Opens the inputs and the public output, then runs. */
static int run_with_io(const struct execute_options *o, const struct elf_image *img,
                       const struct symtab *syms, const struct abi_choice *choice)
{
    struct machine_io io = {.private_input_fd = -1,
                            .stdout_fd = STDOUT_FILENO,
                            .stderr_fd = STDERR_FILENO,
                            .public_output_fd = -1,
                            .strict = o->strict,
                            .unverified_assumptions = o->unverified_assumptions,
                            .warnings = stderr,
                            .stack_size = o->stack_size};
    struct inputs inputs = {.count = 0};
    struct output_file public_out = {0};
    if (o->sp1_stdin && choice->abi != &abi_sp1) {
        cli_error("--stdin is SP1's stdin file; this guest runs as %s", choice->abi->name);
        return EXIT_USAGE;
    }
    if (o->no_deferred_proof_verification && choice->abi != &abi_sp1) {
        cli_error("--no-deferred-proof-verification is for SP1 guests; this one runs as %s",
                  choice->abi->name);
        return EXIT_USAGE;
    }
    if (o->zkvm_release && !choice->abi->takes_release) {
        cli_error("--zkvm-release is for SP1, Pico and Nexus guests; this one runs as %s",
                  choice->abi->name);
        return EXIT_USAGE;
    }
    io.zkvm_release = o->zkvm_release;
    if (o->jolt_memory_given && choice->abi != &abi_jolt) {
        cli_error("--jolt-memory is for Jolt guests; this one runs as %s", choice->abi->name);
        return EXIT_USAGE;
    }
    io.jolt_memory = o->jolt_memory_given ? &o->jolt_memory : NULL;
    struct error e = ERROR_INIT;
    int rc = choice->abi == &abi_linux ? open_linux_input(o, &io.private_input_fd)
                                       : read_inputs(o, &inputs);
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
        rc = run_session(o, img, syms, choice, &io);
    if (public_out.fp && output_file_commit(&public_out, &e) != 0) {
        int failed = cli_fail(&e, "public output");
        if (rc == 0)
            rc = failed;
    }
    if (io.private_input_fd >= 0)
        close(io.private_input_fd);
    free_inputs(&inputs);
    return rc;
}

int cmd_execute(int argc, char **argv)
{
    struct execute_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;

    struct elf_image img;
    rc = load_guest(&o, &img);
    if (rc)
        return rc;
    struct symtab syms;
    struct error e = ERROR_INIT;
    if (symtab_load(&syms, img.file, img.file_size, &e) != 0)
        memset(&syms, 0, sizeof(syms)); /* no names in messages, but still runnable */
    struct abi_choice choice;
    rc = choose_abi(&o, &img, &choice);
    if (rc == 0)
        rc = fit_span_to_abi(&o, &img, &choice);
    if (rc == 0)
        rc = fit_hart_to_abi(&o, &img, &choice);
    if (rc == 0)
        rc = run_with_io(&o, &img, &syms, &choice);
    symtab_free(&syms);
    elf_image_free(&img);
    return rc;
}
