/*
 * trace: the executor's hook on control flow. When a machine has a
 * tracer, machine_run uses interpreter loops that report every jal and
 * jalr; without one, the plain loops run and tracing costs nothing.
 *
 * To keep the common case cheap, the loop itself skips plain jumps (rd
 * and rs1 not link registers) whose target lies in [top_lo, top_hi), the
 * function of the tracer's current frame; the tracer keeps that range up
 * to date. Everything else calls `transfer`.
 */
#ifndef EXECUTOR_TRACE_H
#define EXECUTOR_TRACE_H

#include <stdint.h>

struct flow_tracer {
    uint64_t top_lo, top_hi;
    /*
     * A jal or jalr at `pc` went to `target`. rd and rs1 are register
     * numbers (x0 is 0; rs1 is 0 for jal). `retired` counts every
     * instruction retired so far, this jump included.
     */
    void (*transfer)(struct flow_tracer *t, uint64_t pc, uint64_t target, unsigned rd,
                     unsigned rs1, uint64_t retired);
};

static inline int trace_is_link(unsigned reg)
{
    return reg == 1 || reg == 5;
}

#endif
