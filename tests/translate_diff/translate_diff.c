/*
 * translate_diff: random RISC-V instruction streams and a pair of
 * machines, one on each engine (interp, translate), that run one from the
 * same registers and data and must end alike: the generator, the pair and
 * the comparison that unit.translate and the fuzz target fuzz_translate
 * share. The streams: RV32IM or RV64IM ALU operations, loads and stores
 * around a data page whose end borders unmapped memory (now and then
 * through a register that points nowhere), branches both ways (so blocks
 * loop), jals, calls and returns (which blocks follow), then ebreak.
 */
#include "tests/translate_diff/translate_diff.h"

#include <string.h>

#include "executor/abi/abi.h"
#include "executor/translate/translate.h"

#define BASE_REG 10 /* points into the data page; never written */

/*
 * The random source: the fed bytes first (the fuzzer's input, 8 a draw),
 * then a small deterministic generator (xorshift64*), so that a failure
 * repeats.
 */
static uint64_t rng_state;
static const uint8_t *fed;
static size_t fed_left;

void tdiff_seed(uint64_t seed)
{
    rng_state = seed ? seed : 1;
    fed_left = 0;
}

void tdiff_feed(const uint8_t *bytes, size_t n)
{
    fed = bytes;
    fed_left = n;
}

uint64_t tdiff_rnd(void)
{
    if (fed_left >= 8) {
        uint64_t v;
        memcpy(&v, fed, 8);
        fed += 8;
        fed_left -= 8;
        return v;
    }
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

unsigned tdiff_below(unsigned n)
{
    return (unsigned)(tdiff_rnd() % n);
}

#define rnd   tdiff_rnd
#define below tdiff_below

/* The instruction formats (the ISA manual's). */
uint32_t tdiff_r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
                      unsigned op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

uint32_t tdiff_i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

uint32_t tdiff_s_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}

uint32_t tdiff_b_type(int32_t offset, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)offset;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

uint32_t tdiff_j_type(int32_t offset, unsigned rd)
{
    uint32_t u = (uint32_t)offset;
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
           (u >> 12 & 0xff) << 12 | rd << 7 | 0x6F;
}

/* A register to write: any but the data base (x0 now and then: the sink). */
static unsigned dest(void)
{
    unsigned r = below(16);
    return r == BASE_REG ? 11 : r;
}

static unsigned src(void)
{
    return below(16);
}

/* A load or store address: the base and an offset around the data page, or anywhere. */
static void access_operands(unsigned *base, int32_t *imm)
{
    *base = below(40) ? BASE_REG : src();
    *imm = (int32_t)below(4096) - 2048;
}

static uint32_t alu_insn(int xlen)
{
    static const unsigned r_ops[][2] = {{0, 0}, {0, 0x20}, {1, 0}, {2, 0}, {3, 0}, {4, 0},
                                        {5, 0}, {5, 0x20}, {6, 0}, {7, 0}, {0, 1}, {1, 1},
                                        {2, 1}, {3, 1},    {4, 1}, {5, 1}, {6, 1}, {7, 1}};
    static const unsigned w_ops[][2] = {{0, 0}, {0, 0x20}, {1, 0}, {5, 0}, {5, 0x20},
                                        {0, 1}, {4, 1},    {5, 1}, {6, 1}, {7, 1}};
    int32_t imm = (int32_t)below(4096) - 2048;
    unsigned shamt_bits = xlen == 64 ? 6 : 5;
    switch (below(xlen == 64 ? 8 : 6)) {
    case 0: {
        unsigned k = below(sizeof(r_ops) / sizeof(r_ops[0]));
        return tdiff_r_type(r_ops[k][1], src(), src(), r_ops[k][0], dest(), 0x33);
    }
    case 1: {
        static const unsigned f3[] = {0, 2, 3, 4, 6, 7};
        return tdiff_i_type(imm, src(), f3[below(6)], dest(), 0x13);
    }
    case 2: { /* slli, srli, srai */
        unsigned sh = below(1u << shamt_bits);
        static const unsigned kinds[][2] = {{1, 0}, {5, 0}, {5, 0x400}};
        unsigned k = below(3);
        return tdiff_i_type((int32_t)(sh | kinds[k][1]), src(), kinds[k][0], dest(), 0x13);
    }
    case 3: return ((uint32_t)rnd() & 0xfffff000u) | dest() << 7 | (below(2) ? 0x37 : 0x17);
    case 4:
    case 5: { /* loads and stores */
        unsigned base;
        int32_t off;
        access_operands(&base, &off);
        unsigned f3 = below(xlen == 64 ? 7 : 5);
        if (below(2)) {
            static const unsigned loads[] = {0, 1, 2, 4, 5, 6, 3}; /* lwu, ld: RV64 */
            return tdiff_i_type(off, base, loads[f3], dest(), 0x03);
        }
        return tdiff_s_type(off, src(), base, below(xlen == 64 ? 4 : 3));
    }
    case 6: {
        unsigned k = below(sizeof(w_ops) / sizeof(w_ops[0]));
        return tdiff_r_type(w_ops[k][1], src(), src(), w_ops[k][0], dest(), 0x3b);
    }
    default: { /* addiw, slliw, srliw, sraiw */
        static const unsigned kinds[][2] = {{1, 0}, {5, 0}, {5, 0x400}};
        if (below(2))
            return tdiff_i_type(imm, src(), 0, dest(), 0x1b);
        unsigned k = below(3);
        return tdiff_i_type((int32_t)(below(32) | kinds[k][1]), src(), kinds[k][0], dest(), 0x1b);
    }
    }
}

/*
 * A stream of n words: ALU operations, accesses, branches, jals (which
 * blocks follow; a link register as rd makes a call) and returns through
 * ra or t0, then ebreak.
 */
void tdiff_make_program(uint32_t *code, size_t n, int xlen)
{
    static const unsigned branch_f3[] = {0, 1, 4, 5, 6, 7};
    for (size_t i = 0; i + 1 < n; i++) {
        int32_t to = (int32_t)below((unsigned)n); /* anywhere in the stream: loops too */
        if (below(8) == 0) {
            code[i] = tdiff_b_type((to - (int32_t)i) * 4, src(), src(), branch_f3[below(6)]);
        } else if (below(16) == 0) {
            code[i] = tdiff_j_type((to - (int32_t)i) * 4, below(2) ? 0 : dest());
        } else if (below(32) == 0) { /* a return through ra or t0: jalr x0, 0(x1 or x5) */
            code[i] = (below(2) ? 1u : 5u) << 15 | 0x67;
        } else {
            code[i] = alu_insn(xlen);
        }
    }
    code[n - 1] = TDIFF_EBREAK;
}

/* Values that find the edges: zero, -1, the smallest, small ones, random ones. */
static uint64_t interesting(void)
{
    switch (below(6)) {
    case 0: return 0;
    case 1: return UINT64_MAX;
    case 2: return below(2) ? 0x80000000u : 0x8000000000000000ull;
    case 3: return below(64);
    default: return rnd();
    }
}

int tdiff_build(struct tdiff_pair *p, const uint32_t *code, size_t n, const uint8_t *data, int xlen)
{
    struct elf_segment segs[2] = {
        {.vaddr = TDIFF_CODE_AT,
         .memsz = n * 4,
         .filesz = n * 4,
         .data = (const uint8_t *)code,
         .rights = SEG_R | SEG_X},
        {.vaddr = TDIFF_DATA_AT,
         .memsz = TDIFF_DATA_SIZE,
         .filesz = TDIFF_DATA_SIZE,
         .data = data,
         .rights = SEG_R | SEG_W},
    };
    struct elf_image img = {.xlen = xlen, .entry = TDIFF_CODE_AT, .nsegments = 2, .segments = segs};
    uint64_t regs[16];
    for (unsigned r = 1; r < 16; r++)
        regs[r] = interesting();
    regs[BASE_REG] = TDIFF_DATA_AT + TDIFF_DATA_SIZE / 2;
    for (int k = 0; k < 2; k++) {
        struct machine_io io = {.private_input_fd = -1,
                                .stdout_fd = -1,
                                .stderr_fd = -1,
                                .public_output_fd = -1,
                                .stack_size = GUEST_DEFAULT_STACK_SIZE,
                                .engine = k ? MACHINE_ENGINE_TRANSLATE : MACHINE_ENGINE_INTERP};
        struct error e = ERROR_INIT;
        if (machine_init(&p->m[k], &img, &abi_linux, &io, &e) != 0) {
            if (k)
                machine_destroy(&p->m[0]);
            return -1;
        }
        for (unsigned r = 1; r < 16; r++)
            machine_set_reg(&p->m[k], r, regs[r]);
        if (machine_choose_engine(&p->m[k], &e) != 0) {
            tdiff_destroy(p);
            return -1;
        }
    }
    return p->m[1].translator ? 0 : -1;
}

void tdiff_destroy(struct tdiff_pair *p)
{
    machine_destroy(&p->m[0]);
    machine_destroy(&p->m[1]);
}

/* Everything a run leaves behind must be the same: NULL, or what differs. */
static const char *difference(const struct tdiff_pair *p, enum stop_reason a, enum stop_reason b)
{
    const struct machine *i = &p->m[0], *t = &p->m[1];
    if (a != b)
        return "how the run stopped";
    if (i->retired != t->retired)
        return "the instructions retired";
    if (i->pc != t->pc)
        return "the pc";
    if (i->fault.kind != t->fault.kind || i->fault.pc != t->fault.pc ||
        i->fault.addr != t->fault.addr)
        return "the fault";
    for (unsigned r = 1; r < 32; r++)
        if (machine_get_reg(i, r) != machine_get_reg(t, r))
            return "a register";
    if (memcmp(mem_host(&i->mem, TDIFF_DATA_AT), mem_host(&t->mem, TDIFF_DATA_AT),
               TDIFF_DATA_SIZE) != 0)
        return "the data page";
    return NULL;
}

const char *tdiff_run_both(struct tdiff_pair *p, const uint64_t *budgets, size_t nbudgets,
                           uint64_t *blocks)
{
    for (size_t k = 0; k < nbudgets; k++) {
        enum stop_reason a = machine_run(&p->m[0], budgets[k]);
        enum stop_reason b = machine_run(&p->m[1], budgets[k]);
        const char *d = difference(p, a, b);
        if (d)
            return d;
        if (a != STOP_BUDGET)
            break;
    }
    uint64_t insns;
    translate_counts(p->m[1].translator, blocks, &insns);
    return NULL;
}
