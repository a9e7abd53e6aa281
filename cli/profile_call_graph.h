/*
 * profile_call_graph: the call-graph mode `cli profile` records with when
 * none is given: frame pointers where the command's code keeps them,
 * DWARF stacks where it does not (docs/PERF.md, "Recording: cli profile").
 */
#ifndef CLI_PROFILE_CALL_GRAPH_H
#define CLI_PROFILE_CALL_GRAPH_H

#include <stddef.h>

/*
 * "fp" or "dwarf" for the program at `path` (a file found on PATH): the
 * ELF it runs (a script's interpreter, through `#!` and `env`) and the
 * shared libraries it names (DT_NEEDED, found as the loader would search
 * RPATH, LD_LIBRARY_PATH, RUNPATH and the system directories; the C and
 * C++ runtime libraries are left out, their frames being leaves or
 * beside the point). "dwarf" when one of them lacks frame pointers, its
 * path then written to `why`; "fp" when all keep them or none can be read.
 */
const char *profile_call_graph(const char *path, char *why, size_t size);

#endif
