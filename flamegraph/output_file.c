/*
 * output_file: temporary-name-then-rename output files, and stdout.
 */
#include "flamegraph/output_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Removes the temporary file, leaving any existing file untouched. */
static void output_file_abort(struct output_file *out)
{
    if (out->fp)
        fclose(out->fp);
    if (out->tmp_path)
        unlink(out->tmp_path);
    free(out->tmp_path);
    free(out->path);
    memset(out, 0, sizeof(*out));
}

/* A failed write of `name`: no memory, or the write error (EIO when unknown). */
static int write_failed(struct error *e, const char *name, int err)
{
    if (err == ENOMEM)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory writing %s", name);
    return error_fail_errno(e, ERROR_CANNOT_WRITE, err, "cannot write %s", name);
}

static int create_failed(struct output_file *out, const char *path, int err, struct error *e)
{
    output_file_abort(out);
    return error_fail_errno(e, ERROR_CANNOT_WRITE, err, "cannot create %s", path);
}

int output_file_open(struct output_file *out, const char *path, struct error *e)
{
    memset(out, 0, sizeof(*out));
    size_t len = strlen(path) + 32;
    out->path = strdup(path);
    out->tmp_path = malloc(len);
    if (!out->path || !out->tmp_path)
        return create_failed(out, path, ENOMEM, e);
    snprintf(out->tmp_path, len, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(out->tmp_path);
    if (fd < 0) {
        int err = errno;
        free(out->tmp_path);
        out->tmp_path = NULL; /* nothing to unlink */
        return create_failed(out, path, err, e);
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* as a plain fopen would have created it */
    out->fp = fdopen(fd, "wb");
    if (!out->fp) {
        int err = errno;
        close(fd);
        return create_failed(out, path, err, e);
    }
    return 0;
}

int output_file_commit(struct output_file *out, struct error *e)
{
    errno = 0;
    bool ok = fflush(out->fp) == 0 && !ferror(out->fp);
    int err = errno;
    ok = fclose(out->fp) == 0 && ok;
    if (!ok && !err)
        err = errno;
    out->fp = NULL;
    if (ok && rename(out->tmp_path, out->path) != 0) {
        err = errno;
        ok = false;
    }
    if (!ok) {
        write_failed(e, out->path, err);
        output_file_abort(out);
        return -1;
    }
    free(out->tmp_path);
    free(out->path);
    memset(out, 0, sizeof(*out));
    return 0;
}

int output_file_write(const char *path, output_writer write, void *ctx, struct error *e)
{
    if (!path) {
        errno = 0;
        if (write(stdout, ctx) != 0 || fflush(stdout) == EOF)
            return write_failed(e, "<stdout>", errno);
        return 0;
    }
    struct output_file out;
    if (output_file_open(&out, path, e) != 0)
        return -1;
    errno = 0;
    if (write(out.fp, ctx) != 0) {
        write_failed(e, path, errno);
        output_file_abort(&out);
        return -1;
    }
    return output_file_commit(&out, e);
}
