/*
 * demangle: symbol names as people read them (docs/FORMATS.md#folded-stacks): C++
 * without its parameter list (as `c++filt -p`), Rust legacy without its
 * `::h0123...` hash, Rust v0. Other names come back unchanged.
 */
#ifndef SYMTAB_DEMANGLE_H
#define SYMTAB_DEMANGLE_H

/* A malloc'd readable name for `name`, or NULL when memory runs out. */
char *demangle_symbol(const char *name);

#endif
