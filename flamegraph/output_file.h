/*
 * output_file: writes a file under a temporary name beside it and renames
 * it into place on commit, so a reader never sees half a file and an
 * existing file is never left truncated (SPEC section 2, "Long runs").
 */
#ifndef FLAMEGRAPH_OUTPUT_FILE_H
#define FLAMEGRAPH_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

struct output_file {
    char *path;
    char *tmp_path;
    FILE *fp;
};

/* Creates the temporary file. Returns false with errno set. */
bool output_file_open(struct output_file *out, const char *path);

/* Flushes, closes and renames into place. Returns false with errno set. */
bool output_file_commit(struct output_file *out);

/* Removes the temporary file, leaving any existing file untouched. */
void output_file_abort(struct output_file *out);

#endif
