/*
 * render_options: parsing the shared options and settling the format.
 */
#include "cli/render_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char render_options_help[] =
    "output:\n"
    "  -o, --output FILE    write to FILE (default: stdout), under a temporary name\n"
    "                       renamed into place; its extension picks the format:\n"
    "                       .svg, .json (speedscope), .folded, .pb.gz (pprof, for\n"
    "                       go tool pprof and Pyroscope) or .gecko.json (Firefox\n"
    "                       Profiler)\n"
    "  --format FORMAT      svg, json, folded, pprof or gecko, whatever FILE is called\n"
    "                       (default: from FILE's extension, else the command's)\n"
    "\n"
    "picture (SVG):\n"
    "  --title TEXT         the title (default \"Flame Graph\"; \"Icicle Graph\" with\n"
    "                       --inverted)\n"
    "  --subtitle TEXT      a second line under the title\n"
    "  --unit NAME          what the counts count, shown with every count:\n"
    "                       \"instructions\" for guest profiles, \"samples\" for host\n"
    "                       profiles (default: samples); --countname is the same\n"
    "  --width PX           image width in pixels (default 1200)\n"
    "  --minwidth PX|P%     leave out frames narrower than PX pixels or P percent of\n"
    "                       the total (default 0.1); their counts stay in their\n"
    "                       parents' widths and in the total\n"
    "  --inverted           an icicle graph: outermost frames at the top\n"
    "  --colors PALETTE     hot (default), mem, io, red, green, blue, aqua, yellow,\n"
    "                       purple, orange, gray; or lang: a hue per language guessed\n"
    "                       from the name (C red, C++ yellow, Rust aqua, Rust std and\n"
    "                       kernel orange, Go blue, Java green, Python/JS/Perl purple,\n"
    "                       no symbol gray); java, js, perl and rust mean lang. The\n"
    "                       shade comes from a hash of the name, so a function keeps\n"
    "                       its color from graph to graph\n"
    "  -h, --help           show this help\n";

const char render_weight_help[] =
    "  --weight NAME        the weight that folded and SVG output show, for inputs\n"
    "                       with several (pprof sample types, speedscope profiles;\n"
    "                       default: the first); pprof, gecko and speedscope output\n"
    "                       keep every weight\n";

const char render_viewer_help[] =
    "In the SVG: hover a frame for its name, count and share; click to zoom into\n"
    "it, Reset Zoom (or Esc) to zoom out; Search (or Ctrl-F) highlights frames\n"
    "matching a regular expression and shows the share they cover.\n";

void render_options_init(struct render_options *r)
{
    memset(r, 0, sizeof(*r));
    svg_options_init(&r->svg);
    r->minwidth_percent = -1;
}

static int parse_width(struct render_options *r, const char *arg)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (*arg < '0' || *arg > '9' || *end || errno || v < SVG_MIN_WIDTH || v > 1000000) {
        cli_error("--width wants a whole number of pixels from %u to 1000000, not '%s'",
                  SVG_MIN_WIDTH, arg);
        return EXIT_USAGE;
    }
    r->svg.width = (unsigned)v;
    return CLI_GO_ON;
}

static int parse_minwidth(struct render_options *r, const char *arg)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    bool percent = *end == '%';
    if (percent)
        end++;
    if (end == arg || *end || errno || !isfinite(v) || v < 0 || (percent && v > 100)) {
        cli_error("--minwidth wants pixels (such as 0.5) or a percentage of the total (such "
                  "as 0.1%%), not '%s'",
                  arg);
        return EXIT_USAGE;
    }
    if (percent)
        r->minwidth_percent = v;
    else {
        r->minwidth_percent = -1;
        r->svg.minwidth = v;
    }
    return CLI_GO_ON;
}

static int parse_colors(struct render_options *r, const char *arg)
{
    if (!palette_parse(arg, &r->svg.palette)) {
        cli_error("--colors %s: no such palette; choose from %s", arg, palette_names);
        return EXIT_USAGE;
    }
    return CLI_GO_ON;
}

int render_options_take(struct render_options *r, int opt, const char *arg)
{
    switch (opt) {
    case 'o': r->output = arg; return CLI_GO_ON;
    case RENDER_OPT_FORMAT: r->format_name = arg; return CLI_GO_ON;
    case RENDER_OPT_TITLE: r->svg.title = arg; return CLI_GO_ON;
    case RENDER_OPT_SUBTITLE: r->svg.subtitle = arg; return CLI_GO_ON;
    case RENDER_OPT_UNIT:
        r->svg.unit = arg;
        r->svg_unit_given = true;
        return CLI_GO_ON;
    case RENDER_OPT_WIDTH: return parse_width(r, arg);
    case RENDER_OPT_MINWIDTH: return parse_minwidth(r, arg);
    case RENDER_OPT_INVERTED: r->svg.inverted = true; return CLI_GO_ON;
    case RENDER_OPT_COLORS: return parse_colors(r, arg);
    case RENDER_OPT_WEIGHT: r->weight = arg; return CLI_GO_ON;
    default: return CLI_NOT_OURS;
    }
}

int render_options_finish(struct render_options *r, const char *command,
                          enum render_format fallback)
{
    if (!render_format_choose(r->format_name, r->output, fallback, &r->format)) {
        cli_error("--format %s: choose svg, json, folded, pprof or gecko; see 'cli %s --help'",
                  r->format_name, command);
        return EXIT_USAGE;
    }
    r->fallback = fallback;
    if (r->minwidth_percent >= 0)
        r->svg.minwidth = r->minwidth_percent / 100.0 * (double)(r->svg.width - 2 * SVG_PAD);
    return 0;
}

int render_options_write(const struct render_options *r, const struct trie *t,
                         const struct strtab *names, const char *name)
{
    struct profile p; /* the writers only read a borrowed profile's trie */
    if (!profile_wrap(&p, (struct trie *)t, (struct strtab *)names, r->svg.unit)) {
        cli_error("out of memory");
        return EXIT_OSERR;
    }
    int rc = render_options_write_profile(r, &p, name);
    profile_free(&p);
    return rc;
}

int render_options_write_profile(const struct render_options *r, struct profile *p,
                                 const char *name)
{
    struct profile_write_options o = {.format = r->format_name,
                                      .fallback = r->fallback,
                                      .weight = r->weight,
                                      .svg = r->svg,
                                      .unit_given = r->svg_unit_given,
                                      .name = name};
    struct error e = ERROR_INIT;
    return profile_write(r->output, p, &o, &e) ? cli_fail(&e, NULL) : 0;
}
