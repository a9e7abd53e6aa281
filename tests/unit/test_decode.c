/*
 * test_decode: the decoder against instruction words produced by the GNU
 * assembler (riscv64-unknown-elf-as; the words are copied from its
 * objdump listing, so they are an independent reference).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "executor/decode.h"

struct case_ {
    const char *asm_text;
    uint32_t word;
    int xlen;
    enum insn_op op;
    int rd, rs1, rs2; /* -1: don't care */
    int32_t imm;
    int check_imm;
};

static const struct case_ cases[] = {
    {"addi a0,a1,-1", 0xfff58513, 64, OP_ADDI, 10, 11, -1, -1, 1},
    {"lui t0,0xfffff", 0xfffff2b7, 64, OP_LUI, 5, -1, -1, (int32_t)0xfffff000, 1},
    {"auipc ra,0x80000", 0x80000097, 32, OP_AUIPC, 1, -1, -1, INT32_MIN, 1},
    {"jal ra,+2048", 0x001000ef, 32, OP_JAL_CALL, 1, -1, -1, 2048, 1},
    {"jal t0,+8", 0x008002ef, 32, OP_JAL_CALL, 5, -1, -1, 8, 1},
    {"j -4", 0xffdff06f, 32, OP_JAL, REG_SINK, -1, -1, -4, 1},
    {"jalr t0,12(t1)", 0x00c302e7, 64, OP_JALR_CALL, 5, 6, -1, 12, 1},
    /* jumps split by their return-address-stack hint (links: ra, t0) */
    {"ret", 0x00008067, 32, OP_JALR_RET, REG_SINK, 1, -1, 0, 1},
    {"jr t1", 0x00030067, 32, OP_JALR, REG_SINK, 6, -1, 0, 1},
    {"jalr ra,0(t0)", 0x000280e7, 64, OP_JALR_RETCALL, 1, 5, -1, 0, 1},
    {"jalr ra,0(ra)", 0x000080e7, 64, OP_JALR_CALL, 1, 1, -1, 0, 1},
    {"jalr t0,0(ra)", 0x000082e7, 32, OP_JALR_RETCALL, 5, 1, -1, 0, 1},
    {"beq a0,a1,-4096", 0x80b50063, 64, OP_BEQ, -1, 10, 11, -4096, 1},
    {"bgeu s1,s2,+4094", 0x7f24ffe3, 64, OP_BGEU, -1, 9, 18, 4094, 1},
    {"lw a3,-2048(sp)", 0x80012683, 32, OP_LW, 13, 2, -1, -2048, 1},
    {"sd a4,2047(a5)", 0x7ee7bfa3, 64, OP_SD, -1, 15, 14, 2047, 1},
    {"slli a0,a0,63", 0x03f51513, 64, OP_SLLI, 10, 10, -1, 63, 1},
    {"srai a0,a1,31", 0x41f5d513, 32, OP_SRAI, 10, 11, -1, 31, 1},
    {"srai a0,a1,33", 0x4215d513, 64, OP_SRAI, 10, 11, -1, 33, 1},
    {"sraiw a0,a1,31", 0x41f5d51b, 64, OP_SRAIW, 10, 11, -1, 31, 1},
    {"mulhsu a0,a1,a2", 0x02c5a533, 32, OP_MULHSU, 10, 11, 12, 0, 0},
    {"remuw t0,t1,t2", 0x027372bb, 64, OP_REMUW, 5, 6, 7, 0, 0},
    {"ecall", 0x00000073, 32, OP_ECALL, -1, -1, -1, 0, 0},
    {"ebreak", 0x00100073, 64, OP_EBREAK, -1, -1, -1, 0, 0},
    {"fence", 0x0ff0000f, 64, OP_FENCE, -1, -1, -1, 0, 0},
    /* A and Zicsr: one operation each, the word kept for the slow path */
    {"amoadd.w a0,a1,(a2)", 0x00b6252f, 32, OP_AMO, 10, 12, 11, 0x00b6252f, 1},
    {"amomaxu.d.aqrl t0,t1,(t2)", 0xe663b2af, 64, OP_AMO, 5, 7, 6, (int32_t)0xe663b2af, 1},
    {"lr.w a0,(a1)", 0x1005a52f, 32, OP_AMO, 10, 11, 0, 0x1005a52f, 1},
    {"sc.d a0,a2,(a1)", 0x18c5b52f, 64, OP_AMO, 10, 11, 12, 0x18c5b52f, 1},
    {"rdinstret a0", 0xc0202573, 32, OP_CSR, 10, 0, -1, (int32_t)0xc0202573, 1},
    {"csrw mstatus,a0 (decoded; faults when run)", 0x30051073, 64, OP_CSR, REG_SINK, 10, -1,
     0x30051073, 1},
    {"add zero,ra,sp (x0 write goes to the sink)", 0x00208033, 32, OP_ADD, REG_SINK, 1, 2, 0, 0},
};

static void test_assembler_words(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct case_ *c = &cases[i];
        struct insn in = decode_insn(c->word, c->xlen);
        print_message("%s\n", c->asm_text);
        assert_string_equal(insn_op_name(in.op), insn_op_name(c->op));
        if (c->rd >= 0)
            assert_int_equal(in.rd, c->rd);
        if (c->rs1 >= 0)
            assert_int_equal(in.rs1, c->rs1);
        if (c->rs2 >= 0)
            assert_int_equal(in.rs2, c->rs2);
        if (c->check_imm)
            assert_int_equal(in.imm, c->imm);
    }
}

/* Encodings that exist only on RV64 are illegal on RV32. */
static void test_rv64_only_is_illegal_on_rv32(void **state)
{
    (void)state;
    const uint32_t rv64_only[] = {
        0x7ee7bfa3, /* sd */
        0x41f5d51b, /* sraiw */
        0x027372bb, /* remuw */
        0x4215d513, /* srai with shamt 33 */
        0x0005e503, /* lwu a0,0(a1) */
        0x0005b503, /* ld a0,0(a1) */
        0x18c5b52f, /* sc.d a0,a2,(a1) */
        0xe663b2af, /* amomaxu.d.aqrl t0,t1,(t2) */
    };
    for (size_t i = 0; i < sizeof(rv64_only) / sizeof(rv64_only[0]); i++) {
        assert_int_equal(decode_insn(rv64_only[i], 32).op, OP_ILLEGAL);
        assert_int_not_equal(decode_insn(rv64_only[i], 64).op, OP_ILLEGAL);
    }
}

static void test_illegal_words(void **state)
{
    (void)state;
    const uint32_t words[] = {
        0x00000000, /* all zeros: a defined illegal instruction */
        0xffffffff,
        0x2800202f,              /* AMO funct5 0x05: none */
        0x1010202f,              /* lr.w with rs2 = 1 */
        0x0000402f,              /* AMO funct3 4: no such width */
        0x30200073,              /* mret */
        0x0000c50d,              /* a compressed c.li */
        0x02a5f533 | (1u << 30), /* funct7 with a stray bit */
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        struct insn in = decode_insn(words[i], 64);
        assert_int_equal(in.op, OP_ILLEGAL);
        assert_int_equal((uint32_t)in.imm, words[i]); /* kept for the message */
    }
}

/*
 * C: each compressed instruction (assembled with -march=rv32imc/rv64imc)
 * decodes as the 32-bit instruction gas writes for its expansion (with
 * .option norvc), as the C_ form of that operation.
 */
struct compressed_case {
    const char *asm_text;
    uint16_t half;
    uint32_t word; /* the expansion */
    int xlen;
};

static const struct compressed_case compressed_cases[] = {
    {"c.addi4spn a0,sp,1020", 0x1fe8, 0x3fc10513, 32},
    {"c.addi4spn s1,sp,4", 0x0044, 0x00410493, 32},
    {"c.lw a2,124(a5)", 0x5ff0, 0x07c7a603, 32},
    {"c.ld a2,248(a5)", 0x7ff0, 0x0f87b603, 64},
    {"c.sw a3,64(s0)", 0xc034, 0x04d42023, 32},
    {"c.sd a3,8(s1)", 0xe494, 0x00d4b423, 64},
    {"c.addi a0,-32", 0x1501, 0xfe050513, 32},
    {"c.addi t6,31", 0x0ffd, 0x01ff8f93, 32},
    {"c.nop", 0x0001, 0x00000013, 32},
    {"c.addiw a1,-1", 0x35fd, 0xfff5859b, 64},
    {"c.li a5,-32", 0x5781, 0xfe000793, 32},
    {"c.addi16sp sp,-512", 0x7101, 0xe0010113, 32},
    {"c.addi16sp sp,496", 0x617d, 0x1f010113, 32},
    {"c.lui s0,0xfffe1", 0x7405, 0xfffe1437, 32},
    {"c.lui t0,0x1f", 0x62fd, 0x0001f2b7, 32},
    {"c.srli a0,31", 0x817d, 0x01f55513, 32},
    {"c.srli a0,63", 0x917d, 0x03f55513, 64},
    {"c.srai s1,33", 0x9485, 0x4214d493, 64},
    {"c.andi a4,-20", 0x9b31, 0xfec77713, 32},
    {"c.sub s1,a0", 0x8c89, 0x40a484b3, 32},
    {"c.xor a5,a4", 0x8fb9, 0x00e7c7b3, 32},
    {"c.or s0,s1", 0x8c45, 0x00946433, 32},
    {"c.and a2,a3", 0x8e75, 0x00d67633, 32},
    {"c.subw a0,a1", 0x9d0d, 0x40b5053b, 64},
    {"c.addw a0,a1", 0x9d2d, 0x00b5053b, 64},
    {"c.j .-2048", 0xb001, 0x801ff06f, 32},
    {"c.j .+2046", 0xaffd, 0x7fe0006f, 32},
    {"c.jal .+1000", 0x26e5, 0x3e8000ef, 32},
    {"c.beqz s0,.-256", 0xd001, 0xf00400e3, 32},
    {"c.bnez a5,.+254", 0xeffd, 0x0e079f63, 32},
    {"c.slli t1,63", 0x137e, 0x03f31313, 64},
    {"c.slli ra,1", 0x0086, 0x00109093, 32},
    {"c.lwsp s2,252(sp)", 0x597e, 0x0fc12903, 32},
    {"c.ldsp ra,504(sp)", 0x70fe, 0x1f813083, 64},
    {"c.jr ra", 0x8082, 0x00008067, 32},
    {"c.jr t0", 0x8282, 0x00028067, 32},
    {"c.jr a0", 0x8502, 0x00050067, 32},
    {"c.mv a0,s11", 0x856e, 0x01b00533, 32},
    {"c.jalr a5", 0x9782, 0x000780e7, 32},
    {"c.jalr t0", 0x9282, 0x000280e7, 32},
    {"c.jalr ra", 0x9082, 0x000080e7, 32},
    {"c.add a0,s11", 0x956e, 0x01b50533, 32},
    {"c.swsp t6,252(sp)", 0xdffe, 0x0ff12e23, 32},
    {"c.sdsp s0,504(sp)", 0xffa2, 0x1e813c23, 64},
};

/* Whether the operation has an rs2 operand (else decode_insn leaves immediate bits there). */
static int uses_rs2(enum insn_op op)
{
    switch (op) {
    case OP_ADD:
    case OP_SUB:
    case OP_XOR:
    case OP_OR:
    case OP_AND:
    case OP_ADDW:
    case OP_SUBW:
    case OP_SW:
    case OP_SD:
    case OP_BEQ:
    case OP_BNE: return 1;
    default: return 0;
    }
}

static void test_compressed_as_expansion(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(compressed_cases) / sizeof(compressed_cases[0]); i++) {
        const struct compressed_case *c = &compressed_cases[i];
        struct insn full = decode_insn(c->word, c->xlen);
        struct insn half = decode_compressed(c->half, c->xlen);
        char want[32];
        snprintf(want, sizeof(want), "C_%s", insn_op_name((enum insn_op)full.op));
        if (strcmp(insn_op_name((enum insn_op)half.op), want) != 0)
            fail_msg("%s: %s, want %s", c->asm_text, insn_op_name((enum insn_op)half.op), want);
        assert_true(insn_op_is_compressed(half.op));
        assert_int_equal(insn_op_length(half.op), 2);
        if (full.op != OP_SW && full.op != OP_SD) /* a store's rd bits are immediate bits */
            assert_int_equal(half.rd, full.rd);
        if (full.op != OP_LUI && full.op != OP_JAL && full.op != OP_JAL_CALL)
            assert_int_equal(half.rs1, full.rs1);
        if (uses_rs2((enum insn_op)full.op))
            assert_int_equal(half.rs2, full.rs2);
        if (half.imm != full.imm)
            fail_msg("%s: imm %d, want %d", c->asm_text, half.imm, full.imm);
    }
}

/* Reserved and floating-point encodings, and RV64-only forms on RV32. */
static void test_compressed_illegal(void **state)
{
    (void)state;
    static const struct {
        uint16_t half;
        int xlen;
    } bad[] = {
        {0x0000, 32},               /* all zero (c.addi4spn with 0) */
        {0x0000, 64}, {0x4002, 32}, /* c.lwsp into x0 */
        {0x6002, 64},               /* c.ldsp into x0 */
        {0x6101, 32},               /* c.addi16sp with 0 */
        {0x6081, 32},               /* c.lui with 0 */
        {0x8002, 64},               /* c.jr x0 */
        {0x2000, 64},               /* c.fld */
        {0xa002, 32},               /* c.fsdsp */
        {0x6000, 32},               /* c.flw (c.ld on RV64) */
        {0x9d0d, 32},               /* c.subw */
        {0x917d, 32},               /* c.srli a0, 63 */
        {0x137e, 32},               /* c.slli t1, 63 */
        {0x9c41, 64},               /* reserved in the CA group */
        {0x2001, 64},               /* c.addiw into x0 */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct insn in = decode_compressed(bad[i].half, bad[i].xlen);
        if (in.op != OP_ILLEGAL)
            fail_msg("0x%04x (RV%d): %s", bad[i].half, bad[i].xlen,
                     insn_op_name((enum insn_op)in.op));
        assert_int_equal(in.imm, bad[i].half);
    }
    /* c.ebreak stops as ebreak does */
    assert_int_equal(decode_compressed(0x9002, 32).op, OP_EBREAK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembler_words),
        cmocka_unit_test(test_rv64_only_is_illegal_on_rv32),
        cmocka_unit_test(test_illegal_words),
        cmocka_unit_test(test_compressed_as_expansion),
        cmocka_unit_test(test_compressed_illegal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
