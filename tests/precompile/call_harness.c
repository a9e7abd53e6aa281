/*
 * call_harness: runs single zkVM calls through an ABI's own ecall and
 * custom-instruction handlers, so that calls.test.mjs can check each call's
 * whole contract (which registers it reads, which words it reads and
 * writes, in which order) against implementations we did not write.
 *
 *   call_harness ZKVM GUEST.elf [RELEASE] < requests
 *
 * The guest is one of our own guests of that zkVM: it only gives the ABI a
 * machine laid out as that zkVM lays it out; no instruction of it runs.
 * RELEASE is what --zkvm-release would say (for ABIs that follow releases).
 * Each stdin line is one call, made of tokens:
 *
 *   xN=HEX        sets register xN before the call
 *   mADDR=HEX     writes the bytes at ADDR (hex) before the call
 *   ecall         the call is an ecall (t0, a0... as set) ...
 *   insn=HEX      ... or the custom instruction with this word
 *   rADDR:LEN     after the call, reads LEN (decimal) bytes at ADDR
 *   xN?           after the call, reads register xN
 *
 * and prints one line: "ok NAME OUT..." (NAME the call's frame name or "-",
 * OUT each read in the order asked, bytes as hex in memory order,
 * registers as hex numbers) or "fault NAME: TEXT: WHY" when the call
 * stopped the run. Memory persists from line to line. A line it cannot
 * read prints "error: ..." to stderr and exits 2.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "executor/abi/abi.h"
#include "executor/elf_image.h"
#include "executor/machine.h"
#include "executor/memory.h"

enum { MAX_READS = 64 };

struct read_request {
    bool is_reg;
    unsigned reg;
    uint64_t addr;
    size_t len;
};

struct call_request {
    bool custom;
    uint32_t word;
    bool have_action;
    struct read_request reads[MAX_READS];
    size_t nreads;
};

static bool parse_u64(const char *s, int base, uint64_t *v)
{
    char *end;
    if (!*s)
        return false;
    *v = strtoull(s, &end, base);
    return *end == '\0';
}

/* Writes the hex bytes into guest memory at addr; the range must be mapped. */
static bool poke_hex(struct machine *m, uint64_t addr, const char *hex)
{
    size_t len = strlen(hex);
    if (len % 2 || !mem_range_has(&m->mem, addr, len / 2, PAGE_R))
        return false;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        uint8_t b = (uint8_t)(hi << 4 | lo);
        mem_poke(&m->mem, addr + i, &b, 1);
    }
    return true;
}

/* xN=HEX or xN? */
static bool parse_register(struct machine *m, struct call_request *rq, const char *tok)
{
    char *end;
    unsigned long r = strtoul(tok + 1, &end, 10);
    if (end == tok + 1 || r > 31)
        return false;
    if (strcmp(end, "?") == 0) {
        if (rq->nreads == MAX_READS)
            return false;
        rq->reads[rq->nreads++] = (struct read_request){.is_reg = true, .reg = (unsigned)r};
        return true;
    }
    uint64_t v;
    if (*end != '=' || !parse_u64(end + 1, 16, &v))
        return false;
    machine_set_reg(m, (unsigned)r, v);
    return true;
}

/* mADDR=HEX or rADDR:LEN */
static bool parse_memory(struct machine *m, struct call_request *rq, const char *tok)
{
    char addr_text[32];
    const char *sep = strchr(tok, tok[0] == 'm' ? '=' : ':');
    size_t n = sep ? (size_t)(sep - tok - 1) : 0;
    uint64_t addr, len;
    if (!sep || n == 0 || n >= sizeof(addr_text))
        return false;
    memcpy(addr_text, tok + 1, n);
    addr_text[n] = '\0';
    if (!parse_u64(addr_text, 16, &addr))
        return false;
    if (tok[0] == 'm')
        return poke_hex(m, addr, sep + 1);
    if (!parse_u64(sep + 1, 10, &len) || rq->nreads == MAX_READS)
        return false;
    rq->reads[rq->nreads++] = (struct read_request){.addr = addr, .len = len};
    return true;
}

static bool parse_token(struct machine *m, struct call_request *rq, const char *tok)
{
    uint64_t word;
    switch (tok[0]) {
    case 'x': return parse_register(m, rq, tok);
    case 'm':
    case 'r': return parse_memory(m, rq, tok);
    }
    if (strcmp(tok, "ecall") == 0 && !rq->have_action) {
        rq->have_action = true;
        return true;
    }
    if (strncmp(tok, "insn=", 5) == 0 && !rq->have_action && parse_u64(tok + 5, 16, &word) &&
        word && word <= UINT32_MAX) {
        rq->have_action = rq->custom = true;
        rq->word = (uint32_t)word;
        return true;
    }
    return false;
}

static void print_reads(const struct machine *m, const struct call_request *rq)
{
    for (size_t i = 0; i < rq->nreads; i++) {
        const struct read_request *r = &rq->reads[i];
        if (r->is_reg) {
            printf(" %" PRIx64, machine_get_reg(m, r->reg));
            continue;
        }
        putchar(' ');
        if (!mem_range_has(&m->mem, r->addr, r->len, PAGE_R)) {
            printf("unmapped");
            continue;
        }
        const uint8_t *p = mem_host(&m->mem, r->addr);
        for (size_t j = 0; j < r->len; j++)
            printf("%02x", p[j]);
    }
}

/* Makes the call at the entry point, as the interpreter would, and prints the outcome. */
static void run_call(struct machine *m, const struct call_request *rq, uint64_t entry)
{
    m->pc = entry;
    m->custom_word = rq->custom ? rq->word : 0;
    m->fault = (struct fault){0};
    enum ecall_result r = (rq->custom && !m->abi->custom_insn) ? ECALL_FAULT : machine_ecall(m);
    if (r == ECALL_FAULT) {
        printf("fault %s: %s: %s\n", m->fault.call ? m->fault.call : "-",
               fault_kind_text(m->fault.kind), m->fault.why ? m->fault.why : "-");
        return;
    }
    printf("ok %s", r == ECALL_EXIT ? "exit" : "-");
    print_reads(m, rq);
    putchar('\n');
}

/* The machine's warnings, as cli prints them. */
static void say_on_stderr(void *ctx, const char *text)
{
    (void)ctx;
    fprintf(stderr, "warning: %s\n", text);
}

static int serve(struct machine *m, uint64_t entry)
{
    char *line = NULL;
    size_t cap = 0;
    int status = 0;
    for (unsigned lineno = 1; getline(&line, &cap, stdin) > 0; lineno++) {
        struct call_request rq = {0};
        bool ok = true;
        for (char *tok = strtok(line, " \t\n"); tok && ok; tok = strtok(NULL, " \t\n"))
            ok = parse_token(m, &rq, tok);
        if (!ok || !rq.have_action) {
            fprintf(stderr, "error: line %u: not a call request (see call_harness.c)\n", lineno);
            status = 2;
            break;
        }
        run_call(m, &rq, entry);
        fflush(stdout);
    }
    free(line);
    return status;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: call_harness ZKVM GUEST.elf [RELEASE] < requests\n");
        return 2;
    }
    const struct abi *abi = abi_by_name(argv[1]);
    struct elf_limits limits = {.address_space_end = GUEST_SPACE_SIZE};
    struct elf_image img;
    struct error e = ERROR_INIT;
    if (!abi) {
        fprintf(stderr, "error: no zkVM ABI named %s (%s)\n", argv[1], abi_names());
        return 2;
    }
    if (elf_image_load(argv[2], &limits, &img, &e) != 0) {
        fprintf(stderr, "error: %s: %s\n", argv[2], e.msg);
        return 2;
    }
    struct machine_io io = {.private_input_fd = -1,
                            .stdout_fd = -1,
                            .stderr_fd = -1,
                            .public_output_fd = -1,
                            .warnings = {.say = say_on_stderr},
                            .stack_size = 1 << 16,
                            .zkvm_release = argc == 4 ? argv[3] : NULL};
    struct machine m;
    if (machine_init(&m, &img, abi, &io, &e) != 0) {
        fprintf(stderr, "error: %s: %s\n", argv[2], e.msg);
        elf_image_free(&img);
        return 2;
    }
    int status = serve(&m, img.entry);
    machine_destroy(&m);
    elf_image_free(&img);
    return status;
}
