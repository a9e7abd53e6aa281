/*
 * execute: `cli execute GUEST.elf`: loads the guest, runs it to its end,
 * and reports its exit status, a fault or a spent budget (SPEC section 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/output_file.h"
#include "executor/elf_image.h"
#include "executor/machine.h"
#include "symtab/symtab.h"

static const char execute_help[] =
    "usage: cli execute GUEST.elf [options]\n"
    "\n"
    "Runs a statically linked RV32IM or RV64IM ELF guest, instruction by\n"
    "instruction, with Linux-numbered system calls (read, write, exit, brk).\n"
    "The exit status is the guest's own; otherwise 64 usage error, 65 unusable\n"
    "ELF, 66 unreadable file, 70 guest fault, 124 --max-cycles ran out.\n"
    "\n"
    "options:\n"
    "  --private-input FILE   what the guest reads from fd 0 (default: empty)\n"
    "  --public-output FILE   where the guest's writes to fd 3 go (default: discarded)\n"
    "  --max-cycles N         stop after N retired instructions (exit 124);\n"
    "                         K, M, G suffixes are powers of 1000\n"
    "  --stack-size N         size of the guest stack (default 8M; K, M, G are powers\n"
    "                         of 1024; a multiple of 4K)\n"
    "  --strict               unsupported system calls fault instead of returning -ENOSYS\n"
    "  --stats                print retired instructions, wall time and MIPS to stderr\n"
    "  -h, --help             show this help\n";

struct execute_options {
    const char *guest_path;
    const char *private_input;
    const char *public_output;
    uint64_t max_cycles; /* 0: no limit */
    uint64_t stack_size;
    bool strict;
    bool stats;
};

enum { OPT_PRIVATE_INPUT = 256, OPT_PUBLIC_OUTPUT, OPT_MAX_CYCLES, OPT_STACK_SIZE, OPT_STRICT,
       OPT_STATS };

static int parse_options(int argc, char **argv, struct execute_options *o)
{
    static const struct option longopts[] = {
        {"private-input", required_argument, NULL, OPT_PRIVATE_INPUT},
        {"public-output", required_argument, NULL, OPT_PUBLIC_OUTPUT},
        {"max-cycles", required_argument, NULL, OPT_MAX_CYCLES},
        {"stack-size", required_argument, NULL, OPT_STACK_SIZE},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct execute_options){.stack_size = GUEST_DEFAULT_STACK_SIZE};
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(execute_help, stdout); return 0;
        case OPT_PRIVATE_INPUT: o->private_input = optarg; break;
        case OPT_PUBLIC_OUTPUT: o->public_output = optarg; break;
        case OPT_STRICT: o->strict = true; break;
        case OPT_STATS: o->stats = true; break;
        case OPT_MAX_CYCLES:
            if (!cli_parse_count(optarg, false, &o->max_cycles) || o->max_cycles == 0) {
                cli_error("--max-cycles wants a positive count such as 1000000 or 5G, not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_STACK_SIZE:
            if (!cli_parse_count(optarg, true, &o->stack_size) || o->stack_size == 0 ||
                o->stack_size % GUEST_PAGE_SIZE || o->stack_size > (1ull << 30)) {
                cli_error("--stack-size wants a multiple of 4K up to 1G, such as 8M, not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case ':':
            cli_error("option '%s' needs a value; see 'cli execute --help'", argv[optind - 1]);
            return EXIT_USAGE;
        default:
            cli_error("unknown option '%s'; see 'cli execute --help'", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
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
    return -1; /* go on */
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* " in NAME" when a symbol covers addr, else "". */
static const char *function_suffix(const struct symtab *syms, uint64_t addr, char *buf,
                                   size_t size)
{
    const struct symtab_func *f = symtab_lookup(syms, addr);
    if (!f)
        return "";
    snprintf(buf, size, " in %s", f->name);
    return buf;
}

static void report_fault(const struct machine *m, const struct symtab *syms)
{
    const struct fault *f = &m->fault;
    char where[512], from[512], what[128];
    const char *text = fault_kind_text(f->kind);
    switch (f->kind) {
    case FAULT_LOAD_UNMAPPED:
    case FAULT_STORE_UNMAPPED:
    case FAULT_STORE_READONLY:
        snprintf(what, sizeof(what), "%s (address 0x%llx)", text, (unsigned long long)f->addr);
        break;
    case FAULT_MISALIGNED_TARGET:
        snprintf(what, sizeof(what), "%s 0x%llx", text, (unsigned long long)f->addr);
        break;
    case FAULT_ILLEGAL_INSTRUCTION:
        snprintf(what, sizeof(what), "%s 0x%08x", text, f->word);
        break;
    case FAULT_UNSUPPORTED_SYSCALL:
        snprintf(what, sizeof(what), "unsupported system call %llu (--strict)",
                 (unsigned long long)f->addr);
        break;
    default: snprintf(what, sizeof(what), "%s", text); break;
    }
    from[0] = '\0';
    if ((f->kind == FAULT_FETCH_UNMAPPED || f->kind == FAULT_FETCH_NOT_EXECUTABLE) && f->from) {
        char fn[400];
        snprintf(from, sizeof(from), " (jumped to from 0x%llx%s)", (unsigned long long)f->from,
                 function_suffix(syms, f->from, fn, sizeof(fn)));
    }
    cli_error("guest fault: %s at pc 0x%llx%s%s, after %llu instructions", what,
              (unsigned long long)f->pc, function_suffix(syms, f->pc, where, sizeof(where)), from,
              (unsigned long long)m->retired);
}

static int open_private_input(const char *path, int *fd)
{
    *fd = -1;
    if (!path)
        return 0;
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        cli_error("cannot read private input %s: %s", path, strerror(errno));
        return EXIT_NOINPUT;
    }
    return 0;
}

/* Runs in chunks so that a long run on a terminal can show its progress. */
static enum stop_reason run_guest(struct machine *m, uint64_t max_cycles, double start)
{
    const uint64_t chunk = 1ull << 28;
    bool progress = isatty(STDERR_FILENO);
    bool shown = false;
    enum stop_reason why;
    for (;;) {
        uint64_t budget = chunk;
        if (max_cycles) {
            uint64_t left = max_cycles - m->retired;
            if (left < budget)
                budget = left;
        }
        why = machine_run(m, budget);
        if (why != STOP_BUDGET || (max_cycles && m->retired >= max_cycles))
            break;
        double elapsed = now_seconds() - start;
        if (progress && elapsed > 1.0) {
            fprintf(stderr, "\r%.2f G instructions, %.0f MIPS ", (double)m->retired / 1e9,
                    (double)m->retired / elapsed / 1e6);
            shown = true;
        }
    }
    if (shown)
        fputs("\r\033[K", stderr);
    return why;
}

static void print_stats(const struct machine *m, double seconds)
{
    fprintf(stderr, "instructions: %llu\n", (unsigned long long)m->retired);
    fprintf(stderr, "wall-time: %.6f s\n", seconds);
    fprintf(stderr, "mips: %.1f\n", seconds > 0 ? (double)m->retired / seconds / 1e6 : 0.0);
}

static int load_guest(const struct execute_options *o, struct elf_image *img)
{
    struct elf_limits limits = {
        .address_space_end = GUEST_SPACE_SIZE,
        .reserved_start = GUEST_STACK_TOP - o->stack_size,
        .reserved_end = GUEST_SPACE_SIZE,
    };
    char why[512];
    switch (elf_image_load(o->guest_path, &limits, img, why, sizeof(why))) {
    case ELF_OK: return 0;
    case ELF_ERR_READ: cli_error("%s: %s", o->guest_path, why); return EXIT_NOINPUT;
    case ELF_ERR_NOMEM: cli_error("%s: %s", o->guest_path, why); return EXIT_OSERR;
    case ELF_ERR_UNUSABLE: break;
    }
    cli_error("%s: %s", o->guest_path, why);
    return EXIT_DATAERR;
}

/* Runs the loaded guest and turns how it stopped into an exit status. */
static int run_and_report(const struct execute_options *o, struct machine *m,
                          const struct symtab *syms)
{
    double start = now_seconds();
    enum stop_reason why = run_guest(m, o->max_cycles, start);
    double seconds = now_seconds() - start;
    if (o->stats)
        print_stats(m, seconds);
    char where[512];
    switch (why) {
    case STOP_EXIT: return m->exit_status;
    case STOP_FAULT: report_fault(m, syms); return EXIT_SOFTWARE;
    case STOP_BUDGET: break;
    }
    cli_error("the --max-cycles budget of %llu instructions ran out at pc 0x%llx%s; raise "
              "--max-cycles to run longer",
              (unsigned long long)o->max_cycles, (unsigned long long)m->pc,
              function_suffix(syms, m->pc, where, sizeof(where)));
    return EXIT_MAX_CYCLES;
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
    if (symtab_load(&syms, img.file, img.file_size) != 0)
        memset(&syms, 0, sizeof(syms)); /* no names in messages, but still runnable */

    struct machine_io io = {.public_output_fd = -1, .strict = o.strict, .warnings = stderr};
    struct output_file public_out = {0};
    struct machine m;
    char why[256];
    rc = open_private_input(o.private_input, &io.private_input_fd);
    if (rc == 0 && o.public_output) {
        if (output_file_open(&public_out, o.public_output)) {
            io.public_output_fd = fileno(public_out.fp);
        } else {
            cli_error("cannot create public output %s: %s", o.public_output, strerror(errno));
            rc = EXIT_CANTCREAT;
        }
    }
    if (rc == 0 && !machine_init(&m, &img, o.stack_size, &io, why, sizeof(why))) {
        cli_error("%s", why);
        rc = EXIT_OSERR;
    } else if (rc == 0) {
        rc = run_and_report(&o, &m, &syms);
        machine_destroy(&m);
    }
    if (public_out.fp && !output_file_commit(&public_out)) {
        cli_error("cannot write public output %s: %s", o.public_output, strerror(errno));
        if (rc == 0)
            rc = EXIT_CANTCREAT;
    }
    if (io.private_input_fd >= 0)
        close(io.private_input_fd);
    symtab_free(&syms);
    elf_image_free(&img);
    return rc;
}
