/*
 * cfi_rules: a CFI row kept as x86_64's usual rules, and one caller
 * computed from them the way perf's libunwind does (perf/dwarf/cfi_rules.h).
 */
#include "perf/dwarf/cfi_rules.h"

#include <dwarf.h>
#include <string.h>

bool cfi_rules_cfa(const Dwarf_Op *ops, size_t nops, uint8_t *reg, int64_t *offset)
{
    if (!ops || nops != 1)
        return false;
    uint64_t r, off;
    if (ops[0].atom == DW_OP_bregx) /* libdw's form of DW_CFA_def_cfa */
        r = ops[0].number, off = ops[0].number2;
    else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
        r = ops[0].atom - DW_OP_breg0, off = ops[0].number;
    else
        return false;
    if (r >= CFI_RA_REG)
        return false;
    *reg = (uint8_t)r;
    *offset = (int64_t)off;
    return true;
}

/*
 * dwarf_frame_register answers: no operations in ops_mem for undefined,
 * none at NULL for same value, else DW_OP_call_frame_cfa, an optional
 * DW_OP_plus_uconst and DW_OP_stack_value for a value (not a location).
 */
bool cfi_rules_register(const Dwarf_Op *ops_mem, const Dwarf_Op *ops, size_t nops, bool is_ra,
                        uint8_t *kind, int64_t *offset)
{
    *offset = 0;
    if (nops == 0) {
        if (ops == ops_mem)
            *kind = is_ra ? CFI_UNDEFINED : CFI_KEEP;
        else if (ops == NULL && !is_ra)
            *kind = CFI_KEEP;
        else
            return false;
        return true;
    }
    if (!ops || nops > 3 || ops[0].atom != DW_OP_call_frame_cfa)
        return false;
    size_t i = 1;
    if (i < nops && ops[i].atom == DW_OP_plus_uconst)
        *offset = (int64_t)ops[i++].number;
    bool value = i < nops && ops[i].atom == DW_OP_stack_value;
    i += value;
    if (i != nops)
        return false;
    *kind = value ? CFI_VAL_CFA : CFI_AT_CFA;
    return true;
}

void cfi_rules_index(struct cfi_rules *rules)
{
    rules->nactive = 0;
    for (uint8_t i = 0; i < CFI_RULE_REGS; i++)
        if (rules->kind[i] != CFI_KEEP)
            rules->active[rules->nactive++] = i;
}

void cfi_rules_of_frame(Dwarf_Frame *frame, struct cfi_rules *out)
{
    *out = (struct cfi_rules){.usable = false};
    Dwarf_Addr start, end;
    bool signal = true;
    Dwarf_Op *ops;
    size_t nops;
    if (dwarf_frame_info(frame, &start, &end, &signal) != CFI_RA_REG || signal ||
        dwarf_frame_cfa(frame, &ops, &nops) != 0 ||
        !cfi_rules_cfa(ops, nops, &out->cfa_reg, &out->cfa_offset))
        return;
    for (int i = 0; i < CFI_RULE_REGS; i++) {
        Dwarf_Op ops_mem[3];
        if (dwarf_frame_register(frame, i, ops_mem, &ops, &nops) != 0 ||
            !cfi_rules_register(ops_mem, ops, nops, i == CFI_RA_REG, &out->kind[i],
                                &out->offset[i]))
            return;
    }
    cfi_rules_index(out);
    out->usable = true;
}

/*
 * The callee's registers stay unless a rule gives them (libunwind's
 * view); the return address is only what its rule gives. Every rule is
 * applied (in register order, the index's), the outermost frame's too, so
 * a read that fails anywhere gives the stack up as libdw would have found
 * it.
 */
static inline bool read_word(const struct cfi_stack *stack, cfi_read_fn read, void *arg,
                             uint64_t addr, uint64_t *word)
{
    if (stack && addr - stack->start < stack->limit) {
        memcpy(word, stack->bytes + (addr - stack->start), 8);
        return true;
    }
    return read(arg, addr, word);
}

enum cfi_step cfi_rules_step(const struct cfi_rules *rules, const struct cfi_regs *callee,
                             struct cfi_regs *caller, const struct cfi_stack *stack,
                             cfi_read_fn read, void *arg)
{
    if (!rules->usable || rules->cfa_reg >= CFI_RA_REG || !(callee->known & 1u << rules->cfa_reg) ||
        rules->kind[CFI_RA_REG] == CFI_KEEP || rules->nactive > CFI_RULE_REGS)
        return CFI_STEP_GIVE_UP;
    uint64_t cfa = callee->value[rules->cfa_reg] + (uint64_t)rules->cfa_offset;
    if (caller != callee)
        *caller = *callee;
    caller->known &= ~(1u << CFI_RA_REG); /* from here on only `caller` is read */
    bool outermost = false;
    for (unsigned n = 0; n < rules->nactive; n++) {
        unsigned i = rules->active[n];
        if (i >= CFI_RULE_REGS)
            return CFI_STEP_GIVE_UP;
        uint64_t at = cfa + (uint64_t)rules->offset[i];
        switch (rules->kind[i]) {
        case CFI_AT_CFA:
            if (!read_word(stack, read, arg, at, &caller->value[i]))
                return CFI_STEP_GIVE_UP;
            break;
        case CFI_VAL_CFA: caller->value[i] = at; break;
        case CFI_UNDEFINED:
            if (i != CFI_RA_REG)
                return CFI_STEP_GIVE_UP;
            outermost = true;
            continue;
        default: return CFI_STEP_GIVE_UP;
        }
        caller->known |= 1u << i;
    }
    if (outermost)
        return CFI_STEP_OUTERMOST;
    return (caller->known & 1u << CFI_RA_REG) && caller->value[CFI_RA_REG] != 0 ? CFI_STEP_CALLER
                                                                                : CFI_STEP_GIVE_UP;
}
