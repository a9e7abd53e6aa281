/*
 * hash_table: uthash as the project uses it; include this, never <uthash.h>
 * directly, so that every file sees the same settings. A table that cannot
 * grow drops the new entry instead of exiting the program (uthash's
 * default): an adder declares `bool hash_added = true;` before HASH_ADD*
 * and, when it is false afterwards, still owns the entry.
 */
#ifndef COMMON_HASH_TABLE_H
#define COMMON_HASH_TABLE_H

#include <stdbool.h>

#define HASH_NONFATAL_OOM          1
#define uthash_nonfatal_oom(entry) (hash_added = false)
#include <uthash.h>

#endif
