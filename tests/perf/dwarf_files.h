/*
 * dwarf_files: DWARF the perf unit tests read besides their own: libc's
 * separate debug file (libc6-dbg) and a C++ program built for the test.
 */
#ifndef TESTS_PERF_DWARF_FILES_H
#define TESTS_PERF_DWARF_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* The path of libc's debug file, found by its build-id; false: not installed. */
bool dwarf_files_libc_debug(char *path, size_t size);

/*
 * Builds `source` with `c++ -O2 -g` in a scratch directory, returns
 * check(the program's path) and removes it; -1 when it cannot be built.
 */
long dwarf_files_with_cxx(const char *source, size_t (*check)(const char *path));

#endif
