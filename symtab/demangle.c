/*
 * demangle: a thin wrapper over libiberty, which knows the Itanium C++ ABI
 * and both Rust manglings.
 */
#include "symtab/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

char *demangle_symbol(const char *name)
{
    /* Rust first: without DMGL_VERBOSE it drops the legacy hash and v0 crate ids. */
    char *readable = rust_demangle(name, DMGL_ANSI);
    /* C++ as `c++filt -p`: verbose (std::basic_string<...>, not std::string), no parameters. */
    if (!readable)
        readable = cplus_demangle(name, DMGL_GNU_V3 | DMGL_ANSI | DMGL_VERBOSE);
    if (!readable)
        readable = strdup(name);
    return readable;
}
