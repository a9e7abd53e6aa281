/*
 * test_translate: the translation tier against the interpreter. Random
 * instruction streams (translate_diff.c) run from the same random
 * registers under --engine interp and --engine translate, in steps of
 * random budgets: every register, the data page, the pc, the instructions
 * retired, how the run stopped and any fault must be the same. Plus the
 * cases a stream may miss: a budget that ends inside a self-looping block,
 * and a load that faults in the middle of a block.
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
#include "tests/translate_diff/translate_diff.h"

/* The pair for `code`, which must build. */
static void build(struct tdiff_pair *p, const uint32_t *code, size_t n, const uint8_t *data,
                  int xlen)
{
    assert_int_equal(tdiff_build(p, code, n * 4, data, xlen, false), 0);
}

/* Runs both machines in the same steps; they must end alike. Returns the blocks made. */
static uint64_t run_both(struct tdiff_pair *p, const uint64_t *budgets, size_t nbudgets)
{
    uint64_t blocks = 0;
    const char *differs = tdiff_run_both(p, budgets, nbudgets, &blocks);
    if (differs)
        fail_msg("the engines differ in %s", differs);
    return blocks;
}

/* 1000 random streams on each engine (with C: compressed and 4-byte instructions mixed). */
static void random_streams(int xlen, bool rvc)
{
    enum { PROGRAMS = 1000 };
    union tdiff_code code;
    uint8_t data[TDIFF_DATA_SIZE];
    uint64_t blocks = 0;
    for (unsigned seed = 1; seed <= PROGRAMS; seed++) {
        tdiff_seed(seed * 0x9E3779B97F4A7C15ull + (uint64_t)xlen + (rvc ? 1u << 8 : 0));
        size_t bytes = tdiff_make_code(&code, xlen, rvc);
        for (size_t k = 0; k < TDIFF_DATA_SIZE; k++)
            data[k] = (uint8_t)tdiff_rnd();
        struct tdiff_pair p;
        assert_int_equal(tdiff_build(&p, &code, bytes, data, xlen, rvc), 0);
        /* the fast loops need 8192 or more; the last step may end anywhere */
        uint64_t budgets[3] = {8192 + tdiff_below(20000), 1 + tdiff_below(10000),
                               8192 + tdiff_below(30000)};
        blocks += run_both(&p, budgets, 3);
        tdiff_destroy(&p);
    }
    assert_true(blocks > PROGRAMS); /* the tier ran, not only the interpreter */
}

static void random_rv32(void **state)
{
    (void)state;
    random_streams(32, false);
}

static void random_rv64(void **state)
{
    (void)state;
    random_streams(64, false);
}

static void random_rv32c(void **state)
{
    (void)state;
    random_streams(32, true);
}

static void random_rv64c(void **state)
{
    (void)state;
    random_streams(64, true);
}

/* code[0..6] = addi xi, xi, i for i = 1..7: a loop body of seven registers. */
static void seven_addis(uint32_t *code)
{
    for (int i = 0; i < 7; i++)
        code[i] = tdiff_i_type(i + 1, (unsigned)i + 1, 0, (unsigned)i + 1, 0x13);
}

/*
 * A counting loop of one block (8 instructions, the branch back included)
 * whose budget runs out in its middle, at every offset.
 */
static void budget_inside_a_loop(void **state)
{
    (void)state;
    uint32_t code[12];
    uint8_t data[TDIFF_DATA_SIZE] = {0};
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        seven_addis(code);
        code[7] = tdiff_b_type(-7 * 4, 0, 1, 1); /* bne x1, x0 */
        code[8] = TDIFF_EBREAK;
        for (uint64_t extra = 0; extra < 9; extra++) {
            struct tdiff_pair p;
            tdiff_seed(extra + 1);
            build(&p, code, 9, data, xlen);
            machine_set_reg(&p.m[0], 1, 1);
            machine_set_reg(&p.m[1], 1, 1);
            uint64_t budgets[2] = {3 * 8192 + extra, 100};
            assert_true(run_both(&p, budgets, 2) >= 1);
            assert_int_equal(p.m[1].retired, 3 * 8192 + extra + 100);
            tdiff_destroy(&p);
        }
    }
}

/* A load through a register that points nowhere, the fifth instruction of a block. */
static void fault_inside_a_block(void **state)
{
    (void)state;
    uint32_t code[10];
    uint8_t data[TDIFF_DATA_SIZE] = {0};
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        for (int i = 0; i < 4; i++)
            code[i] = tdiff_i_type(1, 1, 0, 1, 0x13); /* addi x1, x1, 1 */
        code[4] = tdiff_i_type(8, 12, 2, 5, 0x03);    /* lw x5, 8(x12) */
        for (int i = 5; i < 9; i++)
            code[i] = tdiff_i_type(1, 1, 0, 1, 0x13);
        code[9] = TDIFF_EBREAK;
        struct tdiff_pair p;
        tdiff_seed(7);
        build(&p, code, 10, data, xlen);
        machine_set_reg(&p.m[0], 12, 0x90000000u);
        machine_set_reg(&p.m[1], 12, 0x90000000u);
        uint64_t budgets[1] = {100000};
        assert_true(run_both(&p, budgets, 1) >= 1);
        assert_int_equal(p.m[1].fault.kind, FAULT_LOAD_UNMAPPED);
        assert_int_equal(p.m[1].fault.pc, TDIFF_CODE_AT + 16);
        assert_int_equal(p.m[1].retired, 4);
        tdiff_destroy(&p);
    }
}

/*
 * A function that calls itself (saving its return address on a stack in
 * the data page) to a depth of 300 and counts on the way back: the block
 * that starts at the function ends with the recursive call and leaves for
 * its own entry, on into its own block.
 */
static void recursion(void **state)
{
    (void)state;
    enum { DEPTH = 300, F = 12 }; /* F: the function's offset */
    uint8_t data[TDIFF_DATA_SIZE] = {0};
    const uint32_t code[] = {
        tdiff_i_type(DEPTH, 0, 0, 10, 0x13), /* 0: addi a0, x0, DEPTH */
        tdiff_j_type(F - 4, 1),              /* 4: jal ra, f */
        TDIFF_EBREAK,                        /* 8 */
        tdiff_i_type(-8, 2, 0, 2, 0x13),     /* 12 f: addi sp, sp, -8 */
        tdiff_s_type(0, 1, 2, 2),            /* 16: sw ra, 0(sp) */
        tdiff_i_type(-1, 10, 0, 10, 0x13),   /* 20: addi a0, a0, -1 */
        tdiff_b_type(12, 0, 10, 0),          /* 24: beq a0, x0, 36 */
        tdiff_j_type(F - 28, 1),             /* 28: jal ra, f */
        tdiff_i_type(1, 11, 0, 11, 0x13),    /* 32: addi a1, a1, 1 */
        tdiff_i_type(0, 2, 2, 1, 0x03),      /* 36: lw ra, 0(sp) */
        tdiff_i_type(8, 2, 0, 2, 0x13),      /* 40: addi sp, sp, 8 */
        tdiff_i_type(0, 1, 0, 0, 0x67),      /* 44: jalr x0, 0(ra) */
    };
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        struct tdiff_pair p;
        tdiff_seed(11);
        build(&p, code, sizeof(code) / sizeof(code[0]), data, xlen);
        for (int k = 0; k < 2; k++) {
            machine_set_reg(&p.m[k], 2, TDIFF_DATA_AT + TDIFF_DATA_SIZE);
            machine_set_reg(&p.m[k], 11, 0);
        }
        uint64_t budgets[1] = {100000};
        assert_true(run_both(&p, budgets, 1) >= 1);
        assert_int_equal(machine_get_reg(&p.m[1], 11), DEPTH - 1);
        assert_int_equal(p.m[1].retired, 2 + (DEPTH - 1) * 9 + 7);
        tdiff_destroy(&p);
    }
}

/*
 * A counting loop whose blocks the tier forgets between two steps (as
 * when the tracer takes back that a function keeps no runs): it writes
 * them again on their next run, and both engines still end alike.
 */
static void forget_between_steps(void **state)
{
    (void)state;
    uint32_t code[10];
    uint8_t data[TDIFF_DATA_SIZE] = {0};
    for (int xlen = 32; xlen <= 64; xlen += 32) {
        seven_addis(code);
        code[7] = tdiff_i_type(-1, 9, 0, 9, 0x13); /* addi x9, -1 */
        code[8] = tdiff_b_type(-8 * 4, 0, 9, 1);   /* bne x9, x0 */
        code[9] = TDIFF_EBREAK;
        struct tdiff_pair p;
        tdiff_seed(5);
        build(&p, code, 10, data, xlen);
        for (int k = 0; k < 2; k++)
            machine_set_reg(&p.m[k], 9, 5000);
        uint64_t first[1] = {20000}, rest[1] = {100000};
        uint64_t before = run_both(&p, first, 1); /* the blocks made so far */
        assert_true(before >= 1);
        translate_forget(p.m[1].translator);
        assert_true(run_both(&p, rest, 1) > before); /* written again, not run from the old slot */
        assert_int_equal(machine_get_reg(&p.m[1], 9), 0);
        tdiff_destroy(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_rv32),
        cmocka_unit_test(random_rv64),
        cmocka_unit_test(random_rv32c),
        cmocka_unit_test(random_rv64c),
        cmocka_unit_test(budget_inside_a_loop),
        cmocka_unit_test(fault_inside_a_block),
        cmocka_unit_test(recursion),
        cmocka_unit_test(forget_between_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
