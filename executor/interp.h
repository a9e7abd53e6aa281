/*
 * interp: what the two interpreter loops (interp_rv32.c, interp_rv64.c)
 * share: their entry points and the out-of-line slow paths they call.
 * Internal to the executor; users call machine_run().
 */
#ifndef EXECUTOR_INTERP_H
#define EXECUTOR_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/machine.h"
#include "executor/page_touch.h"
#include "executor/translate/translate.h"

/*
 * The fast loops stop with STOP_BUDGET once fewer than this many
 * instructions of their budget are left (never overrunning it); the
 * _precise loops run any budget exactly.
 */
#define INTERP_SOFT_MARGIN 4096

/* A fast loop runs at most this many instructions per call (machine_run calls again). */
#define INTERP_FAST_BUDGET_MAX ((uint64_t)1 << 40)

/* The fast loops, traced when the machine has a tracer. */
enum stop_reason interp_run_rv32(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64(struct machine *m, uint64_t budget);
/* The fast loops of a tracer in per-pc mode (executor/trace.h: runs), always traced. */
enum stop_reason interp_run_rv32_runs(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64_runs(struct machine *m, uint64_t budget);
/*
 * The loops of a tracer in cost mode (executor/trace.h: cost clock), harts
 * without C: the per-pc ones, and the fast ones for a tracer not in per-pc mode.
 */
enum stop_reason interp_run_rv32_cost(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64_cost(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32_cost_fast(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64_cost_fast(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32_traced_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64_traced_precise(struct machine *m, uint64_t budget);
/* The same four loops for a hart with C (interp_rv32c.c, interp_rv64c.c: 2-byte slots). */
enum stop_reason interp_run_rv32c(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64c(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32c_runs(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64c_runs(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32c_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64c_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv32c_traced_precise(struct machine *m, uint64_t budget);
enum stop_reason interp_run_rv64c_traced_precise(struct machine *m, uint64_t budget);

/*
 * A load that is not the fast case (crosses a page, or may be unmapped):
 * the `size` bytes at addr, zero-extended into *out, or false for a fault.
 */
bool interp_load_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t *out);

/* A store of value's low `size` bytes that is not the fast case; drops code it overwrites. */
enum fault_kind interp_store_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t value);

/*
 * The A-extension instruction `in` (OP_AMO: LR, SC or an AMO, .W or .D)
 * for this one hart, whatever the XLEN. Returns FAULT_NONE, or the fault
 * with its address in *fault_addr, in which case no register or memory
 * changed: a misaligned address, or one its page rights refuse (checked
 * as interp_load_slow and interp_store_slow do).
 */
enum fault_kind interp_amo(struct machine *m, const struct insn *in, uint64_t *fault_addr);

/*
 * The Zicsr instruction `in` (OP_CSR): true when it is a read of a CSR
 * this executor has (cycle, time, instret: `instret`, the instructions
 * retired before this one, with their RV32 h halves; marchid: the ABI's),
 * written to rd; false, with nothing written, for any other CSR or any
 * write (docs/CONTRACT.md#1-guest-programs).
 */
bool interp_csr(struct machine *m, const struct insn *in, uint64_t instret);

/*
 * An illegal word, or a CSR access interp_csr refused, that the ABI takes
 * as its own instruction (a custom-0..3 opcode, or a CSR in the ABI's
 * custom_csr range; abi->custom_insn): notes it for machine_ecall and
 * returns true, and the loop runs it as an ecall. False: it faults as before.
 */
bool interp_custom(struct machine *m, uint32_t word);

/*
 * A traced jump that the tracer's fast paths did not take: the jal or
 * jalr whose predecoded entry is `at`, at `pc`, went to `target`. Reports
 * it, with the kind and length its operation says, to `t` with the clock
 * `now`, after storing `top`, notes `ret_at` (the entry after `at`) in a
 * frame pushed for it (see trace_enter), and returns the tracer's top
 * frame after it. Out of line, so that the traced handlers keep nothing
 * for it in registers.
 */
struct trace_frame *interp_trace_slow(struct flow_tracer *t, struct trace_frame *top,
                                      const struct insn *at, uint64_t pc, uint64_t target,
                                      uintptr_t ret_at, uint64_t now);

/* Why a jump to `target` (outside the code span) cannot fetch there. */
enum fault_kind interp_fetch_fault_kind(const struct guest_memory *mem, uint64_t target);

/* The condition of a branch with this funct3; `slt` is the signed a < b. */
static inline bool interp_branch_taken(unsigned funct3, uint64_t a, uint64_t b, bool slt)
{
    switch (funct3) {
    case 0: return a == b;
    case 1: return a != b;
    case 4: return slt;
    case 5: return !slt;
    case 6: return a < b;
    default: return a >= b;
    }
}

#endif
