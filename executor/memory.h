/*
 * memory: the guest's address space. One flat host mapping covers the
 * whole 4 GiB guest space (reserved, committed only where touched), and a
 * byte of rights per 4 KiB guest page says what the guest may do there.
 * Loads and stores that stay inside one page with the right bit take the
 * fast path in the interpreter; everything else comes here.
 */
#ifndef EXECUTOR_MEMORY_H
#define EXECUTOR_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GUEST_PAGE_SHIFT         12
#define GUEST_PAGE_SIZE          (1u << GUEST_PAGE_SHIFT)
#define GUEST_SPACE_SIZE         (1ull << 32)
#define GUEST_STACK_TOP          0xF0000000ull
#define GUEST_DEFAULT_STACK_SIZE (8ull << 20)

/*
 * Page rights: R, W, X as granted, and bits derived from them for the
 * interpreter's fast paths. Stores into code must go slow (they drop
 * predecoded instructions), so the store bits need W without X. The FAST
 * bits also need the right on the next page: an access of at most 8 bytes
 * starting in such a page needs no check that it stays inside the page.
 */
enum page_rights {
    PAGE_R = 1,
    PAGE_W = 2,
    PAGE_X = 4,
    PAGE_STORE_OK = 8,    /* W without X */
    PAGE_LOAD_FAST = 16,  /* R, and the next page R */
    PAGE_STORE_FAST = 32, /* STORE_OK, and the next page STORE_OK */
    PAGE_SAVED = 64,      /* during a snapshot: the page's old bytes are kept */
};

/*
 * The rights table lies just below the space in one mapping (rights ==
 * base - GUEST_RIGHTS_BYTES), so the interpreter reaches both from one
 * register.
 */
#define GUEST_RIGHTS_BYTES (GUEST_SPACE_SIZE >> GUEST_PAGE_SHIFT)

struct guest_memory {
    uint8_t *base;   /* host address of guest address 0 */
    bool code_fixed; /* stores never change the code (see mem_fix_code): X pages store fast */
    uint8_t *rights; /* one byte per guest page, at base - GUEST_RIGHTS_BYTES */
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

/* Adds rights (R, W, X) to the pages of [addr, addr+len). */
void mem_grant(struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/* Copies host bytes into guest memory, ignoring rights (loader use). */
void mem_poke(struct guest_memory *mem, uint64_t addr, const void *src, size_t len);

/* Sets up the stack region [top-size, top) and the heap start. */
void mem_setup_stack_and_heap(struct guest_memory *mem, uint64_t stack_size, uint64_t highest_end);

/* Linux brk(2): returns the new break, or the old one if `want` is refused. */
uint64_t mem_brk(struct guest_memory *mem, uint64_t want);

/* True when every byte of [addr, addr+len) is in pages with all `rights`. */
bool mem_range_has(const struct guest_memory *mem, uint64_t addr, uint64_t len, unsigned rights);

/*
 * A snapshot that a later mem_snapshot_restore returns to (SP1's
 * unconstrained blocks): every page loses its store bits, so that the
 * first store into a page goes slow and calls mem_snapshot_note, which
 * keeps the page's bytes and gives its bits back; restore copies the kept
 * pages back and recomputes the bits. Rights must not change meanwhile.
 * False when the host refuses memory (nothing changed).
 */
bool mem_snapshot_begin(struct guest_memory *mem);

/* Keeps the old bytes of the pages of [addr, addr+len) before a write; false when out of memory. */
bool mem_snapshot_note(struct guest_memory *mem, uint64_t addr, uint64_t len);

/* Puts back every byte written since mem_snapshot_begin, and ends the snapshot. */
void mem_snapshot_restore(struct guest_memory *mem);

/* The pages kept so far by the current snapshot (0 without one). */
size_t mem_snapshot_pages(const struct guest_memory *mem);

/* The start of the guest page holding `a`, and the first page boundary at or above it. */
static inline uint64_t guest_page_floor(uint64_t a)
{
    return a & ~(uint64_t)(GUEST_PAGE_SIZE - 1);
}

static inline uint64_t guest_page_ceil(uint64_t a)
{
    return guest_page_floor(a + GUEST_PAGE_SIZE - 1);
}

static inline unsigned mem_page_rights(const struct guest_memory *mem, uint64_t addr)
{
    return addr < GUEST_SPACE_SIZE ? mem->rights[addr >> GUEST_PAGE_SHIFT] : 0;
}

#endif
