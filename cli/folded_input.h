/*
 * folded_input: reads a folded file named on a command line ("-" or none:
 * stdin) into a trie, and turns what can go wrong into the exit statuses
 * of cli.h with one `error:` line: 66 unreadable, 65 a bad line (with its
 * number), 71 out of memory.
 */
#ifndef CLI_FOLDED_INPUT_H
#define CLI_FOLDED_INPUT_H

#include "flamegraph/strtab.h"
#include "flamegraph/trie.h"

/* The name to show for `path` in messages: "<stdin>" for NULL or "-". */
const char *folded_input_name(const char *path);

/* Adds the file's stacks to t (keys: ids in `names`). Returns 0 or an exit status. */
int folded_input_read(const char *path, struct trie *t, struct strtab *names);

#endif
