/*
 * speedscope_dump: a test driver for speedscope_write. Reads folded
 * stacks on stdin (folded_read) and writes them as speedscope JSON on
 * stdout: `speedscope_dump [PROFILE_NAME [UNIT]]`. Exits 1 with one
 * `error:` line when reading or writing fails.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "flamegraph/folded_read.h"
#include "flamegraph/speedscope.h"

static int dump(const char *profile_name, const char *unit)
{
    struct trie t;
    struct strtab names;
    struct error why = ERROR_INIT;
    int rc = 1;
    if (!trie_init(&t))
        return fprintf(stderr, "error: out of memory\n"), 1;
    if (!strtab_init(&names)) {
        trie_free(&t);
        return fprintf(stderr, "error: out of memory\n"), 1;
    }
    if (folded_read(stdin, &t, &names, NULL, &why) != 0)
        fprintf(stderr, "error: stdin: %s\n", why.msg);
    else if (speedscope_write(stdout, &t, &names, profile_name, unit) != 0)
        fprintf(stderr, "error: stdout: %s\n", strerror(errno));
    else
        rc = 0;
    strtab_free(&names);
    trie_free(&t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "usage: speedscope_dump [PROFILE_NAME [UNIT]] <folded >json\n");
        return 2;
    }
    return dump(argc > 1 ? argv[1] : "profile", argc > 2 ? argv[2] : "none");
}
