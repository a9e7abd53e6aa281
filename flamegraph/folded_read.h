/*
 * folded_read: reads folded stacks (`a;b;c COUNT` lines, docs/FORMATS.md#folded-stacks)
 * into a trie whose keys are interned frame names, so the same writers
 * and renderers serve folded files from anywhere. A line may carry two
 * counts (`a;b 10 12`, the difffolded format): the first goes to `count`,
 * the second to `second`, by node.
 */
#ifndef FLAMEGRAPH_FOLDED_READ_H
#define FLAMEGRAPH_FOLDED_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "profile/strtab.h"
#include "profile/trie.h"

/*
 * Per-node second counts of a two-count (diff) file, indexed by node id;
 * grown by folded_read as nodes appear.
 */
struct second_counts {
    uint64_t *counts;
    size_t capacity;
};

/*
 * Adds every line of `in` to `t` (key = strtab id of the frame name),
 * adding each count to its stack's leaf node. With `second` non-NULL, a
 * second count per line is required and kept there. Empty lines are
 * skipped. Returns 0, or -1 with `e` set: ERROR_CORRUPT ("line 3: ..."),
 * ERROR_UNREADABLE, ERROR_NO_MEMORY.
 */
int folded_read(FILE *in, struct trie *t, struct strtab *names, struct second_counts *second,
                struct error *e);

/* folded_read of one-count lines, its messages naming `name` ("NAME: line 3: ..."). */
int folded_read_named(FILE *in, const char *name, struct trie *t, struct strtab *names,
                      struct error *e);

/*
 * The same for a file named on a command line: `path` "-" or NULL is
 * stdin, called "<stdin>" (folded_path_name). Returns 0, or -1 with `e`
 * set: ERROR_UNREADABLE ("cannot read PATH: ..."), ERROR_CORRUPT ("PATH:
 * line 3: ..."), ERROR_NO_MEMORY.
 */
int folded_read_path(const char *path, struct trie *t, struct strtab *names,
                     struct second_counts *second, struct error *e);

/* The name `path` has in messages: "<stdin>" for NULL or "-". */
const char *folded_path_name(const char *path);

#endif
