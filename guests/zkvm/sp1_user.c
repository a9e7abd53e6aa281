/*
 * sp1_user: an RV64 guest of SP1 v6's user mode, written to SP1's
 * conventions (sp1-zkvm's ELF note and trap context): its SUCCINCT note
 * names the region [_end, 0x1c_0000_0000) that MPROTECT works on, and
 * __SUCCINCT_TRAP_CONTEXT holds its trap handler (built with -DNO_HANDLER,
 * the ELF has no such symbol). The handler saves every register through
 * tp into a frame, records the trap, and returns with SIG_RETURN: past
 * the faulting instruction with a5 = 0xfeed, or for a fetch to the return
 * address. The first stdin item is a mode byte:
 *   0  memory above 4 GiB, then a store to a read-only page, a load from a
 *      page without rights, KECCAK_PERMUTE on each, a jump into a
 *      read-write page, KECCAK_PERMUTE on the page read-write again;
 *      writes [code, pc, t0, a5] of each trap and the state's first lane
 *      to the public values; halts 0
 *   1  MPROTECT of an address that is not page aligned
 *   2  MPROTECT of a page outside the note's region (its own data)
 *   3  MPROTECT of the page at 2^40
 *   4  SIG_RETURN without a trap: pc sp1u_landing, a0 = 33 (which halts with a0)
 *   5  a load from a page without rights
 *   6  the same with the context's handler set to a heap page
 *   7  MPROTECT a page to none, load from it and write what it read
 *   8  a jump into a page MPROTECT made readable and executable
 * The functions are named sp1_zkvm_* or sp1u_*.
 */
#include "sp1_guest.h"
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0x78000000\n"
                      "  call sp1_zkvm_start\n");

/* The note sp1-zkvm's `untrusted_programs` feature links (crates/zkvm/entrypoint/src/lib.rs). */
__asm__(".section .note.succinct, \"a\", @note\n"
        ".balign 4\n"
        ".word 9, 20, 1\n"      /* namesz, descsz, NOTE_UNTRUSTED_PROGRAM_ENABLED */
        ".asciz \"SUCCINCT\"\n" /* NOTE_NAME */
        ".balign 4\n"
        ".byte '1', 0, 0, 0\n" /* NOTE_DESC_HEADER */
        ".dword _end, 0x1c00000000\n"
        ".text\n");

enum {
    WRITE = 0x00000002,
    HINT_LEN = 0x000000F0,
    HINT_READ = 0x000000F1,
    KECCAK_PERMUTE = 0x00010109,
    MPROTECT = 0x00000132,
    SIG_RETURN = 0x00000134,
    FD_PUBLIC_VALUES = 13,
    PROT_NONE = 0,
    PROT_READ = 4,
    PROT_RW = 6,
    PROT_RX = 5,
};

#define HEAP  0x123456000ull /* above 4 GiB, inside the note's region */
#define FRESH 0x300000000ull /* never written */

/* SP1's TrapContext (crates/test-artifacts/programs/trap-load-store). */
struct trap_context {
    uint64_t handler, code, pc;
};

void sp1u_handler(void);
void sp1u_landing(void);
void sp1u_store(uint64_t *at, uint64_t value);
uint64_t sp1u_load(const uint64_t *at);
uint64_t sp1u_keccak(uint64_t *state);
void sp1u_jump(uint64_t target);

#ifdef NO_HANDLER
#define CONTEXT sp1u_context_unnamed
#else
#define CONTEXT __SUCCINCT_TRAP_CONTEXT
#endif
struct trap_context CONTEXT __attribute__((used)) = {(uint64_t)(uintptr_t)sp1u_handler, 0, 0};

/* The frame the handler fills through tp: pc, then x1..x31 (SIG_RETURN's layout). */
static uint64_t frame[32];

/*
 * The handler: every register into the frame (tp holds its address and
 * is never changed), the record, then SIG_RETURN with the frame.
 */
__asm__(".text\n"
        ".globl sp1u_handler\n"
        "sp1u_handler:\n"
        ".irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,"
        "30,31\n"
        "  sd x\\n, 8*\\n(tp)\n"
        ".endr\n"
        "  mv a0, tp\n"
        "  call sp1u_on_trap\n"
        "  mv a0, tp\n"
        "  li t0, 0x134\n"
        "  ecall\n"
        /* The accesses that trap, each at a global label (the tests read their pcs). */
        ".globl sp1u_store, sp1u_load, sp1u_load_at, sp1u_keccak, sp1u_keccak_at, sp1u_jump\n"
        "sp1u_store:\n"
        "  sd a1, 16(a0)\n"
        "  ret\n"
        "sp1u_load:\n"
        "  li a5, 0x5a5a\n"
        "sp1u_load_at:\n"
        "  ld a5, 8(a0)\n"
        "  mv a0, a5\n"
        "  ret\n"
        "sp1u_keccak:\n"
        "  li t0, 0x10109\n"
        "  li a1, 0\n"
        "sp1u_keccak_at:\n"
        "  ecall\n"
        "  mv a0, t0\n"
        "  ret\n"
        "sp1u_jump:\n"
        "  jr a0\n"
        ".globl sp1u_landing\n"
        "sp1u_landing:\n" /* halts with a0 */
        "  li t0, 0\n"
        "  ecall\n");

static void mprotect_page(uint64_t page, unsigned prot)
{
    sp1_zkvm_syscall(MPROTECT, page, prot, 0);
}

static void write_public(const void *p, size_t n)
{
    sp1_zkvm_syscall(WRITE, FD_PUBLIC_VALUES, (uintptr_t)p, n);
}

/* What each trap showed the handler: its code and pc, and t0 and a5 then. */
static uint64_t records[8][4];
static unsigned nrecords;

/* Records the trap and sets where SIG_RETURN goes on. */
void sp1u_on_trap(uint64_t *f)
{
    if (nrecords == 8)
        halt(12);
    uint64_t *r = records[nrecords++];
    r[0] = CONTEXT.code;
    r[1] = CONTEXT.pc;
    r[2] = f[5];
    r[3] = f[15];
    if (CONTEXT.code == 1) { /* a fetch: back to the caller of the jump */
        f[0] = f[1];
    } else {
        f[0] = CONTEXT.pc + 4;
        f[15] = 0xfeed;
    }
}

static uint8_t mode_item[16] __attribute__((aligned(8)));

static unsigned read_mode(void)
{
    uintptr_t len = sp1_zkvm_syscall(HINT_LEN, 0, 0, 0);
    if (len == 0 || len > 8)
        halt(9);
    sp1_zkvm_syscall(HINT_READ, (uintptr_t)mode_item, len, 0);
    return mode_item[0];
}

/* Memory above 4 GiB, then every kind of trap; the records and the state to the public values. */
static void traps(void)
{
    volatile uint64_t *heap = (volatile uint64_t *)HEAP;
    heap[0] = 0x1122334455667788ull;
    if (heap[0] != 0x1122334455667788ull || *(volatile uint64_t *)FRESH != 0)
        halt(10);
    mprotect_page(HEAP, PROT_READ);
    sp1u_store((uint64_t *)HEAP, 0xdead);
    if (heap[2] != 0)
        halt(11); /* the store did not happen */
    mprotect_page(HEAP, PROT_NONE);
    if (sp1u_load((const uint64_t *)HEAP) != 0xfeed)
        halt(13);
    sp1u_keccak((uint64_t *)HEAP);
    mprotect_page(HEAP, PROT_READ);
    sp1u_keccak((uint64_t *)HEAP);
    sp1u_jump(HEAP + 24);
    mprotect_page(HEAP, PROT_RW);
    heap[0] = 0;
    sp1u_keccak((uint64_t *)HEAP); /* runs: the state was zeros */
    uint64_t lane = heap[0];
    write_public(records, nrecords * sizeof(records[0]));
    write_public(&lane, sizeof(lane));
}

/* SIG_RETURN with a frame no trap made: SP1 restores it all the same. */
static void sig_return_without_trap(void)
{
    frame[0] = (uint64_t)(uintptr_t)sp1u_landing;
    frame[10] = 33;
    register uintptr_t t0 __asm__("t0") = SIG_RETURN;
    register uintptr_t a0 __asm__("a0") = (uintptr_t)frame;
    __asm__ volatile("ecall" : "+r"(t0) : "r"(a0) : "memory");
    halt(14); /* not reached */
}

void sp1_zkvm_start(void)
{
    __asm__ volatile("mv tp, %0" : : "r"(frame));
    unsigned mode = read_mode();
    switch (mode) {
    case 0: traps(); break;
    case 1: mprotect_page(HEAP + 8, PROT_READ); break;
    case 2: mprotect_page((uint64_t)(uintptr_t)&nrecords & ~0xfffull, PROT_READ); break;
    case 3: mprotect_page(1ull << 40, PROT_READ); break;
    case 4: sig_return_without_trap(); break;
    case 5:
    case 6:
    case 7: {
        if (mode == 6)
            CONTEXT.handler = HEAP;
        *(volatile uint64_t *)HEAP = 77;
        mprotect_page(HEAP, PROT_NONE);
        uint64_t v = sp1u_load((const uint64_t *)(HEAP - 8)); /* loads 8(a0): HEAP */
        write_public(&v, sizeof(v));
        break;
    }
    case 8:
        mprotect_page(HEAP, PROT_RX);
        sp1u_jump(HEAP + 24);
        break;
    default: halt(8);
    }
    halt(0);
}
