/*
 * jolt_advice: Jolt's advice tape as its tracer keeps it (a16z/jolt
 * tracer/src/emulator/cpu.rs AdviceTape, handle_advice_write; the loads in
 * tracer/src/instruction/advice_{lb,lh,lw,ld}.rs, virtual_advice_len.rs):
 * one byte queue per run. The advice write (an ecall at 01f78185, the
 * VirtualHostIO word at HEAD, a0 = 0xADBABE) appends a1, a2 bytes; each
 * load takes the next bytes in order, little-endian, sign-extended from 1,
 * 2 or 4 bytes; ADVICE_LEN gives the count left. Reading past the end
 * panics there ("Failed to read from advice tape"): a fault here. Docs:
 * docs/ZKVMS.md.
 *
 * Encodings (custom-2 0x5B, rd the destination): funct3 3 LB, 4 LH, 5 LW,
 * 6 LD, 7 LEN at 01f78185; funct3 0 with funct7 0-4 at HEAD (971ce3e9),
 * which 01f78185 decodes as VirtualRev8W: taken as a load only with rs1 =
 * x0 (jolt-sdk's `.insn r 0x5B, 0, f7, rd, x0, x0`; its byte swap names
 * the swapped register in rs1).
 */
#include "executor/abi/jolt_advice.h"

#include <stdlib.h>

#define TAPE_MAX (1ull << 30)

enum ecall_result jolt_tape_write(struct machine *m, struct jolt_tape *t)
{
    uint64_t p = machine_get_reg(m, REG_A1), len = machine_get_reg(m, REG_A2);
    const uint8_t *src = len ? abi_view(m, p, len) : NULL;
    if (!src)
        return ECALL_CONTINUE; /* handle_advice_write's load fault is swallowed */
    if (!abi_buffer_put(&t->bytes, t->bytes.size, src, len, TAPE_MAX))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "advice_write", len,
                         "the advice tape would pass 1 GiB");
    return ECALL_CONTINUE;
}

/* The bytes a load takes (1, 2, 4, 8), 0 for ADVICE_LEN, -1 for no load. */
static int load_width(uint32_t w)
{
    struct abi_insn in = abi_insn_fields(w);
    static const int by_funct3[8] = {-1, -1, -1, 1, 2, 4, 8, 0};
    static const int by_funct7[5] = {1, 2, 4, 8, 0};
    if (in.funct3 != 0)
        return by_funct3[in.funct3];
    return in.funct7 < 5 && in.rs1 == 0 ? by_funct7[in.funct7] : -1;
}

bool jolt_tape_is_load(uint32_t w)
{
    return load_width(w) >= 0;
}

enum ecall_result jolt_tape_load(struct machine *m, struct jolt_tape *t, uint32_t w,
                                 const char **call)
{
    static const char *const names[9] = {
        "ADVICE_LEN", "ADVICE_LB", "ADVICE_LH", NULL, "ADVICE_LW", NULL, NULL, NULL, "ADVICE_LD"};
    int n = load_width(w);
    unsigned rd = abi_insn_fields(w).rd;
    if (n < 0) /* callers ask jolt_tape_is_load first */
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "advice load", w, "not an advice load");
    *call = names[n];
    if (n == 0) {
        machine_set_reg(m, rd, t->bytes.size - t->read);
        return ECALL_CONTINUE;
    }
    if (t->bytes.size - t->read < (uint64_t)n)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, t->bytes.size - t->read,
                         "the advice tape has too few bytes left (the tracer panics: \"Failed "
                         "to read from advice tape\"); Jolt's host fills it by first running "
                         "the guest's compute_advice build, whose #[jolt::advice] functions "
                         "write it: a run here starts with an empty tape, which only the "
                         "guest's own advice writes fill");
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)t->bytes.data[t->read + i] << (8 * i);
    t->read += n;
    if (n < 8 && (v >> (8 * n - 1)) & 1) /* sign-extend, as the tracer's `as iN as i64` */
        v |= ~0ull << (8 * n);
    machine_set_reg(m, rd, v);
    return ECALL_CONTINUE;
}

void jolt_tape_free(struct jolt_tape *t)
{
    free(t->bytes.data);
    t->bytes = (struct abi_buffer){0};
}
