/*
 * cli: what the subcommands share (cli.h): reporting, exit statuses,
 * options and outputs.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One line on stderr: the prefix ("error: ", "warning: "), the message, a newline. */
static void say_line(const char *prefix, const char *fmt, va_list ap)
{
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line("error: ", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line("warning: ", fmt, ap);
    va_end(ap);
}

static void say_on_stderr(void *ctx, const char *text)
{
    (void)ctx;
    cli_warn("%s", text);
}

struct warning_sink cli_warning_sink(void)
{
    return (struct warning_sink){.say = say_on_stderr};
}

bool cli_parse_count(const char *text, bool binary, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return false;
    uint64_t unit = 1, k = binary ? 1024 : 1000;
    if (*end == 'k' || *end == 'K')
        unit = k, end++;
    else if (*end == 'm' || *end == 'M')
        unit = k * k, end++;
    else if (*end == 'g' || *end == 'G')
        unit = k * k * k, end++;
    if (*end != '\0' || (unit > 1 && v > UINT64_MAX / unit))
        return false;
    *out = (uint64_t)v * unit;
    return true;
}

int cli_exit_status(enum error_status status)
{
    switch (status) {
    case ERROR_NONE: return 0;
    case ERROR_UNREADABLE: return EXIT_NOINPUT;
    case ERROR_NO_MEMORY: return EXIT_OSERR;
    case ERROR_CANNOT_WRITE: return EXIT_CANTCREAT;
    case ERROR_CORRUPT:
    case ERROR_UNSUPPORTED: break;
    }
    return EXIT_DATAERR;
}

int cli_fail(const struct error *e, const char *subject)
{
    if (subject)
        cli_error("%s: %s", subject, e->msg);
    else
        cli_error("%s", e->msg);
    return cli_exit_status(e->status);
}

int cli_write_output(const char *path, output_writer write, void *ctx)
{
    struct error e = ERROR_INIT;
    return output_file_write(path, write, ctx, &e) ? cli_fail(&e, NULL) : 0;
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
               const char *command, cli_option_fn take, void *ctx)
{
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == ':') {
            cli_error("option '%s' needs a value; see 'cli %s --help'", argv[optind - 1], command);
            return EXIT_USAGE;
        }
        int rc = c == '?' ? CLI_NOT_OURS : take(ctx, c, optarg);
        if (rc == CLI_NOT_OURS) {
            cli_error("unknown option '%s'; see 'cli %s --help'", argv[optind - 1], command);
            return EXIT_USAGE;
        }
        if (rc != CLI_GO_ON)
            return rc;
    }
    return CLI_GO_ON;
}
