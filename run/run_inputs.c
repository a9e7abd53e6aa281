/*
 * run_inputs: input files read whole, and an SP1Stdin file's items copied
 * out of it.
 */
#include "run/run_inputs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/sp1_stdin.h"

static int read_input_file(const char *path, struct machine_input *in, struct error *e)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    if (!f)
        return error_fail(e, ERROR_UNREADABLE, "cannot read input %s: %s", path, strerror(errno));
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return error_fail(e, ERROR_NO_MEMORY, "out of memory reading input %s", path);
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(data);
        return error_fail(e, ERROR_UNREADABLE, "cannot read input %s: read error", path);
    }
    *in = (struct machine_input){.data = data, .size = size};
    return 0;
}

/* The items of the SP1Stdin file, each copied, first in the list. */
static int read_sp1_stdin(const char *path, struct run_inputs *in, struct error *e)
{
    struct machine_input file, items[192];
    size_t count = 0;
    uint64_t proofs = 0;
    struct error parse = ERROR_INIT;
    if (read_input_file(path, &file, e) != 0)
        return -1;
    int rc = 0;
    if (sp1_stdin_parse(file.data, file.size, items, 192, &count, &proofs, &parse) != 0)
        /* An input the guest cannot take counts as unreadable (docs/CONTRACT.md: exit 66). */
        rc = error_fail(e, ERROR_UNREADABLE, "%s is not an SP1Stdin: %s", path, parse.msg);
    for (size_t i = 0; i < count && rc == 0; i++) {
        uint8_t *copy = malloc(items[i].size ? items[i].size : 1);
        if (!copy) {
            rc = error_fail(e, ERROR_NO_MEMORY, "out of memory reading input %s", path);
            break;
        }
        memcpy(copy, items[i].data, items[i].size);
        in->list[in->count++] = (struct machine_input){.data = copy, .size = items[i].size};
    }
    in->proofs = proofs;
    free((void *)file.data);
    return rc;
}

int run_inputs_read(struct run_inputs *in, const char *sp1_stdin, const char *const *paths,
                    size_t n, struct error *e)
{
    in->count = 0;
    in->proofs = 0;
    if (sp1_stdin && read_sp1_stdin(sp1_stdin, in, e) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (read_input_file(paths[i], &in->list[in->count], e) != 0)
            return -1;
        in->count++;
    }
    return 0;
}

void run_inputs_free(struct run_inputs *in)
{
    for (size_t i = 0; i < in->count; i++)
        free((void *)in->list[i].data);
    in->count = 0;
}
