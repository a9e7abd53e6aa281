/*
 * risc0: the ABI of RISC Zero guests (the user program of a RISC Zero
 * program binary, or a plain user ELF), as the user-mode ecalls of
 * risc0-zkvm-platform define it. Docs: docs/ZKVMS.md.
 *
 * User memory is one flat read-write space [0x1_0000, 0xC000_0000), the
 * program decoded once from the ELF, registers zero at entry (the guest's
 * _start sets gp and sp, 0x0020_0400). An ecall's kind is in t0:
 *   HALT      a0 = halt type | exit code << 8, a1 = the output digest
 *   INPUT     a0 = word index: the input digest's word (zero: none given)
 *   SOFTWARE  a2 = the call's name ("risc0_zkvm_platform::syscall::nr::
 *             SYS_READ"), a0/a1 = the buffer the host fills and its
 *             length in words, a3.. arguments; results in a0, a1
 *   SHA       a0 = out state, a1 = in state, a2/a3 = the two halves of
 *             the first block, a4 = blocks (states big-endian words)
 *   BIGINT    a0 = z, a1 = op (0: z = x * y mod N), a2 = x, a3 = y, a4 = N
 *   BIGINT2   a0 = the blob (a header of 4 words: sizes in words of the
 *             nondeterministic program, the verify program, the
 *             constants, and the temporary space the caller took off
 *             sp), t1 / t2 / t3 = the two programs and the constants;
 *             a1-a6 and sp are the arenas the program loads and stores
 *   POSEIDON2 a0 = state, a1 = input, a2 = output: WORD addresses (byte
 *             address / 4), state 0 for none; a3 = blocks | 0x8000_0000
 *             (input words are whole field elements, 16 a block; else
 *             each word holds two 16-bit ones, 8 words a block) |
 *             0x4000_0000 (compare the output with memory, not write it)
 * Standard input (fd 0) is the --input files one after the other; fd 3,
 * the journal, goes to --public-output; SYS_PIPE's pipes are fds 4 on.
 * Each software call does what RISC Zero's host does for it (sw_calls);
 * receipts are not verified, so SYS_VERIFY_INTEGRITY needs
 * --no-verify-assumptions. Under the `cycles` weight each call also costs
 * what RISC Zero's kernel and executor spend on it (risc0_cycles.h), and
 * the memory they touch for it is paged (page_touch_call, page_touch_host).
 */
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include <stdlib.h>

#include "executor/abi/risc0_cycles.h"
#include "executor/machine.h"
#include "executor/page_touch.h"
#include "executor/precompile/bigint.h"
#include "executor/precompile/bigint2.h"
#include "executor/precompile/keccak.h"
#include "executor/precompile/poseidon2.h"
#include "executor/precompile/sha256.h"

enum risc0_kind {
    RISC0_HALT = 0,
    RISC0_INPUT = 1,
    RISC0_SOFTWARE = 2,
    RISC0_SHA = 3,
    RISC0_BIGINT = 4,
    RISC0_USER = 5,
    RISC0_BIGINT2 = 6,
    RISC0_POSEIDON2 = 7,
};

static const char *const kind_names[] = {"HALT",   "INPUT", "SOFTWARE", "SHA",
                                         "BIGINT", "USER",  "BIGINT2",  "POSEIDON2"};

enum {
    RISC0_MEMORY_START = 0x00010000,
    RISC0_MEMORY_END = 0xC0000000,
    RISC0_HALT_TERMINATE = 0,
    RISC0_HALT_PAUSE = 1,
    RISC0_FD_JOURNAL = 3,
    RISC0_MAX_SHA_BLOCKS = 1000,
    RISC0_DIGEST_WORDS = 8,
    RISC0_BIGINT2_END = 0xBFFF0000,     /* a bigint2 load or store starts below */
    RISC0_MAX_BIGINT2_WORDS = 1u << 22, /* the widest nondeterministic program taken */
    RISC0_P2_IS_ELEM = 0x80000000u,
    RISC0_P2_CHECK_OUT = 0x40000000u,
    RISC0_DIGEST_BYTES = 32,
    RISC0_FD_FIRST_PIPE = 4, /* fds 0-3 are stdin, stdout, stderr and the journal */
    RISC0_MAX_FD = 1000,     /* RISC Zero's host opens no fd from 1000 */
    RISC0_KECCAK_STATE_WORDS = 50,
    RISC0_KECCAK_MAX_INPUTS = (1 << 17) / 200, /* permutations the keccak circuit (po2 17) takes */
    RISC0_ECALL_DISPATCH = 0xFFFF1000,         /* where a user ecall reads the kernel's entry */
};

#define RISC0_MAX_PIPE_BYTES ((size_t)1 << 30)

enum { REG_T1 = 6, REG_T2 = 7, REG_T3 = 28 };

#define RISC0_NAME_PREFIX "risc0_zkvm_platform::syscall::nr::"

/* A pipe: the bytes written to it, of which those before head are read. */
struct risc0_pipe {
    uint8_t *data;
    size_t len, cap, head;
};

struct risc0_state {
    size_t input;        /* which --input is being read */
    size_t input_offset; /* how far into it */
    uint64_t rng;        /* SYS_RANDOM: a fixed-seed generator, so runs repeat */
    int halt_type;       /* -1 until the guest halts */
    uint8_t output_digest[32];
    char panic[256];           /* SYS_PANIC's message */
    char panic_why[400];       /* it, and where input comes from */
    char why[256];             /* a call's fault, formatted */
    struct sha256_ctx journal; /* its digest, as it is written */
    struct risc0_pipe *pipes;  /* SYS_PIPE's, fd 4 + index */
    size_t npipes;
    uint64_t unverified;      /* SYS_VERIFY_INTEGRITY claims taken with --no-verify-assumptions */
    uint64_t unresolved;      /* SYS_VERIFY_INTEGRITY2 claims, which RISC Zero leaves unresolved */
    uint64_t keccak_permutes; /* SYS_KECCAK mode 0 */
    uint64_t keccak_proves;   /* SYS_KECCAK mode 1: batches proving would take */
    uint32_t keccak_batch;    /* permutations since the last mode 1 */
    uint64_t cycles;          /* the call's user cycles in RISC Zero (risc0_cycles.h) */
};

/* ---- file descriptors: fd 0 the --input files, pipes from fd 4 ---- */

static size_t read_input(struct machine *m, struct risc0_state *st, uint8_t *dst, size_t want)
{
    size_t done = 0;
    while (done < want && st->input < m->io.ninputs) {
        const struct machine_input *in = &m->io.inputs[st->input];
        size_t n = in->size - st->input_offset;
        if (n > want - done)
            n = want - done;
        memcpy(dst + done, in->data + st->input_offset, n);
        done += n;
        st->input_offset += n;
        if (st->input_offset == in->size) {
            st->input++;
            st->input_offset = 0;
        }
    }
    return done;
}

/* The pipe SYS_PIPE made with this fd, or NULL. */
static struct risc0_pipe *find_pipe(struct risc0_state *st, uint64_t fd)
{
    return fd >= RISC0_FD_FIRST_PIPE && fd - RISC0_FD_FIRST_PIPE < st->npipes
               ? &st->pipes[fd - RISC0_FD_FIRST_PIPE]
               : NULL;
}

/* Up to `want` bytes of fd 0 or a pipe; fewer at its end. */
static size_t read_fd(struct machine *m, struct risc0_state *st, uint64_t fd, uint8_t *dst,
                      size_t want)
{
    struct risc0_pipe *p = find_pipe(st, fd);
    if (!p)
        return read_input(m, st, dst, want);
    size_t n = p->len - p->head < want ? p->len - p->head : want;
    if (n == 0)
        return 0;
    memcpy(dst, p->data + p->head, n);
    p->head += n;
    if (p->head == p->len)
        p->head = p->len = 0;
    return n;
}

static bool pipe_append(struct risc0_pipe *p, const uint8_t *bytes, size_t len)
{
    if (len == 0)
        return true;
    if (len > RISC0_MAX_PIPE_BYTES - p->len)
        return false;
    if (p->len + len > p->cap) {
        size_t cap = 2 * (p->len + len);
        uint8_t *data = realloc(p->data, cap);
        if (!data)
            return false;
        p->data = data;
        p->cap = cap;
    }
    memcpy(p->data + p->len, bytes, len);
    p->len += len;
    return true;
}

/* ---- software calls ---- */

struct sw_call {
    const char *name;    /* the frame: "sys_read" */
    uint64_t buf, words; /* a0, a1: the buffer the host fills */
    uint64_t a3, a4, a5;
    uint32_t ret0, ret1; /* what goes back in a0, a1 */
};

static enum ecall_result sw_fault(struct machine *m, const struct sw_call *c, uint64_t addr,
                                  const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, c->name, addr, why);
}

/* The calls that send nothing back: a1 = 0, as RISC Zero's host requires. */
static bool no_buffer(const struct sw_call *c)
{
    return c->words == 0;
}

/*
 * SYS_READ: a3 = fd, a4 = bytes wanted. The platform before the kernel
 * split (1.x) passes the buffer's whole words in a1 and takes the last
 * partial word back in a1; later ones pass a1 = a4, bytes, and the kernel
 * fills the buffer whole. The two agree only when nothing is read.
 */
static enum ecall_result sw_read(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    uint64_t fd = c->a3, nbytes = c->a4, main_bytes = c->words == nbytes ? nbytes : 4 * c->words;
    if (fd != 0 && !find_pipe(st, fd))
        return sw_fault(m, c, fd, "only fd 0 (the --input files) and pipes can be read");
    if (main_bytes > nbytes || nbytes - main_bytes > 4)
        return sw_fault(m, c, nbytes, "the byte count does not fit the buffer");
    if (!mem_range_has(&m->mem, c->buf, main_bytes, PAGE_W))
        return sw_fault(m, c, c->buf, "the buffer is not in memory");
    size_t got = read_fd(m, st, fd, m->mem.base + c->buf, main_bytes);
    code_cache_invalidate(&m->code, c->buf, main_bytes);
    uint8_t tail[4] = {0};
    size_t extra = got == main_bytes ? read_fd(m, st, fd, tail, nbytes - main_bytes) : 0;
    c->ret0 = (uint32_t)(got + extra);
    memcpy(&c->ret1, tail, 4); /* the last partial word, little-endian */
    return ECALL_CONTINUE;
}

static enum ecall_result sw_write(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    uint64_t fd = c->a3, ptr = c->a4, len = c->a5;
    if (!mem_range_has(&m->mem, ptr, len, PAGE_R))
        return sw_fault(m, c, ptr, "the buffer is not in memory");
    const uint8_t *bytes = m->mem.base + ptr;
    struct risc0_pipe *p = find_pipe(st, fd);
    bool ok;
    if (p) {
        if (!pipe_append(p, bytes, len))
            return sw_fault(m, c, fd, "the pipe would hold more than 1 GiB");
        return ECALL_CONTINUE;
    }
    switch (fd) {
    case 1: ok = abi_write_fd(m->io.stdout_fd, bytes, len); break;
    case 2: ok = abi_write_fd(m->io.stderr_fd, bytes, len); break;
    case RISC0_FD_JOURNAL:
        sha256_update(&st->journal, bytes, len);
        ok = abi_write_fd(m->io.public_output_fd, bytes, len);
        break;
    default: return sw_fault(m, c, fd, "only fds 1, 2, 3 (the journal) and pipes can be written");
    }
    if (!ok)
        return sw_fault(m, c, fd, "the host could not write it");
    return ECALL_CONTINUE;
}

/* SYS_LOG and SYS_PANIC: a3 = message, a4 = its length. */
static bool message(const struct machine *m, const struct sw_call *c, char *out, size_t size)
{
    uint64_t len = c->a4 < size - 1 ? c->a4 : size - 1;
    if (!abi_load(m, c->a3, out, len))
        return false;
    out[len] = '\0';
    return true;
}

static enum ecall_result sw_log(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    (void)st;
    char text[1024];
    if (!message(m, c, text, sizeof(text)))
        return sw_fault(m, c, c->a3, "the message is not in memory");
    if (m->io.stderr_fd >= 0) {
        abi_write_fd(m->io.stderr_fd, text, strlen(text));
        abi_write_fd(m->io.stderr_fd, "\n", 1);
    }
    return ECALL_CONTINUE;
}

static enum ecall_result sw_panic(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    if (!message(m, c, st->panic, sizeof(st->panic)))
        snprintf(st->panic, sizeof(st->panic), "(message not in memory)");
    if (m->io.ninputs == 0) /* a guest's env::read of nothing panics: say where input comes from */
        snprintf(st->panic_why, sizeof(st->panic_why),
                 "%s (no input was given: if the guest reads some, give it with --input FILE)",
                 st->panic);
    return abi_fault(m, FAULT_GUEST_PANIC, c->name, 0,
                     m->io.ninputs == 0 ? st->panic_why : st->panic);
}

static enum ecall_result sw_cycle_count(struct machine *m, struct risc0_state *st,
                                        struct sw_call *c)
{
    (void)st;
    c->ret0 = (uint32_t)(m->ecall_clock >> 32);
    c->ret1 = (uint32_t)m->ecall_clock;
    return ECALL_CONTINUE;
}

static uint32_t next_random(struct risc0_state *st)
{
    st->rng = st->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(st->rng >> 32);
}

static enum ecall_result sw_random(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    if (c->words > (1u << 20) || !mem_range_has(&m->mem, c->buf, 4 * c->words, PAGE_W))
        return sw_fault(m, c, c->buf, "the buffer is not in memory");
    for (uint64_t i = 0; i < c->words; i++) {
        uint32_t w = next_random(st);
        abi_store(m, c->buf + 4 * i, &w, 4);
    }
    return ECALL_CONTINUE;
}

/* SYS_ARGC: the host passes no arguments (ExecutorEnv::args is empty). */
static enum ecall_result sw_argc(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    (void)st;
    if (!no_buffer(c))
        return sw_fault(m, c, c->words, "a1 must be 0 (RISC Zero's host sends nothing back)");
    c->ret0 = 0;
    return ECALL_CONTINUE;
}

/* SYS_ARGV: a3 = index; with no arguments every index is past the end, as on RISC Zero's host. */
static enum ecall_result sw_argv(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    (void)st;
    return sw_fault(m, c, c->a3,
                    "no argument has this index: the guest runs with none (sys_argc is 0; "
                    "RISC Zero's host passes ExecutorEnv::args, this executor none)");
}

/* SYS_GETENV: no variable is set. */
static enum ecall_result sw_getenv(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    (void)m, (void)st;
    c->ret0 = UINT32_MAX;
    return ECALL_CONTINUE;
}

/* SYS_PIPE: a0 = where the two fds go (a1 = 2). RISC Zero gives both ends one new fd. */
static enum ecall_result sw_pipe(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    if (c->words != 2)
        return sw_fault(m, c, c->words, "a1 must be 2 (the read and the write fd)");
    if (RISC0_FD_FIRST_PIPE + st->npipes >= RISC0_MAX_FD)
        return sw_fault(m, c, RISC0_MAX_FD, "no fd is left below 1000 (RISC Zero's limit)");
    uint32_t fd = (uint32_t)(RISC0_FD_FIRST_PIPE + st->npipes), fds[2] = {fd, fd};
    if (!abi_store_words(m, c->buf, fds, 2))
        return sw_fault(m, c, c->buf, "the buffer (a0) is not in memory");
    struct risc0_pipe *pipes = realloc(st->pipes, (st->npipes + 1) * sizeof(*pipes));
    if (!pipes)
        return sw_fault(m, c, fd, "the host is out of memory");
    st->pipes = pipes;
    st->pipes[st->npipes++] = (struct risc0_pipe){0};
    return ECALL_CONTINUE;
}

/*
 * SYS_VERIFY_INTEGRITY and 2: a3 = a claim digest and a control root (a4
 * = 64 bytes), a1 = 0. Loads them into `claim` (its hex for messages).
 */
static enum ecall_result load_claim(struct machine *m, const struct sw_call *c, char hex[65])
{
    uint8_t claim[2 * RISC0_DIGEST_BYTES];
    if (!no_buffer(c) || c->a4 != sizeof(claim))
        return sw_fault(m, c, c->a4,
                        "a1 must be 0 and a4 64 (a claim digest and a control root at a3)");
    if (!abi_load(m, c->a3, claim, sizeof(claim)))
        return sw_fault(m, c, c->a3, "the claim digest and control root (a3) are not in memory");
    for (int i = 0; i < RISC0_DIGEST_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", claim[i]);
    return ECALL_CONTINUE;
}

/* env::verify: RISC Zero's host resolves the claim with a receipt added as an assumption. */
static enum ecall_result sw_verify(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    char hex[65];
    if (load_claim(m, c, hex) != ECALL_CONTINUE)
        return ECALL_FAULT;
    if (!m->io.unverified_assumptions) {
        snprintf(st->why, sizeof(st->why),
                 "claim %s needs a receipt (ExecutorEnv::add_assumption), and this executor "
                 "verifies none; --no-verify-assumptions accepts claims unverified",
                 hex);
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, c->name, c->a3, st->why);
    }
    st->unverified++;
    return ECALL_CONTINUE;
}

/* env::verify_assumption2: RISC Zero's host records the claim unresolved and goes on. */
static enum ecall_result sw_verify2(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    char hex[65];
    if (load_claim(m, c, hex) != ECALL_CONTINUE)
        return ECALL_FAULT;
    st->unresolved++;
    return ECALL_CONTINUE;
}

/*
 * SYS_KECCAK (3.x): a3 = mode. 0 permutes the 25 little-endian lanes at a4
 * into the buffer at a0 (a1 = 50 words) and returns 1 in a0 when the batch
 * the keccak circuit proves at once is full; 1 asks to prove the batch (a4
 * = its claim digest, a5 = the control root) and starts the next.
 */
static enum ecall_result keccak_permute(struct machine *m, struct risc0_state *st,
                                        struct sw_call *c)
{
    uint64_t lanes[25];
    if (st->keccak_batch >= RISC0_KECCAK_MAX_INPUTS)
        return sw_fault(m, c, st->keccak_batch,
                        "the batch is full (655 permutations): the guest must prove it (mode 1)");
    if (c->words != RISC0_KECCAK_STATE_WORDS)
        return sw_fault(m, c, c->words, "a1 must be 50, the state's words");
    if (!abi_load(m, c->a4, lanes, sizeof(lanes)))
        return sw_fault(m, c, c->a4, "the input state (a4) is not in memory");
    keccak_f1600(lanes);
    if (!abi_store(m, c->buf, lanes, sizeof(lanes)))
        return sw_fault(m, c, c->buf, "the output state (a0) is not in memory");
    st->keccak_permutes++;
    st->keccak_batch++;
    c->ret0 = st->keccak_batch >= RISC0_KECCAK_MAX_INPUTS;
    return ECALL_CONTINUE;
}

static enum ecall_result keccak_prove(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    uint8_t digest[RISC0_DIGEST_BYTES];
    if (!no_buffer(c))
        return sw_fault(m, c, c->words, "a1 must be 0 to prove the batch");
    if (!abi_load(m, c->a4, digest, sizeof(digest)) || !abi_load(m, c->a5, digest, sizeof(digest)))
        return sw_fault(m, c, c->a4, "the claim digest (a4) or control root (a5) is not in memory");
    st->keccak_proves++;
    st->keccak_batch = 0;
    return ECALL_CONTINUE;
}

static enum ecall_result sw_keccak(struct machine *m, struct risc0_state *st, struct sw_call *c)
{
    switch (c->a3) {
    case 0: return keccak_permute(m, st, c);
    case 1: return keccak_prove(m, st, c);
    default: return sw_fault(m, c, c->a3, "an invalid mode (a3): 0 permutes, 1 proves");
    }
}

typedef enum ecall_result (*sw_handler)(struct machine *, struct risc0_state *, struct sw_call *);

/* How the 2.x kernel passes a software call to the host (zkos/v1compat/src/main.rs). */
enum sw_host {
    SW_SYSCALL, /* host_syscall: a read of nothing */
    SW_A0_A1,   /* host_syscall_a0_a1: that, then the two result words */
    SW_TRUNC,   /* host_ecall_read_trunc into the buffer (1 KiB at most), the result words */
    SW_RANDOM,  /* a read into the buffer per KiB */
    SW_READ,    /* sys_read: per KiB, a read of its whole words and the result words */
};

/* A host read of `len` bytes into the guest at `ptr`: its stores paged, its cycles. */
static uint64_t host_read(struct machine *m, uint64_t ptr, uint64_t len)
{
    page_touch_host(m, ptr, len, true);
    return risc0_cycles_host_read(ptr, len);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/*
 * sys_read's host reads for `got` of the a4 bytes wanted: each KiB's whole
 * words from the host, the result words, the last bytes copied by the
 * kernel; a KiB read short ends it.
 */
static uint64_t read_chunks(struct machine *m, const struct sw_call *c, uint64_t got)
{
    uint64_t cycles = 0;
    for (uint64_t at = 0; at < c->a4; at += RISC0_IO_CHUNK_BYTES) {
        uint64_t len = min_u64(RISC0_IO_CHUNK_BYTES, c->a4 - at), whole = len & ~3ull;
        uint64_t nread = got > at ? min_u64(len, got - at) : 0;
        cycles += host_read(m, c->buf + at, whole) + risc0_cycles_host_a0_a1();
        if (nread > whole)
            page_touch_host(m, c->buf + at + whole, nread - whole, true);
        if (nread < len)
            break;
    }
    return cycles;
}

/* The cycles of the host reads a software call makes, its pages touched (risc0_cycles.h). */
static uint64_t sw_host_cycles(struct machine *m, enum sw_host how, const struct sw_call *c)
{
    uint64_t bytes = 4 * c->words, cycles = 0;
    switch (how) {
    case SW_SYSCALL: return risc0_cycles_host_syscall();
    case SW_A0_A1: return risc0_cycles_host_syscall() + risc0_cycles_host_a0_a1();
    case SW_TRUNC:
        return host_read(m, c->buf, min_u64(bytes, RISC0_IO_CHUNK_BYTES)) +
               risc0_cycles_host_a0_a1();
    case SW_RANDOM:
        for (uint64_t at = 0; at < bytes; at += RISC0_IO_CHUNK_BYTES)
            cycles += host_read(m, c->buf + at, min_u64(RISC0_IO_CHUNK_BYTES, bytes - at));
        return cycles;
    case SW_READ: return read_chunks(m, c, c->ret0);
    }
    return 0;
}

/* Why a call RISC Zero's own executor does not run either stops here. */
#define NO_HANDLER "RISC Zero's executor has no handler for it either (Unknown syscall)"

/*
 * The software calls, by the name after the platform's prefix: the
 * handler, or why the call stops the run (docs/ZKVMS.md).
 */
static const struct sw_entry {
    const char *nr;   /* "SYS_READ" */
    const char *name; /* the frame: "sys_read" */
    sw_handler run;
    const char *refused;
    enum sw_host host;
} sw_calls[] = {
    {"SYS_READ", "sys_read", sw_read, NULL, SW_READ},
    {"SYS_WRITE", "sys_write", sw_write, NULL, SW_SYSCALL},
    {"SYS_LOG", "sys_log", sw_log, NULL, SW_SYSCALL},
    {"SYS_PANIC", "sys_panic", sw_panic, NULL, SW_SYSCALL},
    {"SYS_CYCLE_COUNT", "sys_cycle_count", sw_cycle_count, NULL, SW_A0_A1},
    {"SYS_RANDOM", "sys_random", sw_random, NULL, SW_RANDOM},
    {"SYS_ARGC", "sys_argc", sw_argc, NULL, SW_A0_A1},
    {"SYS_ARGV", "sys_argv", sw_argv, NULL, SW_TRUNC},
    {"SYS_GETENV", "sys_getenv", sw_getenv, NULL, SW_TRUNC},
    {"SYS_PIPE", "sys_pipe", sw_pipe, NULL, SW_TRUNC},
    {"SYS_KECCAK", "sys_keccak", sw_keccak, NULL, SW_TRUNC},
    {"SYS_VERIFY_INTEGRITY", "sys_verify_integrity", sw_verify, NULL, SW_A0_A1},
    {"SYS_VERIFY_INTEGRITY2", "sys_verify_integrity2", sw_verify2, NULL, SW_A0_A1},
    {"SYS_EXIT", "sys_exit", NULL, NO_HANDLER, SW_A0_A1},
    {"SYS_FORK", "sys_fork", NULL, NO_HANDLER " (its fork handler is disabled)", SW_A0_A1},
    {"SYS_EXECUTE_ZKR", "sys_execute_zkr", NULL, NO_HANDLER, SW_SYSCALL},
    {"SYS_PROVE_ZKR", "sys_prove_zkr", NULL,
     "it asks the host to prove a recursion program registered with it (1.x, unstable); 2.x "
     "and 3.x executors have no handler",
     SW_SYSCALL},
    {"SYS_PROVE_KECCAK", "sys_prove_keccak", NULL,
     "it asks a keccak coprocessor to prove (1.x, unstable; RISC Zero's executor stops without "
     "one); 3.x proves through SYS_KECCAK mode 1",
     SW_SYSCALL},
};

/* The platform's prefixes: "risc0_zkvm_platform::syscall::nr::", and 3.x's deprecated one. */
static const char *const sw_prefixes[] = {RISC0_NAME_PREFIX, "risc0-zkvm-platform::syscall::"};

static const struct sw_entry *find_sw_call(const char *full)
{
    const char *nr = full;
    for (size_t i = 0; i < sizeof(sw_prefixes) / sizeof(sw_prefixes[0]); i++)
        if (strncmp(full, sw_prefixes[i], strlen(sw_prefixes[i])) == 0)
            nr = full + strlen(sw_prefixes[i]);
    for (size_t i = 0; i < sizeof(sw_calls) / sizeof(sw_calls[0]); i++)
        if (strcmp(sw_calls[i].nr, nr) == 0)
            return &sw_calls[i];
    return NULL;
}

/* The NUL-terminated name at addr, at most size - 1 bytes; false when unreadable. */
static bool load_name(const struct machine *m, uint64_t addr, char *out, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        if (!abi_load(m, addr + i, &out[i], 1))
            return false;
        if (!out[i])
            return true;
    }
    out[size - 1] = '\0';
    return true;
}

static enum ecall_result risc0_software(struct machine *m, struct risc0_state *st,
                                        const char **call)
{
    char full[128];
    uint64_t name_at = machine_get_reg(m, REG_A2);
    if (!load_name(m, name_at, full, sizeof(full)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "SOFTWARE", name_at,
                         "the call's name (a2) is not in memory");
    const struct sw_entry *e = find_sw_call(full);
    if (!e) {
        snprintf(st->why, sizeof(st->why),
                 "\"%s\" is no call of RISC Zero's platform (a host's own ExecutorEnv::io_callback "
                 "cannot run here)",
                 full);
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "SOFTWARE", name_at, st->why);
    }
    *call = e->name;
    if (!e->run)
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, e->name, 0, e->refused);
    struct sw_call c = {
        .name = e->name,
        .buf = machine_get_reg(m, REG_A0),
        .words = machine_get_reg(m, REG_A1),
        .a3 = machine_get_reg(m, REG_A3),
        .a4 = machine_get_reg(m, REG_A4),
        .a5 = machine_get_reg(m, REG_A5),
    };
    enum ecall_result r = e->run(m, st, &c);
    if (r == ECALL_CONTINUE) {
        machine_set_reg(m, REG_A0, c.ret0);
        machine_set_reg(m, REG_A1, c.ret1);
        st->cycles = risc0_cycles_software(sw_host_cycles(m, e->host, &c));
    }
    return r;
}

/* ---- the other kinds ---- */

static enum ecall_result risc0_halt(struct machine *m, struct risc0_state *st)
{
    uint64_t a0 = machine_get_reg(m, REG_A0), digest = machine_get_reg(m, REG_A1);
    int type = (int)(a0 & 0xff);
    if (type != RISC0_HALT_TERMINATE && type != RISC0_HALT_PAUSE)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HALT", a0, "an illegal halt type");
    /*
     * The kernel copies the digest in machine mode, with no check of a1
     * (risc0/zkos/v1compat/src/kernel.s _ecall_halt, v3.0.6 1cc70cf0): in
     * the zero page below the user memory it reads zeros, as the image
     * holds no page there (risc0/binfmt/src/image.rs, ZERO_CACHE). A test
     * program's `li t0, 0; ecall` halts so, a1 = 0 (risc0/tools/tests/add).
     */
    if (digest + 32 <= RISC0_MEMORY_START)
        memset(st->output_digest, 0, 32);
    else if (!abi_load(m, digest, st->output_digest, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "HALT", digest,
                         "the output digest (a1) is not in memory");
    if (digest >= RISC0_MEMORY_START)
        page_touch_host(m, digest, 32, false); /* the kernel copies it to GLOBAL_OUTPUT_ADDR */
    st->cycles = risc0_cycles_halt();
    st->halt_type = type;
    m->exit_status = (int)((a0 >> 8) & 0xff);
    if (type == RISC0_HALT_PAUSE)
        warning_say(
            &m->io.warnings,
            "risc0: the guest paused (halt type PAUSE) with exit code %d; the run ends here, "
            "as nothing resumes it",
            m->exit_status);
    return ECALL_EXIT;
}

/* Big-endian state words in memory, as the guest keeps a SHA-256 digest. */
static void load_state(const uint8_t *p, uint32_t h[8])
{
    for (int i = 0; i < 8; i++)
        h[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
}

static void store_state(uint8_t *p, const uint32_t h[8])
{
    for (int i = 0; i < 32; i++)
        p[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

/*
 * SHA as the 2.x/3.x kernel passes it on (zkos/v1compat/src/main.rs
 * ecall_sha, 1cc70cf0 = v3.0.6): blocks whose halves are contiguous (a3 =
 * a2 + 32) go to the host as they are, so the state and data pointers reach
 * the host's sha2 ecall, which drops their low two bits (execute/sha2.rs:
 * guest_addr(..).waddr(), as the 1.x executor's load_u32 did). Separate
 * halves are copied into one kernel block first: only the first block, so
 * further blocks would be the kernel's own memory.
 */
static enum ecall_result risc0_sha(struct machine *m, struct risc0_state *st)
{
    uint64_t out = machine_get_reg(m, REG_A0), in = machine_get_reg(m, REG_A1),
             b1 = machine_get_reg(m, REG_A2), b2 = machine_get_reg(m, REG_A3),
             count = machine_get_reg(m, REG_A4);
    uint8_t state[32], block[64];
    if (count > RISC0_MAX_SHA_BLOCKS)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "SHA", count,
                         "more than 1000 blocks in one call");
    if (b2 == b1 + 32)
        b1 &= ~3ull, b2 = b1 + 32;
    else if (count > 1)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "SHA", b2,
                         "separate block halves (a3 != a2 + 32) with more than one block: RISC "
                         "Zero's kernel copies the first block only and reads the rest from its "
                         "own memory");
    out &= ~3ull, in &= ~3ull;
    if (!abi_load(m, in, state, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "SHA", in, "the in state is not in memory");
    uint32_t h[8];
    load_state(state, h);
    page_touch_host(m, in, 32, false);
    for (uint64_t i = 0; i < count; i++) {
        if (!abi_load(m, b1 + 64 * i, block, 32) || !abi_load(m, b2 + 64 * i, block + 32, 32))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, "SHA", b1 + 64 * i,
                             "a block is not in memory");
        page_touch_host(m, b1 + 64 * i, 32, false);
        page_touch_host(m, b2 + 64 * i, 32, false);
        sha256_block(h, block);
    }
    store_state(state, h);
    if (!abi_store(m, out, state, 32))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "SHA", out, "the out state is not in memory");
    page_touch_host(m, out, 32, true);
    st->cycles = risc0_cycles_sha(count);
    return ECALL_CONTINUE;
}

/* N = 0 (a plain product) and x * y does not fit 256 bits. */
static bool bigint_product_wide(const uint32_t x[8], const uint32_t y[8], const uint32_t n[8])
{
    uint32_t r[16];
    for (int i = 0; i < 8; i++)
        if (n[i])
            return false;
    bigint_mul_wide(r, x, 8, y, 8);
    for (int i = 8; i < 16; i++)
        if (r[i])
            return true;
    return false;
}

static enum ecall_result risc0_bigint(struct machine *m, struct risc0_state *st)
{
    uint64_t zp = machine_get_reg(m, REG_A0), op = machine_get_reg(m, REG_A1);
    uint64_t xp = machine_get_reg(m, REG_A2), yp = machine_get_reg(m, REG_A3),
             np = machine_get_reg(m, REG_A4);
    uint32_t x[8], y[8], n[8], z[8];
    if (op != 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT", op, "an unknown operation (a1)");
    /* The kernel reads N's words and hands the pointers to the host's bigint ecall as arena
     * registers, which must be word-aligned (execute/bigint.rs
     * load_aligned_addr_from_machine_register, v3.0.6). */
    if ((zp | xp | yp | np) % 4)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT", (zp | xp | yp | np),
                         "x, y, N and z must be word-aligned (the host's bigint ecall: \"is an "
                         "unaligned address\")");
    if (!abi_load_words(m, xp, x, 8) || !abi_load_words(m, yp, y, 8) ||
        !abi_load_words(m, np, n, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT", xp, "an operand is not in memory");
    if (bigint_product_wide(x, y, n))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT", xp,
                         "N = 0 and x * y needs more than 256 bits: RISC Zero's kernel stops "
                         "at unimp (2.x/3.x; 1.x's checked_mul panics)");
    bigint_mulmod_256(z, x, y, n);
    if (!abi_store_words(m, zp, z, 8))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT", zp, "the result is not in memory");
    page_touch_host(m, xp, 32, false);
    page_touch_host(m, yp, 32, false);
    page_touch_host(m, np, 32, false);
    page_touch_host(m, zp, 32, true);
    st->cycles = risc0_cycles_bigint();
    return ECALL_CONTINUE;
}

/* ---- BIGINT2: a bigint2 program (executor/precompile/bigint2.h) ---- */

/* The registers the kernel passes to the host's bigint ecall, which can be arenas. */
static bool bigint2_arena(void *ctx, uint32_t reg, uint32_t *addr)
{
    const struct machine *m = ctx;
    bool passed = reg == REG_SP || reg == REG_T1 || reg == REG_T2 || reg == REG_T3 ||
                  (reg >= REG_A0 && reg <= REG_A0 + 6);
    if (passed)
        *addr = (uint32_t)machine_get_reg(m, reg);
    return passed;
}

static bool bigint2_load(void *ctx, uint32_t addr, uint32_t *w, size_t n)
{
    page_touch_host(ctx, addr, 4 * (uint64_t)n, false);
    return abi_load_words(ctx, addr, w, n);
}

static enum ecall_result bigint2_fault(struct machine *m, struct risc0_state *st, uint64_t addr,
                                       const char *fmt, const char *detail)
{
    snprintf(st->why, sizeof(st->why), fmt, detail);
    return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", addr, st->why);
}

/* Writes the witness chunks, lowest address first. */
static enum ecall_result bigint2_store(struct machine *m, const struct bigint2_witness *w)
{
    for (size_t i = 0; i < w->n; i++) {
        if (!abi_store_words(m, w->chunk[i].addr, w->chunk[i].w, BIGINT2_CHUNK_WORDS))
            return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", w->chunk[i].addr,
                             "the program stores outside writable memory");
        page_touch_host(m, w->chunk[i].addr, 4 * BIGINT2_CHUNK_WORDS, true);
    }
    return ECALL_CONTINUE;
}

static enum ecall_result risc0_bigint2(struct machine *m, struct risc0_state *st)
{
    uint64_t blob = machine_get_reg(m, REG_A0), nondet = machine_get_reg(m, REG_T1),
             verify = machine_get_reg(m, REG_T2), consts = machine_get_reg(m, REG_T3);
    uint32_t sizes[3]; /* words: nondeterministic program, verify program, constants */
    if ((blob | nondet | verify | consts) % 4)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", blob | nondet | verify | consts,
                         "a0, t1, t2 and t3 must be word-aligned addresses");
    if (!abi_load_words(m, blob, sizes, 3))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", blob,
                         "the blob (a0) is not in memory");
    if (sizes[0] > RISC0_MAX_BIGINT2_WORDS)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", sizes[0],
                         "the nondeterministic program is larger than 16 MiB");
    /* The executor reads the verify program from t2 - 4 and the constants too. */
    if (!mem_range_has(&m->mem, verify - 4, 4 * (uint64_t)sizes[1], PAGE_R) ||
        !mem_range_has(&m->mem, consts, 4 * (uint64_t)sizes[2], PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", verify,
                         "the verify program (t2) or the constants (t3) are not in memory");
    uint8_t *prog = malloc(4 * (size_t)sizes[0] + 1);
    if (!prog)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", blob, "out of memory");
    if (!abi_load(m, nondet, prog, 4 * (uint64_t)sizes[0])) {
        free(prog);
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "BIGINT2", nondet,
                         "the nondeterministic program (t1) is not in memory");
    }
    /* The executor reads the header, the nondeterministic program, then its loads, the rest. */
    page_touch_host(m, blob, 4 * 3, false);
    page_touch_host(m, nondet, 4 * (uint64_t)sizes[0], false);
    struct bigint2_memory mem = {
        .ctx = m, .arena = bigint2_arena, .load = bigint2_load, .end = RISC0_BIGINT2_END};
    struct bigint2_witness w = {0};
    struct bigint2_error err;
    bool ok = bigint2_run(prog, 4 * (size_t)sizes[0], &mem, &w, &err);
    free(prog);
    if (ok) {
        page_touch_host(m, verify - 4, 4 * (uint64_t)sizes[1], false);
        page_touch_host(m, consts, 4 * (uint64_t)sizes[2], false);
        st->cycles = risc0_cycles_bigint2(sizes[1]);
    }
    enum ecall_result r =
        ok ? bigint2_store(m, &w) : bigint2_fault(m, st, err.addr, "%s", err.text);
    bigint2_witness_free(&w);
    return r;
}

/* ---- POSEIDON2: blocks of field elements through RISC Zero's sponge ---- */

static enum ecall_result poseidon2_fault(struct machine *m, uint64_t addr, const char *why)
{
    return abi_fault(m, FAULT_ECALL_ARGUMENT, "POSEIDON2", addr, why);
}

/* The next block of input at *in (a byte address) into the rate cells. */
static bool poseidon2_block(struct machine *m, uint64_t *in, bool is_elem,
                            uint32_t cells[POSEIDON2_CELLS])
{
    uint32_t w[16];
    size_t n = is_elem ? 16 : 8;
    if (!abi_load_words(m, *in, w, n))
        return false;
    page_touch_host(m, *in, 4 * n, false);
    *in += 4 * n;
    for (size_t i = 0; i < 8; i++) {
        cells[2 * i] = is_elem ? w[2 * i] : w[i] & 0xffff;
        cells[2 * i + 1] = is_elem ? w[2 * i + 1] : w[i] >> 16;
    }
    return true;
}

static enum ecall_result risc0_poseidon2(struct machine *m, struct risc0_state *st)
{
    uint64_t state = 4 * machine_get_reg(m, REG_A0), in = 4 * machine_get_reg(m, REG_A1),
             out = 4 * machine_get_reg(m, REG_A2);
    uint32_t flags = (uint32_t)machine_get_reg(m, REG_A3), blocks = flags & 0xffff;
    uint32_t cells[POSEIDON2_CELLS] = {0}, old[RISC0_DIGEST_WORDS];
    if (state && !abi_load_words(m, state, cells + 16, RISC0_DIGEST_WORDS))
        return poseidon2_fault(m, state, "the state (a0, a word address) is not in memory");
    if (state)
        page_touch_host(m, state, 4 * RISC0_DIGEST_WORDS, false);
    for (uint32_t b = 0; b < blocks; b++) {
        if (!poseidon2_block(m, &in, flags & RISC0_P2_IS_ELEM, cells))
            return poseidon2_fault(m, in, "the input (a1, a word address) is not in memory");
        poseidon2_mix(cells);
    }
    if (flags & RISC0_P2_CHECK_OUT) {
        if (!abi_load_words(m, out, old, RISC0_DIGEST_WORDS))
            return poseidon2_fault(m, out, "the output (a2, a word address) is not in memory");
        if (memcmp(old, cells, sizeof(old)) != 0)
            return poseidon2_fault(m, out, "the output in memory is not the hash (check-out flag)");
    } else if (!abi_store_words(m, out, cells, RISC0_DIGEST_WORDS)) {
        return poseidon2_fault(m, out, "the output (a2, a word address) is not in memory");
    }
    page_touch_host(m, out, 4 * RISC0_DIGEST_WORDS, !(flags & RISC0_P2_CHECK_OUT));
    if (state && !abi_store_words(m, state, cells + 16, RISC0_DIGEST_WORDS))
        return poseidon2_fault(m, state, "the state (a0, a word address) is not in memory");
    if (state)
        page_touch_host(m, state, 4 * RISC0_DIGEST_WORDS, true);
    st->cycles = risc0_cycles_poseidon2(state != 0, blocks, flags & RISC0_P2_IS_ELEM);
    return ECALL_CONTINUE;
}

/* INPUT: a word of the input digest, which is zero here (no digest is given). */
static enum ecall_result risc0_input(struct machine *m, struct risc0_state *st)
{
    uint64_t index = machine_get_reg(m, REG_A0);
    if (index >= RISC0_DIGEST_WORDS)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "INPUT", index,
                         "the input digest has 8 words (the kernel stops at unimp)");
    machine_set_reg(m, REG_A0, 0);
    st->cycles = risc0_cycles_input();
    return ECALL_CONTINUE;
}

/* Runs the call of kind `kind`, its cycles in st->cycles (risc0_cycles.h). */
static enum ecall_result risc0_kind(struct machine *m, struct risc0_state *st, uint64_t kind,
                                    const char **call)
{
    st->cycles = 1;
    switch (kind) {
    case RISC0_HALT: return risc0_halt(m, st);
    case RISC0_INPUT: return risc0_input(m, st);
    case RISC0_SOFTWARE: return risc0_software(m, st, call);
    case RISC0_SHA: return risc0_sha(m, st);
    case RISC0_BIGINT: return risc0_bigint(m, st);
    case RISC0_BIGINT2: return risc0_bigint2(m, st);
    case RISC0_POSEIDON2: return risc0_poseidon2(m, st);
    default: /* USER */
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, kind_names[kind], kind,
                         "kind 5 is reserved: RISC Zero's kernel has no handler for it (its "
                         "entry is unimp) and the 1.x executor stops at it too");
    }
}

static enum ecall_result risc0_ecall(struct machine *m, const char **call)
{
    struct risc0_state *st = m->abi_state;
    uint64_t kind = machine_get_reg(m, REG_T0);
    if (kind >= sizeof(kind_names) / sizeof(kind_names[0])) {
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_ECALL,
                                  .pc = m->pc,
                                  .addr = kind,
                                  .why = "no ecall has this kind in t0"};
        return ECALL_FAULT;
    }
    *call = kind_names[kind];
    page_touch_host(m, RISC0_ECALL_DISPATCH, 4, false); /* the user ecall's jump into the kernel */
    enum ecall_result r = risc0_kind(m, st, kind, call);
    if (r != ECALL_FAULT) /* its ecall counts already, as an instruction */
        page_touch_call(m, *call, st->cycles - 1);
    return r;
}

/* ---- set-up and report ---- */

static int risc0_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct risc0_state *st = abi_alloc_state(m, sizeof(*st), e);
    if (!st)
        return -1;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "RISC Zero guests are RV32IM (ELFCLASS32), this one is RV64");
        return -1;
    }
    if (abi_check_inside(img, RISC0_MEMORY_START, RISC0_MEMORY_END, "RISC Zero's user memory", e) !=
        0)
        return -1;
    st->halt_type = -1;
    st->rng = 0x5a6b7c8d9e0f1234ull;
    sha256_init(&st->journal);
    abi_map_flat(m, img, RISC0_MEMORY_START, RISC0_MEMORY_END);
    return 0;
}

static void hex(FILE *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%02x", p[i]);
}

static void risc0_report(const struct machine *m, FILE *out)
{
    const struct risc0_state *st = m->abi_state;
    uint8_t digest[32];
    sha256_final(&st->journal, digest);
    fprintf(out, "journal: %llu bytes, sha256 ", (unsigned long long)st->journal.len);
    hex(out, digest, 32);
    fputc('\n', out);
    if (st->halt_type >= 0) {
        fprintf(out, "halt: %s, output digest ",
                st->halt_type == RISC0_HALT_TERMINATE ? "terminate" : "pause");
        hex(out, st->output_digest, 32);
        fputc('\n', out);
    }
    if (st->unverified || st->unresolved)
        fprintf(out,
                "assumptions: %llu accepted unverified (SYS_VERIFY_INTEGRITY, "
                "--no-verify-assumptions), %llu left unresolved (SYS_VERIFY_INTEGRITY2)\n",
                (unsigned long long)st->unverified, (unsigned long long)st->unresolved);
    if (st->keccak_permutes || st->keccak_proves)
        fprintf(out, "keccak: %llu permutations, %llu batches sent to prove (not proven here)\n",
                (unsigned long long)st->keccak_permutes, (unsigned long long)st->keccak_proves);
}

static void risc0_destroy(struct machine *m)
{
    struct risc0_state *st = m->abi_state;
    if (st) {
        for (size_t i = 0; i < st->npipes; i++)
            free(st->pipes[i].data);
        free(st->pipes);
    }
    abi_free_state(m);
}

const struct abi abi_risc0 = {
    .name = "risc0",
    .aligned_access = true, /* rv32im.rs traps misaligned lh, lhu, lw, sh, sw */
    .without_c = true,      /* rv32im.rs: a word whose low bits are not 11 is IllegalInstruction */
    .setup = risc0_setup,
    .ecall = risc0_ecall,
    .report = risc0_report,
    .destroy = risc0_destroy,
};
