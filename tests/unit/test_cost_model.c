/*
 * test_cost_model: the opcode class of each compressed instruction is the
 * class of the 32-bit instruction it expands to. Each pair is the GNU
 * assembler's encoding of one instruction with `.option rvc` and with
 * `.option norvc` (copied from riscv64-unknown-elf-objdump's listing, an
 * independent reference), so the 32-bit classifier judges the compressed
 * one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "executor/cost_model.h"

struct pair {
    const char *asm_text;
    uint16_t half; /* with C */
    uint32_t word; /* without */
    int xlen;
};

static const struct pair pairs[] = {
    {"addi s0,sp,16 (c.addi4spn)", 0x0800, 0x01010413, 64},
    {"lw a0,4(a1)", 0x41c8, 0x0045a503, 64},
    {"ld a0,8(a1)", 0x6588, 0x0085b503, 64},
    {"sw a0,4(a1)", 0xc1c8, 0x00a5a223, 64},
    {"sd a0,8(a1)", 0xe588, 0x00a5b423, 64},
    {"fld fa0,8(a1)", 0x2588, 0x0085b507, 64},
    {"fsd fa0,8(a1)", 0xa588, 0x00a5b427, 64},
    {"flw fa0,4(a1)", 0x61c8, 0x0045a507, 32},
    {"fsw fa0,4(a1)", 0xe1c8, 0x00a5a227, 32},
    {"addi a0,a0,1", 0x0505, 0x00150513, 64},
    {"nop", 0x0001, 0x00000013, 32},
    {"addiw a0,a0,1", 0x2505, 0x0015051b, 64},
    {"li a0,5", 0x4515, 0x00500513, 64},
    {"lui a0,5", 0x6515, 0x00005537, 64},
    {"addi sp,sp,32 (c.addi16sp)", 0x6105, 0x02010113, 64},
    {"srli a0,a0,3", 0x810d, 0x00355513, 64},
    {"srai a0,a0,3", 0x850d, 0x40355513, 64},
    {"andi a0,a0,3", 0x890d, 0x00357513, 64},
    {"sub a0,a0,a1", 0x8d0d, 0x40b50533, 64},
    {"xor a0,a0,a1", 0x8d2d, 0x00b54533, 64},
    {"or a0,a0,a1", 0x8d4d, 0x00b56533, 64},
    {"and a0,a0,a1", 0x8d6d, 0x00b57533, 64},
    {"subw a0,a0,a1", 0x9d0d, 0x40b5053b, 64},
    {"addw a0,a0,a1", 0x9d2d, 0x00b5053b, 64},
    {"slli a0,a0,3", 0x050e, 0x00351513, 64},
    {"lw a0,4(sp)", 0x4512, 0x00412503, 64},
    {"ld a0,8(sp)", 0x6522, 0x00813503, 64},
    {"sw a0,4(sp)", 0xc22a, 0x00a12223, 64},
    {"sd a0,8(sp)", 0xe42a, 0x00a13423, 64},
    {"fld fa0,8(sp)", 0x2522, 0x00813507, 64},
    {"fsd fa0,8(sp)", 0xa42a, 0x00a13427, 64},
    {"flw fa0,4(sp)", 0x6512, 0x00412507, 32},
    {"fsw fa0,4(sp)", 0xe22a, 0x00a12227, 32},
    {"mv a0,a1", 0x852e, 0x00058513, 64},
    {"add a0,a0,a1", 0x952e, 0x00b50533, 64},
    {"jr a1", 0x8582, 0x00058067, 64},
    {"jalr a1", 0x9582, 0x000580e7, 64},
    {"ebreak", 0x9002, 0x00100073, 64},
    {"ret", 0x8082, 0x00008067, 64},
    {"jal ra,. (c.jal, RV32)", 0x2001, 0x000000ef, 32},
    {"j . (c.j)", 0xbffd, 0xffdff06f, 32},
    {"beqz a0,. (c.beqz)", 0xd96d, 0xfe0508e3, 32},
    {"bnez a0,. (c.bnez)", 0xf575, 0xfe0515e3, 32},
};

static void test_compressed_class_is_expanded_class(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        const struct pair *p = &pairs[i];
        enum insn_class full = insn_class_of(p->word, p->xlen);
        enum insn_class c = insn_class_of(p->half, p->xlen);
        if (c != full)
            fail_msg("%s: compressed %04x is %s, its expansion %08x is %s", p->asm_text, p->half,
                     insn_class_name(c), p->word, insn_class_name(full));
    }
}

/* The high half of a word does not change a compressed instruction's class. */
static void test_compressed_class_reads_low_half(void **state)
{
    (void)state;
    assert_int_equal(insn_class_of(0x41c8, 64), INSN_LOAD);
    assert_int_equal(insn_class_of(0xffff41c8, 64), INSN_LOAD);
    assert_int_equal(insn_class_of(0, 64), INSN_OTHER); /* the all-zero illegal instruction */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compressed_class_is_expanded_class),
        cmocka_unit_test(test_compressed_class_reads_low_half),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
