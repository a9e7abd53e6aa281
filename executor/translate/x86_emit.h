/*
 * x86_emit: the few x86-64 instruction encodings the translator needs,
 * written into a byte buffer: moves and ALU operations between a host
 * register and a register or memory operand ([base + disp] or
 * [base + index]), immediates, setcc, conditional jumps with a 32-bit
 * displacement patched later, and ret. Nothing here knows RISC-V.
 */
#ifndef EXECUTOR_TRANSLATE_X86_EMIT_H
#define EXECUTOR_TRANSLATE_X86_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Host registers by their encoding number. */
enum x86_reg {
    X_RAX = 0,
    X_RCX = 1,
    X_RDX = 2,
    X_RBX = 3,
    X_RSP = 4,
    X_RBP = 5,
    X_RSI = 6,
    X_RDI = 7,
    X_R8 = 8,
    X_R9 = 9,
    X_R10 = 10,
    X_R11 = 11,
    X_R12 = 12,
    X_R13 = 13,
    X_R14 = 14,
    X_R15 = 15,
};

/* Condition codes (the low nibble of jcc and setcc). */
enum x86_cc {
    CC_B = 0x2,  /* unsigned < */
    CC_AE = 0x3, /* unsigned >= */
    CC_A = 0x7,  /* unsigned > */
    CC_E = 0x4,
    CC_NE = 0x5,
    CC_L = 0xC, /* signed < */
    CC_GE = 0xD,
};

/* An output buffer; `full` once a write would pass `end` (nothing more is written). */
struct x86_buf {
    uint8_t *p, *end;
    bool full;
};

void x86_byte(struct x86_buf *b, uint8_t v);
void x86_u32(struct x86_buf *b, uint32_t v);
void x86_u64(struct x86_buf *b, uint64_t v);

/*
 * `op` (one or two opcode bytes, the second nonzero when two; a 0x66
 * prefix when `prefix16`) with ModRM reg field `reg` and operand
 * [base + disp]; `w`: REX.W (64-bit operand).
 */
void x86_op_mem(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base, int32_t disp);
/* The same with operand [base + index] (scale 1). */
void x86_op_sib(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base,
                unsigned index);
/* The same with memory operand [base + index + disp]. */
void x86_op_sib_disp(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base,
                     unsigned index, int32_t disp);
/* The same with register operand `rm`. */
void x86_op_reg(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned rm);

/* Operand-size prefix flag for x86_op_*: OR it into `op`. */
#define X86_P66 0x10000u
/* Two-byte opcodes: (0x0F << 8) | second byte. */
#define X86_0F(x) (0x0F00u | (x))

/* mov r, imm64 (movabs; a 32-bit mov when it fits unsigned, sign-extended when it fits signed). */
void x86_mov_imm(struct x86_buf *b, unsigned r, uint64_t imm);
/* Group-1 ALU op (`ext`: 0 add, 1 or, 4 and, 5 sub, 6 xor, 7 cmp) of r with a sign-extended imm32.
 */
void x86_alu_imm(struct x86_buf *b, bool w, unsigned ext, unsigned r, int32_t imm);
/* Shift group (`ext`: 4 shl, 5 shr, 7 sar) of r by imm8, or by cl (`by_cl`). */
void x86_shift(struct x86_buf *b, bool w, unsigned ext, unsigned r, unsigned imm, bool by_cl);
/* setcc al; movzx eax, al: rax = the condition, 0 or 1. */
void x86_setcc_rax(struct x86_buf *b, enum x86_cc cc);
/* movsxd r, r32: sign-extends the low 32 bits of r into r. */
void x86_movsxd(struct x86_buf *b, unsigned r);

/* push r / pop r (64-bit). */
void x86_push(struct x86_buf *b, unsigned r);
void x86_pop(struct x86_buf *b, unsigned r);

/* jcc rel32 with a zero displacement; returns where the displacement lies, for x86_patch. */
uint8_t *x86_jcc(struct x86_buf *b, enum x86_cc cc);
/* jmp rel32, likewise. */
uint8_t *x86_jmp(struct x86_buf *b);
/* Points the displacement at `at` (from x86_jcc or x86_jmp) to `target`. */
void x86_patch(uint8_t *at, const uint8_t *target);

#endif
