/*
 * interp_slow: the interpreter loops' out-of-line slow paths (interp.h):
 * loads and stores the one-byte rights test did not clear, which check
 * every byte's page and name the fault; traced jumps the tracer's fast
 * paths did not take; the kind of a fetch fault; the rare A-extension
 * and CSR instructions, whole; and the hand-off of a zkVM's own
 * instructions (custom opcodes, CSR-numbered calls) and device stores to
 * its ABI. Out of line, so
 * that the handlers stay small and keep nothing for them in registers.
 */
#include <string.h>

#include "executor/interp.h"

bool interp_load_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t *out)
{
    if (!mem_range_has(&m->mem, addr, size, PAGE_R))
        return false;
    if (!mem_take_lazy(&m->mem, addr, size)) /* the next access takes the fast path */
        return false;
    if (m->pages)
        page_touch_load(m, addr, size);
    *out = 0;
    memcpy(out, mem_host(&m->mem, addr), size); /* the host is little-endian, like the guest */
    return true;
}

enum fault_kind interp_store_slow(struct machine *m, uint64_t addr, unsigned size, uint64_t value)
{
    if (!mem_range_has(&m->mem, addr, size, PAGE_W)) {
        if (m->abi && m->abi->mmio_store && m->abi->mmio_store(m, addr, size, value))
            return FAULT_NONE; /* a device of the zkVM's took it */
        /* Name the first byte's problem: mapped but not writable, or not mapped. */
        for (unsigned i = 0; i < size; i++) {
            unsigned r = mem_page_rights(&m->mem, addr + i);
            if (!(r & PAGE_W))
                return r ? FAULT_STORE_READONLY : FAULT_STORE_UNMAPPED;
        }
    }
    if (!mem_take_lazy(&m->mem, addr, size) || !mem_snapshot_note(&m->mem, addr, size))
        return FAULT_HOST_MEMORY;
    if (m->pages)
        page_touch_store(m, addr, size);
    memcpy(mem_host(&m->mem, addr), &value, size);
    code_cache_invalidate(&m->code, addr, size);
    return FAULT_NONE;
}

/* Sign-extends the low `size` bytes of v (a .W value, or a whole .D one). */
static uint64_t sext_size(uint64_t v, unsigned size)
{
    return size == 4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : v;
}

/* The new memory value of the AMO with this funct5 (the values sign-extended from `size`). */
static uint64_t amo_compute(unsigned funct5, uint64_t old, uint64_t src)
{
    switch (funct5) {
    case 0x00: return old + src;
    case 0x04: return old ^ src;
    case 0x0c: return old & src;
    case 0x08: return old | src;
    case 0x10: return (int64_t)old < (int64_t)src ? old : src;
    case 0x14: return (int64_t)old > (int64_t)src ? old : src;
    case 0x18: return old < src ? old : src;
    case 0x1c: return old > src ? old : src;
    default: return src; /* 0x01: amoswap */
    }
}

/*
 * The unsigned AMOs compare the values as unsigned `size`-byte numbers:
 * sign-extended ones compare the same way among themselves, because
 * sign extension keeps the order of both halves of the unsigned range.
 */
enum fault_kind interp_amo(struct machine *m, const struct insn *in, uint64_t *fault_addr)
{
    uint32_t w = (uint32_t)in->imm;
    unsigned funct5 = w >> 27, size = ((w >> 12) & 7) == 3 ? 8 : 4;
    uint64_t addr = machine_get_reg(m, in->rs1);
    uint64_t src = sext_size(machine_get_reg(m, in->rs2), size);
    uint64_t old = 0;
    *fault_addr = addr;
    if (addr & (size - 1))
        return FAULT_MISALIGNED_ACCESS;
    if (funct5 == 0x03) { /* sc: succeeds iff the last LR reserved this address; clears it */
        bool ok = m->reserved && m->reserved_addr == addr;
        m->reserved = false;
        if (ok) {
            enum fault_kind k = interp_store_slow(m, addr, size, src);
            if (k != FAULT_NONE)
                return k;
        }
        machine_set_reg(m, in->rd, ok ? 0 : 1);
        return FAULT_NONE;
    }
    if (!interp_load_slow(m, addr, size, &old))
        return FAULT_LOAD_UNMAPPED;
    old = sext_size(old, size);
    if (funct5 == 0x02) { /* lr */
        m->reserved = true;
        m->reserved_addr = addr;
    } else {
        enum fault_kind k = interp_store_slow(m, addr, size, amo_compute(funct5, old, src));
        if (k != FAULT_NONE)
            return k;
    }
    machine_set_reg(m, in->rd, old);
    return FAULT_NONE;
}

/* Which counter CSR `csr` is, and whether it is an RV32 upper half; false for others. */
static bool csr_counter(unsigned csr, int xlen, bool *high)
{
    unsigned base = csr & ~0x80u;
    if (base < 0xc00 || base > 0xc02)
        return false;
    *high = csr & 0x80u;
    return !*high || xlen == 32; /* the h halves exist on RV32 only */
}

bool interp_csr(struct machine *m, const struct insn *in, uint64_t instret)
{
    uint32_t w = (uint32_t)in->imm;
    unsigned funct3 = (w >> 12) & 7, csr = w >> 20, src = (w >> 15) & 0x1f;
    /* csrrs/csrrc (and their immediates) with x0 / 0 only read; csrrw always writes */
    if ((funct3 & 3) == 1 || src != 0)
        return false;
    bool high = false;
    uint64_t value;
    if (csr_counter(csr, m->xlen, &high)) /* no cycle or time model: both count instructions */
        value = high ? instret >> 32 : instret;
    else if (csr == 0xf12)
        value = m->abi ? m->abi->marchid : 0;
    else
        return false;
    machine_set_reg(m, in->rd, value);
    return true;
}

bool interp_custom(struct machine *m, uint32_t word)
{
    const struct abi *abi = m->abi;
    unsigned major = word & 0x7f, csr = word >> 20;
    bool custom = major == 0x0b || major == 0x2b || major == 0x5b || major == 0x7b ||
                  (abi && abi->extra_custom_major && major == abi->extra_custom_major);
    bool csr_call = major == 0x73 && ((word >> 12) & 3) != 0 && abi && csr >= abi->custom_csr_lo &&
                    csr < abi->custom_csr_hi;
    if (!(custom || csr_call) || !abi || !abi->custom_insn)
        return false;
    m->custom_word = word;
    return true;
}

/* The kind of a jump operation (the decoder split jal and jalr by their link registers). */
static enum trace_kind jump_kind(unsigned op)
{
    switch (op & ~INSN_PAGE_MARK) {
    case OP_JAL_CALL:
    case OP_JALR_CALL:
    case OP_C_JAL_CALL:
    case OP_C_JALR_CALL: return TRACE_KIND_CALL;
    case OP_JALR_RET:
    case OP_C_JALR_RET: return TRACE_KIND_RETURN;
    case OP_JALR_RETCALL:
    case OP_C_JALR_RETCALL: return TRACE_KIND_RETURN_CALL;
    default: return TRACE_KIND_JUMP;
    }
}

struct trace_frame *interp_trace_slow(struct flow_tracer *t, struct trace_frame *top,
                                      const struct insn *at, uint64_t pc, uint64_t target,
                                      uintptr_t ret_at, uint64_t now)
{
    unsigned len = insn_op_length(at->op);
    t->top = top;
    t->transfer(t, jump_kind(at->op), pc, len, target, now);
    if (t->top->ret == pc + len) /* pushed for this call (or one at pc before): as trace_enter */
        t->top->ret_at = ret_at;
    return t->top;
}

enum fault_kind interp_fetch_fault_kind(const struct guest_memory *mem, uint64_t target)
{
    return mem_page_rights(mem, target) ? FAULT_FETCH_NOT_EXECUTABLE : FAULT_FETCH_UNMAPPED;
}
