/*
 * folded_input: fopen / folded_read with the error reporting of cli.h.
 */
#include "cli/folded_input.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "flamegraph/folded_read.h"

static bool is_stdin(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

const char *folded_input_name(const char *path)
{
    return is_stdin(path) ? "<stdin>" : path;
}

int folded_input_read(const char *path, struct trie *t, struct strtab *names)
{
    const char *name = folded_input_name(path);
    FILE *in = is_stdin(path) ? stdin : fopen(path, "rb");
    if (!in) {
        cli_error("cannot read %s: %s", name, strerror(errno));
        return EXIT_NOINPUT;
    }
    char why[256];
    errno = 0;
    int rc = folded_read(in, t, names, NULL, why, sizeof(why));
    int read_errno = errno;
    bool io_error = ferror(in) != 0;
    if (in != stdin)
        fclose(in);
    if (rc == 0)
        return 0;
    if (io_error) {
        cli_error("cannot read %s: %s", name, strerror(read_errno ? read_errno : EIO));
        return EXIT_NOINPUT;
    }
    cli_error("%s: %s", name, why);
    return read_errno == ENOMEM ? EXIT_OSERR : EXIT_DATAERR;
}
