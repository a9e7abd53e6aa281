/*
 * x86_emit: x86-64 encodings for the translator (see x86_emit.h): REX,
 * ModRM and SIB bytes, immediates, jumps patched once their target is known.
 */
#include "executor/translate/x86_emit.h"

#include <string.h>

void x86_byte(struct x86_buf *b, uint8_t v)
{
    if (b->p >= b->end) {
        b->full = true;
        return;
    }
    *b->p++ = v;
}

void x86_u32(struct x86_buf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        x86_byte(b, (uint8_t)(v >> (8 * i)));
}

void x86_u64(struct x86_buf *b, uint64_t v)
{
    x86_u32(b, (uint32_t)v);
    x86_u32(b, (uint32_t)(v >> 32));
}

/* The prefixes and opcode bytes of `op`, with a REX byte when any of its bits is needed. */
static void opcode(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned index,
                   unsigned base)
{
    if (op & X86_P66)
        x86_byte(b, 0x66);
    unsigned rex =
        (w ? 8u : 0u) | ((reg >> 3) & 1) << 2 | ((index >> 3) & 1) << 1 | ((base >> 3) & 1);
    if (rex)
        x86_byte(b, (uint8_t)(0x40 | rex));
    if (op & 0xFF00)
        x86_byte(b, (uint8_t)(op >> 8));
    x86_byte(b, (uint8_t)op);
}

void x86_op_mem(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base, int32_t disp)
{
    opcode(b, w, op, reg, 0, base);
    bool short_disp = disp >= -128 && disp <= 127;
    x86_byte(b, (uint8_t)((short_disp ? 0x40 : 0x80) | (reg & 7) << 3 | (base & 7)));
    if ((base & 7) == X_RSP)
        x86_byte(b, 0x24);
    if (short_disp)
        x86_byte(b, (uint8_t)disp);
    else
        x86_u32(b, (uint32_t)disp);
}

void x86_op_sib(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base, unsigned index)
{
    opcode(b, w, op, reg, index, base);
    bool rbp = (base & 7) == X_RBP; /* mod 0 would mean no base: a zero disp8 instead */
    x86_byte(b, (uint8_t)((rbp ? 0x40 : 0x00) | (reg & 7) << 3 | 4));
    x86_byte(b, (uint8_t)((index & 7) << 3 | (base & 7)));
    if (rbp)
        x86_byte(b, 0);
}

void x86_op_sib_disp(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned base,
                     unsigned index, int32_t disp)
{
    opcode(b, w, op, reg, index, base);
    x86_byte(b, (uint8_t)(0x80 | (reg & 7) << 3 | 4)); /* mod 2: a 32-bit displacement */
    x86_byte(b, (uint8_t)((index & 7) << 3 | (base & 7)));
    x86_u32(b, (uint32_t)disp);
}

void x86_op_reg(struct x86_buf *b, bool w, unsigned op, unsigned reg, unsigned rm)
{
    opcode(b, w, op, reg, 0, rm);
    x86_byte(b, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}

void x86_mov_imm(struct x86_buf *b, unsigned r, uint64_t imm)
{
    if (imm <= UINT32_MAX) { /* mov r32, imm32 zero-extends */
        opcode(b, false, 0xB8 + (r & 7), 0, 0, r);
        x86_u32(b, (uint32_t)imm);
    } else if ((int64_t)imm >= INT32_MIN && (int64_t)imm <= INT32_MAX) {
        x86_op_reg(b, true, 0xC7, 0, r);
        x86_u32(b, (uint32_t)imm);
    } else {
        opcode(b, true, 0xB8 + (r & 7), 0, 0, r);
        x86_u64(b, imm);
    }
}

void x86_alu_imm(struct x86_buf *b, bool w, unsigned ext, unsigned r, int32_t imm)
{
    if (imm >= -128 && imm <= 127) {
        x86_op_reg(b, w, 0x83, ext, r);
        x86_byte(b, (uint8_t)imm);
    } else {
        x86_op_reg(b, w, 0x81, ext, r);
        x86_u32(b, (uint32_t)imm);
    }
}

void x86_shift(struct x86_buf *b, bool w, unsigned ext, unsigned r, unsigned imm, bool by_cl)
{
    if (by_cl) {
        x86_op_reg(b, w, 0xD3, ext, r);
        return;
    }
    x86_op_reg(b, w, 0xC1, ext, r);
    x86_byte(b, (uint8_t)imm);
}

void x86_setcc_rax(struct x86_buf *b, enum x86_cc cc)
{
    x86_op_reg(b, false, X86_0F(0x90 + cc), 0, X_RAX);
    x86_op_reg(b, false, X86_0F(0xB6), X_RAX, X_RAX);
}

void x86_movsxd(struct x86_buf *b, unsigned r)
{
    x86_op_reg(b, true, 0x63, r, r);
}

void x86_push(struct x86_buf *b, unsigned r)
{
    opcode(b, false, 0x50 + (r & 7), 0, 0, r);
}

void x86_pop(struct x86_buf *b, unsigned r)
{
    opcode(b, false, 0x58 + (r & 7), 0, 0, r);
}

uint8_t *x86_jcc(struct x86_buf *b, enum x86_cc cc)
{
    x86_byte(b, 0x0F);
    x86_byte(b, (uint8_t)(0x80 + cc));
    uint8_t *at = b->p;
    x86_u32(b, 0);
    return b->full ? NULL : at;
}

uint8_t *x86_jmp(struct x86_buf *b)
{
    x86_byte(b, 0xE9);
    uint8_t *at = b->p;
    x86_u32(b, 0);
    return b->full ? NULL : at;
}

void x86_patch(uint8_t *at, const uint8_t *target)
{
    if (!at)
        return;
    int32_t d = (int32_t)(target - (at + 4));
    memcpy(at, &d, 4);
}
