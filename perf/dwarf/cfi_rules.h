/*
 * cfi_rules: one pc's CFI row (libdw's Dwarf_Frame) kept in the few
 * forms x86_64 code uses (the CFA a register plus an offset; each
 * register kept, saved at CFA + N, or CFA + N itself), and one caller
 * computed from them, as perf's libunwind has it: a register the row
 * does not give keeps its value in the caller (docs/PERF.md, "DWARF
 * unwinding"). perf/dwarf/unwind_dwarf.c keeps these per pc, so a frame costs a
 * look-up and a few reads instead of libdw interpreting the CFI again;
 * what these rules cannot express (DWARF expressions, register-to-register
 * rules, signal frames) is not usable, and such stacks go to libdw.
 */
#ifndef PERF_CFI_RULES_H
#define PERF_CFI_RULES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CFI_RULE_REGS 17 /* x86_64's DWARF registers rax .. r15, rip (the return address) */
#define CFI_RA_REG    16

enum cfi_reg_rule {
    CFI_KEEP,      /* same value, unspecified, undefined: the caller keeps the callee's */
    CFI_AT_CFA,    /* saved at CFA + offset */
    CFI_VAL_CFA,   /* the value CFA + offset */
    CFI_UNDEFINED, /* the return address only: the outermost frame */
};

struct cfi_rules {
    bool usable; /* false: something these rules cannot express */
    uint8_t cfa_reg;
    int64_t cfa_offset;
    uint8_t kind[CFI_RULE_REGS]; /* enum cfi_reg_rule */
    int64_t offset[CFI_RULE_REGS];
    uint8_t nactive; /* the registers whose kind is not CFI_KEEP (cfi_rules_index) */
    uint8_t active[CFI_RULE_REGS];
};

/* One frame's registers; bit i of `known` says value[i] is. */
struct cfi_regs {
    uint64_t value[CFI_RULE_REGS];
    uint32_t known;
};

/* Reads the 8-byte word at `addr`; false: the word is not one to trust (the caller's way). */
typedef bool (*cfi_read_fn)(void *arg, uint64_t addr, uint64_t *word);

/*
 * The stack copy, read without the callback: the word at `addr` is
 * bytes[addr - start] when addr - start < limit (limit + 8 bytes at
 * least); other words are the callback's.
 */
struct cfi_stack {
    uint64_t start;
    const uint8_t *bytes;
    uint64_t limit;
};

enum cfi_step {
    CFI_STEP_CALLER,    /* *caller holds the caller's registers, its return address in rip */
    CFI_STEP_OUTERMOST, /* the return address is undefined: the stack ends here */
    CFI_STEP_GIVE_UP,   /* a read failed, a register is unknown, the rules are not usable */
};

/*
 * The CFA from dwarf_frame_cfa's expression: true when it is a register
 * (0..15) plus an offset (DW_OP_bregN or DW_OP_bregx).
 */
bool cfi_rules_cfa(const Dwarf_Op *ops, size_t nops, uint8_t *reg, int64_t *offset);

/*
 * One register's rule from dwarf_frame_register's answer (`ops_mem` the
 * array it was given). False when it is none of enum cfi_reg_rule's forms.
 */
bool cfi_rules_register(const Dwarf_Op *ops_mem, const Dwarf_Op *ops, size_t nops, bool is_ra,
                        uint8_t *kind, int64_t *offset);

/* Lists the registers a step changes; after `kind` is set or changed. */
void cfi_rules_index(struct cfi_rules *rules);

/* The rules of a CFI row (not freed here), indexed; `usable` false when they cannot be kept. */
void cfi_rules_of_frame(Dwarf_Frame *frame, struct cfi_rules *out);

/*
 * The caller of the frame with registers `callee` under (indexed) `rules`;
 * `caller` may be `callee` (stepped in place; on CFI_STEP_GIVE_UP partly changed).
 * Memory: `stack` (NULL: none), then `read`.
 */
enum cfi_step cfi_rules_step(const struct cfi_rules *rules, const struct cfi_regs *callee,
                             struct cfi_regs *caller, const struct cfi_stack *stack,
                             cfi_read_fn read, void *arg);

#endif
