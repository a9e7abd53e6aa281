/* Macros for the per-instruction assembly tests (tests/isa/<insn>.S).
 *
 * Every test is a standalone guest: TEST_BEGIN defines _start, each
 * TEST_* macro runs one check numbered 1..255, and TEST_END exits with
 * status 0 (Linux exit: a7 = 93, a0 = status, ecall) when all checks
 * passed, or jumps to `fail`, which exits with the number of the failing
 * check. The same ELF runs under qemu-riscv32/64 user mode and `cli execute`.
 *
 * Registers: gp (x3) holds the number of the current check (TESTNUM),
 * t2 (x7) the expected value. The macros take their operands in a1/a2
 * (x11/x12), put results in a4 (x14) and use a5 (x15) as a scratch
 * register. Check code may use any other register except sp, which no test
 * touches. Nothing depends on the initial value of any register.
 *
 * Values are written as assembler expressions, which gas evaluates in 64
 * bits; MASK_XLEN cuts them to XLEN. Write negative numbers as negative
 * numbers (-1, -0x80000000) so they mean the same on RV32 and RV64.
 * Anything that differs between XLENs goes in `#if __riscv_xlen == 64`.
 *
 * The checks compare with `bne`; the assembler turns a branch to a `fail`
 * that is out of reach into an inverted branch over a `jal`. A broken
 * `bne` that is never taken would make every check pass: the
 * selfcheck_fail test (which must exit non-zero) guards against that.
 */
#ifndef TESTS_ISA_TEST_MACROS_H
#define TESTS_ISA_TEST_MACROS_H

#define TESTNUM gp

#if __riscv_xlen == 64
#define XLEN 64
#define REGBYTES 8
#define MASK_XLEN(x) ((x) & 0xffffffffffffffff)
#define SHAMT_MASK 63
#elif __riscv_xlen == 32
#define XLEN 32
#define REGBYTES 4
#define MASK_XLEN(x) ((x) & 0xffffffff)
#define SHAMT_MASK 31
#else
#error "__riscv_xlen must be 32 or 64"
#endif

/* The low 8, 16, 32 bits of x sign-extended to 64 bits (gas expressions;
 * MASK_XLEN then cuts them to XLEN). */
#define SEXT8(x) ((((x) & 0xff) ^ 0x80) - 0x80)
#define SEXT16(x) ((((x) & 0xffff) ^ 0x8000) - 0x8000)
#define SEXT32(x) ((((x) & 0xffffffff) ^ 0x80000000) - 0x80000000)
/* Smallest and largest signed XLEN values. */
#if __riscv_xlen == 64
#define XMIN (-0x7fffffffffffffff - 1)
#define XMAX 0x7fffffffffffffff
#else
#define XMIN (-0x80000000)
#define XMAX 0x7fffffff
#endif

/* The absolute address of `sym` without auipc (lui + addi): the tests
 * are linked static at low addresses, where this also works on RV64. */
#define LA_ABS(reg, sym)                                               \
  lui reg, %hi(sym);                                                   \
  addi reg, reg, %lo(sym);

/* ------------------------------------------------------------------ */
/* Start and end                                                      */

/* No linker relaxation: it could turn `la` into an addi from gp, which
 * the tests use as TESTNUM and never set up as a global pointer. */
#define TEST_BEGIN                                                     \
  .option norelax;                                                     \
  .text;                                                               \
  .globl _start;                                                       \
  .type _start, @function;                                             \
  _start:                                                              \
  li TESTNUM, 0;

/* PASS exits 0. FAIL exits with TESTNUM (255 if no check had started).
 * An all-zero word follows each exit ecall: if the exit returned, the
 * guest stops on an illegal instruction instead of running on. */
#define PASS                                                           \
  li a0, 0;                                                            \
  li a7, 93;                                                           \
  ecall;                                                               \
  .word 0;

#define FAIL                                                           \
  fail:                                                                \
  mv a0, TESTNUM;                                                      \
  bnez a0, 1f;                                                         \
  li a0, 255;                                                          \
  1: li a7, 93;                                                        \
  ecall;                                                               \
  .word 0;

#define TEST_END                                                       \
  PASS                                                                 \
  FAIL                                                                 \
  .size _start, .- _start;

/* Start of check `testnum`; refuses numbers that do not fit an exit
 * status. */
#define TEST_NUM(testnum)                                              \
  .if((testnum) < 1) | ((testnum) > 255);                              \
  .error "test number must be 1..255";                                 \
  .endif;                                                              \
  test_##testnum: li TESTNUM, testnum;

/* Compare a register with a value; jump to fail if they differ. */
#define CHECK(reg, val)                                                \
  li x7, MASK_XLEN(val);                                               \
  bne reg, x7, fail;

/* Run `code`, then check that `testreg` holds `correctval`. */
#define TEST_CASE(testnum, testreg, correctval, code...)               \
  TEST_NUM(testnum)                                                    \
  code;                                                                \
  CHECK(testreg, correctval)

/* ------------------------------------------------------------------ */
/* Register-register operations: rd = inst(rs1, rs2)                  */

/* Also checks that the sources are left alone. */
#define TEST_RR_OP(testnum, inst, result, val1, val2)                  \
  TEST_CASE(testnum, x14, result, li x11, MASK_XLEN(val1);             \
            li x12, MASK_XLEN(val2); inst x14, x11, x12)               \
  CHECK(x11, val1)                                                     \
  CHECK(x12, val2)

#define TEST_RR_SRC1_EQ_DEST(testnum, inst, result, val1, val2)        \
  TEST_CASE(testnum, x11, result, li x11, MASK_XLEN(val1);             \
            li x12, MASK_XLEN(val2); inst x11, x11, x12)               \
  CHECK(x12, val2)

#define TEST_RR_SRC2_EQ_DEST(testnum, inst, result, val1, val2)        \
  TEST_CASE(testnum, x12, result, li x11, MASK_XLEN(val1);             \
            li x12, MASK_XLEN(val2); inst x12, x11, x12)               \
  CHECK(x11, val1)

/* rd == rs1 == rs2 */
#define TEST_RR_SRC12_EQ_DEST(testnum, inst, result, val)              \
  TEST_CASE(testnum, x11, result, li x11, MASK_XLEN(val); inst x11, x11, x11)

/* rs1 == rs2, rd different */
#define TEST_RR_SRC12_SAME(testnum, inst, result, val)                 \
  TEST_CASE(testnum, x14, result, li x11, MASK_XLEN(val);              \
            inst x14, x11, x11)

#define TEST_RR_ZEROSRC1(testnum, inst, result, val)                   \
  TEST_CASE(testnum, x14, result, li x12, MASK_XLEN(val);              \
            inst x14, x0, x12)

#define TEST_RR_ZEROSRC2(testnum, inst, result, val)                   \
  TEST_CASE(testnum, x14, result, li x11, MASK_XLEN(val);              \
            inst x14, x11, x0)

#define TEST_RR_ZEROSRC12(testnum, inst, result)                       \
  TEST_CASE(testnum, x14, result, li x14, 0x5a5a; inst x14, x0, x0)

/* A write to x0 is dropped: x0 still reads 0, also as a source. */
#define TEST_RR_ZERODEST(testnum, inst, val1, val2)                    \
  TEST_CASE(testnum, x0, 0, li x11, MASK_XLEN(val1);                   \
            li x12, MASK_XLEN(val2); inst x0, x11, x12)                \
  TEST_CASE_ZERO_USE(x0)

/* x0 as a source after a write to it: add reads it as 0. */
#define TEST_CASE_ZERO_USE(zr)                                         \
  li x15, 0x123;                                                       \
  add x15, x15, zr;                                                    \
  CHECK(x15, 0x123)

/* ------------------------------------------------------------------ */
/* Register-immediate operations: rd = inst(rs1, imm)                 */

#define TEST_IMM_OP(testnum, inst, result, val1, imm)                  \
  TEST_CASE(testnum, x14, result, li x11, MASK_XLEN(val1);             \
            inst x14, x11, imm)                                        \
  CHECK(x11, val1)

#define TEST_IMM_SRC1_EQ_DEST(testnum, inst, result, val1, imm)        \
  TEST_CASE(testnum, x11, result, li x11, MASK_XLEN(val1); inst x11, x11, imm)

#define TEST_IMM_ZEROSRC1(testnum, inst, result, imm)                  \
  TEST_CASE(testnum, x14, result, li x14, 0x5a5a; inst x14, x0, imm)

#define TEST_IMM_ZERODEST(testnum, inst, val1, imm)                    \
  TEST_CASE(testnum, x0, 0, li x11, MASK_XLEN(val1); inst x0, x11, imm)  \
  TEST_CASE_ZERO_USE(x0)

/* ------------------------------------------------------------------ */
/* Loads and stores                                                   */

/* rd = inst offset(base_label + base_off) */
#define TEST_LD_OP(testnum, inst, result, offset, base)                \
  TEST_CASE(testnum, x14, result, la x11, base; inst x14, offset(x11))

/* rd == rs1 */
#define TEST_LD_SRC1_EQ_DEST(testnum, inst, result, offset, base)      \
  TEST_CASE(testnum, x11, result, la x11, base; inst x11, offset(x11))

/* Load into x0: dropped. */
#define TEST_LD_ZERODEST(testnum, inst, offset, base)                  \
  TEST_CASE(testnum, x0, 0, la x11, base; inst x0, offset(x11))        \
  TEST_CASE_ZERO_USE(x0)

/* Store `val` with store_inst, read it back with load_inst and expect
 * `result` (the stored value as the load extends it). */
#define TEST_ST_OP(testnum, load_inst, store_inst, result, val, offset, base) \
  TEST_CASE(testnum, x14, result, la x11, base; li x12, MASK_XLEN(val);  \
            store_inst x12, offset(x11); load_inst x14, offset(x11))   \
  CHECK(x12, val)

/* ------------------------------------------------------------------ */
/* Conditional branches                                               */

/* Taken forwards, then taken backwards. */
#define TEST_BR2_OP_TAKEN(testnum, inst, val1, val2)                   \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val1);                                             \
  li x12, MASK_XLEN(val2);                                             \
  inst x11, x12, 2f;                                                   \
  j fail;                                                              \
  1: j 3f;                                                             \
  j fail;                                                              \
  2: inst x11, x12, 1b;                                                \
  j fail;                                                              \
  3:

/* Not taken forwards, then not taken backwards. */
#define TEST_BR2_OP_NOTTAKEN(testnum, inst, val1, val2)                \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val1);                                             \
  li x12, MASK_XLEN(val2);                                             \
  inst x11, x12, 1f;                                                   \
  j 2f;                                                                \
  1: j fail;                                                           \
  2: inst x11, x12, 1b;

/* Both operands the same register. */
#define TEST_BR1_SAME_TAKEN(testnum, inst, val)                        \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val);                                              \
  inst x11, x11, 1f;                                                   \
  j fail;                                                              \
  1:

#define TEST_BR1_SAME_NOTTAKEN(testnum, inst, val)                     \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val);                                              \
  inst x11, x11, 1f;                                                   \
  j 2f;                                                                \
  1: j fail;                                                           \
  2:

/* Taken at the extremes of the 13-bit offset: +4092 forwards (the
 * largest 4-byte aligned one) and -4096 backwards. The targets are
 * written as `. + n` so that gas encodes the branch as it is: to a label
 * this far it may expand it into an inverted branch over a `jal`; the
 * `.org`s pin the targets there (gas stops if it cannot). The gaps are
 * zero-filled: an all-zero word is illegal, so a wrong landing faults. */
#define TEST_BR2_OP_FAR_TAKEN(testnum, inst, val1, val2)               \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val1);                                             \
  li x12, MASK_XLEN(val2);                                             \
  5: inst x11, x12, . + 4092;                                          \
  j fail;                                                              \
  .org 5b + 4092;                                                      \
  2: j 4f;                                                             \
  1: j 3f;                                                             \
  .org 1b + 4096;                                                      \
  4: inst x11, x12, . - 4096;                                          \
  j fail;                                                              \
  3:

/* Not taken, with the same far offsets: must fall through. */
#define TEST_BR2_OP_FAR_NOTTAKEN(testnum, inst, val1, val2)            \
  TEST_NUM(testnum)                                                    \
  li x11, MASK_XLEN(val1);                                             \
  li x12, MASK_XLEN(val2);                                             \
  5: inst x11, x12, . + 4092;                                          \
  j 4f;                                                                \
  .org 5b + 4092;                                                      \
  2: j fail;                                                           \
  1: j fail;                                                           \
  .org 1b + 4096;                                                      \
  4: inst x11, x12, . - 4096;

/* ------------------------------------------------------------------ */
/* Atomic memory operations: rd = M[buf]; M[buf] = inst(M[buf], rs2)  */

/* Stores memval at buf with `st`, runs `inst` with rs2 = srcval, checks
 * rd = rdval and, read back with `ld`, the memory = memnew. */
#define TEST_AMO_OP(testnum, inst, st, ld, rdval, memnew, memval, srcval, buf) \
  TEST_NUM(testnum)                                                    \
  la x11, buf;                                                         \
  li x12, MASK_XLEN(memval);                                           \
  st x12, 0(x11);                                                      \
  li x13, MASK_XLEN(srcval);                                           \
  inst x14, x13, (x11);                                                \
  CHECK(x14, rdval)                                                    \
  ld x15, 0(x11);                                                      \
  CHECK(x15, memnew)

#endif
