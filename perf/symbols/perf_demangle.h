/*
 * perf_demangle: symbol names as perf script prints them
 * (tools/perf/util/symbol-elf.c: demangle_sym): C++ and Rust first
 * (without parameters, which is what perf prints unless run with -v),
 * and for names that are not C++ or Rust, OCaml
 * ("camlModule__fn_123" -> "Module.fn") and then Java
 * ("Lcom/x/Y;.run(I)V" -> "com.x.Y.run(int)"). Kernel names are never
 * demangled.
 */
#ifndef PERF_PERF_DEMANGLE_H
#define PERF_PERF_DEMANGLE_H

/* A malloc'd readable name for `name`, or NULL when memory runs out. */
char *perf_demangle(const char *name);

/*
 * perf_demangle of a symbol kept as read (ELF symbols are demangled when a
 * frame or a tie needs them, not when read): a PLT entry "NAME@plt" is
 * perf's demangled NAME, then "@plt". NULL when memory runs out.
 */
char *perf_demangle_symbol(const char *name);

#endif
