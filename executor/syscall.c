/*
 * syscall: Linux-numbered ecalls with the semantics SPEC section 1 gives.
 * Numbers and errno values are those of the Linux RISC-V ABI, so a guest
 * behaves the same here and under qemu user mode.
 */
#include "executor/syscall.h"

#include <errno.h>
#include <unistd.h>

enum {
    SYS_READ = 63,
    SYS_WRITE = 64,
    SYS_EXIT = 93,
    SYS_EXIT_GROUP = 94,
    SYS_BRK = 214,
};

enum { REG_A0 = 10, REG_A1 = 11, REG_A2 = 12, REG_A7 = 17 };

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
    if (nr >= 64 * sizeof(m->warned_syscalls) / sizeof(m->warned_syscalls[0])) {
        bool first = !m->warned_high_syscall;
        m->warned_high_syscall = true;
        return first;
    }
    uint64_t bit = 1ull << (nr % 64);
    bool first = !(m->warned_syscalls[nr / 64] & bit);
    m->warned_syscalls[nr / 64] |= bit;
    return first;
}

static enum syscall_result unsupported(struct machine *m, uint64_t nr)
{
    if (m->io.strict) {
        m->fault = (struct fault){.kind = FAULT_UNSUPPORTED_SYSCALL, .pc = m->pc, .addr = nr};
        return SYSCALL_FAULT;
    }
    if (first_time_unsupported(m, nr) && m->io.warnings)
        fprintf(m->io.warnings,
                "warning: guest made unsupported system call %llu at pc 0x%llx; it returns "
                "-ENOSYS (--strict makes this a fault)\n",
                (unsigned long long)nr, (unsigned long long)m->pc);
    machine_set_reg(m, REG_A0, (uint64_t)neg_errno(ENOSYS));
    return SYSCALL_CONTINUE;
}

enum syscall_result syscall_handle(struct machine *m)
{
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
    case SYS_EXIT_GROUP: m->exit_status = (int)(a0 & 0xff); return SYSCALL_EXIT;
    case SYS_BRK: ret = (int64_t)mem_brk(&m->mem, a0); break;
    default: return unsupported(m, nr);
    }
    machine_set_reg(m, REG_A0, (uint64_t)ret);
    return SYSCALL_CONTINUE;
}
