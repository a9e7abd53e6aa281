/*
 * syscalls.c: the POSIX layer picolibc needs, on Linux RISC-V ecalls only:
 * read (63), write (64), _exit (93), sbrk on brk (214, used by picolibc's
 * malloc; this definition keeps picolibc's own __heap_start-based sbrk out
 * of the link), and tinystdio's stdin/stdout/stderr: stdout is fully
 * buffered, stderr line buffered, both flushed by a destructor that exit()
 * runs (crt0 calls exit with main's result).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "guest.h"

ssize_t read(int fd, void *buf, size_t count)
{
    long r = guest_ecall3(GUEST_SYS_READ, fd, (long)buf, (long)count);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

ssize_t write(int fd, const void *buf, size_t count)
{
    long r = guest_ecall3(GUEST_SYS_WRITE, fd, (long)buf, (long)count);
    if (r < 0) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

void _exit(int status)
{
    for (;;)
        guest_ecall3(GUEST_SYS_EXIT, status, 0, 0);
}

/* Linux brk semantics: brk(0) is the current break; a failed brk returns
 * the old break. No cached state, so guests may also call brk directly. */
void *sbrk(ptrdiff_t incr)
{
    uintptr_t old = guest_brk(0);
    if (incr == 0)
        return (void *)old;
    uintptr_t want = old + (uintptr_t)incr;
    if ((incr > 0 && want < old) || (incr < 0 && want > old) || guest_brk(want) != want) {
        errno = ENOMEM;
        return (void *)-1;
    }
    return (void *)old;
}

/* ---- stdio ---- */

struct guest_stream {
    FILE file; /* first: tinystdio passes &file to the hooks */
    int fd;
    int line_buffered;
    int len;
    char buf[512];
};

static int stream_flush(FILE *f)
{
    struct guest_stream *s = (struct guest_stream *)f;
    int off = 0;
    while (off < s->len) {
        ssize_t r = write(s->fd, s->buf + off, (size_t)(s->len - off));
        if (r <= 0) {
            s->len = 0;
            return EOF;
        }
        off += (int)r;
    }
    s->len = 0;
    return 0;
}

static int stream_put(char c, FILE *f)
{
    struct guest_stream *s = (struct guest_stream *)f;
    s->buf[s->len++] = c;
    if (s->len == (int)sizeof s->buf || (s->line_buffered && c == '\n'))
        return stream_flush(f);
    return 0;
}

static int stream_get(FILE *f)
{
    struct guest_stream *s = (struct guest_stream *)f;
    unsigned char c;
    ssize_t r = read(s->fd, &c, 1);
    if (r == 1)
        return c;
    return r == 0 ? _FDEV_EOF : _FDEV_ERR;
}

static struct guest_stream guest_stdin = {
    .file = FDEV_SETUP_STREAM(NULL, stream_get, NULL, _FDEV_SETUP_READ),
    .fd = 0,
};
static struct guest_stream guest_stdout = {
    .file = FDEV_SETUP_STREAM(stream_put, NULL, stream_flush, _FDEV_SETUP_WRITE),
    .fd = 1,
};
static struct guest_stream guest_stderr = {
    .file = FDEV_SETUP_STREAM(stream_put, NULL, stream_flush, _FDEV_SETUP_WRITE),
    .fd = 2,
    .line_buffered = 1,
};

FILE *const stdin = &guest_stdin.file;
FILE *const stdout = &guest_stdout.file;
FILE *const stderr = &guest_stderr.file;

__attribute__((destructor)) static void guest_stdio_flush(void)
{
    stream_flush(stdout);
    stream_flush(stderr);
}
