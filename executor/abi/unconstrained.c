/* unconstrained: SP1's and Pico's unconstrained blocks (unconstrained.h). */
#include "executor/abi/unconstrained.h"

#include "executor/abi/abi_util.h"
#include "executor/page_touch.h"

enum ecall_result unconstrained_enter(struct machine *m, struct unconstrained *u,
                                      enum fault_kind nested_kind, const char *nested_why)
{
    if (u->running)
        return abi_fault(m, nested_kind, "ENTER_UNCONSTRAINED", m->pc, nested_why);
    if (!mem_snapshot_begin(&m->mem))
        return abi_fault(m, FAULT_HOST_MEMORY, "ENTER_UNCONSTRAINED", 0,
                         "no memory for the snapshot");
    u->running = true;
    u->saved_regs = m->regs;
    u->enter_pc = m->pc;
    u->enter_clock = m->ecall_clock;
    machine_trace_mark(m);
    return ECALL_CONTINUE;
}

/*
 * As SP1's ExitUnconstrainedSyscall does: memory and every register as
 * they were at the enter, the run going on after it, whose t0 (the result
 * the caller writes after this) is then 0.
 */
enum ecall_result unconstrained_exit(struct machine *m, struct unconstrained *u)
{
    if (!u->running)
        return ECALL_CONTINUE; /* SP1 only returns 0 */
    mem_snapshot_restore(&m->mem);
    page_touch_resync(m); /* a --cost-table's paging keeps its pages' bits */
    m->regs = u->saved_regs;
    m->pc = u->enter_pc + 4;
    machine_trace_rewind(m);
    u->running = false;
    u->blocks++;
    u->instructions += m->ecall_clock - u->enter_clock;
    return ECALL_JUMP;
}

void unconstrained_report(const struct unconstrained *u, const char *zkvm, FILE *out)
{
    if (u->blocks)
        fprintf(out,
                "unconstrained: %llu blocks, %llu instructions (counted here; %s's cycle count "
                "leaves them out)\n",
                (unsigned long long)u->blocks, (unsigned long long)u->instructions, zkvm);
}
