/*
 * folded_input: reads a folded file named on a command line ("-" or none:
 * stdin) into a trie (folded_read_path), reporting what went wrong as
 * one `error:` line and its exit status: 66 unreadable, 65 a bad line
 * (with its number), 71 out of memory.
 */
#ifndef CLI_FOLDED_INPUT_H
#define CLI_FOLDED_INPUT_H

#include "profile/profile.h"

/* Adds the file's stacks to t (keys: ids in `names`). Returns 0 or an exit status. */
int folded_input_read(const char *path, struct trie *t, struct strtab *names);

#endif
