/*
 * folded_input: folded_read_path with the error reporting of cli.h.
 */
#include "cli/folded_input.h"

#include "cli/cli.h"
#include "flamegraph/flamegraph.h"

int folded_input_read(const char *path, struct trie *t, struct strtab *names)
{
    struct error e = ERROR_INIT;
    return folded_read_path(path, t, names, NULL, &e) ? cli_fail(&e, NULL) : 0;
}
