/*
 * test_translate: the translation tier against the interpreter. Random
 * instruction streams (RV32IM or RV64IM ALU operations, loads and stores
 * around a data page whose end borders unmapped memory, now and then
 * through a register that points nowhere; branches both ways, so blocks
 * loop; jals, calls and returns, which blocks follow) run from the same
 * random registers under --engine interp and --engine translate, in steps
 * of random budgets: every register, the data page, the pc, the
 * instructions retired, how the run stopped and any fault must be the
 * same. Plus the cases a stream may miss: a budget that ends inside a
 * self-looping block, and a load that faults in the middle of a block.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "executor/abi/abi.h"
#include "executor/machine.h"
#include "executor/translate/translate.h"

#define CODE_AT   0x10000u
#define DATA_AT   0x20000u
#define DATA_SIZE 0x1000u
#define BASE_REG  10 /* points into the data page; never written */
#define EBREAK    0x00100073u

/* A small deterministic generator (xorshift64*), so that a failure repeats. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static unsigned below(unsigned n)
{
    return (unsigned)(rnd() % n);
}

/* The instruction formats (the ISA manual's). */
static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
                       unsigned op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t s_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}

static uint32_t b_type(int32_t offset, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)offset;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

static uint32_t j_type(int32_t offset, unsigned rd)
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
        return r_type(r_ops[k][1], src(), src(), r_ops[k][0], dest(), 0x33);
    }
    case 1: {
        static const unsigned f3[] = {0, 2, 3, 4, 6, 7};
        return i_type(imm, src(), f3[below(6)], dest(), 0x13);
    }
    case 2: { /* slli, srli, srai */
        unsigned sh = below(1u << shamt_bits);
        static const unsigned kinds[][2] = {{1, 0}, {5, 0}, {5, 0x400}};
        unsigned k = below(3);
        return i_type((int32_t)(sh | kinds[k][1]), src(), kinds[k][0], dest(), 0x13);
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
            return i_type(off, base, loads[f3], dest(), 0x03);
        }
        return s_type(off, src(), base, below(xlen == 64 ? 4 : 3));
    }
    case 6: {
        unsigned k = below(sizeof(w_ops) / sizeof(w_ops[0]));
        return r_type(w_ops[k][1], src(), src(), w_ops[k][0], dest(), 0x3b);
    }
    default: { /* addiw, slliw, srliw, sraiw */
        static const unsigned kinds[][2] = {{1, 0}, {5, 0}, {5, 0x400}};
        if (below(2))
            return i_type(imm, src(), 0, dest(), 0x1b);
        unsigned k = below(3);
        return i_type((int32_t)(below(32) | kinds[k][1]), src(), kinds[k][0], dest(), 0x1b);
    }
    }
}

/*
 * A stream of n words: ALU operations, accesses, branches, jals (which
 * blocks follow; a link register as rd makes a call) and returns through
 * ra or t0, then ebreak.
 */
static void make_program(uint32_t *code, size_t n, int xlen)
{
    static const unsigned branch_f3[] = {0, 1, 4, 5, 6, 7};
    for (size_t i = 0; i + 1 < n; i++) {
        int32_t to = (int32_t)below((unsigned)n); /* anywhere in the stream: loops too */
        if (below(8) == 0) {
            code[i] = b_type((to - (int32_t)i) * 4, src(), src(), branch_f3[below(6)]);
        } else if (below(16) == 0) {
            code[i] = j_type((to - (int32_t)i) * 4, below(2) ? 0 : dest());
        } else if (below(32) == 0) { /* a return through ra or t0: jalr x0, 0(x1 or x5) */
            code[i] = (below(2) ? 1u : 5u) << 15 | 0x67;
        } else {
            code[i] = alu_insn(xlen);
        }
    }
    code[n - 1] = EBREAK;
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

struct pair {
    struct machine m[2]; /* [0] interp, [1] translate */
};

static void build(struct pair *p, const uint32_t *code, size_t n, const uint8_t *data, int xlen)
{
    struct elf_segment segs[2] = {
        {.vaddr = CODE_AT,
         .memsz = n * 4,
         .filesz = n * 4,
         .data = (const uint8_t *)code,
         .rights = SEG_R | SEG_X},
        {.vaddr = DATA_AT,
         .memsz = DATA_SIZE,
         .filesz = DATA_SIZE,
         .data = data,
         .rights = SEG_R | SEG_W},
    };
    struct elf_image img = {.xlen = xlen, .entry = CODE_AT, .nsegments = 2, .segments = segs};
    uint64_t regs[16];
    for (unsigned r = 1; r < 16; r++)
        regs[r] = interesting();
    regs[BASE_REG] = DATA_AT + DATA_SIZE / 2;
    for (int k = 0; k < 2; k++) {
        struct machine_io io = {.private_input_fd = -1,
                                .stdout_fd = -1,
                                .stderr_fd = -1,
                                .public_output_fd = -1,
                                .stack_size = GUEST_DEFAULT_STACK_SIZE,
                                .engine = k ? MACHINE_ENGINE_TRANSLATE : MACHINE_ENGINE_INTERP};
        struct error e = ERROR_INIT;
        assert_int_equal(machine_init(&p->m[k], &img, &abi_linux, &io, &e), 0);
        for (unsigned r = 1; r < 16; r++)
            machine_set_reg(&p->m[k], r, regs[r]);
        assert_int_equal(machine_choose_engine(&p->m[k], &e), 0);
    }
    assert_non_null(p->m[1].translator);
}

static void destroy(struct pair *p)
{
    machine_destroy(&p->m[0]);
    machine_destroy(&p->m[1]);
}

/* Everything a run leaves behind must be the same. */
static void assert_same(const struct pair *p, enum stop_reason a, enum stop_reason b)
{
    const struct machine *i = &p->m[0], *t = &p->m[1];
    assert_int_equal(a, b);
    assert_int_equal(i->retired, t->retired);
    assert_int_equal(i->pc, t->pc);
    assert_int_equal(i->fault.kind, t->fault.kind);
    assert_int_equal(i->fault.pc, t->fault.pc);
    assert_int_equal(i->fault.addr, t->fault.addr);
    for (unsigned r = 1; r < 32; r++)
        assert_int_equal(machine_get_reg(i, r), machine_get_reg(t, r));
    assert_memory_equal(mem_host(&i->mem, DATA_AT), mem_host(&t->mem, DATA_AT), DATA_SIZE);
}

/* Runs both machines in the same steps until they stop for good; returns the blocks made. */
static uint64_t run_both(struct pair *p, const uint64_t *budgets, size_t nbudgets)
{
    for (size_t k = 0; k < nbudgets; k++) {
        enum stop_reason a = machine_run(&p->m[0], budgets[k]);
        enum stop_reason b = machine_run(&p->m[1], budgets[k]);
        assert_same(p, a, b);
        if (a != STOP_BUDGET)
            break;
    }
    uint64_t blocks, insns;
    translate_counts(p->m[1].translator, &blocks, &insns);
    return blocks;
}

static void random_streams(int xlen)
{
    enum { PROGRAMS = 1000, WORDS = 160 };
    uint32_t code[WORDS];
    uint8_t data[DATA_SIZE];
    uint64_t blocks = 0;
    for (unsigned seed = 1; seed <= PROGRAMS; seed++) {
        rng_state = seed * 0x9E3779B97F4A7C15ull + (uint64_t)xlen;
        make_program(code, WORDS, xlen);
        for (size_t k = 0; k < DATA_SIZE; k++)
            data[k] = (uint8_t)rnd();
        struct pair p;
        build(&p, code, WORDS, data, xlen);
        /* the fast loops need 8192 or more; the last step may end anywhere */
        uint64_t budgets[3] = {8192 + below(20000), 1 + below(10000), 8192 + below(30000)};
        blocks += run_both(&p, budgets, 3);
        destroy(&p);
    }
    assert_true(blocks > PROGRAMS); /* the tier ran, not only the interpreter */
}

static void random_rv32(void **state)
{
    (void)state;
    random_streams(32);
}

static void random_rv64(void **state)
{
    (void)state;
    random_streams(64);
}

/*
 * A counting loop of one block (8 instructions, the branch back included)
 * whose budget runs out in its middle, at every offset.
 */
static void budget_inside_a_loop(void **state)
{
    (void)state;
    uint32_t code[12];
    uint8_t data[DATA_SIZE] = {0};
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        for (int i = 0; i < 7; i++)
            code[i] = i_type(i + 1, (unsigned)i + 1, 0, (unsigned)i + 1, 0x13); /* addi */
        code[7] = b_type(-7 * 4, 0, 1, 1);                                      /* bne x1, x0 */
        code[8] = EBREAK;
        for (uint64_t extra = 0; extra < 9; extra++) {
            struct pair p;
            rng_state = extra + 1;
            build(&p, code, 9, data, xlen);
            machine_set_reg(&p.m[0], 1, 1);
            machine_set_reg(&p.m[1], 1, 1);
            uint64_t budgets[2] = {3 * 8192 + extra, 100};
            assert_true(run_both(&p, budgets, 2) >= 1);
            assert_int_equal(p.m[1].retired, 3 * 8192 + extra + 100);
            destroy(&p);
        }
    }
}

/* A load through a register that points nowhere, the fifth instruction of a block. */
static void fault_inside_a_block(void **state)
{
    (void)state;
    uint32_t code[10];
    uint8_t data[DATA_SIZE] = {0};
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        for (int i = 0; i < 4; i++)
            code[i] = i_type(1, 1, 0, 1, 0x13); /* addi x1, x1, 1 */
        code[4] = i_type(8, 12, 2, 5, 0x03);    /* lw x5, 8(x12) */
        for (int i = 5; i < 9; i++)
            code[i] = i_type(1, 1, 0, 1, 0x13);
        code[9] = EBREAK;
        struct pair p;
        rng_state = 7;
        build(&p, code, 10, data, xlen);
        machine_set_reg(&p.m[0], 12, 0x90000000u);
        machine_set_reg(&p.m[1], 12, 0x90000000u);
        uint64_t budgets[1] = {100000};
        assert_true(run_both(&p, budgets, 1) >= 1);
        assert_int_equal(p.m[1].fault.kind, FAULT_LOAD_UNMAPPED);
        assert_int_equal(p.m[1].fault.pc, CODE_AT + 16);
        assert_int_equal(p.m[1].retired, 4);
        destroy(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_rv32),
        cmocka_unit_test(random_rv64),
        cmocka_unit_test(budget_inside_a_loop),
        cmocka_unit_test(fault_inside_a_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
