/*
 * output_file: temporary-name-then-rename output files.
 */
#include "flamegraph/output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool output_file_open(struct output_file *out, const char *path)
{
    memset(out, 0, sizeof(*out));
    size_t len = strlen(path) + 32;
    out->path = strdup(path);
    out->tmp_path = malloc(len);
    if (!out->path || !out->tmp_path) {
        output_file_abort(out);
        errno = ENOMEM;
        return false;
    }
    snprintf(out->tmp_path, len, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(out->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(out->tmp_path);
        out->tmp_path = NULL;
        output_file_abort(out);
        errno = e;
        return false;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* as a plain fopen would have created it */
    out->fp = fdopen(fd, "wb");
    if (!out->fp) {
        int e = errno;
        close(fd);
        output_file_abort(out);
        errno = e;
        return false;
    }
    return true;
}

bool output_file_commit(struct output_file *out)
{
    bool ok = fflush(out->fp) == 0 && !ferror(out->fp);
    int e = errno;
    ok = fclose(out->fp) == 0 && ok;
    out->fp = NULL;
    if (ok && rename(out->tmp_path, out->path) != 0) {
        e = errno;
        ok = false;
    }
    if (!ok) {
        output_file_abort(out);
        errno = e;
        return false;
    }
    free(out->tmp_path);
    free(out->path);
    memset(out, 0, sizeof(*out));
    return true;
}

void output_file_abort(struct output_file *out)
{
    if (out->fp)
        fclose(out->fp);
    if (out->tmp_path)
        unlink(out->tmp_path);
    free(out->tmp_path);
    free(out->path);
    memset(out, 0, sizeof(*out));
}
