/*
 * svg: layout (flamegraph/layout.c) -> SVG text, streamed frame by frame.
 *
 * DOM contract (also in docs/FORMATS.md, "Flamegraph SVG"), for people
 * and for browser tests:
 *
 *   <svg id="flamegraph" width="W" height="H" data-pad="10"
 *        data-frame-height="16" data-char-width="7.2" data-unit="UNIT"
 *        data-inverted="0|1" data-diff="0|1">
 *     <text id="title">TITLE</text>
 *     <text id="subtitle">SUBTITLE</text>          only when one is given
 *     <text id="unzoom" class="hide">Reset Zoom</text>   shown while zoomed
 *     <text id="search">Search</text>        "Reset Search" while searching
 *     <text id="details">...</text>          the hovered frame's details
 *     <text id="matched" class="hide"></text>  "Matched: 12.34%" after a search
 *     <text id="empty">No samples</text>     only when there are no counts
 *     <g id="frames">
 *       <g class="frame" data-name="NAME" data-count="N" data-start="S"
 *          [data-before="B"]>
 *         <title>NAME (N UNIT, P%)</title>
 *         <rect x=".." y=".." width=".." height="15" fill="rgb(r,g,b)"/>
 *         <text x=".." y="..">NAME, or its start and ".." when too long</text>
 *       </g>
 *       ...
 *     </g>
 *     <script>...</script>
 *   </svg>
 *
 * - Frames come depth-first, a parent before its children, children
 *   sorted bytewise by name; the first frame is the root, named "all",
 *   whose count is the grand total.
 * - data-count is the frame's total (its own count plus its descendants'),
 *   data-start its left edge in counts from the left of "all": the rect's
 *   x is pad + start * scale and its width count * scale, scale being
 *   (W - 2 * pad) / grand total. Frames narrower than the minimum width
 *   are not drawn, but their counts stay in their parents' and in "all".
 * - A frame's depth is its distance from the root row: rows are 16 px
 *   apart, "all" at the bottom (at the top when data-inverted is 1).
 * - Differential graphs (data-diff="1"): data-count is the "after" total,
 *   data-before the "before" total; the fill is red where the frame grew,
 *   blue where it shrank, paler the smaller the change, and the title adds
 *   "before: B, delta: +D".
 * - The script defines window.search(term) (a regular expression, or
 *   literal text if it is not one; returns the matched percentage),
 *   window.zoom(frameElement), window.unzoom() and window.reset_search().
 *   After zoom(g), g's rect is the full drawable width (W - 2 * pad).
 *   Matching frames are filled rgb(230,0,230); the matched percentage is
 *   the share of the frame in view (zoomed frame, else "all") that lies
 *   under at least one match, each count counted once.
 * - All text is XML-escaped; names that are not valid UTF-8 show U+FFFD.
 */
#include "flamegraph/svg.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "flamegraph/layout.h"
#include "flamegraph/svg_text.h"
#include "flamegraph/svg_viewer.h"

enum {
    PAD = SVG_PAD,     /* left and right margin */
    FRAME_HEIGHT = 16, /* one row of frames */
    BOX_HEIGHT = 15,   /* a frame's rect: a 1 px gap between rows */
    TOP = 36,          /* title band */
    SUBTITLE_BAND = 20,
    BOTTOM = 34,    /* details line band */
    EMPTY_ROWS = 3, /* room for the "No samples" note */
};
#define CHAR_WIDTH 7.2 /* 12 px monospace: 0.6 em per character */

struct svg_writer {
    FILE *out;
    const struct trie *t;
    const struct strtab *names;
    const struct svg_options *o;
    const char *unit;
    struct layout layout;
    double drawable;      /* width - 2 * PAD */
    double scale;         /* pixels per count */
    unsigned height, top; /* image height; where the frame rows start */
    double max_abs_delta; /* differential graphs: the largest change shown */
};

void svg_options_init(struct svg_options *o)
{
    *o = (struct svg_options){
        .unit = "samples", .width = 1200, .minwidth = 0.1, .palette = PALETTE_HOT};
}

/* Writes v with thousands separators: 1,234,567. */
static void put_count(FILE *out, uint64_t v)
{
    char buf[32];
    size_t i = sizeof(buf), digits = 0;
    buf[--i] = '\0';
    do {
        if (digits && digits % 3 == 0)
            buf[--i] = ',';
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
        digits++;
    } while (v);
    fputs(buf + i, out);
}

/* Writes after - before with its sign: +1,234, -56 or 0. */
static void put_delta(FILE *out, uint64_t after, uint64_t before)
{
    if (after != before)
        fputc(after > before ? '+' : '-', out);
    put_count(out, after > before ? after - before : before - after);
}

static void put_text(FILE *out, const char *s)
{
    svg_text_escape(out, s, strlen(s));
}

/* A box's frame name, s[0..*len). */
static const char *box_name(const struct svg_writer *w, const struct layout_box *b, size_t *len)
{
    if (b->node == TRIE_ROOT) {
        *len = 3;
        return "all";
    }
    uint64_t id = w->t->nodes[b->node].key;
    *len = w->names->lengths[id];
    return w->names->strings[id];
}

static const char *default_title(const struct svg_options *o)
{
    if (o->diff)
        return o->inverted ? "Differential Icicle Graph" : "Differential Flame Graph";
    return o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* The y of a row's top edge; row 0 is "all". */
static unsigned row_y(const struct svg_writer *w, uint32_t depth)
{
    if (w->o->inverted)
        return w->top + depth * FRAME_HEIGHT;
    return w->height - BOTTOM - (depth + 1) * FRAME_HEIGHT;
}

/* Background gradients as in flamegraph.pl: warm for warm palettes, else cool or gray. */
static void background_colors(const struct svg_options *o, const char **from, const char **to)
{
    *from = "#eeeeee";
    *to = "#eeeeb0";
    if (o->diff || o->palette == PALETTE_IO || o->palette == PALETTE_GRAY) {
        *from = "#f8f8f8";
        *to = "#e8e8e8";
    } else if (o->palette == PALETTE_MEM || o->palette == PALETTE_BLUE ||
               o->palette == PALETTE_AQUA || o->palette == PALETTE_PURPLE) {
        *to = "#e0e0ff";
    } else if (o->palette == PALETTE_GREEN) {
        *from = "#eef2ee";
        *to = "#e0ffe0";
    }
}

static void write_head(const struct svg_writer *w)
{
    FILE *out = w->out;
    const struct svg_options *o = w->o;
    const char *from, *to;
    background_colors(o, &from, &to);
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
            "<svg version=\"1.1\" id=\"flamegraph\" xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" data-pad=\"%d\" "
            "data-frame-height=\"%d\" data-char-width=\"%.1f\" data-unit=\"",
            o->width, w->height, o->width, w->height, PAD, FRAME_HEIGHT, CHAR_WIDTH);
    put_text(out, w->unit);
    fprintf(out, "\" data-inverted=\"%d\" data-diff=\"%d\">\n", o->inverted ? 1 : 0,
            o->diff ? 1 : 0);
    fputs("<!-- Written by zkprof (cli flamegraph); the DOM is described in docs/FORMATS.md -->\n",
          out);
    fprintf(out,
            "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
            "<stop stop-color=\"%s\" offset=\"5%%\"/><stop stop-color=\"%s\" offset=\"95%%\"/>"
            "</linearGradient></defs>\n",
            from, to);
    fputs("<style type=\"text/css\">\n"
          "text { font-family: \"DejaVu Sans Mono\", Menlo, Consolas, \"Liberation Mono\", "
          "monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
          "#title { text-anchor: middle; font-size: 17px; }\n"
          "#subtitle { text-anchor: middle; fill: rgb(80,80,80); }\n"
          "#empty { text-anchor: middle; font-size: 14px; fill: rgb(80,80,80); }\n"
          "#search, #matched { text-anchor: end; }\n"
          "#unzoom, #search { cursor: pointer; }\n"
          "#unzoom:hover, #search:hover { fill: rgb(0,0,200); }\n"
          ".frame { cursor: pointer; }\n"
          ".frame text { pointer-events: none; }\n"
          ".frame:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
          ".parent { opacity: 0.5; }\n"
          ".hide { display: none; }\n"
          "</style>\n",
          out);
}

static void write_details_default(const struct svg_writer *w)
{
    FILE *out = w->out;
    fputs("Total: ", out);
    put_count(out, w->layout.grand_total);
    fputc(' ', out);
    put_text(out, w->unit);
    if (w->o->diff && w->layout.count > 0) {
        const struct layout_box *root = &w->layout.boxes[0];
        fputs("; before: ", out);
        put_count(out, root->before);
        fputs(", delta: ", out);
        put_delta(out, root->total, root->before);
    }
}

static void write_labels(const struct svg_writer *w)
{
    FILE *out = w->out;
    const struct svg_options *o = w->o;
    unsigned width = o->width;
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#background)\"/>\n",
            width, w->height);
    fprintf(out, "<text id=\"title\" x=\"%.1f\" y=\"24\">", width / 2.0);
    put_text(out, o->title ? o->title : default_title(o));
    fputs("</text>\n", out);
    if (o->subtitle) {
        fprintf(out, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\">", width / 2.0);
        put_text(out, o->subtitle);
        fputs("</text>\n", out);
    }
    fprintf(out, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n", PAD);
    fprintf(out, "<text id=\"search\" x=\"%u\" y=\"24\">Search</text>\n", width - PAD);
    fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%u\">", PAD, w->height - 12);
    write_details_default(w);
    fputs("</text>\n", out);
    fprintf(out, "<text id=\"matched\" class=\"hide\" x=\"%u\" y=\"%u\"></text>\n", width - PAD,
            w->height - 12);
    if (w->layout.count == 0)
        fprintf(out, "<text id=\"empty\" x=\"%.1f\" y=\"%u\">No samples</text>\n", width / 2.0,
                w->top + EMPTY_ROWS * FRAME_HEIGHT / 2 + 5);
}

static struct rgb box_color(const struct svg_writer *w, const struct layout_box *b,
                            const char *name, size_t len)
{
    if (w->o->diff)
        return palette_diff_color((double)b->total - (double)b->before, w->max_abs_delta);
    return palette_color(w->o->palette, name, len);
}

/* "NAME (N UNIT, P%[; before: B, delta: +D])" */
static void write_title(const struct svg_writer *w, const struct layout_box *b, const char *name,
                        size_t len)
{
    FILE *out = w->out;
    fputs("<title>", out);
    svg_text_escape(out, name, len);
    fputs(" (", out);
    put_count(out, b->total);
    fputc(' ', out);
    put_text(out, w->unit);
    fprintf(out, ", %.2f%%", 100.0 * (double)b->total / (double)w->layout.grand_total);
    if (w->o->diff) {
        fputs("; before: ", out);
        put_count(out, b->before);
        fputs(", delta: ", out);
        put_delta(out, b->total, b->before);
    }
    fputs(")</title>", out);
}

static void write_frame(const struct svg_writer *w, const struct layout_box *b)
{
    FILE *out = w->out;
    size_t len;
    const char *name = box_name(w, b, &len);
    double x = PAD + (double)b->start * w->scale;
    double width = (double)b->total * w->scale;
    unsigned y = row_y(w, b->depth);
    struct rgb c = box_color(w, b, name, len);
    fputs("<g class=\"frame\" data-name=\"", out);
    svg_text_escape(out, name, len);
    fprintf(out, "\" data-count=\"%" PRIu64 "\" data-start=\"%" PRIu64 "\"", b->total, b->start);
    if (w->o->diff)
        fprintf(out, " data-before=\"%" PRIu64 "\"", b->before);
    fputc('>', out);
    write_title(w, b, name, len);
    fprintf(out,
            "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%d\" rx=\"2\" ry=\"2\" "
            "fill=\"rgb(%u,%u,%u)\"/><text x=\"%.2f\" y=\"%u\">",
            x, y, width, BOX_HEIGHT, c.r, c.g, c.b, x + 3, y + 11);
    svg_text_fit(out, name, len, svg_text_capacity(width, CHAR_WIDTH));
    fputs("</text></g>\n", out);
}

static void write_frames(const struct svg_writer *w)
{
    fputs("<g id=\"frames\">\n", w->out);
    for (size_t i = 0; i < w->layout.count; i++)
        write_frame(w, &w->layout.boxes[i]);
    fputs("</g>\n", w->out);
}

static void write_script(const struct svg_writer *w)
{
    fputs("<script type=\"text/ecmascript\"><![CDATA[\n", w->out);
    fputs(svg_viewer_js, w->out);
    fputs("]]></script>\n</svg>\n", w->out);
}

static double largest_change(const struct layout *l)
{
    double max = 0;
    for (size_t i = 0; i < l->count; i++) {
        double d = fabs((double)l->boxes[i].total - (double)l->boxes[i].before);
        if (d > max)
            max = d;
    }
    return max;
}

/* Lays the trie out and sizes the image. */
static int prepare(struct svg_writer *w)
{
    const struct svg_options *o = w->o;
    w->unit = o->unit ? o->unit : "samples";
    w->drawable = (double)o->width - 2 * PAD;
    uint64_t grand = trie_total(w->t);
    w->scale = grand ? w->drawable / (double)grand : 0;
    double min_total = grand ? o->minwidth / w->scale : 0;
    if (layout_build(&w->layout, w->t, w->names, o->diff, min_total) != 0)
        return -1;
    if (w->layout.grand_total)
        w->scale = w->drawable / (double)w->layout.grand_total;
    w->max_abs_delta = o->diff ? largest_change(&w->layout) : 0;
    unsigned rows = w->layout.count ? w->layout.max_depth + 1 : EMPTY_ROWS;
    w->top = TOP + (o->subtitle ? SUBTITLE_BAND : 0);
    w->height = w->top + rows * FRAME_HEIGHT + BOTTOM;
    return 0;
}

int svg_write(FILE *out, const struct trie *t, const struct strtab *names,
              const struct svg_options *o)
{
    if (o->width < SVG_MIN_WIDTH || !(o->minwidth >= 0)) {
        errno = EINVAL;
        return -1;
    }
    struct svg_writer w = {.out = out, .t = t, .names = names, .o = o};
    if (prepare(&w) != 0) {
        layout_free(&w.layout);
        return -1;
    }
    write_head(&w);
    write_labels(&w);
    write_frames(&w);
    write_script(&w);
    layout_free(&w.layout);
    if (fflush(out) == EOF || ferror(out)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
