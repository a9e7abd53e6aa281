/*
 * test_memory: page rights (granted by 4 KiB page, kept per 1 KiB entry,
 * at once or lazily), snapshots and Linux brk(2) semantics of the guest
 * address space.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "executor/memory.h"

static int setup(void **state)
{
    static struct guest_memory mem;
    if (!mem_init(&mem))
        return -1;
    mem_grant(&mem, 0x10000, 0x1800, PAGE_R | PAGE_X);
    mem_grant(&mem, 0x12000, 0x100, PAGE_R | PAGE_W);
    mem_setup_stack_and_heap(&mem, 1 << 20, 0x12100);
    *state = &mem;
    return 0;
}

static int teardown(void **state)
{
    mem_destroy(*state);
    return 0;
}

static void test_rights_are_page_granular(void **state)
{
    struct guest_memory *mem = *state;
    assert_true(mem_range_has(mem, 0x10000, 0x2000, PAGE_R | PAGE_X));
    assert_false(mem_range_has(mem, 0x10000, 0x2001, PAGE_X)); /* 0x12000 is data */
    assert_false(mem_range_has(mem, 0x10000, 4, PAGE_W));
    assert_true(mem_range_has(mem, 0x12000, 0x1000, PAGE_W));
    assert_int_equal(mem_page_rights(mem, 0x12000) & PAGE_STORE_OK, PAGE_STORE_OK);
    assert_int_equal(mem_page_rights(mem, 0x10000) & PAGE_STORE_OK, 0);
    assert_int_equal(mem_page_rights(mem, 0x100000000ull), 0);
    assert_false(mem_range_has(mem, 0xfffff000ull, 0x2000, PAGE_R)); /* wraps past 4 GiB */
}

static unsigned fast_bits(const struct guest_memory *mem, uint64_t addr)
{
    return mem_page_rights(mem, addr) & (PAGE_LOAD_FAST | PAGE_STORE_FAST);
}

/* The FAST bits of the last rights entry (1 KiB) of the 4 KiB page at `page`. */
static unsigned page_end_fast_bits(const struct guest_memory *mem, uint64_t page)
{
    return fast_bits(mem, page + GUEST_PAGE_SIZE - GUEST_RIGHTS_SIZE);
}

/*
 * A FAST bit promises that an access starting in the entry may run into
 * the next one: inside a page it always may, at a page's end only when
 * the next page allows it.
 */
static void test_fast_bits_need_the_next_page(void **state)
{
    (void)state;
    struct guest_memory mem;
    assert_true(mem_init(&mem));
    mem_grant(&mem, 0x20000, 0x2000, PAGE_R | PAGE_X);
    mem_grant(&mem, 0x22000, 0x1000, PAGE_R | PAGE_W);
    assert_int_equal(page_end_fast_bits(&mem, 0x20000), PAGE_LOAD_FAST);
    assert_int_equal(page_end_fast_bits(&mem, 0x21000), PAGE_LOAD_FAST); /* next page is data */
    assert_int_equal(page_end_fast_bits(&mem, 0x22000), 0);              /* nothing after it */
    assert_int_equal(fast_bits(&mem, 0x22800), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    mem_grant(&mem, 0x23000, 0x1000, PAGE_R | PAGE_W);
    assert_int_equal(page_end_fast_bits(&mem, 0x22000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(page_end_fast_bits(&mem, 0x23000), 0);
    mem_grant(&mem, 0x1f000, 0x1000, PAGE_R | PAGE_W); /* before code: no fast stores */
    assert_int_equal(page_end_fast_bits(&mem, 0x1f000), PAGE_LOAD_FAST);
    assert_int_equal(fast_bits(&mem, 0x1f000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    mem_grant(&mem, 0xfffff000ull, 0x1000, PAGE_R | PAGE_W); /* the last page has no next */
    assert_int_equal(page_end_fast_bits(&mem, 0xfffff000ull), 0);
    mem_setup_stack_and_heap(&mem, 0x4000, 0x24000);
    assert_int_equal(fast_bits(&mem, GUEST_STACK_TOP - 0x2000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(page_end_fast_bits(&mem, GUEST_STACK_TOP - 0x1000), 0);
    assert_int_equal(mem_brk(&mem, 0x25000), 0x25000); /* the heap follows page 0x23000 */
    assert_int_equal(page_end_fast_bits(&mem, 0x23000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(mem_brk(&mem, 0x24000), 0x24000); /* and shrinking takes it back */
    assert_int_equal(page_end_fast_bits(&mem, 0x23000), 0);
    mem_destroy(&mem);
}

/*
 * With the code fixed at load (the zkVM ABIs), stores into executable
 * pages cannot reach the code, so they keep the fast path: SP1's stack
 * top shares a page with code.
 */
static void test_fixed_code_stores_fast(void **state)
{
    (void)state;
    struct guest_memory mem;
    assert_true(mem_init(&mem));
    mem_fix_code(&mem);
    mem_grant(&mem, 0x1000, 0x300000, PAGE_R | PAGE_W);
    mem_grant(&mem, 0x200000, 0x9000, PAGE_X);
    assert_int_equal(mem_page_rights(&mem, 0x200000) & PAGE_STORE_OK, PAGE_STORE_OK);
    assert_int_equal(page_end_fast_bits(&mem, 0x1ff000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(fast_bits(&mem, 0x200000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    mem_destroy(&mem);
}

static void test_stack_region(void **state)
{
    struct guest_memory *mem = *state;
    assert_true(mem_range_has(mem, GUEST_STACK_TOP - (1 << 20), 1 << 20, PAGE_R | PAGE_W));
    assert_false(mem_range_has(mem, GUEST_STACK_TOP, 1, PAGE_R));
    assert_false(mem_range_has(mem, GUEST_STACK_TOP - (1 << 20) - 1, 1, PAGE_R));
}

static void test_brk_follows_linux(void **state)
{
    struct guest_memory *mem = *state;
    uint64_t start = mem_brk(mem, 0);
    assert_int_equal(start, 0x13000);                 /* page above the highest segment */
    assert_int_equal(mem_brk(mem, start - 1), start); /* below the start: refused */
    assert_int_equal(mem_brk(mem, start + 0x2345), start + 0x2345);
    assert_true(mem_range_has(mem, start, 0x3000, PAGE_R | PAGE_W));
    assert_false(mem_range_has(mem, start + 0x3000, 1, PAGE_R));
    mem->base[start + 0x2000] = 42;
    assert_int_equal(mem_brk(mem, start), start); /* shrink gives pages back */
    assert_false(mem_range_has(mem, start, 1, PAGE_R));
    assert_int_equal(mem_brk(mem, start + 0x3000), start + 0x3000);
    assert_int_equal(mem->base[start + 0x2000], 0); /* regrown memory reads zero */
    uint64_t cur = mem_brk(mem, 0);
    assert_int_equal(mem_brk(mem, GUEST_STACK_TOP - 16), cur); /* into the stack: refused */
}

/*
 * The top 1 GiB of the 64-bit space is in the window, just below guest
 * address 0 in the host: granted there, it holds bytes; an access that runs
 * past the top wraps to address 0 and is refused, and the window ends there.
 */
static void test_high_addresses(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t top_page = 0xFFFFFFFFFFFFF000ull, low_end = 0 - GUEST_HIGH_SPAN;
    assert_true(mem_init(&mem));
    assert_int_equal(mem_page_rights(&mem, top_page), 0);
    mem_grant(&mem, low_end, GUEST_HIGH_SPAN, PAGE_R | PAGE_W);
    mem_grant(&mem, 0, 0x2000, PAGE_R | PAGE_W);
    assert_true(mem_range_has(&mem, 0xFFFFFFFFFFFFFFF0ull, 16, PAGE_R | PAGE_W));
    assert_true(mem_range_has(&mem, low_end, 8, PAGE_W));
    assert_false(mem_range_has(&mem, 0xFFFFFFFFFFFFFFFCull, 8, PAGE_R)); /* wraps to 0 */
    assert_false(mem_range_has(&mem, low_end - 8, 16, PAGE_R));          /* below the window */
    assert_int_equal(mem_page_rights(&mem, low_end - 1), 0);
    assert_int_equal(mem_page_rights(&mem, 0x8000000000000000ull), 0);
    /* Fast bits run up to the top entry, which has none: its next one is address 0. */
    assert_int_equal(page_end_fast_bits(&mem, top_page - 0x1000), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(fast_bits(&mem, top_page), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(page_end_fast_bits(&mem, top_page), 0);
    assert_int_equal(fast_bits(&mem, 0), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    /* The high part lies just below address 0 in the host. */
    assert_ptr_equal(mem_host(&mem, 0xFFFFFFFFFFFFFFF0ull) + 16, mem.base);
    uint64_t v = 0x1122334455667788ull;
    mem_poke(&mem, 0xFFFFFFFFFFFFFFF8ull, &v, sizeof(v));
    assert_memory_equal(mem_host(&mem, 0xFFFFFFFFFFFFFFF8ull), &v, sizeof(v));
    mem_destroy(&mem);
}

/*
 * The page tracker (page_touch.h) takes the inline bits from every entry
 * and gives them back one 1 KiB entry at a time: an entry given loads
 * takes loads inline, and its FAST bit waits for its successor.
 */
static void test_tracking_is_per_kib(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t page = 0x40000;
    assert_true(mem_init(&mem));
    mem_grant(&mem, page, 0x2000, PAGE_R | PAGE_W);
    mem_track_strip_all(&mem);
    for (uint64_t a = page; a < page + 0x2000; a += GUEST_RIGHTS_SIZE)
        assert_int_equal(mem_page_rights(&mem, a) & ~(unsigned)(PAGE_R | PAGE_W), 0);
    assert_true(mem_range_has(&mem, page, 0x2000, PAGE_R | PAGE_W)); /* the rights stay */
    mem_track_give(&mem, guest_rights_entry(page + 0x400), false);
    assert_int_equal(mem_page_rights(&mem, page + 0x400), PAGE_R | PAGE_W | PAGE_LOAD_OK);
    assert_int_equal(mem_page_rights(&mem, page) & PAGE_LOAD_OK, 0);
    assert_int_equal(mem_page_rights(&mem, page + 0x800) & PAGE_LOAD_OK, 0);
    mem_track_give(&mem, guest_rights_entry(page + 0x800), true);
    assert_int_equal(fast_bits(&mem, page + 0x400), PAGE_LOAD_FAST);
    assert_int_equal(mem_page_rights(&mem, page + 0x800) & (PAGE_LOAD_OK | PAGE_STORE_OK),
                     PAGE_LOAD_OK | PAGE_STORE_OK);
    mem_track_strip(&mem, guest_rights_entry(page + 0x800));
    assert_int_equal(fast_bits(&mem, page + 0x400), 0);
    mem_destroy(&mem);
}

/*
 * When every access is aligned (mem_align_accesses: the zkVM ABIs that
 * fault misaligned ones), none crosses an entry: an entry's FAST bits need
 * only its own rights, at a page's end and when tracking gave it alone.
 */
static void test_aligned_accesses_need_no_next_entry(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t page = 0x60000;
    assert_true(mem_init(&mem));
    mem_align_accesses(&mem);
    mem_grant(&mem, page, 0x1000, PAGE_R | PAGE_W);
    assert_int_equal(page_end_fast_bits(&mem, page), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    const uint64_t last = GUEST_LOW_SPAN - 0x1000; /* the last entry still has none */
    mem_grant(&mem, last, 0x1000, PAGE_R | PAGE_W);
    assert_int_equal(page_end_fast_bits(&mem, last), 0);
    mem_track_strip_all(&mem);
    mem_track_give(&mem, guest_rights_entry(page + 0x400), false); /* its successor stripped */
    assert_int_equal(fast_bits(&mem, page + 0x400), PAGE_LOAD_FAST);
    mem_track_give(&mem, guest_rights_entry(page + 0x400), true);
    assert_int_equal(fast_bits(&mem, page + 0x400), PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(fast_bits(&mem, page), 0); /* its predecessor still waits */
    mem_destroy(&mem);
}

/*
 * A snapshot keeps the 1 KiB entries a store first reaches and puts their
 * bytes back; while it waits, tracking gives no store bits to an entry it
 * has not kept, so that the first store still reaches it.
 */
static void test_snapshot_keeps_each_kib(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t page = 0x50000;
    assert_true(mem_init(&mem));
    mem_grant(&mem, page, 0x1000, PAGE_R | PAGE_W);
    memset(mem_host(&mem, page), 7, 0x1000);
    assert_true(mem_snapshot_begin(&mem));
    assert_int_equal(mem_page_rights(&mem, page) & PAGE_STORE_OK, 0);
    mem_track_give(&mem, guest_rights_entry(page), true);
    assert_int_equal(mem_page_rights(&mem, page) & PAGE_STORE_OK, 0);
    assert_true(mem_snapshot_note(&mem, page + 0x3fc, 8)); /* two entries */
    assert_int_equal(mem_page_rights(&mem, page) & PAGE_SAVED, PAGE_SAVED);
    assert_int_equal(mem_page_rights(&mem, page + 0x400) & PAGE_SAVED, PAGE_SAVED);
    assert_int_equal(mem_page_rights(&mem, page + 0x800) & (PAGE_SAVED | PAGE_STORE_OK), 0);
    memset(mem_host(&mem, page + 0x3fc), 9, 8);
    mem_snapshot_restore(&mem);
    for (unsigned i = 0; i < 0x1000; i++)
        assert_int_equal(mem_host(&mem, page)[i], 7);
    for (uint64_t a = page; a < page + 0x1000; a += GUEST_RIGHTS_SIZE)
        assert_int_equal(mem_page_rights(&mem, a) & (PAGE_SAVED | PAGE_STORE_OK), PAGE_STORE_OK);
    mem_destroy(&mem);
}

/* The rights table's own byte for addr (mem_page_rights also reports lazily granted rights). */
static unsigned table_byte(const struct guest_memory *mem, uint64_t addr)
{
    return mem->rights[guest_rights_entry(addr)];
}

/*
 * A lazily granted region (SP1 v6: [0x1000, 2^40) read-write) has its
 * rights at once but writes none down: the table stays untouched until
 * mem_take_lazy takes the 64 KiB block of a touched page. The window
 * ends at 2^40. (Accesses aligned, as SP1's: an entry's FAST bits are its own.)
 */
static void test_lazy_rights_are_taken_at_first_touch(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t heap = 0x1bffffffe0ull, end = 1ull << 40;
    assert_true(mem_init(&mem));
    mem_align_accesses(&mem);
    assert_true(mem_grant_lazily(&mem, 0x1000, end - 0x1000, PAGE_R | PAGE_W));
    assert_true(mem_range_has(&mem, heap, 32, PAGE_R | PAGE_W));
    assert_true(mem_range_has(&mem, end - 8, 8, PAGE_W));
    assert_false(mem_range_has(&mem, end - 8, 16, PAGE_R)); /* the window ends at 2^40 */
    assert_false(mem_range_has(&mem, 0xff8, 8, PAGE_R));    /* below the region */
    assert_int_equal(mem_page_rights(&mem, heap) & (PAGE_R | PAGE_W | PAGE_X), PAGE_R | PAGE_W);
    assert_int_equal(mem_page_rights(&mem, end), 0);
    assert_int_equal(table_byte(&mem, heap), 0);
    assert_int_equal(mem.nused, 0); /* nothing written up front */
    assert_true(mem_take_lazy(&mem, heap, 8));
    assert_int_equal(table_byte(&mem, heap) & (PAGE_LOAD_FAST | PAGE_STORE_FAST),
                     PAGE_LOAD_FAST | PAGE_STORE_FAST);
    assert_int_equal(table_byte(&mem, heap & ~0xffffull), table_byte(&mem, heap)); /* its block */
    assert_int_equal(table_byte(&mem, (heap | 0xffff) + 1), 0); /* not the next */
    assert_int_equal(mem.nused, 1);
    mem_destroy(&mem);
}

/*
 * mem_protect sets a page's rights whatever it had; a lazily granted page
 * set to none stays without rights (a hole the slow path must not fill),
 * its neighbours keep theirs.
 */
static void test_protect_replaces_lazy_rights(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t page = 0x123456000ull;
    assert_true(mem_init(&mem));
    assert_true(mem_grant_lazily(&mem, 0x1000, (1ull << 40) - 0x1000, PAGE_R | PAGE_W));
    assert_true(mem_protect(&mem, page, GUEST_PAGE_SIZE, 0));
    assert_int_equal(mem_page_rights(&mem, page), 0);
    assert_false(mem_range_has(&mem, page + 8, 8, PAGE_R));
    assert_true(mem_take_lazy(&mem, page, 8));
    assert_int_equal(mem_page_rights(&mem, page), 0); /* not taken back */
    assert_true(mem_range_has(&mem, page + GUEST_PAGE_SIZE, 8, PAGE_R | PAGE_W));
    assert_true(mem_range_has(&mem, page - 8, 8, PAGE_R | PAGE_W));
    assert_true(mem_protect(&mem, page, GUEST_PAGE_SIZE, PAGE_R));
    assert_true(mem_range_has(&mem, page, GUEST_PAGE_SIZE, PAGE_R));
    assert_false(mem_range_has(&mem, page, 8, PAGE_W));
    assert_true(mem_protect(&mem, page, GUEST_PAGE_SIZE, PAGE_R | PAGE_W));
    assert_true(mem_range_has(&mem, page, GUEST_PAGE_SIZE, PAGE_R | PAGE_W));
    mem_destroy(&mem);
}

/*
 * During a snapshot a lazily granted page is kept when taken, by a store
 * (mem_snapshot_note) or a load's slow path (mem_take_lazy), so that the
 * fast stores that follow are undone too.
 */
static void test_snapshot_keeps_lazy_pages(void **state)
{
    (void)state;
    struct guest_memory mem;
    const uint64_t a = 0x200000000ull, b = 0x300000000ull;
    assert_true(mem_init(&mem));
    assert_true(mem_grant_lazily(&mem, 0x1000, (1ull << 40) - 0x1000, PAGE_R | PAGE_W));
    memset(mem_host(&mem, a), 5, 16); /* a call's write before: the page not taken */
    assert_true(mem_snapshot_begin(&mem));
    assert_true(mem_snapshot_note(&mem, a, 8));
    assert_true(mem_take_lazy(&mem, b, 8));
    assert_int_equal(mem_page_rights(&mem, b) & PAGE_SAVED, PAGE_SAVED);
    memset(mem_host(&mem, a), 9, 16);
    memset(mem_host(&mem, b), 9, 16);
    mem_snapshot_restore(&mem);
    for (unsigned i = 0; i < 16; i++) {
        assert_int_equal(mem_host(&mem, a)[i], 5);
        assert_int_equal(mem_host(&mem, b)[i], 0);
    }
    mem_destroy(&mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rights_are_page_granular),
        cmocka_unit_test(test_fast_bits_need_the_next_page),
        cmocka_unit_test(test_fixed_code_stores_fast),
        cmocka_unit_test(test_stack_region),
        cmocka_unit_test(test_brk_follows_linux),
        cmocka_unit_test(test_high_addresses),
        cmocka_unit_test(test_tracking_is_per_kib),
        cmocka_unit_test(test_snapshot_keeps_each_kib),
        cmocka_unit_test(test_aligned_accesses_need_no_next_entry),
        cmocka_unit_test(test_lazy_rights_are_taken_at_first_touch),
        cmocka_unit_test(test_protect_replaces_lazy_rights),
        cmocka_unit_test(test_snapshot_keeps_lazy_pages),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
