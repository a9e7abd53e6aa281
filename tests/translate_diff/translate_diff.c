/*
 * translate_diff: random RISC-V instruction streams and a pair of
 * machines, one on each engine (interp, translate), that run one from the
 * same registers and data and must end alike: the generator, the pair and
 * the comparison that unit.translate and the fuzz target fuzz_translate
 * share. The streams: RV32IM or RV64IM ALU operations, loads and stores
 * around a data page whose end borders unmapped memory (now and then
 * through a register that points nowhere), branches both ways (so blocks
 * loop), jals, calls and returns (which blocks follow), jumps through a
 * register to an instruction of the stream, then ebreak; and
 * for a hart with C the same mixed with compressed instructions, the
 * 4-byte ones on any halfword.
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
/*
 * A jump through a register to the instruction `offset` bytes from the
 * first of three: auipc x6, 0; addi x6, x6, offset; jalr rd, 0(x6), rd
 * x0 or x7 (not a link: neither call nor return).
 */
static void jump_through_register(uint32_t out[3], int32_t offset)
{
    out[0] = 6u << 7 | 0x17;
    out[1] = tdiff_i_type(offset, 6, 0, 6, 0x13);
    out[2] = tdiff_i_type(0, 6, 0, below(2) ? 0 : 7, 0x67);
}

void tdiff_make_program(uint32_t *code, size_t n, int xlen)
{
    static const unsigned branch_f3[] = {0, 1, 4, 5, 6, 7};
    for (size_t i = 0; i + 1 < n; i++) {
        int32_t to = (int32_t)below((unsigned)n); /* anywhere in the stream: loops too */
        if (below(32) == 0 && i + 4 < n) {
            jump_through_register(&code[i], (to - (int32_t)i) * 4);
            i += 2;
        } else if (below(8) == 0) {
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

/* The compressed formats (the ISA manual's RVC chapter); a 3-bit register field names x8..x15. */
static uint16_t c_ci(unsigned f3, uint32_t imm6, unsigned rd, unsigned op)
{
    return (uint16_t)(f3 << 13 | (imm6 >> 5 & 1) << 12 | rd << 7 | (imm6 & 0x1f) << 2 | op);
}

static uint16_t c_cr(unsigned f4, unsigned rd, unsigned rs2)
{
    return (uint16_t)(f4 << 12 | rd << 7 | rs2 << 2 | 2);
}

/* c.lw, c.sw (f3 2, 6: a word offset, 0..124) and c.ld, c.sd (3, 7: a doubleword one, 0..248). */
static uint16_t c_cl(unsigned f3, uint32_t off, unsigned base, unsigned reg)
{
    uint32_t low = f3 & 1 ? (off >> 6 & 3) : ((off >> 2 & 1) << 1 | (off >> 6 & 1));
    return (uint16_t)(f3 << 13 | (off >> 3 & 7) << 10 | (base - 8) << 7 | low << 5 |
                      (reg - 8) << 2);
}

/* c.beqz (f3 6), c.bnez (7): offset in bytes, -256..254. */
static uint16_t c_cb(unsigned f3, int32_t offset, unsigned rs1)
{
    uint32_t u = (uint32_t)offset;
    return (uint16_t)(f3 << 13 | (u >> 8 & 1) << 12 | (u >> 3 & 3) << 10 | (rs1 - 8) << 7 |
                      (u >> 6 & 3) << 5 | (u >> 1 & 3) << 3 | (u >> 5 & 1) << 2 | 1);
}

/* c.j (f3 5), c.jal (1, RV32): offset in bytes, -2048..2046. */
static uint16_t c_cj(unsigned f3, int32_t offset)
{
    uint32_t u = (uint32_t)offset;
    return (uint16_t)(f3 << 13 | (u >> 11 & 1) << 12 | (u >> 4 & 1) << 11 | (u >> 8 & 3) << 9 |
                      (u >> 10 & 1) << 8 | (u >> 6 & 1) << 7 | (u >> 7 & 1) << 6 |
                      (u >> 1 & 7) << 3 | (u >> 5 & 1) << 2 | 1);
}

/* A compressed register to write (x8..x15 but the data base), and one to read. */
static unsigned c_dest(void)
{
    unsigned r = 8 + below(8);
    return r == BASE_REG ? 9 : r;
}

static unsigned c_src(void)
{
    return 8 + below(8);
}

/* A compressed ALU operation, load or store (RV64: its word and doubleword forms too). */
static uint16_t c_alu_insn(int xlen)
{
    uint32_t imm6 = below(64), shamt = below(xlen == 64 ? 64 : 32);
    switch (below(xlen == 64 ? 12 : 10)) {
    case 0: return c_ci(0, imm6, dest(), 1); /* c.addi (c.nop) */
    case 1: return c_ci(2, imm6, dest(), 1); /* c.li */
    case 2: {                                /* c.lui (not x0 or sp) */
        unsigned rd = 3 + below(13);
        return c_ci(3, 1 + below(63), rd == BASE_REG ? 11 : rd, 1);
    }
    case 3: return c_cr(8, dest(), 1 + below(15)); /* c.mv */
    case 4: return c_cr(9, dest(), 1 + below(15)); /* c.add */
    case 5:                                        /* c.sub, c.xor, c.or, c.and */
        return (uint16_t)(0x8c01 | (c_dest() - 8) << 7 | below(4) << 5 | (c_src() - 8) << 2);
    case 6: { /* c.srli, c.srai, c.andi */
        unsigned f2 = below(3);
        uint32_t imm = f2 == 2 ? imm6 : shamt;
        return (uint16_t)(0x8001 | (imm >> 5 & 1) << 12 | f2 << 10 | (c_dest() - 8) << 7 |
                          (imm & 0x1f) << 2);
    }
    case 7: return c_ci(0, shamt, dest(), 2); /* c.slli */
    case 8: {                                 /* c.lw, c.sw: mostly at the data page */
        unsigned base = below(4) ? BASE_REG : c_src();
        return below(2) ? c_cl(2, below(32) * 4, base, c_dest())
                        : c_cl(6, below(32) * 4, base, c_src());
    }
    case 9: /* c.lwsp, c.swsp: sp points anywhere */
        if (below(2)) {
            unsigned rd = dest();
            return (uint16_t)(0x4002 | below(2) << 12 | (rd ? rd : 11) << 7 | below(32) << 2);
        }
        return (uint16_t)(0xc002 | below(64) << 7 | src() << 2);
    case 10: /* c.addiw (rd not x0), c.subw, c.addw */
        if (below(2)) {
            unsigned rd = dest();
            return c_ci(1, imm6, rd ? rd : 11, 1);
        }
        return (uint16_t)(0x9c01 | (c_dest() - 8) << 7 | below(2) << 5 | (c_src() - 8) << 2);
    default: { /* c.ld, c.sd */
        unsigned base = below(4) ? BASE_REG : c_src();
        return below(2) ? c_cl(3, below(32) * 8, base, c_dest())
                        : c_cl(7, below(32) * 8, base, c_src());
    }
    }
}

/* An instruction of a compressed stream, before its encoding: its kind and first halfword. */
enum c_kind {
    C_KIND_ALU,
    C_KIND_BRANCH,
    C_KIND_JAL,
    C_KIND_RET,
    C_KIND_JUMP_REG, /* three 4-byte instructions (jump_through_register) */
    C_KIND_C_ALU,
    C_KIND_C_BRANCH,
    C_KIND_C_JUMP,
    C_KIND_C_RET
};

/* A random instruction of the stream other than `from` whose byte offset from it is within span. */
static size_t target_within(const uint32_t *starts, size_t n, size_t from, int32_t span)
{
    for (int tries = 0; tries < 8; tries++) {
        size_t to = below((unsigned)n);
        int32_t off = ((int32_t)starts[to] - (int32_t)starts[from]) * 2;
        if (off >= -span && off < span)
            return to;
    }
    return from + 1 < n ? from + 1 : from;
}

size_t tdiff_make_program_c(uint16_t *code, size_t halves, int xlen)
{
    enum { MAX = 4096 };
    static uint32_t starts[MAX + 1];
    static uint8_t kinds[MAX];
    size_t n = 0, h = 0;
    while (n < MAX && h + 2 + 2 <= halves) { /* room for the ebreak */
        unsigned pick = below(17);
        enum c_kind k = pick < 6     ? C_KIND_C_ALU
                        : pick < 11  ? C_KIND_ALU
                        : pick == 11 ? C_KIND_C_BRANCH
                        : pick == 12 ? (below(2) ? C_KIND_C_JUMP : C_KIND_BRANCH)
                        : pick == 13 ? (below(2) ? C_KIND_JAL : C_KIND_C_JUMP)
                        : pick == 14 ? (below(4) ? C_KIND_C_ALU : C_KIND_C_RET)
                        : pick == 15 ? (below(4) ? C_KIND_ALU : C_KIND_RET)
                                     : C_KIND_JUMP_REG;
        size_t size = k >= C_KIND_C_ALU ? 1 : k == C_KIND_JUMP_REG ? 6 : 2;
        if (h + size + 2 > halves)
            k = C_KIND_C_ALU, size = 1;
        starts[n] = (uint32_t)h;
        kinds[n++] = (uint8_t)k;
        h += size;
    }
    starts[n] = (uint32_t)h;
    for (size_t i = 0; i < n; i++) {
        uint32_t word = 0;
        int32_t at = (int32_t)starts[i] * 2;
        switch ((enum c_kind)kinds[i]) {
        case C_KIND_ALU: word = alu_insn(xlen); break;
        case C_KIND_BRANCH: {
            static const unsigned branch_f3[] = {0, 1, 4, 5, 6, 7};
            size_t to = target_within(starts, n, i, 4096);
            word = tdiff_b_type((int32_t)starts[to] * 2 - at, src(), src(), branch_f3[below(6)]);
            break;
        }
        case C_KIND_JAL:
            word = tdiff_j_type((int32_t)starts[target_within(starts, n, i, 1 << 20)] * 2 - at,
                                below(2) ? 0 : dest());
            break;
        case C_KIND_RET: word = (below(2) ? 1u : 5u) << 15 | 0x67; break;
        case C_KIND_JUMP_REG: {
            uint32_t three[3];
            jump_through_register(three,
                                  (int32_t)starts[target_within(starts, n, i, 2048)] * 2 - at);
            for (size_t k = 0; k < 3; k++) {
                code[starts[i] + 2 * k] = (uint16_t)three[k];
                code[starts[i] + 2 * k + 1] = (uint16_t)(three[k] >> 16);
            }
            continue;
        }
        case C_KIND_C_ALU: code[starts[i]] = c_alu_insn(xlen); continue;
        case C_KIND_C_BRANCH:
            code[starts[i]] = c_cb(
                6 + below(2), (int32_t)starts[target_within(starts, n, i, 256)] * 2 - at, c_src());
            continue;
        case C_KIND_C_JUMP: /* c.j, or on RV32 c.jal, a call */
            code[starts[i]] = c_cj(xlen == 32 && below(2) ? 1 : 5,
                                   (int32_t)starts[target_within(starts, n, i, 2048)] * 2 - at);
            continue;
        case C_KIND_C_RET: code[starts[i]] = c_cr(8, below(2) ? 1 : 5, 0); continue; /* c.jr */
        }
        code[starts[i]] = (uint16_t)word;
        code[starts[i] + 1] = (uint16_t)(word >> 16);
    }
    code[h] = (uint16_t)TDIFF_EBREAK;
    code[h + 1] = (uint16_t)(TDIFF_EBREAK >> 16);
    return h + 2;
}

size_t tdiff_make_code(union tdiff_code *code, int xlen, bool rvc)
{
    if (rvc)
        return 2 * tdiff_make_program_c(code->halves, 2 * TDIFF_WORDS, xlen);
    tdiff_make_program(code->words, TDIFF_WORDS, xlen);
    return sizeof(code->words);
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

int tdiff_build(struct tdiff_pair *p, const void *code, size_t bytes, const uint8_t *data, int xlen,
                bool rvc)
{
    struct elf_segment segs[2] = {
        {.vaddr = TDIFF_CODE_AT,
         .memsz = bytes,
         .filesz = bytes,
         .data = code,
         .rights = SEG_R | SEG_X},
        {.vaddr = TDIFF_DATA_AT,
         .memsz = TDIFF_DATA_SIZE,
         .filesz = TDIFF_DATA_SIZE,
         .data = data,
         .rights = SEG_R | SEG_W},
    };
    struct elf_image img = {
        .xlen = xlen, .rvc = rvc, .entry = TDIFF_CODE_AT, .nsegments = 2, .segments = segs};
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
