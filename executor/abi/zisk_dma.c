/*
 * zisk_dma: ZisK's DMA calls, read from 0xPolygonHermez/zisk: the
 * transpiler's patterns (core/src/riscv2zisk_context.rs, the version with
 * transpile_dma_{memcpy_memcmp,inputcpy,memset}_pattern and the ids of
 * zisk_definitions), the emulator's operations (core/src/operations/
 * dma_memcmp.rs, dma_inputcpy.rs, dma_memset.rs at 129c38f9; Mem::memcpy,
 * memcmp, memset in core/src/mem.rs at 001986ec) and what ziskos emits
 * (ziskos/entrypoint/src/dma/ (the .s files), dma.rs at 6b0a03eb). Docs: docs/ZKVMS.md.
 *
 * A call is a CSR instruction and the marker after it, which carries the
 * other operands. Later ziskos (its `inputcpy` in the ELF; memcpy.s at
 * 40e35b35, memmove.s and inputcpy.s at aacf0a73, memcmp.s at 38e3ebd7,
 * memset.s at a857486a):
 *   memcpy   csrs 0x813, SRC ; add x0, DST, COUNT  or  addi x0, DST, count
 *   memcmp   csrs 0x814, SRC (or csrrs RES, 0x814, SRC) ; add RES', DST, COUNT
 *            or addi RES', DST, count: RES (else RES') = the first differing
 *            byte of DST less SRC's, sign-extended (Mem::memcmp), or 0
 *   inputcpy csrs 0x815, any ; add RD, DST, COUNT  or  addi RD, DST, count:
 *            COUNT bytes (a multiple of 8) of the last free call's result
 *            words not read yet, as `csrr 0xFFE` would read them; RD = DST
 *   memset   csrs 0x816, DST ; addi RD, COUNT, byte  or  csrsi 0x816, 2 ;
 *            addi RD, DST, count ; addi x0, DST, byte; RD = DST
 * Earlier ziskos (syscall.rs at adf7566d: 0x813 and 0x814 alone; memcpy.s
 * there, memcmp.s at 3e166885): csrs 0x81x, COUNT ; add RES, DST, SRC.
 * memcpy copies as memmove does (Mem::memcpy takes overlapping ranges).
 *
 * Steps: memcpy's and memcmp's `add x0` marker retires as an instruction
 * of its own after the call (ZisK runs two steps: the count to its
 * parameter slot, then the call on the marker); any other marker is part
 * of the call (ZisK's one step that jumps past it), but for memcmp's
 * `add RES', ...` (one step here, two in ZisK). A range outside ZisK's
 * memory, a marker not of these forms (ZisK's transpiler panics on them)
 * and a copy past the free call's results (ZisK's emulator panics) are
 * faults.
 */
#include "executor/abi/zisk_dma.h"

#include "executor/abi/abi_util.h"

/* A CSR instruction's or a marker's fields, and which marker it is. */
struct insn_fields {
    struct abi_insn f;
    bool add, addi;
};

/* The call at m->pc: its name, its CSR instruction and its first marker. */
struct dma {
    struct machine *m;
    const char *name;
    struct insn_fields csr, marker;
};

static struct insn_fields decode(uint32_t w)
{
    struct abi_insn f = abi_insn_fields(w);
    return (struct insn_fields){.f = f,
                                .add = f.opcode == 0x33 && f.funct3 == 0 && f.funct7 == 0,
                                .addi = f.opcode == 0x13 && f.funct3 == 0};
}

/* The instruction at `at`; false when it is not in memory. */
static bool load_insn(const struct machine *m, uint64_t at, struct insn_fields *out)
{
    uint32_t w;
    if (!abi_load(m, at, &w, sizeof(w)))
        return false;
    *out = decode(w);
    return true;
}

static enum ecall_result bad(struct dma *d, uint64_t addr, const char *why)
{
    return abi_fault(d->m, FAULT_ECALL_ARGUMENT, d->name, addr, why);
}

#define NEGATIVE_COUNT "the marker's count is negative"

static enum ecall_result bad_marker(struct dma *d, const char *why)
{
    return bad(d, d->m->pc + 4, why);
}

static uint64_t reg(const struct dma *d, unsigned r)
{
    return machine_get_reg(d->m, r);
}

/*
 * The run goes on after the call `skip` bytes on, past its markers; or,
 * for memcpy and memcmp with an add x0 marker (`split`), at the marker,
 * which then retires on its own, with no effect.
 */
static enum ecall_result resume(struct dma *d, bool split, unsigned skip)
{
    if (split && d->marker.add && d->marker.f.rd == 0)
        return ECALL_CONTINUE;
    d->m->pc += skip;
    return ECALL_JUMP;
}

/* The count a marker carries: add's rs2, addi's immediate; false for a negative immediate. */
static bool marker_count(const struct dma *d, uint64_t *count)
{
    *count = d->marker.add ? reg(d, d->marker.f.rs2) : (uint64_t)d->marker.f.imm;
    return d->marker.add || d->marker.f.imm >= 0;
}

/*
 * memcpy's and memcmp's source and count: the CSR instruction's rs1 and
 * the marker's count, the other way round for earlier ziskos (csrs 0x81x,
 * COUNT ; add RES, DST, SRC). False for a negative immediate.
 */
static bool source_and_count(const struct dma *d, bool later, uint64_t *src, uint64_t *count)
{
    *src = reg(d, d->csr.f.rs1);
    if (!marker_count(d, count))
        return false;
    if (!later) {
        uint64_t t = *src;
        *src = *count;
        *count = t;
    }
    return true;
}

static enum ecall_result dma_memcpy(struct dma *d, bool later)
{
    uint64_t dst = reg(d, d->marker.f.rs1), src, count;
    if (d->marker.f.rd != 0)
        return bad_marker(d, "the marker writes a register (ziskos's is add x0 or addi x0)");
    if (!source_and_count(d, later, &src, &count))
        return bad_marker(d, NEGATIVE_COUNT);
    if (!abi_view(d->m, src, count))
        return bad(d, src, "the source is not in memory");
    if (!abi_move(d->m, dst, src, count))
        return bad(d, dst, "the destination is not writable memory");
    return resume(d, true, 8);
}

static enum ecall_result dma_memcmp(struct dma *d, bool later)
{
    uint64_t a = reg(d, d->marker.f.rs1), b, count;
    if (d->csr.f.rd != 0 && d->marker.f.rd != 0)
        return bad_marker(d, "both the csrrs and its marker name a result register");
    if (!source_and_count(d, later, &b, &count))
        return bad_marker(d, NEGATIVE_COUNT);
    const uint8_t *pa = abi_view(d->m, a, count), *pb = abi_view(d->m, b, count);
    if (!pa || !pb)
        return bad(d, pa ? b : a, "a compared range is not in memory");
    uint64_t result = 0;
    for (uint64_t i = 0; i < count && !result; i++)
        result = (uint64_t)((int64_t)pa[i] - (int64_t)pb[i]);
    machine_set_reg(d->m, d->csr.f.rd ? d->csr.f.rd : d->marker.f.rd, result);
    return resume(d, true, 8);
}

static enum ecall_result dma_inputcpy(struct dma *d, struct zisk_fcalls *fc)
{
    uint64_t dst = reg(d, d->marker.f.rs1), count;
    if (!marker_count(d, &count))
        return bad_marker(d, NEGATIVE_COUNT);
    if (fc->nresults == 0)
        return bad(d, count, "no free call has given result words to copy");
    if (count % 8)
        return bad(d, count, "the count is not a multiple of 8 (result words)");
    if (count / 8 > fc->nresults - fc->next_result)
        return bad(d, count, "more bytes than the last free call's result words left");
    if (!abi_store(d->m, dst, fc->results + fc->next_result, count))
        return bad(d, dst, "the destination is not writable memory");
    fc->next_result += count / 8;
    machine_set_reg(d->m, d->marker.f.rd, dst);
    return resume(d, false, 8);
}

/*
 * csrs 0x816, DST ; addi RD, COUNT, byte, or csrsi 0x816, 2 ; addi RD,
 * DST, count ; addi x0, DST, byte (its `fill` marker).
 */
static enum ecall_result dma_memset(struct dma *d)
{
    bool immediate = d->csr.f.funct3 & 4;
    struct insn_fields fill = d->marker;
    uint64_t dst = reg(d, d->csr.f.rs1), count = reg(d, d->marker.f.rs1);
    if (!d->marker.addi)
        return bad_marker(d, "the marker is not an addi (ziskos's memset marker)");
    if (immediate) {
        if (d->csr.f.rs1 != 2)
            return bad(d, d->csr.f.rs1, "csrsi 0x816 takes 2 (two addi markers follow)");
        if (!load_insn(d->m, d->m->pc + 8, &fill) || !fill.addi)
            return bad(d, d->m->pc + 8, "the second marker is not an addi");
        dst = reg(d, d->marker.f.rs1);
        if (!marker_count(d, &count))
            return bad_marker(d, NEGATIVE_COUNT);
    }
    if (fill.f.imm < 0 || fill.f.imm > 0xff)
        return bad(d, (uint64_t)fill.f.imm, "the fill byte is not 0 to 255");
    if (!abi_fill(d->m, dst, (uint8_t)fill.f.imm, count))
        return bad(d, dst, "the destination is not writable memory");
    machine_set_reg(d->m, d->marker.f.rd, dst);
    return resume(d, false, immediate ? 12 : 8);
}

static const char *const dma_names[] = {"dma_memcpy", "dma_memcmp", "dma_inputcpy", "dma_memset"};

/* The CSR instruction's own form: csrs (csrrs with rd x0 but memcmp's), or memset's csrsi. */
static const char *csr_form_error(const struct dma *d, enum zisk_dma_call dma, bool later)
{
    if (d->csr.f.funct3 == 6 && dma == ZISK_DMA_MEMSET && d->csr.f.rd == 0)
        return NULL;
    if (d->csr.f.funct3 != 2)
        return "a DMA call is csrs CSR, rs1 (csrsi 0x816, 2 for memset)";
    if (d->csr.f.rd != 0 && (dma != ZISK_DMA_MEMCMP || !later))
        return "the CSR instruction writes a register (only later ziskos's memcmp does)";
    return NULL;
}

enum ecall_result zisk_dma(struct machine *m, enum zisk_dma_call dma, bool later, uint32_t w,
                           struct zisk_fcalls *fc, const char **call)
{
    struct dma d = {.m = m, .name = dma_names[dma], .csr = decode(w)};
    *call = d.name;
    const char *why = csr_form_error(&d, dma, later);
    if (why)
        return bad(&d, w >> 20, why);
    if (!load_insn(m, m->pc + 4, &d.marker) || !(d.marker.add || (later && d.marker.addi)))
        return bad_marker(&d, later ? "the next instruction is not its add or addi marker"
                                    : "the next instruction is not its add marker");
    switch (dma) {
    case ZISK_DMA_MEMCPY: return dma_memcpy(&d, later);
    case ZISK_DMA_MEMCMP: return dma_memcmp(&d, later);
    case ZISK_DMA_INPUTCPY: return dma_inputcpy(&d, fc);
    case ZISK_DMA_MEMSET: return dma_memset(&d);
    }
    return bad(&d, dma, "no such DMA call");
}
