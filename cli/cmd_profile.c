/*
 * cmd_profile: `cli profile [options] -- CMD ARGS...`: records CMD and
 * every process it starts with the real `perf record`, snapshots the
 * executable mappings of those processes while they live, then folds the
 * recording as `cli perf fold --maps` does and renders it; exits with
 * CMD's status (docs/PERF.md, "Recording: cli profile").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/perf_options.h"
#include "cli/profile_call_graph.h"
#include "cli/profile_run.h"
#include "cli/render_options.h"
#include "perf/perf.h"

#define POLL_MS       5 /* how often the process tree is walked */
#define MAX_FORWARDED 64

static const char profile_help_head[] =
    "usage: cli profile [-F HZ] [--call-graph fp|dwarf] [-o OUT] [--keep-data FILE]\n"
    "                   [--keep-maps FILE] [fold and picture options] -- CMD [ARGS...]\n"
    "\n"
    "Runs CMD under `perf record` (found on PATH), following every process and\n"
    "thread it starts, and writes its profile: folded stacks, an SVG flamegraph or\n"
    "a speedscope file, by OUT's extension. The stacks are those `perf script |\n"
    "cli perf collapse` gives for the recording (docs/PERF.md). While CMD runs, the\n"
    "executable mappings of each of its processes are read from /proc/PID/maps,\n"
    "so code the recording has no mapping for is still named.\n"
    "\n"
    "  cli profile -o out.svg -- make -j2\n"
    "\n"
    "Exits with CMD's exit status, 128+N when a signal N killed it.\n"
    "\n"
    "recording:\n"
    "  -F, --freq HZ        samples per second (default: perf's, 4000)\n"
    "  --call-graph fp|dwarf\n"
    "                       how perf records call chains: fp walks frame pointers\n"
    "                       (code built with -fno-omit-frame-pointer); dwarf copies\n"
    "                       stacks (see docs/PERF.md for what is unwound). Default:\n"
    "                       fp when CMD's executable and the libraries it names keep\n"
    "                       frame pointers, else dwarf (said on stderr)\n"
    "  --keep-data FILE     keep perf's recording as FILE (default: a temporary\n"
    "                       file, removed at the end); `perf script -i FILE` reads it\n"
    "  --keep-maps FILE     write the /proc/PID/maps snapshot to FILE, for\n"
    "                       `cli perf fold DATA --maps FILE` (docs/FORMATS.md)\n"
    "\n"
    "folding (as in cli perf fold):\n"
    "  --event NAME         count the samples of event NAME\n"
    "  --pid, --tid         append -PID or -PID/TID to the command name\n"
    "  --addrs              keep the address of frames without a symbol\n"
    "  --no-inline          no inlined functions on DWARF-unwound frames\n"
    "\n"
    "Here -o defaults to profile.svg (profile.json, profile.folded by --format),\n"
    "not stdout (CMD writes there), and the SVG's title to the command line.\n"
    "\n";

static const char profile_help_tail[] =
    "\n"
    "Exit status: CMD's; 64 usage error; 65 an unusable recording; 69 perf is\n"
    "missing or may not record (the error says how to fix it); 71 out of memory;\n"
    "73 unwritable output; 126 CMD is not executable, 127 CMD not found.\n";

struct profile_args {
    struct render_options render;
    struct perf_name_opts names;
    const char *event;
    const char *freq;
    const char *call_graph; /* given, or chosen by profile_call_graph */
    const char *keep_data;
    const char *keep_maps;
    char **command;
    /* the fold options, passed on to `cli perf fold` as given */
    char *forwarded[MAX_FORWARDED];
    int nr_forwarded;
    int next_arg; /* optind before the option being taken */
};

enum { OPT_CALL_GRAPH = 300, OPT_KEEP_DATA, OPT_KEEP_MAPS, OPT_NO_INLINE };

static int take_freq(struct profile_args *a, const char *arg)
{
    uint64_t hz;
    if (!cli_parse_count(arg, false, &hz) || hz == 0 || hz > 1000000) {
        cli_error("-F wants samples per second, a whole number from 1 to 1000000, not '%s'", arg);
        return EXIT_USAGE;
    }
    a->freq = arg;
    return CLI_GO_ON;
}

static int take_call_graph(struct profile_args *a, const char *arg)
{
    if (strcmp(arg, "fp") != 0 && strcmp(arg, "dwarf") != 0) {
        cli_error("--call-graph %s: choose fp or dwarf", arg);
        return EXIT_USAGE;
    }
    a->call_graph = arg;
    return CLI_GO_ON;
}

/* Remembers the argv words of a fold option, to pass them on. */
static int forward(struct profile_args *a, char **argv)
{
    for (int i = a->next_arg; i < optind; i++) {
        if (a->nr_forwarded == MAX_FORWARDED) {
            cli_error("too many options; see 'cli profile --help'");
            return EXIT_USAGE;
        }
        a->forwarded[a->nr_forwarded++] = argv[i];
    }
    return CLI_GO_ON;
}

struct option_ctx {
    struct profile_args *a;
    char **argv;
};

/* One option: CLI_GO_ON, CLI_NOT_OURS, or an exit status. */
static int take_option(void *ctx, int c, const char *arg)
{
    struct option_ctx *oc = ctx;
    struct profile_args *a = oc->a;
    int rc;
    switch (c) {
    case 'h': printf("%s%s%s", profile_help_head, render_options_help, profile_help_tail); return 0;
    case 'F': rc = take_freq(a, arg); break;
    case OPT_CALL_GRAPH: rc = take_call_graph(a, arg); break;
    case OPT_KEEP_DATA:
        a->keep_data = arg;
        rc = CLI_GO_ON;
        break;
    case OPT_KEEP_MAPS:
        a->keep_maps = arg;
        rc = CLI_GO_ON;
        break;
    case OPT_NO_INLINE: rc = forward(a, oc->argv); break;
    default:
        rc = perf_options_take(c, arg, &a->event, &a->names);
        if (rc == CLI_NOT_OURS)
            rc = render_options_take(&a->render, c, arg);
        if (rc == CLI_GO_ON)
            rc = forward(a, oc->argv);
        break;
    }
    a->next_arg = optind;
    return rc;
}

static int parse_args(int argc, char **argv, struct profile_args *a)
{
    static const struct option longopts[] = {
        RENDER_LONG_OPTIONS,
        PERF_LONG_OPTIONS,
        {"freq", required_argument, NULL, 'F'},
        {"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
        {"keep-data", required_argument, NULL, OPT_KEEP_DATA},
        {"keep-maps", required_argument, NULL, OPT_KEEP_MAPS},
        {"no-inline", no_argument, NULL, OPT_NO_INLINE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    render_options_init(&a->render);
    a->next_arg = 1;
    struct option_ctx ctx = {a, argv};
    /* '+': options end at CMD, whose own options are its business */
    int rc = cli_getopt(argc, argv, "+:hF:o:", longopts, "profile", take_option, &ctx);
    if (rc != CLI_GO_ON)
        return rc;
    if (optind >= argc) {
        cli_error("no command to profile; try 'cli profile -- ./prog ARGS'");
        return EXIT_USAGE;
    }
    a->command = argv + optind;
    return render_options_finish(&a->render, "profile", RENDER_SVG) ? EXIT_USAGE : CLI_GO_ON;
}

/* Where the recording and the snapshot are made: beside --keep-data, else in $TMPDIR. */
static char *make_work_dir(const char *keep_data)
{
    char dir[PATH_MAX];
    const char *slash = keep_data ? strrchr(keep_data, '/') : NULL;
    if (keep_data)
        snprintf(dir, sizeof(dir), "%.*s.zkprof-profile-XXXXXX",
                 slash ? (int)(slash - keep_data + 1) : 0, keep_data);
    else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/zkprof-profile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    }
    return mkdtemp(dir) ? strdup(dir) : NULL;
}

/* kernel.perf_event_paranoid, or INT_MIN when it cannot be read. */
static int perf_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int level = INT_MIN;
    if (f) {
        if (fscanf(f, "%d", &level) != 1)
            level = INT_MIN;
        fclose(f);
    }
    return level;
}

/* Whether this process holds CAP_PERFMON (38) or CAP_SYS_ADMIN (21). */
static bool may_profile_anyway(void)
{
    if (geteuid() == 0)
        return true;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long caps = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "CapEff: %llx", &caps) == 1)
            break;
    if (f)
        fclose(f);
    return caps & (1ull << 38 | 1ull << 21);
}

/* "; kernel.perf_event_paranoid is N, ...: how to allow it", or "". */
static void paranoid_hint(char *buf, size_t size)
{
    int level = perf_paranoid();
    buf[0] = '\0';
    if (level > 2 && !may_profile_anyway())
        snprintf(buf, size,
                 "; kernel.perf_event_paranoid is %d, which forbids profiling to users without "
                 "CAP_PERFMON: allow it with 'sudo sysctl kernel.perf_event_paranoid=2' (or run "
                 "as root)",
                 level);
    else if (level > 1 && !may_profile_anyway())
        snprintf(buf, size,
                 "; kernel.perf_event_paranoid is %d: only user code can be profiled; for kernel "
                 "frames run 'sudo sysctl kernel.perf_event_paranoid=1'",
                 level);
}

/* CMD's status from perf's: perf record exits as its command did, and dies of its signal. */
static int command_status(int wait_status)
{
    if (WIFSIGNALED(wait_status))
        return 128 + WTERMSIG(wait_status);
    return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : EXIT_SOFTWARE;
}

static int write_snapshot(FILE *out, void *ctx)
{
    return maps_snapshot_write(out, ctx);
}

/* perf record's command line; `words` holds at least 10 + the command's words. */
static void perf_argv(const struct profile_args *a, char *perf, char *data, char **words)
{
    int n = 0;
    words[n++] = perf;
    words[n++] = "record";
    if (a->freq) {
        words[n++] = "-F";
        words[n++] = (char *)a->freq;
    }
    words[n++] = "--call-graph";
    words[n++] = (char *)a->call_graph;
    words[n++] = "-o";
    words[n++] = data;
    words[n++] = "--";
    for (char **c = a->command; *c; c++)
        words[n++] = *c;
    words[n] = NULL;
}

static size_t count_words(char **words)
{
    size_t n = 0;
    while (words[n])
        n++;
    return n;
}

/* The title: the command line, shortened. */
static void command_title(char **command, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (char **c = command; *c && used + 1 < size; c++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", c == command ? "" : " ", *c);
}

/* Folds `data` as `cli perf fold DATA --maps MAPS [forwarded options]` does. */
static int fold_recording(const struct profile_args *a, char *data, char *maps)
{
    char *argv[MAX_FORWARDED + 16];
    char title[256];
    int n = 0;
    argv[n++] = "fold";
    for (int i = 0; i < a->nr_forwarded; i++)
        argv[n++] = a->forwarded[i];
    argv[n++] = "--maps";
    argv[n++] = maps;
    if (!a->render.output) {
        static const char *const defaults[] = {[RENDER_SVG] = "profile.svg",
                                               [RENDER_JSON] = "profile.json",
                                               [RENDER_FOLDED] = "profile.folded"};
        argv[n++] = "-o";
        argv[n++] = (char *)defaults[a->render.format];
    }
    if (!a->render.svg.title) {
        command_title(a->command, title, sizeof(title));
        argv[n++] = "--title";
        argv[n++] = title;
    }
    argv[n++] = data; /* last: getopt may still be in '+' mode (it was reset to 1, not 0) */
    argv[n] = NULL;
    return cmd_perf_fold(n, argv);
}

struct work {
    char *dir;
    char data[PATH_MAX + 32];
    char maps[PATH_MAX + 32];
};

/* After perf: the snapshot written, the recording checked, kept and folded. */
static int finish(const struct profile_args *a, struct work *w, struct maps_snapshot *snap,
                  const struct profile_outcome *out)
{
    if (out->no_children_files)
        cli_warn("this kernel has no /proc/PID/task/TID/children "
                 "(CONFIG_PROC_CHILDREN): no /proc/PID/maps snapshot was taken");
    int status = command_status(out->wait_status);
    if (status != 0 && !out->command_seen && !perf_recording_has_exec(w->data)) {
        char hint[512];
        paranoid_hint(hint, sizeof(hint));
        cli_error("perf record failed before %s ran (status %d; its message is above)%s",
                  a->command[0], status, hint);
        return EXIT_UNAVAILABLE;
    }
    int rc = cli_write_output(w->maps, write_snapshot, snap);
    if (rc == 0 && a->keep_maps)
        rc = cli_write_output(a->keep_maps, write_snapshot, snap);
    if (rc)
        return rc;
    char *data = w->data;
    if (a->keep_data) {
        if (rename(w->data, a->keep_data) != 0) {
            cli_error("cannot keep the recording as %s: %s", a->keep_data, strerror(errno));
            return EXIT_CANTCREAT;
        }
        data = (char *)a->keep_data;
    }
    rc = fold_recording(a, data, w->maps);
    return rc ? rc : status;
}

/* Records, folds; returns the exit status. */
static int profile(const struct profile_args *a, char *perf)
{
    struct work w = {.dir = make_work_dir(a->keep_data)};
    if (!w.dir) {
        cli_error("cannot make a directory for the recording%s%s: %s",
                  a->keep_data ? " beside " : "", a->keep_data ? a->keep_data : "",
                  strerror(errno));
        return EXIT_CANTCREAT;
    }
    snprintf(w.data, sizeof(w.data), "%s/perf.data", w.dir);
    snprintf(w.maps, sizeof(w.maps), "%s/maps", w.dir);
    char **argv = calloc(count_words(a->command) + 12, sizeof(*argv));
    struct maps_snapshot snap;
    maps_snapshot_init(&snap);
    struct profile_outcome out;
    struct error e = ERROR_INIT;
    int status;
    if (!argv) {
        cli_error("out of memory");
        status = EXIT_OSERR;
    } else {
        perf_argv(a, perf, w.data, argv);
        status = profile_run(argv, POLL_MS, &snap, &out, &e) ? cli_fail(&e, NULL)
                                                             : finish(a, &w, &snap, &out);
    }
    free(argv);
    maps_snapshot_free(&snap);
    unlink(w.data);
    unlink(w.maps);
    rmdir(w.dir);
    free(w.dir);
    return status;
}

/* Frame pointers unless the command's code lacks them (profile_call_graph.h). */
static void choose_call_graph(struct profile_args *a, const char *command_path)
{
    char why[PATH_MAX];
    a->call_graph = profile_call_graph(command_path, why, sizeof(why));
    if (strcmp(a->call_graph, "dwarf") == 0)
        fprintf(stderr,
                "cli profile: %s has no frame pointers: recording --call-graph dwarf "
                "(--call-graph fp forces frame pointers)\n",
                why);
}

/*
 * perf on PATH and the command runnable, its call-graph mode chosen;
 * returns 0 or the exit status after saying why not.
 */
static int check_programs(struct profile_args *a, char *perf, size_t size)
{
    char path[PATH_MAX];
    int rc = profile_which(a->command[0], path, sizeof(path));
    if (rc) {
        cli_error("%s: %s", a->command[0],
                  rc == EACCES ? "not an executable file" : "command not found");
        return rc == EACCES ? 126 : 127;
    }
    if (profile_which("perf", perf, size) != 0) {
        cli_error("perf is not on PATH: install it (Debian: apt-get install linux-perf; Ubuntu: "
                  "apt-get install linux-tools-generic) or add its directory to PATH");
        return EXIT_UNAVAILABLE;
    }
    char hint[512];
    if (perf_paranoid() > 2 && !may_profile_anyway()) {
        paranoid_hint(hint, sizeof(hint));
        cli_error("perf may not record here%s", hint);
        return EXIT_UNAVAILABLE;
    }
    if (!a->call_graph)
        choose_call_graph(a, path);
    return 0;
}

int cmd_profile(int argc, char **argv)
{
    struct profile_args a;
    memset(&a, 0, sizeof(a));
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    char perf[PATH_MAX];
    status = check_programs(&a, perf, sizeof(perf));
    return status ? status : profile(&a, perf);
}
