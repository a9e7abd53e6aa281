/*
 * cli: the subcommands of the `cli` program and what they share: exit
 * statuses (docs/CONTRACT.md#5-exit-statuses), the one-line `error:` and `warning:` lines, the one
 * mapping from a library error (common/error.h) to an exit status, the
 * option loop with its usage errors, and writing an output.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/warning.h"
#include "flamegraph/flamegraph.h"

enum cli_exit {
    EXIT_USAGE = 64,       /* bad command line */
    EXIT_DATAERR = 65,     /* an input file we cannot use */
    EXIT_NOINPUT = 66,     /* an input file we cannot read */
    EXIT_UNAVAILABLE = 69, /* perf is missing or may not record (cli profile) */
    EXIT_SOFTWARE = 70,    /* the guest faulted */
    EXIT_OSERR = 71,       /* the host refused memory or the like */
    EXIT_CANTCREAT = 73,   /* an output file cannot be written */
    EXIT_MAX_CYCLES = 124, /* --max-cycles ran out */
};

/* Prints "error: <message>" as one line on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "warning: <message>" as one line on stderr: every warning takes this route. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The sink the libraries' warnings go to (common/warning.h): cli_warn. */
struct warning_sink cli_warning_sink(void);

/*
 * The exit status for a library error's status: the one place statuses
 * become exit codes (65 corrupt or unsupported, 66 unreadable, 71 no
 * memory, 73 cannot write).
 */
int cli_exit_status(enum error_status status);

/*
 * Reports `e` as one line, "error: SUBJECT: MESSAGE" (or "error: MESSAGE"
 * when `subject` is NULL), and returns its exit status.
 */
int cli_fail(const struct error *e, const char *subject);

/*
 * Writes an output with output_file_write (stdout when `path` is NULL).
 * Returns 0, or the exit status after reporting the error.
 */
int cli_write_output(const char *path, output_writer write, void *ctx);

/*
 * Parses a non-negative count with an optional K/M/G suffix (powers of
 * 1024 when `binary`, else of 1000). Returns false on anything else.
 */
bool cli_parse_count(const char *text, bool binary, uint64_t *out);

/* What an option handler returns besides an exit status. */
#define CLI_GO_ON    (-1) /* taken: go on */
#define CLI_NOT_OURS (-2) /* an unknown option */

/* Takes one option getopt_long returned: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
typedef int (*cli_option_fn)(void *ctx, int opt, const char *arg);

/*
 * The option loop of every command: getopt_long over `argv` with
 * `shortopts` (which must start with ':') and `longopts`, each option
 * given to `take`. An unknown option or one without its value is
 * reported ("error: ...; see 'cli COMMAND --help'") as EXIT_USAGE.
 * Returns CLI_GO_ON with optind at the first operand, or an exit status.
 */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               const char *command, cli_option_fn take, void *ctx);

int cmd_execute(int argc, char **argv);       /* cmd_execute.c */
int cmd_flamegraph(int argc, char **argv);    /* cmd_flamegraph.c */
int cmd_diff(int argc, char **argv);          /* cmd_diff.c */
int cmd_perf(int argc, char **argv);          /* cmd_perf.c: dispatches to the two below */
int cmd_perf_fold(int argc, char **argv);     /* cmd_perf_fold.c */
int cmd_perf_collapse(int argc, char **argv); /* cmd_perf_collapse.c */
int cmd_profile(int argc, char **argv);       /* cmd_profile.c */
int cmd_report(int argc, char **argv);        /* cmd_report.c */
int cmd_merge(int argc, char **argv);         /* cmd_merge.c */

#endif
