/*
 * test_decode: the decoder against instruction words produced by the GNU
 * assembler (riscv64-unknown-elf-as; the words are copied from its
 * objdump listing, so they are an independent reference).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembler_words),
        cmocka_unit_test(test_rv64_only_is_illegal_on_rv32),
        cmocka_unit_test(test_illegal_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
