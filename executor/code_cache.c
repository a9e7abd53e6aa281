/*
 * code_cache: predecoded instructions and the choice of each one's handler
 * (see code_cache.h).
 */
#include "executor/code_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "executor/memory.h"

static size_t entry_count(const struct code_cache *cc)
{
    return cc->bytes / sizeof(struct insn);
}

/*
 * The addresses that can hold code: every executable segment's bytes from
 * the file. The zero-filled rest of a segment (p_memsz past p_filesz, such
 * as Airbender's 64 MiB stack inside its text segment) holds none: the
 * program is decoded once, so a fetch there could only ever find zeros,
 * and leaving it out spares decoding and binding an entry per word of it.
 */
static void code_span(const struct elf_image *img, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        uint64_t end = s->vaddr + (s->filesz < s->memsz ? s->filesz : s->memsz);
        if (!(s->rights & SEG_X) || end == s->vaddr)
            continue;
        if (s->vaddr < *lo)
            *lo = s->vaddr;
        if (end > *hi)
            *hi = end;
    }
    if (*hi == 0) /* no code in the file at all: an empty cache at the first executable segment */
        elf_image_exec_span(img, lo, hi), *hi = *lo;
}

/* The cache spans the code (code_span); gaps decode as faults. */
int code_cache_init(struct code_cache *cc, const struct elf_image *img, struct error *e)
{
    memset(cc, 0, sizeof(*cc));
    uint64_t lo, hi;
    code_span(img, &lo, &hi);
    cc->lo = guest_page_floor(lo);
    cc->span = guest_page_ceil(hi) - cc->lo;
    if (cc->span > CODE_SPAN_LARGE + 2 * GUEST_PAGE_SIZE) {
        error_fail(e, ERROR_UNSUPPORTED, "the executable segments span more than %llu MiB",
                   (unsigned long long)(CODE_SPAN_LARGE >> 20));
        return -1;
    }
    /* One entry per slot, plus one past the end that decodes as a fault. */
    cc->slot_shift = img->rvc ? 1 : 2;
    cc->bytes = ((cc->span >> cc->slot_shift) + 1) * sizeof(struct insn);
    /*
     * Without C, the cost clock's sums get their place CODE_COST_OFFSET
     * above the entries now, unusable until code_cache_set_costs.
     */
    cc->mapped = cc->slot_shift == 2 ? CODE_COST_OFFSET + cc->bytes : cc->bytes;
    void *p = mmap(NULL, cc->mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED || mprotect(p, cc->bytes, PROT_READ | PROT_WRITE) != 0) {
        error_fail_errno(e, ERROR_NO_MEMORY, errno, "cannot allocate the code cache");
        if (p != MAP_FAILED)
            munmap(p, cc->mapped);
        return -1;
    }
    cc->insns = p; /* zero-filled: every entry is OP_DECODE, not yet bound */
    cc->end = cc->insns + (cc->span >> cc->slot_shift);
    /* 16-byte entries: an entry's address >> (4 - slot_shift) is its pc less the bias */
    cc->pc_bias = cc->lo - ((uintptr_t)cc->insns >> (4 - cc->slot_shift));
    return 0;
}

void code_cache_destroy(struct code_cache *cc)
{
    if (cc->insns)
        munmap(cc->insns, cc->mapped);
    free(cc->runs);
    memset(cc, 0, sizeof(*cc));
}

bool code_cache_set_costs(struct code_cache *cc, code_entry_ticks ticks, void *ctx)
{
    _Static_assert(sizeof(struct code_cost) == sizeof(struct insn), "the offset scales with ip");
    _Static_assert(CODE_COST_OFFSET >= ((CODE_SPAN_MAX + 2 * GUEST_PAGE_SIZE) / 4 + 1) * 16,
                   "the sums lie above the entries of the widest span");
    size_t n = entry_count(cc);
    struct code_cost *c = (struct code_cost *)((uint8_t *)cc->insns + CODE_COST_OFFSET);
    /* a span wider than CODE_SPAN_MAX (an ABI's code_span_max) has no room for the sums */
    if (cc->slot_shift != 2 || cc->span > CODE_SPAN_MAX + 2 * GUEST_PAGE_SIZE ||
        (!cc->costs && mprotect(c, cc->bytes, PROT_READ | PROT_WRITE)))
        return false;
    uint64_t sum = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        c[i].before = sum;
        sum += ticks(ctx, i);
        c[i].through = sum;
    }
    c[n - 1] = (struct code_cost){sum, sum};
    cc->costs = c;
    return true;
}

/* How many entries the instruction of entry `in` spans (the next one follows them). */
static size_t entry_slots(const struct code_cache *cc, const struct insn *in)
{
    return insn_op_length(in->op) >> cc->slot_shift;
}

/*
 * Whether entry i may run without run hooks: it calls none, or it is a
 * near branch or jal and every entry from it to its target (an entry
 * count away: code_cache_fill) lies in functions that keep no runs (see
 * code_cache_note_runs).
 */
static bool runs_unhooked(const struct code_cache *cc, size_t i)
{
    const struct insn *in = &cc->insns[i];
    if (!insn_op_is_run_branch(in->op)) /* no run hooks in its handler */
        return true;
    if (!cc->runs)
        return false;
    size_t to = i + (size_t)(ptrdiff_t)in->imm;
    size_t lo = to < i ? to : i, hi = to < i ? i : to;
    for (size_t k = lo; k <= hi; k++)
        if (cc->runs[k] != CODE_RUNS_NONE)
            return false;
    return true;
}

/* Whether entry i lies in a function said to keep no runs and may leave its hooks out. */
static bool entry_unhooked(const struct code_cache *cc, size_t i)
{
    return cc->runs && cc->runs[i] == CODE_RUNS_NONE && runs_unhooked(cc, i);
}

/*
 * Entry i's handler under the bound tables: a fused pair when i and the
 * instruction after it are both decoded, neither starts a page (the page
 * check must run) and the loop has a handler for the two operations; else
 * i's own. From the unhooked tables when neither needs the run hooks.
 */
static void choose_handler(struct code_cache *cc, size_t i)
{
    const struct code_dispatch *d = cc->dispatch;
    struct insn *in = &cc->insns[i];
    if (d->translated && cc->block_starts && cc->block_starts[i]) {
        in->handler = d->translated;
        return;
    }
    size_t step = entry_slots(cc, in);
    bool fused = false;
    if (in->op != OP_DECODE && in->op < OP_COUNT && i + step < entry_count(cc)) {
        unsigned next = in[step].op;
        fused = next != OP_DECODE && next < OP_COUNT && d->pair[in->op * OP_COUNT + next] &&
                !(d->translated && cc->block_starts && cc->block_starts[i + step]);
    }
    if (d->unhooked && entry_unhooked(cc, i) && (!fused || runs_unhooked(cc, i + step)))
        d = d->unhooked;
    in->handler = fused ? d->pair[in->op * OP_COUNT + in[step].op] : d->single[in->op];
}

void code_cache_bind(struct code_cache *cc, const struct code_dispatch *d)
{
    cc->dispatch = d;
    for (size_t i = 0, n = entry_count(cc); i < n; i++)
        choose_handler(cc, i);
}

void code_cache_mark_block(struct code_cache *cc, size_t i, bool start)
{
    if (!cc->block_starts)
        return;
    cc->block_starts[i] = start;
    if (cc->dispatch)
        for (size_t k = i >= 1 ? i - 1 : 0; k <= i; k++) /* a pair may now end in it */
            choose_handler(cc, k);
}

bool code_cache_runs_unhooked(const struct code_cache *cc, size_t i)
{
    return insn_op_is_run_branch(cc->insns[i].op) && entry_unhooked(cc, i);
}

bool code_cache_note_runs(struct code_cache *cc, uint64_t lo, uint64_t end, bool kept)
{
    uint64_t hi = cc->lo + cc->span;
    if (end <= cc->lo || lo >= hi || end <= lo)
        return false;
    if (!cc->runs && !(cc->runs = calloc(entry_count(cc), 1)))
        return false; /* the hooks stay: only slower */
    size_t first = ((lo < cc->lo ? cc->lo : lo) - cc->lo) >> cc->slot_shift;
    size_t last = ((end > hi ? hi : end) - cc->lo + (1u << cc->slot_shift) - 1) >> cc->slot_shift;
    bool demoted = false;
    for (size_t k = first; k < last; k++) {
        if (kept) {
            demoted |= cc->runs[k] == CODE_RUNS_NONE;
            cc->runs[k] = CODE_RUNS_KEPT;
        } else if (cc->runs[k] == CODE_RUNS_UNKNOWN) {
            cc->runs[k] = CODE_RUNS_NONE;
        }
    }
    if (!cc->dispatch || !cc->dispatch->unhooked)
        return demoted;
    if (demoted)
        code_cache_bind(cc, cc->dispatch);
    else if (!kept) /* from the entries before that may fuse with the first */
        for (size_t k = first >= 2 ? first - 2 : 0; k < last; k++)
            choose_handler(cc, k);
    return demoted;
}

/* The FAR form of a branch or jal (OP_DECODE: not one). */
static enum insn_op far_form(unsigned op)
{
    switch (op) {
    case OP_BEQ:
    case OP_BNE:
    case OP_BLT:
    case OP_BGE:
    case OP_BLTU:
    case OP_BGEU: return OP_BRANCH_FAR;
    case OP_JAL:
    case OP_JAL_CALL: return OP_JAL_FAR;
    case OP_C_BEQ:
    case OP_C_BNE: return OP_C_BRANCH_FAR;
    case OP_C_JAL:
    case OP_C_JAL_CALL: return OP_C_JAL_FAR;
    default: return OP_DECODE;
    }
}

static struct insn fix_up(const struct code_cache *cc, struct insn in, uint64_t pc)
{
    enum insn_op far = far_form(in.op);
    if (far != OP_DECODE) {
        uint64_t target = pc + (uint64_t)(int64_t)in.imm;
        uint64_t slot = (uint64_t)1 << cc->slot_shift;
        bool near = (target & (slot - 1)) == 0 && target - cc->lo < cc->span;
        if (near)
            in.imm /= (int32_t)slot;
        else
            in.op = far;
    }
    /* The page check runs at a page's first byte, and at an instruction that crosses into it. */
    uint64_t in_page = pc & (GUEST_PAGE_SIZE - 1);
    if (in_page == 0 || in_page + insn_op_length(in.op) > GUEST_PAGE_SIZE)
        in.op |= INSN_PAGE_MARK;
    return in;
}

struct insn *code_cache_fill(struct code_cache *cc, uint64_t pc, struct insn in)
{
    size_t i = (pc - cc->lo) >> cc->slot_shift;
    cc->insns[i] = fix_up(cc, in, pc);
    if (cc->dispatch) {
        /* the entries an instruction before may end at: 4 bytes and 2 bytes back */
        for (size_t back = 4 >> cc->slot_shift; back > 0; back--)
            if (i >= back)
                choose_handler(cc, i - back);
        choose_handler(cc, i);
    }
    return &cc->insns[i];
}

struct insn code_cache_decode(const struct code_cache *cc, uint32_t word, int xlen)
{
    struct insn in = cc->slot_shift == 1 && !insn_word_is_full(word)
                         ? decode_compressed((uint16_t)word, xlen)
                         : decode_insn(word, xlen);
    if (cc->aligned_access)
        in.op = insn_op_aligned(in.op);
    return in;
}

void code_cache_predecode(struct code_cache *cc, const struct elf_image *img, int xlen)
{
    uint64_t slot = (uint64_t)1 << cc->slot_shift;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (!(s->rights & SEG_X))
            continue;
        uint64_t end = s->vaddr + s->memsz, cache_end = cc->lo + cc->span;
        if (end > cache_end) /* the zero-filled rest past the code (code_span) */
            end = cache_end;
        for (uint64_t pc = (s->vaddr + slot - 1) & ~(slot - 1); pc + slot <= end; pc += slot) {
            uint32_t word = 0; /* past p_filesz: zeros, an illegal instruction */
            uint64_t have = s->vaddr + s->filesz > pc ? s->vaddr + s->filesz - pc : 0;
            memcpy(&word, s->data + (pc - s->vaddr), have < 4 ? have : 4);
            struct insn in = code_cache_decode(cc, word, xlen);
            if (pc + insn_op_length(in.op) > end) /* its last half lies past the segment */
                in = (struct insn){.op = OP_ILLEGAL, .imm = (int32_t)word};
            code_cache_fill(cc, pc, in);
        }
    }
    cc->fixed = true;
}

void code_cache_invalidate(struct code_cache *cc, uint64_t addr, uint64_t len)
{
    if (cc->fixed)
        return;
    /* from 2 bytes before on a hart with C: a 4-byte instruction there overlaps addr */
    uint64_t start = addr & ~(uint64_t)((1u << cc->slot_shift) - 1);
    if (cc->slot_shift == 1)
        start = start >= 2 ? start - 2 : 0;
    uint64_t end = addr + len, hi = cc->lo + cc->span;
    if (end <= cc->lo || start >= hi)
        return;
    if (start < cc->lo)
        start = cc->lo;
    if (end > hi)
        end = hi;
    uint64_t slot = (uint64_t)1 << cc->slot_shift;
    size_t first = (start - cc->lo) >> cc->slot_shift;
    size_t last = (end - cc->lo + slot - 1) >> cc->slot_shift;
    struct insn undecoded = {.handler = cc->dispatch ? cc->dispatch->single[OP_DECODE] : NULL};
    for (size_t i = first; i < last; i++)
        cc->insns[i] = undecoded;
    /* the entries before may have been fused with entry `first` */
    for (size_t back = 4 >> cc->slot_shift; cc->dispatch && back > 0; back--)
        if (first >= back)
            choose_handler(cc, first - back);
}

struct insn *code_cache_copy(const struct code_cache *cc)
{
    size_t n = entry_count(cc);
    struct insn *copy = malloc(n * sizeof(*copy));
    if (copy)
        memcpy(copy, cc->insns, n * sizeof(*copy));
    return copy;
}

/* The entries [*first, *last) of [pc, pc + len) clipped to the span; false when none. */
static bool entry_range(const struct code_cache *cc, uint64_t pc, uint64_t len, size_t *first,
                        size_t *last)
{
    uint64_t start = pc & ~(uint64_t)3, end = pc + len, hi = cc->lo + cc->span;
    if (end <= cc->lo || start >= hi)
        return false;
    *first = (start < cc->lo ? 0 : start - cc->lo) / 4;
    *last = ((end > hi ? hi : end) - cc->lo + 3) / 4;
    return true;
}

void code_cache_hide(struct code_cache *cc, uint64_t pc, uint64_t len, struct insn *save)
{
    size_t first, last;
    if (!entry_range(cc, pc, len, &first, &last))
        return;
    if (save)
        memcpy(&save[first], &cc->insns[first], (last - first) * sizeof(*save));
    /*
     * Only the operation and handler change: an instruction whose slow path
     * hides its own page (a load that arms page_touch) still reads its rd.
     */
    const void *undecoded = cc->dispatch ? cc->dispatch->single[OP_DECODE] : NULL;
    for (size_t i = first; i < last; i++) {
        cc->insns[i].op = OP_DECODE;
        cc->insns[i].handler = undecoded;
    }
    if (cc->dispatch && first > 0)
        choose_handler(cc, first - 1);
}

void code_cache_show(struct code_cache *cc, uint64_t pc, uint64_t len, const struct insn *copy)
{
    size_t first, last;
    if (!entry_range(cc, pc, len, &first, &last))
        return;
    memcpy(&cc->insns[first], &copy[first], (last - first) * sizeof(*copy));
    if (!cc->dispatch)
        return;
    for (size_t i = first ? first - 1 : 0; i < last; i++)
        choose_handler(cc, i);
}
