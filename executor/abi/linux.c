/*
 * linux: the ABI of guests written for qemu user mode (docs/CONTRACT.md#memory-linux-abi,
 * #system-calls-linux-abi): segments with their own rights, a stack below a fixed top with an empty
 * Linux start frame, a brk heap, and Linux-numbered ecalls (read from the
 * private input, write to stdout, stderr and the public output, exit,
 * brk). Numbers and errno values are those of the Linux RISC-V ABI, so a
 * guest behaves the same here and under qemu user mode.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"

enum {
    SYS_READ = 63,
    SYS_WRITE = 64,
    SYS_EXIT = 93,
    SYS_EXIT_GROUP = 94,
    SYS_BRK = 214,
};

/* Which unsupported numbers were warned about already. */
struct linux_state {
    uint64_t warned[16]; /* bitmap of numbers < 1024 */
    bool warned_high;
};

static int64_t neg_errno(int e)
{
    return -(int64_t)e;
}

/* Reads into guest memory from a host fd; -EFAULT when the buffer is not writable. */
static int64_t guest_read(struct machine *m, int host_fd, uint64_t buf, uint64_t len)
{
    if (!mem_range_has(&m->mem, buf, len, PAGE_W))
        return neg_errno(EFAULT);
    if (host_fd < 0 || len == 0)
        return 0;
    ssize_t n;
    do {
        n = read(host_fd, m->mem.base + buf, len);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return neg_errno(EIO);
    if (n > 0 && mem_range_has(&m->mem, buf, (uint64_t)n, PAGE_X))
        code_cache_invalidate(&m->code, buf, (uint64_t)n);
    return n;
}

/* Writes guest memory to a host fd (or nowhere when host_fd < 0). */
static int64_t guest_write(struct machine *m, int host_fd, uint64_t buf, uint64_t len)
{
    if (!mem_range_has(&m->mem, buf, len, PAGE_R))
        return neg_errno(EFAULT);
    uint64_t done = 0;
    while (host_fd >= 0 && done < len) {
        ssize_t n = write(host_fd, m->mem.base + buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done ? (int64_t)done : neg_errno(EIO);
        done += (uint64_t)n;
    }
    return (int64_t)len;
}

static int host_fd_for_write(const struct machine *m, uint64_t fd, bool *known)
{
    *known = true;
    switch (fd) {
    case 1: return m->io.stdout_fd;
    case 2: return m->io.stderr_fd;
    case 3: return m->io.public_output_fd;
    default: *known = false; return -1;
    }
}

/* True the first time this number is seen, so each is warned about once. */
static bool first_time_unsupported(struct machine *m, uint64_t nr)
{
    struct linux_state *st = m->abi_state;
    if (nr >= 64 * sizeof(st->warned) / sizeof(st->warned[0])) {
        bool first = !st->warned_high;
        st->warned_high = true;
        return first;
    }
    uint64_t bit = 1ull << (nr % 64);
    bool first = !(st->warned[nr / 64] & bit);
    st->warned[nr / 64] |= bit;
    return first;
}

static enum ecall_result unsupported(struct machine *m, uint64_t nr)
{
    if (m->io.strict) {
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_SYSCALL, .pc = m->pc, .addr = nr};
        return ECALL_FAULT;
    }
    if (first_time_unsupported(m, nr))
        warning_say(&m->io.warnings,
                    "guest made unsupported system call %llu at pc 0x%llx; it returns "
                    "-ENOSYS (--strict makes this a fault)",
                    (unsigned long long)nr, (unsigned long long)m->pc);
    machine_set_reg(m, REG_A0, (uint64_t)neg_errno(ENOSYS));
    return ECALL_CONTINUE;
}

static enum ecall_result linux_ecall(struct machine *m, const char **call)
{
    (void)call; /* Linux system calls are not shown as frames: docs/CONTRACT.md#4-zkvm-guests */
    uint64_t nr = machine_get_reg(m, REG_A7);
    uint64_t a0 = machine_get_reg(m, REG_A0);
    uint64_t a1 = machine_get_reg(m, REG_A1);
    uint64_t a2 = machine_get_reg(m, REG_A2);
    int64_t ret;
    bool known;
    switch (nr) {
    case SYS_READ:
        ret = a0 == 0 ? guest_read(m, m->io.private_input_fd, a1, a2) : neg_errno(EBADF);
        break;
    case SYS_WRITE: {
        int fd = host_fd_for_write(m, a0, &known);
        ret = known ? guest_write(m, fd, a1, a2) : neg_errno(EBADF);
        break;
    }
    case SYS_EXIT:
    case SYS_EXIT_GROUP: m->exit_status = (int)(a0 & 0xff); return ECALL_EXIT;
    case SYS_BRK: ret = (int64_t)mem_brk(&m->mem, a0); break;
    default: return unsupported(m, nr);
    }
    machine_set_reg(m, REG_A0, (uint64_t)ret);
    return ECALL_CONTINUE;
}

/*
 * sp 16-byte aligned on an empty Linux start frame: argc 0, argv NULL, envp
 * NULL, AT_NULL. The frame sits a page below the top of the stack region:
 * the hot top of the guest's stack then lies on pages whose next page is
 * mapped too, which the interpreter's loads and stores check with a single
 * test (see PAGE_LOAD_FAST); the top page stays mapped and usable.
 */
static void push_start_frame(struct machine *m)
{
    unsigned word = (unsigned)m->xlen / 8;
    uint64_t sp = (m->mem.stack_top - GUEST_PAGE_SIZE - 5 * word) & ~(uint64_t)15;
    static const uint8_t zeros[5 * 8];
    mem_poke(&m->mem, sp, zeros, 5 * word);
    machine_set_reg(m, REG_SP, sp);
}

static int linux_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    uint64_t stack_bottom = GUEST_STACK_TOP - m->io.stack_size;
    if (abi_check_clear_of(img, stack_bottom, GUEST_SPACE_SIZE, "the stack region",
                           " (try a smaller --stack-size)", e) != 0)
        return -1;
    if (!abi_alloc_state(m, sizeof(struct linux_state), e))
        return -1;
    uint64_t highest_end = machine_map_segments(m, img, 0);
    mem_setup_stack_and_heap(&m->mem, m->io.stack_size, highest_end);
    push_start_frame(m);
    return 0;
}

const struct abi abi_linux = {
    .name = "linux",
    .setup = linux_setup,
    .ecall = linux_ecall,
    .destroy = abi_free_state,
};
