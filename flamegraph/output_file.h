/*
 * output_file: where every command's output goes: stdout, or a file
 * written under a temporary name beside it and renamed into place when
 * complete, so a reader never sees half a file and an existing file is
 * never left truncated (docs/FORMATS.md; docs/CONTRACT.md#long-runs).
 */
#ifndef FLAMEGRAPH_OUTPUT_FILE_H
#define FLAMEGRAPH_OUTPUT_FILE_H

#include <stdio.h>

#include "common/error.h"

/* Writes the output: gets the stream and `ctx`; returns 0, or -1 with errno set. */
typedef int (*output_writer)(FILE *out, void *ctx);

/*
 * Runs `write` on stdout when `path` is NULL, else on a temporary file
 * renamed to `path` when `write` succeeds (and removed when it fails).
 * Returns 0, or -1 with `e` set: ERROR_CANNOT_WRITE ("cannot create
 * PATH: ...", "cannot write PATH: ..."; stdout is "<stdout>") or
 * ERROR_NO_MEMORY ("out of memory writing PATH").
 */
int output_file_write(const char *path, output_writer write, void *ctx, struct error *e);

/* An output file held open while something streams into it (a guest's public output). */
struct output_file {
    char *path;
    char *tmp_path;
    FILE *fp;
};

/* Creates the temporary file. Returns 0, or -1 with `e` set as output_file_write. */
int output_file_open(struct output_file *out, const char *path, struct error *e);

/* Flushes, closes and renames into place. Returns 0, or -1 with `e` set. */
int output_file_commit(struct output_file *out, struct error *e);

#endif
