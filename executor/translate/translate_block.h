/*
 * translate_block: one basic block of decoded RISC-V instructions (code
 * cache entries) into x86-64 host code. Internal to executor/translate/.
 *
 * The host code is a function of the System V ABI,
 *     struct translate_exit block(void *regs, uint8_t *mem, uint8_t *rights,
 *                                 uint64_t left, struct translate_hooks *hooks);
 * regs: the machine's register file; mem: guest address 0 in the host;
 * rights: the rights table (memory.h); left: the budget, at least one
 * pass (a block that branches back to its start runs passes while the
 * budget holds one more, and counts them all). It runs the block's instructions
 * as the interpreter would, and returns the code cache entry to go on at
 * and how many instructions retired: all of them at the end (the branch's
 * target, the entry after it, a return's or call's target), or those
 * before an instruction it leaves to the interpreter, which then runs it
 * itself, slow path, faults and all: a load or store whose access is not
 * the interpreter's fast case (its rights byte lacks the FAST bit, or it is
 * outside the window, or misaligned in an aligned form), a call the
 * tracer's fast paths do not take, a jump out of the top frame's function.
 * An exit to an entry whose block fits runs on into that block, which
 * returns for both (hooks->chained holds what the first retired).
 */
#ifndef EXECUTOR_TRANSLATE_TRANSLATE_BLOCK_H
#define EXECUTOR_TRANSLATE_TRANSLATE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executor/decode.h"
#include "executor/translate/translate.h"
#include "executor/translate/x86_emit.h"

/* The longest block, in instructions. */
#define TRANSLATE_BLOCK_MAX 128

/*
 * The operation an entry's op (page mark and all) runs: a compressed one
 * (decode.h, RVC_OPS) is the 32-bit operation it expands to, with the same
 * fields; only its length differs (insn_op_length). The far forms stay
 * themselves: the tier does not translate them.
 */
static inline unsigned translate_base_op(unsigned op)
{
    switch (op & (INSN_PAGE_MARK - 1)) {
    case OP_C_ADDI: return OP_ADDI;
    case OP_C_ADDIW: return OP_ADDIW;
    case OP_C_LUI: return OP_LUI;
    case OP_C_SLLI: return OP_SLLI;
    case OP_C_SRLI: return OP_SRLI;
    case OP_C_SRAI: return OP_SRAI;
    case OP_C_ANDI: return OP_ANDI;
    case OP_C_ADD: return OP_ADD;
    case OP_C_SUB: return OP_SUB;
    case OP_C_XOR: return OP_XOR;
    case OP_C_OR: return OP_OR;
    case OP_C_AND: return OP_AND;
    case OP_C_ADDW: return OP_ADDW;
    case OP_C_SUBW: return OP_SUBW;
    case OP_C_LW: return OP_LW;
    case OP_C_LD: return OP_LD;
    case OP_C_SW: return OP_SW;
    case OP_C_SD: return OP_SD;
    case OP_C_LW_A: return OP_LW_A;
    case OP_C_LD_A: return OP_LD_A;
    case OP_C_SW_A: return OP_SW_A;
    case OP_C_SD_A: return OP_SD_A;
    case OP_C_BEQ: return OP_BEQ;
    case OP_C_BNE: return OP_BNE;
    case OP_C_JAL: return OP_JAL;
    case OP_C_JAL_CALL: return OP_JAL_CALL;
    case OP_C_JALR: return OP_JALR;
    case OP_C_JALR_CALL: return OP_JALR_CALL;
    case OP_C_JALR_RET: return OP_JALR_RET;
    case OP_C_JALR_RETCALL: return OP_JALR_RETCALL;
    default: return op & (INSN_PAGE_MARK - 1);
    }
}

/* The bytes of the instruction in entry `in` (2 for a compressed one). */
static inline unsigned translate_insn_length(const struct insn *in)
{
    return insn_op_length(in->op & (INSN_PAGE_MARK - 1));
}

/* Whether the operation ends a block (a conditional branch: both ways leave it). */
static inline bool translate_op_ends_block(unsigned op)
{
    switch (translate_base_op(op)) {
    case OP_BEQ:
    case OP_BNE:
    case OP_BLT:
    case OP_BGE:
    case OP_BLTU:
    case OP_BGEU: return true;
    default: return false;
    }
}

/* Whether the operation is a near jal that is not a call (a jump the block may follow). */
static inline bool translate_op_is_jal(unsigned op)
{
    return translate_base_op(op) == OP_JAL;
}

/* Whether the operation is a jump, call or return a block may follow (jal, jal to a link, jalr
 * through one). */
static inline bool translate_op_leaves(unsigned op)
{
    unsigned o = translate_base_op(op);
    return o == OP_JAL || o == OP_JAL_CALL || o == OP_JALR_RET;
}

/*
 * Whether the operation ends a block where it stands, going on wherever
 * its target register says (a return, a call through a register, or a
 * jump through one: a jump table's): its block leaves for the entry of
 * that address.
 */
static inline bool translate_op_jumps_out(unsigned op)
{
    unsigned o = translate_base_op(op);
    return o == OP_JALR_RET || o == OP_JALR_CALL || o == OP_JALR;
}

/* Whether `in`, an entry of the block starting at `start`, is a branch or jal back to it. */
static inline bool translate_loops_back(const struct insn *in, const struct insn *start)
{
    return (translate_op_ends_block(in->op) || translate_op_is_jal(in->op)) &&
           in + in->imm == start;
}

/* The position of entry `e` among a block's n entries at[] (in the order they run), or n. */
static inline size_t translate_path_index(const struct insn *const *at, size_t n,
                                          const struct insn *e)
{
    size_t k = 0;
    while (k < n && at[k] != e)
        k++;
    return k;
}

/* The position of the block's first branch or jal back to its start, or -1. */
static inline ptrdiff_t translate_loop_branch(const struct insn *const *at, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (translate_loops_back(at[k], at[0]))
            return (ptrdiff_t)k;
    return -1;
}

/* The calls among a block's first n entries that have not returned among them. */
static inline size_t translate_calls_open(const struct insn *const *at, size_t n)
{
    size_t open = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned o = translate_base_op(at[k]->op);
        if (o == OP_JAL_CALL)
            open++;
        else if (o == OP_JALR_RET && open > 0)
            open--;
    }
    return open;
}

/* Whether a block can hold the operation (page mark cleared) on a hart of `xlen`. */
bool translate_op_supported(unsigned op, int xlen);

/*
 * Writes the block of the `n` decoded entries at[0..n) into `b`, in the
 * order they run (every operation supported, or a call or return whose
 * target comes next; a jal only where its target comes next, or last,
 * back to at[0]; last, a return, or a call or jump through a register, which leaves
 * for the code cache entry of its target, `cc`'s), at[i]'s guest pc
 * pcs[i]; traced (`mode`), its calls and
 * returns move the tracer's top frame (struct translate_hooks). An exit
 * runs on into the block at its entry, when one is translated and fits
 * (the entry's translate_slot lies `slot_delta` bytes from it). False
 * when `b` filled up.
 */
bool translate_emit(struct x86_buf *b, const struct insn *const *at, const uint64_t *pcs, size_t n,
                    int xlen, struct translate_mode mode, const struct code_cache *cc,
                    intptr_t slot_delta, struct trace_link *sites);

/*
 * Site caches. A traced call or tail call that the tracer's first fast
 * path misses (the slot above the top frame was set up for another node:
 * a caller that calls two functions in turn) finds its node in its site's
 * cache, a copy of the link the tracer's second path took there last: a
 * call at a fixed pc to a target from a frame of one node always leads to
 * one link (and a tail call from a frame whose node has one parent), and
 * links never change. The block relinks the slot from the copy itself
 * (trace_slot_relink), and calls the second path in C (translate_trace_call,
 * translate_trace_tail), which fills the cache, only when the copy is of
 * another caller. translate_site_count(at, n, mode) is how many caches
 * the block's jals and calls need, in the order they run (0 outside traced
 * modes, and in cost mode, whose relinks the C path keeps); translate_emit
 * takes them, empty (key UINT64_MAX, parent and caller UINT32_MAX), as
 * `sites`.
 */
static inline size_t translate_site_count(const struct insn *const *at, size_t n,
                                          struct translate_mode mode)
{
    size_t count = 0;
    for (size_t i = 0; mode.traced && !mode.cost && i < n; i++) {
        unsigned op = translate_base_op(at[i]->op);
        count += op == OP_JAL || op == OP_JAL_CALL || op == OP_JALR_CALL;
    }
    return count;
}

#endif
