/*
 * memory: the flat guest address space, page rights (granted at once or
 * lazily) and the brk heap.
 */
#include "executor/memory.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static unsigned base_bits(const struct guest_memory *mem, unsigned r)
{
    r &= PAGE_R | PAGE_W | PAGE_X;
    if ((r & PAGE_W) && (!(r & PAGE_X) || mem->code_fixed))
        r |= PAGE_STORE_OK;
    if (r & PAGE_R)
        r |= PAGE_LOAD_OK;
    return r;
}

/* The FAST bits an entry with bits `here` gets from a successor with bits `next`. */
static unsigned with_fast_bits(unsigned here, unsigned next)
{
    here &= ~(unsigned)(PAGE_LOAD_FAST | PAGE_STORE_FAST);
    if ((here & PAGE_LOAD_OK) && (next & PAGE_LOAD_OK))
        here |= PAGE_LOAD_FAST;
    if ((here & PAGE_STORE_OK) && (next & PAGE_STORE_OK))
        here |= PAGE_STORE_FAST;
    return here;
}

/*
 * The FAST bits of entry `i` from its own bits and its successor's (its
 * own alone when no access crosses an entry: mem_align_accesses). The top
 * entry of the 64-bit space has none: an access running past it wraps to
 * address 0, and the slow path faults it.
 */
static void derive_fast_bits(struct guest_memory *mem, uint64_t i)
{
    uint8_t *rights = mem->rights;
    bool last = i + 1 == GUEST_RIGHTS_BYTES || i + 1 == GUEST_HIGH_ENTRIES;
    unsigned next = last ? 0 : mem->aligned_accesses ? rights[i] : rights[i + 1];
    rights[i] = (uint8_t)with_fast_bits(rights[i], next);
}

bool mem_init(struct guest_memory *mem)
{
    memset(mem, 0, sizeof(*mem));
    mem->used = calloc(GUEST_RIGHTS_CHUNKS, 1);
    mem->used_list = malloc(GUEST_RIGHTS_CHUNKS * sizeof(*mem->used_list)); /* touched as used */
    if (!mem->used || !mem->used_list) {
        mem_destroy(mem);
        return false;
    }
    /* The rights table, then the window: see GUEST_RIGHTS_OFFSET. */
    uint8_t *p = mmap(NULL, GUEST_RIGHTS_BYTES + GUEST_WINDOW_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        mem_destroy(mem);
        return false;
    }
    mem->rights = p;
    mem->base = p + GUEST_RIGHTS_OFFSET;
    return true;
}

static void snapshot_free(struct guest_memory *mem);

void mem_destroy(struct guest_memory *mem)
{
    snapshot_free(mem);
    if (mem->rights)
        munmap(mem->rights, GUEST_RIGHTS_BYTES + GUEST_WINDOW_SIZE);
    free(mem->used);
    free(mem->used_list);
    free(mem->holes);
    memset(mem, 0, sizeof(*mem));
}

/* Notes that chunk c of the rights table is written (whole-table passes visit it). */
static void mark_used(struct guest_memory *mem, uint64_t c)
{
    if (mem->used[c])
        return;
    mem->used[c] = 1;
    mem->used_list[mem->nused++] = (uint32_t)c;
}

/* The end of the run of entries equal to entry i, at most `end`: a word at a time. */
static uint64_t run_end(const uint8_t *rights, uint64_t i, uint64_t end)
{
    const uint64_t same = 0x0101010101010101ull * rights[i];
    uint64_t j = i + 1, word;
    while (j + 8 <= end && (memcpy(&word, rights + j, 8), word == same))
        j += 8;
    while (j < end && rights[j] == rights[i])
        j++;
    return j;
}

/*
 * Rewrites entries [first, end) to the bits of `rights` (added to their
 * own with `add`), and the FAST bits of those and of the entry before.
 * Granted ranges are long runs of equal entries: each run is written at
 * once, and only a run's last entry looks at its successor.
 */
static void rewrite_entries(struct guest_memory *mem, uint64_t first, uint64_t end, unsigned rights,
                            bool add)
{
    for (uint64_t i = first, j; i < end; i = j) {
        j = run_end(mem->rights, i, end);
        unsigned bits = base_bits(mem, add ? (mem->rights[i] | rights) : rights);
        memset(mem->rights + i, (int)with_fast_bits(bits, bits), j - i);
        if (i > 0)
            derive_fast_bits(mem, i - 1); /* it sees a new successor */
    }
    if (end > first)
        derive_fast_bits(mem, end - 1);
}

/* Sets the rights of the 4 KiB pages of [start, start+len), clipped to the window. */
static void set_rights(struct guest_memory *mem, uint64_t start, uint64_t len, unsigned rights,
                       bool add)
{
    uint64_t w = guest_window_offset(start);
    if (w >= GUEST_WINDOW_SIZE || len == 0)
        return;
    uint64_t end = len < GUEST_WINDOW_SIZE - w ? w + len : GUEST_WINDOW_SIZE;
    uint64_t first = guest_page_floor(w) >> GUEST_RIGHTS_SHIFT;
    uint64_t stop = guest_page_ceil(end) >> GUEST_RIGHTS_SHIFT;
    for (uint64_t c = first / GUEST_RIGHTS_CHUNK; c <= (stop - 1) / GUEST_RIGHTS_CHUNK; c++)
        mark_used(mem, c);
    rewrite_entries(mem, first, stop, rights, add);
}

void mem_fix_code(struct guest_memory *mem)
{
    mem->code_fixed = true;
}

void mem_align_accesses(struct guest_memory *mem)
{
    mem->aligned_accesses = true;
}

void mem_grant(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights)
{
    set_rights(mem, addr, len, rights, true);
}

void mem_poke(struct guest_memory *mem, uint64_t addr, const void *src, size_t len)
{
    memcpy(mem_host(mem, addr), src, len);
}

void mem_setup_stack_and_heap(struct guest_memory *mem, uint64_t stack_size, uint64_t highest_end)
{
    mem->stack_top = GUEST_STACK_TOP;
    mem->stack_bottom = GUEST_STACK_TOP - stack_size;
    mem_grant(mem, mem->stack_bottom, stack_size, PAGE_R | PAGE_W);
    mem->brk_start = mem->brk = guest_page_ceil(highest_end);
    /* Leave one unmapped guard page between the heap and the stack. */
    mem->brk_limit = mem->stack_bottom - GUEST_PAGE_SIZE;
}

uint64_t mem_brk(struct guest_memory *mem, uint64_t want)
{
    if (want < mem->brk_start || want > mem->brk_limit)
        return mem->brk;
    uint64_t old_end = guest_page_ceil(mem->brk), new_end = guest_page_ceil(want);
    if (new_end > old_end) {
        set_rights(mem, old_end, new_end - old_end, PAGE_R | PAGE_W, false);
    } else if (new_end < old_end) {
        /* Give the pages back: a later grow must see zeros, as on Linux. */
        set_rights(mem, new_end, old_end - new_end, 0, false);
        madvise(mem_host(mem, new_end), old_end - new_end, MADV_DONTNEED);
    }
    mem->brk = want;
    return want;
}

/* The guest address of rights entry i. */
static uint64_t entry_addr(uint64_t i)
{
    return (i << GUEST_RIGHTS_SHIFT) - GUEST_HIGH_SPAN;
}

bool mem_range_has(const struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights)
{
    if (len == 0)
        return true;
    uint64_t w = guest_window_offset(addr);
    if (len - 1 > UINT64_MAX - addr) /* the last byte lies past the top of the space */
        return false;
    if (w >= GUEST_WINDOW_SIZE || len > GUEST_WINDOW_SIZE - w)
        return false;
    for (uint64_t i = w >> GUEST_RIGHTS_SHIFT; i <= (w + len - 1) >> GUEST_RIGHTS_SHIFT; i++) {
        unsigned r = mem->rights[i];
        if ((r & rights) != rights &&
            (r || (mem_lazy_rights(mem, entry_addr(i)) & rights) != rights))
            return false;
    }
    return true;
}

/* ---- lazily granted regions ---- */

/* Where page number `page` is or would go in the sorted holes. */
static size_t hole_at(const struct guest_memory *mem, uint64_t page)
{
    size_t lo = 0, hi = mem->nholes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mem->holes[mid] < page)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool is_hole(const struct guest_memory *mem, uint64_t page)
{
    size_t i = hole_at(mem, page);
    return i < mem->nholes && mem->holes[i] == page;
}

/* Makes page number `page` a hole (or no longer one); false when out of memory. */
static bool set_hole(struct guest_memory *mem, uint64_t page, bool hole)
{
    size_t i = hole_at(mem, page);
    bool there = i < mem->nholes && mem->holes[i] == page;
    if (there == hole)
        return true;
    if (!hole) {
        memmove(mem->holes + i, mem->holes + i + 1, (mem->nholes - i - 1) * sizeof(uint64_t));
        mem->nholes--;
        return true;
    }
    if (mem->nholes == mem->holes_cap) {
        size_t cap = mem->holes_cap ? 2 * mem->holes_cap : 16;
        uint64_t *grown = realloc(mem->holes, cap * sizeof(*grown));
        if (!grown)
            return false;
        mem->holes = grown;
        mem->holes_cap = cap;
    }
    memmove(mem->holes + i + 1, mem->holes + i, (mem->nholes - i) * sizeof(uint64_t));
    mem->holes[i] = page;
    mem->nholes++;
    return true;
}

/* The lazy region holding addr, or NULL. */
static const struct mem_lazy *lazy_region(const struct guest_memory *mem, uint64_t addr)
{
    for (unsigned i = 0; i < mem->nlazy; i++)
        if (addr >= mem->lazy[i].lo && addr < mem->lazy[i].hi)
            return &mem->lazy[i];
    return NULL;
}

/* The R, W, X a page without rights in the table has from a lazy region: 0 when none. */
static unsigned lazy_grant(const struct guest_memory *mem, uint64_t addr)
{
    const struct mem_lazy *z = lazy_region(mem, addr);
    if (!z || is_hole(mem, addr >> GUEST_PAGE_SHIFT))
        return 0;
    return z->rights;
}

unsigned mem_lazy_rights(const struct guest_memory *mem, uint64_t addr)
{
    uint64_t w = guest_window_offset(addr);
    if (w >= GUEST_WINDOW_SIZE || mem->rights[w >> GUEST_RIGHTS_SHIFT])
        return 0;
    return base_bits(mem, lazy_grant(mem, addr));
}

bool mem_grant_lazily(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights)
{
    if (mem->nlazy == GUEST_LAZY_MAX)
        return false;
    uint64_t lo = guest_page_floor(addr), hi = guest_page_ceil(addr + len);
    mem->lazy[mem->nlazy++] = (struct mem_lazy){lo, hi, rights & (PAGE_R | PAGE_W | PAGE_X)};
    return true;
}

/* Lazily granted pages are taken this many at a time (one slow-path trip each). */
#define LAZY_BLOCK (16ull * GUEST_PAGE_SIZE)

static bool keep_entry(struct guest_memory *mem, uint64_t entry);

/*
 * Writes down the lazy rights of page `page` (an address) if it has them
 * and the table not; during a snapshot its entries are kept first.
 */
static bool take_page(struct guest_memory *mem, uint64_t page)
{
    unsigned r = mem_lazy_rights(mem, page) & (PAGE_R | PAGE_W | PAGE_X);
    if (!r)
        return true;
    set_rights(mem, page, GUEST_PAGE_SIZE, r, false);
    uint64_t first = guest_rights_entry(page);
    for (uint64_t i = first; mem->snapshot && i < first + GUEST_PAGE_SIZE / GUEST_RIGHTS_SIZE; i++)
        if (!keep_entry(mem, i))
            return false;
    return true;
}

bool mem_take_lazy(struct guest_memory *mem, uint64_t addr, uint64_t len)
{
    if (!mem->nlazy || len == 0 || len - 1 > UINT64_MAX - addr)
        return true;
    uint64_t lo = addr & ~(LAZY_BLOCK - 1), hi = (addr + len - 1) | (LAZY_BLOCK - 1);
    for (uint64_t p = lo;; p += GUEST_PAGE_SIZE) {
        if (lazy_region(mem, p) && !take_page(mem, p))
            return false;
        if (p + GUEST_PAGE_SIZE - 1 >= hi)
            return true;
    }
}

bool mem_protect(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights)
{
    if (len == 0)
        return true;
    uint64_t lo = guest_page_floor(addr), end = guest_page_ceil(addr + len);
    for (uint64_t p = lo; p != end; p += GUEST_PAGE_SIZE) {
        if (lazy_region(mem, p) && !set_hole(mem, p >> GUEST_PAGE_SHIFT, rights == 0))
            return false;
        set_rights(mem, p, GUEST_PAGE_SIZE, rights, false);
    }
    return true;
}

/* ---- page tracking ---- */

/* Entry `entry`'s fast bits, and its predecessor's, after its own bits changed. */
static void derive_around(struct guest_memory *mem, uint64_t entry)
{
    derive_fast_bits(mem, entry);
    if (entry > 0)
        derive_fast_bits(mem, entry - 1);
}

void mem_track_strip(struct guest_memory *mem, uint64_t entry)
{
    if (entry >= GUEST_RIGHTS_BYTES)
        return;
    mem->rights[entry] &= (uint8_t) ~(PAGE_LOAD_OK | PAGE_STORE_OK);
    derive_around(mem, entry);
}

/* Keeps only the bits `keep` of every entry of the chunks ever written. */
static void mask_used_entries(struct guest_memory *mem, uint8_t keep)
{
    for (size_t k = 0; k < mem->nused; k++) {
        uint8_t *chunk = mem->rights + (uint64_t)mem->used_list[k] * GUEST_RIGHTS_CHUNK;
        for (uint64_t i = 0; i < GUEST_RIGHTS_CHUNK; i++)
            chunk[i] &= keep;
    }
}

/* Strips every entry at once: an entry's FAST bits need its own inline bits. */
void mem_track_strip_all(struct guest_memory *mem)
{
    mask_used_entries(mem,
                      (uint8_t) ~(PAGE_LOAD_OK | PAGE_STORE_OK | PAGE_LOAD_FAST | PAGE_STORE_FAST));
}

void mem_track_give(struct guest_memory *mem, uint64_t entry, bool stores)
{
    if (entry >= GUEST_RIGHTS_BYTES)
        return;
    unsigned keep = mem->rights[entry] & PAGE_SAVED, r = base_bits(mem, mem->rights[entry]);
    if (!stores || (mem->snapshot && !keep)) /* a snapshot must see the first store */
        r &= ~(unsigned)PAGE_STORE_OK;
    mem->rights[entry] = (uint8_t)(r | keep);
    derive_around(mem, entry);
}

/* ---- snapshots ---- */

struct mem_snapshot {
    uint64_t *pages;  /* the rights entries kept, in the order first written */
    uint8_t **copies; /* their bytes then, GUEST_RIGHTS_SIZE each */
    size_t count, cap;
};

static void snapshot_free(struct guest_memory *mem)
{
    struct mem_snapshot *s = mem->snapshot;
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        free(s->copies[i]);
    free(s->pages);
    free(s->copies);
    free(s);
    mem->snapshot = NULL;
}

/* Every written entry's bits again from its R, W, X (dropping PAGE_SAVED). */
static void recompute_all_bits(struct guest_memory *mem)
{
    for (size_t k = 0; k < mem->nused; k++) {
        uint64_t c = mem->used_list[k];
        rewrite_entries(mem, c * GUEST_RIGHTS_CHUNK, (c + 1) * GUEST_RIGHTS_CHUNK, 0, true);
    }
}

bool mem_snapshot_begin(struct guest_memory *mem)
{
    snapshot_free(mem);
    mem->snapshot = calloc(1, sizeof(*mem->snapshot));
    if (!mem->snapshot)
        return false;
    mask_used_entries(mem, (uint8_t) ~(PAGE_STORE_OK | PAGE_STORE_FAST));
    return true;
}

/* The host address of the 1 KiB of rights entry `entry`. */
static uint8_t *entry_host(const struct guest_memory *mem, uint64_t entry)
{
    return mem_host(mem, entry_addr(entry));
}

/* Keeps entry `entry`'s bytes and gives it its store bits back. */
static bool keep_entry(struct guest_memory *mem, uint64_t entry)
{
    struct mem_snapshot *s = mem->snapshot;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        uint64_t *pages = realloc(s->pages, cap * sizeof(*pages));
        if (!pages)
            return false;
        s->pages = pages;
        uint8_t **copies = realloc(s->copies, cap * sizeof(*copies));
        if (!copies)
            return false;
        s->copies = copies;
        s->cap = cap;
    }
    uint8_t *copy = malloc(GUEST_RIGHTS_SIZE);
    if (!copy)
        return false;
    memcpy(copy, entry_host(mem, entry), GUEST_RIGHTS_SIZE);
    s->pages[s->count] = entry;
    s->copies[s->count++] = copy;
    mem->rights[entry] = (uint8_t)(base_bits(mem, mem->rights[entry]) | PAGE_SAVED);
    derive_around(mem, entry);
    return true;
}

bool mem_snapshot_note(struct guest_memory *mem, uint64_t addr, uint64_t len)
{
    if (!mem->snapshot || len == 0)
        return true;
    if (!mem_take_lazy(mem, addr, len)) /* a lazy page's bytes are kept when taken */
        return false;
    uint64_t start = guest_window_offset(addr), end = start + len;
    if (start >= GUEST_WINDOW_SIZE)
        return true; /* no rights there: the write faults */
    if (end > GUEST_WINDOW_SIZE || end < start)
        end = GUEST_WINDOW_SIZE;
    for (uint64_t p = start >> GUEST_RIGHTS_SHIFT; p <= (end - 1) >> GUEST_RIGHTS_SHIFT; p++) {
        unsigned r = mem->rights[p];
        if ((r & PAGE_W) && !(r & PAGE_SAVED) && !keep_entry(mem, p))
            return false;
    }
    return true;
}

void mem_snapshot_restore(struct guest_memory *mem)
{
    struct mem_snapshot *s = mem->snapshot;
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        memcpy(entry_host(mem, s->pages[i]), s->copies[i], GUEST_RIGHTS_SIZE);
    snapshot_free(mem);
    recompute_all_bits(mem);
}
