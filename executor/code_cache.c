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

/* The cache spans every executable segment; gaps decode as faults. */
bool code_cache_init(struct code_cache *cc, const struct elf_image *img, struct error *e)
{
    memset(cc, 0, sizeof(*cc));
    uint64_t lo, hi;
    elf_image_exec_span(img, &lo, &hi);
    cc->lo = guest_page_floor(lo);
    cc->span = guest_page_ceil(hi) - cc->lo;
    if (cc->span > CODE_SPAN_MAX + 2 * GUEST_PAGE_SIZE) {
        error_fail(e, ERROR_UNSUPPORTED, "the executable segments span more than %llu MiB",
                   (unsigned long long)(CODE_SPAN_MAX >> 20));
        return false;
    }
    /* One entry per 4-byte slot, plus one past the end that decodes as a fault. */
    cc->bytes = (cc->span / 4 + 1) * sizeof(struct insn);
    void *p = mmap(NULL, cc->bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        error_fail_errno(e, ERROR_NO_MEMORY, errno, "cannot allocate the code cache");
        return false;
    }
    cc->insns = p; /* zero-filled: every entry is OP_DECODE, not yet bound */
    cc->end = cc->insns + cc->span / 4;
    cc->pc_bias = cc->lo - (uintptr_t)cc->insns / 4;
    return true;
}

void code_cache_destroy(struct code_cache *cc)
{
    if (cc->insns)
        munmap(cc->insns, cc->bytes);
    memset(cc, 0, sizeof(*cc));
}

/*
 * Entry i's handler under the bound tables: a fused pair when i and i+1
 * are both decoded, neither starts a page (the page check must run) and
 * the loop has a handler for the two operations; else i's own.
 */
static void choose_handler(struct code_cache *cc, size_t i)
{
    const struct code_dispatch *d = cc->dispatch;
    struct insn *in = &cc->insns[i];
    const void *h = d->single[in->op];
    if (in->op != OP_DECODE && in->op < OP_COUNT && i + 1 < entry_count(cc)) {
        unsigned next = in[1].op;
        if (next != OP_DECODE && next < OP_COUNT && d->pair[in->op * OP_COUNT + next])
            h = d->pair[in->op * OP_COUNT + next];
    }
    in->handler = h;
}

void code_cache_bind(struct code_cache *cc, const struct code_dispatch *d)
{
    cc->dispatch = d;
    for (size_t i = 0, n = entry_count(cc); i < n; i++)
        choose_handler(cc, i);
}

static struct insn fix_up(const struct code_cache *cc, struct insn in, uint64_t pc)
{
    bool is_branch = in.op >= OP_BEQ && in.op <= OP_BGEU;
    if (is_branch || in.op == OP_JAL || in.op == OP_JAL_CALL) {
        uint64_t target = pc + (uint64_t)(int64_t)in.imm;
        bool near = (target & 3) == 0 && target - cc->lo < cc->span;
        if (near)
            in.imm /= 4;
        else
            in.op = is_branch ? OP_BRANCH_FAR : OP_JAL_FAR;
    }
    if ((pc & (GUEST_PAGE_SIZE - 1)) == 0)
        in.op |= INSN_PAGE_MARK;
    return in;
}

struct insn *code_cache_fill(struct code_cache *cc, uint64_t pc, struct insn in)
{
    size_t i = (pc - cc->lo) / 4;
    cc->insns[i] = fix_up(cc, in, pc);
    if (cc->dispatch) {
        if (i > 0)
            choose_handler(cc, i - 1);
        choose_handler(cc, i);
    }
    return &cc->insns[i];
}

void code_cache_predecode(struct code_cache *cc, const struct elf_image *img, int xlen)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (!(s->rights & SEG_X))
            continue;
        for (uint64_t pc = (s->vaddr + 3) & ~(uint64_t)3; pc + 4 <= s->vaddr + s->memsz; pc += 4) {
            uint32_t word = 0; /* past p_filesz: zeros, an illegal instruction */
            if (pc + 4 <= s->vaddr + s->filesz)
                memcpy(&word, s->data + (pc - s->vaddr), 4);
            code_cache_fill(cc, pc, decode_insn(word, xlen));
        }
    }
    cc->fixed = true;
}

void code_cache_invalidate(struct code_cache *cc, uint64_t addr, uint64_t len)
{
    if (cc->fixed)
        return;
    uint64_t start = addr & ~(uint64_t)3, end = addr + len, hi = cc->lo + cc->span;
    if (end <= cc->lo || start >= hi)
        return;
    if (start < cc->lo)
        start = cc->lo;
    if (end > hi)
        end = hi;
    size_t first = (start - cc->lo) / 4, last = (end - cc->lo + 3) / 4;
    struct insn undecoded = {.handler = cc->dispatch ? cc->dispatch->single[OP_DECODE] : NULL};
    for (size_t i = first; i < last; i++)
        cc->insns[i] = undecoded;
    if (cc->dispatch && first > 0)
        choose_handler(cc, first - 1); /* it may have been fused with entry `first` */
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
