/*
 * warning: the one route by which a library says that something went
 * less well than asked without failing (a system call it does not know,
 * DWARF it cannot read, output the host would not take). The library
 * calls warning_say on the sink its caller gave it; only the program
 * (cli/cli.c, cli_warning_sink) has a sink that prints, as one line
 * "warning: TEXT" on stderr, the same line its own warnings take
 * (cli_warn). A library never writes to stderr itself. What a library
 * can only know at the end (perf's fold report, symtab's inline-frame
 * summary) it hands back as data, and the program words it through
 * cli_warn.
 */
#ifndef COMMON_WARNING_H
#define COMMON_WARNING_H

struct warning_sink {
    void (*say)(void *ctx, const char *text); /* NULL: warnings are dropped */
    void *ctx;
};

/* Formats TEXT (no "warning: " and no newline) and hands it to the sink. */
void warning_say(const struct warning_sink *sink, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
