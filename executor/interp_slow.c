/*
 * interp_slow: the interpreter loops' out-of-line slow paths (interp.h):
 * loads and stores the one-byte rights test did not clear, which check
 * every byte's page and name the fault; traced jumps the tracer's fast
 * paths did not take; and the kind of a fetch fault. Out of line, so
 * that the handlers stay small and keep nothing for them in registers.
 */
#include <string.h>

#include "executor/interp.h"

bool interp_load_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t *out)
{
    if (!mem_range_has(&m->mem, addr, size, PAGE_R))
        return false;
    *out = 0;
    memcpy(out, mem_host(&m->mem, addr), size); /* the host is little-endian, like the guest */
    return true;
}

enum fault_kind interp_store_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t value)
{
    if (!mem_range_has(&m->mem, addr, size, PAGE_W)) {
        /* Name the first byte's problem: mapped but not writable, or not mapped. */
        for (unsigned i = 0; i < size; i++) {
            unsigned r = mem_page_rights(&m->mem, addr + i);
            if (!(r & PAGE_W))
                return r ? FAULT_STORE_READONLY : FAULT_STORE_UNMAPPED;
        }
    }
    if (!mem_snapshot_note(&m->mem, addr, size))
        return FAULT_HOST_MEMORY;
    memcpy(mem_host(&m->mem, addr), &value, size);
    code_cache_invalidate(&m->code, addr, size);
    return FAULT_NONE;
}

/* The kind of a jump operation (the decoder split jal and jalr by their link registers). */
static enum trace_kind jump_kind(unsigned op)
{
    switch (op & ~INSN_PAGE_MARK) {
    case OP_JAL_CALL:
    case OP_JALR_CALL: return TRACE_KIND_CALL;
    case OP_JALR_RET: return TRACE_KIND_RETURN;
    case OP_JALR_RETCALL: return TRACE_KIND_RETURN_CALL;
    default: return TRACE_KIND_JUMP;
    }
}

struct trace_frame *interp_trace_slow(struct flow_tracer *t, struct trace_frame *top,
                                      const struct insn *at, uint64_t pc, uint64_t target,
                                      uint64_t now)
{
    t->top = top;
    t->transfer(t, jump_kind(at->op), pc, target, now);
    if (t->top->ret == pc + 4) /* pushed for this call (or one at pc before): as trace_enter */
        t->top->ret_at = (uintptr_t)(at + 1);
    return t->top;
}

enum fault_kind interp_fetch_fault_kind(const struct guest_memory *mem, uint64_t target)
{
    return mem_page_rights(mem, target) ? FAULT_FETCH_NOT_EXECUTABLE : FAULT_FETCH_UNMAPPED;
}
