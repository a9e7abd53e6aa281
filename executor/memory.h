/*
 * memory: the guest's address space. One flat host mapping (reserved,
 * committed only where touched) covers a window of guest addresses: the
 * low 1 TiB, [0, 2^40), where every guest's program and the Linux layout
 * live (SP1 v6 addresses all of it), and for RV64 the top 1020 MiB of the
 * 64-bit space, just below guest address 0 in the host, so that `base + a`
 * wraps there (lambda_vm's stack starts at 0xFFFF_FFFF_FFFF_FFF0). A byte
 * of rights per 4 KiB guest page of the window says what the guest may do
 * there; an address outside the window has no rights. Rights are granted
 * by 4 KiB page, as Linux maps, but kept per 1 KiB (a rights entry): RISC
 * Zero pages memory in 1 KiB pages (page_touch.h), and the interpreter's
 * one-byte test must tell them apart. Loads and stores that stay inside
 * one entry with the right bit take the fast path in the interpreter;
 * everything else comes here. A region may be granted lazily (SP1 v6's
 * whole space is read-write): its pages count as granted, and the slow
 * path writes their rights down at their first touch (mem_grant_lazily),
 * so that no rights are written up front.
 */
#ifndef EXECUTOR_MEMORY_H
#define EXECUTOR_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUEST_PAGE_SHIFT   12 /* the page rights are granted by */
#define GUEST_PAGE_SIZE    (1u << GUEST_PAGE_SHIFT)
#define GUEST_RIGHTS_SHIFT 10 /* the part of a page a rights byte is for */
#define GUEST_RIGHTS_SIZE  (1u << GUEST_RIGHTS_SHIFT)
#define GUEST_SPACE_SIZE   (1ull << 32) /* RV32's space, [0, 4 GiB) */
#define GUEST_LOW_SPAN     (1ull << 40) /* the low part of the window: [0, 1 TiB) */
/*
 * The high part, [-1020 MiB, 0), RV64 only: 4 MiB short of 1 GiB so that
 * the rights table's offset from `base` (GUEST_RIGHTS_OFFSET, below) fits a
 * host instruction's 32-bit displacement, as the interpreter reads it.
 */
#define GUEST_HIGH_SPAN          ((1ull << 30) - (4ull << 20))
#define GUEST_WINDOW_SIZE        (GUEST_HIGH_SPAN + GUEST_LOW_SPAN)
#define GUEST_STACK_TOP          0xF0000000ull
#define GUEST_DEFAULT_STACK_SIZE (8ull << 20)

/*
 * Rights, one byte per 1 KiB of the window: R, W, X as granted, and bits
 * derived from them for the interpreter's fast paths. Stores into code
 * must go slow (they drop predecoded instructions), so the store bits
 * need W without X; the load bits need R, and the page tracker
 * (page_touch.h) takes them away for a while, as it takes the store bits.
 * The FAST bits also need the right on the next entry (unless accesses
 * are aligned: mem_align_accesses): an access of at most 8 bytes starting
 * in such an entry needs no check that it stays inside it.
 */
enum page_rights {
    PAGE_R = 1,
    PAGE_W = 2,
    PAGE_X = 4,
    PAGE_STORE_OK = 8,    /* W without X */
    PAGE_LOAD_FAST = 16,  /* LOAD_OK, and the next entry LOAD_OK */
    PAGE_STORE_FAST = 32, /* STORE_OK, and the next entry STORE_OK */
    PAGE_SAVED = 64,      /* during a snapshot: the entry's old bytes are kept */
    PAGE_LOAD_OK = 128,   /* R, and loads may be done inline (not while page_touch waits) */
};

/*
 * The rights table lies just below the window in one mapping, so the
 * interpreter reaches both from one register: the rights byte of guest
 * address a is rights[guest_window_offset(a) >> GUEST_RIGHTS_SHIFT], and
 * rights == base - GUEST_RIGHTS_OFFSET. Its index of guest address 0 is
 * GUEST_HIGH_ENTRIES. Most of the table is never written; `used` marks
 * each host page of it that is (a chunk) and `used_list` lists them, so
 * that whole-table passes visit those alone.
 */
#define GUEST_RIGHTS_BYTES  (GUEST_WINDOW_SIZE >> GUEST_RIGHTS_SHIFT)
#define GUEST_HIGH_ENTRIES  (GUEST_HIGH_SPAN >> GUEST_RIGHTS_SHIFT)
#define GUEST_RIGHTS_OFFSET (GUEST_HIGH_SPAN + GUEST_RIGHTS_BYTES)
#define GUEST_RIGHTS_CHUNK  4096u
#define GUEST_RIGHTS_CHUNKS (GUEST_RIGHTS_BYTES / GUEST_RIGHTS_CHUNK)
_Static_assert(GUEST_RIGHTS_OFFSET < (1ull << 31), "the interpreter reads rights at a disp32");
_Static_assert(GUEST_RIGHTS_BYTES % GUEST_RIGHTS_CHUNK == 0, "whole chunks");

/* At most this many lazily granted regions (mem_grant_lazily). */
#define GUEST_LAZY_MAX 2

/* A region whose pages have `rights` unless set otherwise (mem_grant_lazily, mem_protect). */
struct mem_lazy {
    uint64_t lo, hi; /* [lo, hi), whole pages */
    unsigned rights;
};

struct guest_memory {
    uint8_t *base;         /* host address of guest address 0 (see mem_host) */
    bool code_fixed;       /* stores never change the code (see mem_fix_code): X pages store fast */
    bool aligned_accesses; /* no access crosses a rights entry (see mem_align_accesses) */
    uint8_t *rights;       /* one byte per 1 KiB of the window, at base - GUEST_RIGHTS_OFFSET */
    uint8_t *used;         /* per chunk of `rights`: ever written */
    uint32_t *used_list;   /* the chunks ever written, in that order */
    size_t nused;
    struct mem_lazy lazy[GUEST_LAZY_MAX];
    unsigned nlazy;
    uint64_t *holes; /* pages of lazy regions set to no rights (mem_protect), sorted */
    size_t nholes, holes_cap;
    uint64_t stack_bottom, stack_top;
    uint64_t brk_start, brk, brk_limit;
    struct mem_snapshot *snapshot; /* see mem_snapshot_begin; NULL: none */
};

/* Reserves the space. Returns false (errno set) when the host refuses. */
bool mem_init(struct guest_memory *mem);
void mem_destroy(struct guest_memory *mem);

/*
 * Makes code fixed at load time, as zkVMs that decode their program once
 * have it: stores into executable pages change the bytes but not the
 * code, so they take the fast store path. Call before granting rights.
 */
void mem_fix_code(struct guest_memory *mem);

/*
 * Says that every access is aligned to its size (at most 8 bytes, so it
 * never crosses a rights entry), as under an ABI that faults misaligned
 * ones: an entry's FAST bits then need no right on the next entry, so
 * the entry at the top of a hot stack, whose successor a RISC Zero
 * segment rarely pages in, stays on the fast path. Call before granting
 * rights.
 */
void mem_align_accesses(struct guest_memory *mem);

/*
 * Adds rights (R, W, X) to the 4 KiB pages of [addr, addr+len) inside the
 * window (addr + len may wrap to exactly 0: the top of the 64-bit space).
 */
void mem_grant(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/*
 * Grants `rights` (R, W, X) to the pages of [addr, addr+len) lazily: they
 * have them from now on unless mem_protect sets others, but the table is
 * written only when the slow path first touches one (mem_take_lazy). Pages
 * that already have rights keep theirs. False when GUEST_LAZY_MAX regions
 * exist already.
 */
bool mem_grant_lazily(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/*
 * Writes down the rights of the lazily granted pages of [addr, addr+len)
 * (and of the other pages of their 64 KiB blocks) that the table has not
 * got yet, so that the fast paths take them. False when the host refuses
 * memory for a snapshot's copies.
 */
bool mem_take_lazy(struct guest_memory *mem, uint64_t addr, uint64_t len);

/*
 * Sets the rights of the 4 KiB pages of [addr, addr+len) inside the
 * window to exactly `rights` (R, W, X; 0: none), replacing what they had,
 * lazily granted or not (SP1's mprotect). False when the host refuses
 * memory.
 */
bool mem_protect(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/* Copies host bytes into guest memory, ignoring rights (loader use). */
void mem_poke(struct guest_memory *mem, uint64_t addr, const void *src, size_t len);

/* Sets up the stack region [top-size, top) and the heap start. */
void mem_setup_stack_and_heap(struct guest_memory *mem, uint64_t stack_size, uint64_t highest_end);

/* Linux brk(2): returns the new break, or the old one if `want` is refused. */
uint64_t mem_brk(struct guest_memory *mem, uint64_t want);

/*
 * True when every byte of [addr, addr+len) has all `rights` (lazily
 * granted ones count); false when the range wraps past the top of the
 * 64-bit space.
 */
bool mem_range_has(const struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/*
 * A snapshot that a later mem_snapshot_restore returns to (SP1's
 * unconstrained blocks): every entry loses its store bits, so that the
 * first store into one goes slow and calls mem_snapshot_note, which
 * keeps its 1 KiB and gives its bits back; restore copies the kept
 * bytes back and recomputes the bits. Rights must not change meanwhile.
 * False when the host refuses memory (nothing changed).
 */
bool mem_snapshot_begin(struct guest_memory *mem);

/* Keeps the old bytes of the entries of [addr, addr+len) before a write; false when out of memory.
 */
bool mem_snapshot_note(struct guest_memory *mem, uint64_t addr, uint64_t len);

/* Puts back every byte written since mem_snapshot_begin, and ends the snapshot. */
void mem_snapshot_restore(struct guest_memory *mem);

/*
 * Page tracking (executor/page_touch.h): rights entry `entry` loses its
 * inline load and store bits, so that every access to it goes slow; or
 * gets back its load bits, or its load and store bits (not while a
 * snapshot waits for its first store). strip_all strips every entry.
 */
void mem_track_strip(struct guest_memory *mem, uint64_t entry);
void mem_track_strip_all(struct guest_memory *mem);
void mem_track_give(struct guest_memory *mem, uint64_t entry, bool stores);

/* The start of the guest page holding `a`, and the first page boundary at or above it. */
static inline uint64_t guest_page_floor(uint64_t a)
{
    return a & ~(uint64_t)(GUEST_PAGE_SIZE - 1);
}

static inline uint64_t guest_page_ceil(uint64_t a)
{
    return guest_page_floor(a + GUEST_PAGE_SIZE - 1);
}

/* Where guest address a lies in the window: below GUEST_WINDOW_SIZE when inside. */
static inline uint64_t guest_window_offset(uint64_t a)
{
    return a + GUEST_HIGH_SPAN;
}

/*
 * The host address of guest address a of the window (computed in
 * integers: a high guest address lies below base).
 */
static inline uint8_t *mem_host(const struct guest_memory *mem, uint64_t a)
{
    return (uint8_t *)((uintptr_t)mem->base + (uintptr_t)a);
}

/* The rights entry of guest address a: below GUEST_RIGHTS_BYTES when inside the window. */
static inline uint64_t guest_rights_entry(uint64_t a)
{
    return guest_window_offset(a) >> GUEST_RIGHTS_SHIFT;
}

/* The rights bits a lazily granted page at addr has but the table lacks: 0 for others. */
unsigned mem_lazy_rights(const struct guest_memory *mem, uint64_t addr);

static inline unsigned mem_page_rights(const struct guest_memory *mem, uint64_t addr)
{
    uint64_t w = guest_window_offset(addr);
    unsigned r = w < GUEST_WINDOW_SIZE ? mem->rights[w >> GUEST_RIGHTS_SHIFT] : 0;
    return r || !mem->nlazy ? r : mem_lazy_rights(mem, addr);
}

#endif
