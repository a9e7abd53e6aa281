/*
 * demangle: a thin wrapper over libiberty's cplus_demangle, which knows
 * the Itanium C++ ABI and both Rust manglings.
 */
#include "symtab/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

char *demangle_symbol(const char *name)
{
    /* Without DMGL_PARAMS: no parameter list; without DMGL_VERBOSE: no Rust hash. */
    char *readable = cplus_demangle(name, DMGL_AUTO | DMGL_ANSI);
    if (!readable)
        readable = strdup(name);
    return readable;
}
