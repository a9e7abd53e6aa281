/*
 * cli: the subcommands of the `cli` program and what they share: exit
 * statuses (SPEC section 1) and the one-line `error:` reporting.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>

enum cli_exit {
    EXIT_USAGE = 64,       /* bad command line */
    EXIT_DATAERR = 65,     /* an input file we cannot use */
    EXIT_NOINPUT = 66,     /* an input file we cannot read */
    EXIT_SOFTWARE = 70,    /* the guest faulted */
    EXIT_OSERR = 71,       /* the host refused memory or the like */
    EXIT_CANTCREAT = 73,   /* an output file cannot be written */
    EXIT_MAX_CYCLES = 124, /* --max-cycles ran out */
};

/* Prints "error: <message>" as one line on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parses a non-negative count with an optional K/M/G suffix (powers of
 * 1024 when `binary`, else of 1000). Returns false on anything else.
 */
bool cli_parse_count(const char *text, bool binary, uint64_t *out);

int cmd_execute(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_perf(int argc, char **argv);          /* cmd_perf.c: dispatches to the two below */
int cmd_perf_fold(int argc, char **argv);     /* cmd_perf_fold.c */
int cmd_perf_collapse(int argc, char **argv); /* cmd_perf_collapse.c */

#endif
