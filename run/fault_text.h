/*
 * fault_text: what a run that stopped says about where and why: a guest
 * fault in one line (its kind, the place by function, what the ABI makes
 * of it, the instructions retired), and the function at a pc.
 */
#ifndef RUN_FAULT_TEXT_H
#define RUN_FAULT_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct run; /* run/run.h */

/*
 * "guest fault: illegal instruction 0x00000000 at pc 0x... in main, after
 * 12 instructions" (docs/CONTRACT.md#5-exit-statuses), for r->m.fault.
 */
void run_fault_text(const struct run *r, char *buf, size_t size);

/* " in NAME" (demangled) when a symbol covers `pc`, else "": for a message after the pc. */
const char *run_function_at(const struct run *r, uint64_t pc, char *buf, size_t size);

/*
 * Why a guest built with C cannot run as it is under a zkVM whose hart has
 * none (abi->without_c), and what to do: ": sp1's executor runs RV32IM, ...".
 */
void run_missing_c_reason(const char *abi, int xlen, char *reason, size_t size);

#endif
