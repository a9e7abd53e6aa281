/*
 * test_svg: the flamegraph SVG writer and its parts. Layout widths are
 * totals and add up, children follow their parent's own count in name
 * order, narrow frames are merged away without leaving the totals,
 * --inverted flips the rows, names are escaped and cut to whole
 * characters, colors follow the name (the same in every graph), and a
 * differential graph is red where a frame grew and blue where it shrank;
 * a trie keyed by call target renders by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "flamegraph/folded.h"
#include "flamegraph/folded_read.h"
#include "flamegraph/layout.h"
#include "flamegraph/palette.h"
#include "flamegraph/svg.h"
#include "flamegraph/svg_text.h"
#include "profile/diff_counts.h"
#include "profile/frame_namer.h"
#include "profile/named_trie.h"

/* A profile read from folded text. */
struct profile {
    struct trie t;
    struct strtab names;
};

static void profile_read(struct profile *p, const char *folded)
{
    assert_true(trie_init(&p->t));
    assert_true(strtab_init(&p->names));
    FILE *in = fmemopen((void *)folded, strlen(folded), "r");
    assert_non_null(in);
    struct error why = ERROR_INIT;
    assert_int_equal(folded_read(in, &p->t, &p->names, NULL, &why), 0);
    fclose(in);
}

static void profile_free(struct profile *p)
{
    trie_free(&p->t);
    strtab_free(&p->names);
}

static const char *box_name(const struct profile *p, const struct layout_box *b)
{
    return b->node == TRIE_ROOT ? "all" : strtab_get(&p->names, (uint32_t)p->t.nodes[b->node].key);
}

/* The first box called `name` at `depth`, or fails. */
static const struct layout_box *find_box(const struct profile *p, const struct layout *l,
                                         const char *name, uint32_t depth)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->boxes[i].depth == depth && strcmp(box_name(p, &l->boxes[i]), name) == 0)
            return &l->boxes[i];
    fail_msg("no box %s at depth %u", name, depth);
    return NULL;
}

/*
 * Not inlined: GCC 12 at -O3 then takes the returned buffer for a pointer to
 * the local `text` (open_memstream writes it) and warns -Wdangling-pointer.
 */
__attribute__((noinline)) static char *render(const struct profile *p, const struct svg_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(svg_write(out, &p->t, &p->names, o), 0);
    fclose(out);
    return text;
}

static const char sample[] = "main;parse 20\n"
                             "main;compute;sha 50\n"
                             "main 10\n"
                             "main;compute 5\n"
                             "main;compute;aes 15\n"
                             "_start;init 4\n";

static void test_layout_widths_and_order(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, sample);
    struct layout l;
    assert_int_equal(layout_build(&l, &p.t, &p.names, NULL, 0), 0);
    assert_int_equal(l.grand_total, 104);
    assert_int_equal(l.count, 8); /* all, _start, init, main, compute, aes, sha, parse */
    assert_int_equal(l.max_depth, 3);
    const struct layout_box *all = &l.boxes[0];
    assert_int_equal(all->node, TRIE_ROOT);
    assert_int_equal(all->total, 104);
    /* Roots by name: "_start" (0x5f) before "main". */
    const struct layout_box *start = find_box(&p, &l, "_start", 1);
    const struct layout_box *main_box = find_box(&p, &l, "main", 1);
    assert_int_equal(start->start, 0);
    assert_int_equal(start->total, 4);
    assert_int_equal(main_box->start, 4);
    assert_int_equal(main_box->total, 100);
    /* main's own 10 first, then compute (70), then parse (20). */
    const struct layout_box *compute = find_box(&p, &l, "compute", 2);
    const struct layout_box *parse = find_box(&p, &l, "parse", 2);
    assert_int_equal(compute->start, 14);
    assert_int_equal(compute->total, 70);
    assert_int_equal(parse->start, 84);
    assert_int_equal(parse->total, 20);
    assert_int_equal(main_box->start + 10 + compute->total + parse->total,
                     main_box->start + main_box->total);
    /* compute's own 5, then aes, then sha. */
    assert_int_equal(find_box(&p, &l, "aes", 3)->start, 19);
    assert_int_equal(find_box(&p, &l, "sha", 3)->start, 34);
    /* Depth-first: every box after its parent. */
    for (size_t i = 1; i < l.count; i++)
        assert_true(l.boxes[i].depth <= l.boxes[i - 1].depth + 1);
    layout_free(&l);
    profile_free(&p);
}

/* The SVG's widths: total / grand total * (width - 2 * pad), summing up. */
static void test_svg_widths(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, sample);
    struct svg_options o;
    svg_options_init(&o);
    o.width = 1040; /* 1020 drawable: 1020 / 104 = 9.8078... per count */
    char *svg = render(&p, &o);
    char expect[128];
    snprintf(expect, sizeof(expect), "data-name=\"main\" data-count=\"100\" data-start=\"4\"");
    assert_non_null(strstr(svg, expect));
    const char *main_g = strstr(svg, expect);
    snprintf(expect, sizeof(expect), "x=\"%.2f\" y=", 10 + 4 * 1020.0 / 104);
    assert_non_null(strstr(main_g, expect));
    snprintf(expect, sizeof(expect), "width=\"%.2f\"", 100 * 1020.0 / 104);
    assert_non_null(strstr(main_g, expect));
    assert_non_null(strstr(svg, "data-name=\"all\" data-count=\"104\" data-start=\"0\""));
    assert_non_null(strstr(svg, "width=\"1020.00\""));
    free(svg);
    profile_free(&p);
}

static void test_narrow_frames_merged_away(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, sample);
    struct layout l;
    /* Frames below 16 counts go: _start (4), init (4), aes (15). */
    assert_int_equal(layout_build(&l, &p.t, &p.names, NULL, 16), 0);
    assert_int_equal(l.grand_total, 104);
    assert_int_equal(l.count, 5); /* all, main, compute, sha, parse */
    for (size_t i = 0; i < l.count; i++) {
        const char *name = box_name(&p, &l.boxes[i]);
        assert_true(strcmp(name, "_start") && strcmp(name, "init") && strcmp(name, "aes"));
    }
    /* Their counts still count: main starts after _start, sha after aes. */
    assert_int_equal(find_box(&p, &l, "main", 1)->start, 4);
    assert_int_equal(find_box(&p, &l, "compute", 2)->total, 70);
    assert_int_equal(find_box(&p, &l, "sha", 3)->start, 34);
    layout_free(&l);

    /* The same through svg_write's minwidth in pixels: 1 count = 10 px. */
    struct svg_options o;
    svg_options_init(&o);
    o.width = 1060;
    o.minwidth = 41; /* _start and init (40 px) go, the rest stay */
    char *svg = render(&p, &o);
    assert_null(strstr(svg, "data-name=\"_start\""));
    assert_null(strstr(svg, "data-name=\"init\""));
    assert_non_null(strstr(svg, "data-name=\"aes\""));
    assert_non_null(strstr(svg, "data-name=\"all\" data-count=\"104\""));
    free(svg);
    profile_free(&p);
}

/* The y of the rect of the frame whose data-name is `name`. */
static int rect_y(const char *svg, const char *name)
{
    char key[64];
    snprintf(key, sizeof(key), "data-name=\"%s\"", name);
    const char *g = strstr(svg, key);
    assert_non_null(g);
    const char *rect = strstr(g, "<rect ");
    assert_non_null(rect);
    const char *y = strstr(rect, " y=\"");
    assert_non_null(y);
    return atoi(y + 4);
}

static void test_inverted_flips_rows(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, sample);
    struct svg_options o;
    svg_options_init(&o);
    char *up = render(&p, &o);
    o.inverted = true;
    char *down = render(&p, &o);
    /* Flame: the root lowest (largest y), each level 16 px higher. */
    assert_int_equal(rect_y(up, "main"), rect_y(up, "all") - 16);
    assert_int_equal(rect_y(up, "sha"), rect_y(up, "all") - 48);
    /* Icicle: the root on top, each level 16 px lower. */
    assert_int_equal(rect_y(down, "main"), rect_y(down, "all") + 16);
    assert_int_equal(rect_y(down, "sha"), rect_y(down, "all") + 48);
    assert_true(rect_y(down, "all") < rect_y(down, "sha"));
    assert_non_null(strstr(down, "data-inverted=\"1\""));
    assert_non_null(strstr(down, ">Icicle Graph<"));
    free(up);
    free(down);
    profile_free(&p);
}

static char *escaped(const char *s, size_t len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&text, &n);
    svg_text_escape(out, s, len);
    fclose(out);
    return text;
}

static void test_escaping(void **state)
{
    (void)state;
    char *e = escaped("a<b>&\"c'", 8);
    assert_string_equal(e, "a&lt;b&gt;&amp;&quot;c&apos;");
    free(e);
    /* Ill-formed UTF-8, a control character and U+FFFF become U+FFFD; good UTF-8 stays. */
    e = escaped("\xff\x01x\xc3\xa9\xef\xbf\xbf", 8);
    assert_string_equal(e, "\xef\xbf\xbd\xef\xbf\xbdx\xc3\xa9\xef\xbf\xbd");
    free(e);

    struct profile p;
    profile_read(&p, "main;std::vector<int>::push_back 5\nmain;operator&&<'a'> 3\n"
                     "main;say \"hi\" 2\n");
    struct svg_options o;
    svg_options_init(&o);
    o.title = "<T & \"U\">";
    char *svg = render(&p, &o);
    assert_non_null(strstr(svg, "data-name=\"std::vector&lt;int&gt;::push_back\""));
    assert_non_null(strstr(svg, "data-name=\"operator&amp;&amp;&lt;&apos;a&apos;&gt;\""));
    assert_non_null(strstr(svg, "data-name=\"say &quot;hi&quot;\""));
    assert_non_null(strstr(svg, ">&lt;T &amp; &quot;U&quot;&gt;</text>"));
    assert_null(strstr(svg, "<int>"));
    free(svg);
    profile_free(&p);
}

static char *fitted(const char *s, size_t max_chars)
{
    char *text = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&text, &n);
    svg_text_fit(out, s, strlen(s), max_chars);
    fclose(out);
    return text;
}

static void test_names_cut_to_fit(void **state)
{
    (void)state;
    char *f = fitted("sha256_compress", 20);
    assert_string_equal(f, "sha256_compress");
    free(f);
    f = fitted("sha256_compress", 8);
    assert_string_equal(f, "sha256..");
    free(f);
    f = fitted("sha256_compress", 2);
    assert_string_equal(f, "");
    free(f);
    /* Whole characters: "é" is two bytes, one character. */
    f = fitted("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4);
    assert_string_equal(f, "\xc3\xa9\xc3\xa9..");
    free(f);
    f = fitted("<<<<<<", 5);
    assert_string_equal(f, "&lt;&lt;&lt;..");
    free(f);
    assert_int_equal(svg_text_capacity(6 + 7.2 * 10, 7.2), 10);
    assert_int_equal(svg_text_capacity(3, 7.2), 0);
}

/* The fill of the rect of the frame whose data-name is `name`. */
static void rect_fill(const char *svg, const char *name, char *out, size_t size)
{
    char key[64];
    snprintf(key, sizeof(key), "data-name=\"%s\"", name);
    const char *g = strstr(svg, key);
    assert_non_null(g);
    const char *fill = strstr(g, "fill=\"");
    assert_non_null(fill);
    fill += 6;
    size_t n = (size_t)(strchr(fill, '"') - fill);
    assert_true(n < size);
    memcpy(out, fill, n);
    out[n] = '\0';
}

static void test_colors_follow_names(void **state)
{
    (void)state;
    struct rgb a = palette_color(PALETTE_HOT, "sha256_block", 12);
    struct rgb b = palette_color(PALETTE_HOT, "sha256_block", 12);
    struct rgb c = palette_color(PALETTE_HOT, "sha256_update", 13);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_memory_not_equal(&a, &c, sizeof(a));
    for (int i = 0; i < 200; i++) { /* hot: red 205..255, green 0..230, blue 0..55 */
        char name[16];
        int n = snprintf(name, sizeof(name), "f%d", i);
        struct rgb h = palette_color(PALETTE_HOT, name, (size_t)n);
        assert_true(h.r >= 205 && h.g <= 230 && h.b <= 55);
    }
    /* The same function in two different graphs keeps its color. */
    struct profile p1, p2;
    profile_read(&p1, "main;sha 5\nmain;aes 3\n");
    profile_read(&p2, "x;y;z 9\nother;sha 1\n");
    struct svg_options o;
    svg_options_init(&o);
    o.minwidth = 0;
    char *s1 = render(&p1, &o), *s2 = render(&p2, &o);
    char f1[32], f2[32];
    rect_fill(s1, "sha", f1, sizeof(f1));
    rect_fill(s2, "sha", f2, sizeof(f2));
    assert_string_equal(f1, f2);
    free(s1);
    free(s2);
    profile_free(&p1);
    profile_free(&p2);
}

static void test_palettes_and_languages(void **state)
{
    (void)state;
    enum palette p;
    assert_true(palette_parse("mem", &p));
    assert_int_equal(p, PALETTE_MEM);
    assert_true(palette_parse("rust", &p));
    assert_int_equal(p, PALETTE_LANG);
    assert_false(palette_parse("plaid", &p));
    static const struct {
        const char *name;
        enum language lang;
    } cases[] = {
        {"sha256_block", LANG_C},
        {"memcpy.part.0", LANG_C},
        {"std::vector<int, std::allocator<int> >::push_back", LANG_CPP},
        {"(anonymous namespace)::Foo::bar", LANG_CPP},
        {"core::ptr::drop_in_place<foo::Bar>", LANG_RUST_STD},
        {"<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop", LANG_RUST_STD},
        {"std::rt::lang_start_internal", LANG_RUST_STD},
        {"<my_crate::Foo as my_crate::Trait>::run", LANG_RUST},
        {"my_crate::main::{{closure}}", LANG_RUST},
        {"my_crate::parse::h0123456789abcdef", LANG_RUST},
        {"runtime.mallocgc", LANG_GO},
        {"net/http.(*Client).Do", LANG_GO},
        {"java/lang/Thread.run", LANG_JAVA},
        {"Interpreter_[j]", LANG_JAVA},
        {"process (app.py:12)", LANG_SCRIPT},
        {"do_syscall_64_[k]", LANG_KERNEL},
        {"[kernel.kallsyms]", LANG_KERNEL},
        {"0x1f2e", LANG_UNKNOWN},
        {"[unknown]", LANG_UNKNOWN},
        {"[libc.so.6]", LANG_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enum language got = palette_language(cases[i].name, strlen(cases[i].name));
        if (got != cases[i].lang)
            fail_msg("%s: language %d, expected %d", cases[i].name, got, cases[i].lang);
    }
}

static void test_diff_red_and_blue(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, "main;grows 10\nmain;shrinks 40\nmain;same 5\n");
    struct diff_counts d = {0};
    assert_int_equal(diff_counts_take_before(&d, &p.t), 0);
    assert_int_equal(trie_total(&p.t), 0);
    const char after[] = "main;grows 30\nmain;shrinks 20\nmain;same 5\nmain;new 1\n";
    FILE *in = fmemopen((void *)after, strlen(after), "r");
    struct error why = ERROR_INIT;
    assert_int_equal(folded_read(in, &p.t, &p.names, NULL, &why), 0);
    fclose(in);
    assert_int_equal(diff_counts_cover(&d, &p.t), 0);
    assert_int_equal(d.count, p.t.count);

    struct svg_options o;
    svg_options_init(&o);
    o.diff = d.before;
    o.minwidth = 0;
    char *svg = render(&p, &o);
    char fill[32];
    rect_fill(svg, "grows", fill, sizeof(fill));
    assert_string_equal(fill, "rgb(255,80,80)"); /* +20: the largest change */
    rect_fill(svg, "shrinks", fill, sizeof(fill));
    assert_string_equal(fill, "rgb(80,80,255)"); /* -20 */
    rect_fill(svg, "same", fill, sizeof(fill));
    assert_string_equal(fill, "rgb(250,250,250)");
    rect_fill(svg, "new", fill, sizeof(fill));
    assert_string_equal(fill, "rgb(255,213,213)"); /* +1: pale red */
    assert_non_null(strstr(svg, "data-name=\"shrinks\" data-count=\"20\" data-start=\"36\" "
                                "data-before=\"40\""));
    assert_non_null(strstr(svg, "shrinks (20 samples, 35.71%; before: 40, delta: -20)"));
    free(svg);

    /* The two-count folded form, both sides, 0 where missing. */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(folded_write_pair(out, &p.t, d.before, folded_name_of, &p.names), 0);
    fclose(out);
    assert_string_equal(text,
                        "main;grows 10 30\nmain;new 0 1\nmain;same 5 5\nmain;shrinks 40 20\n");
    free(text);
    diff_counts_free(&d);
    profile_free(&p);
}

static const char *name_by_address(void *ctx, const struct call_node *n, char *buf, size_t size)
{
    (void)ctx;
    snprintf(buf, size, "%s", n->key == 0x100 ? "main" : n->key < 0x300 ? "f" : "g");
    return buf;
}

/* A trie keyed by call target renders by name, same-named siblings merged. */
static void test_named_trie(void **state)
{
    (void)state;
    struct trie guest;
    bool created;
    assert_true(trie_init(&guest));
    uint32_t m = trie_child(&guest, TRIE_ROOT, 0x100, &created);
    uint32_t f1 = trie_child(&guest, m, 0x200, &created);
    uint32_t f2 = trie_child(&guest, m, 0x204, &created); /* another target inside f */
    uint32_t g = trie_child(&guest, f2, 0x300, &created);
    guest.nodes[m].count = 1;
    guest.nodes[f1].count = 2;
    guest.nodes[f2].count = 3;
    guest.nodes[g].count = 4;
    struct profile p;
    assert_true(trie_init(&p.t));
    assert_true(strtab_init(&p.names));
    assert_int_equal(named_trie_build(&guest, name_by_address, NULL, &p.t, &p.names), 0);
    assert_int_equal(p.t.count, 4); /* root, main, f, g */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(folded_write(out, &p.t, folded_name_of, &p.names), 0);
    fclose(out);
    assert_string_equal(text, "main 1\nmain;f 5\nmain;f;g 4\n");
    free(text);
    struct svg_options o;
    svg_options_init(&o);
    char *svg = render(&p, &o);
    assert_non_null(strstr(svg, "data-name=\"f\" data-count=\"9\" data-start=\"1\""));
    free(svg);
    profile_free(&p);
    trie_free(&guest);
}

static void test_empty_profile(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, "");
    struct svg_options o;
    svg_options_init(&o);
    char *svg = render(&p, &o);
    assert_non_null(strstr(svg, ">No samples</text>"));
    assert_null(strstr(svg, "class=\"frame\""));
    assert_non_null(strstr(svg, "</svg>\n"));
    free(svg);
    profile_free(&p);
}

static void test_bad_options_refused(void **state)
{
    (void)state;
    struct profile p;
    profile_read(&p, "a 1\n");
    struct svg_options o;
    svg_options_init(&o);
    o.width = 50;
    FILE *out = fopen("/dev/null", "w");
    assert_int_equal(svg_write(out, &p.t, &p.names, &o), -1);
    svg_options_init(&o);
    o.minwidth = -1;
    assert_int_equal(svg_write(out, &p.t, &p.names, &o), -1);
    fclose(out);
    profile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_widths_and_order),
        cmocka_unit_test(test_svg_widths),
        cmocka_unit_test(test_narrow_frames_merged_away),
        cmocka_unit_test(test_inverted_flips_rows),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_names_cut_to_fit),
        cmocka_unit_test(test_colors_follow_names),
        cmocka_unit_test(test_palettes_and_languages),
        cmocka_unit_test(test_diff_red_and_blue),
        cmocka_unit_test(test_named_trie),
        cmocka_unit_test(test_empty_profile),
        cmocka_unit_test(test_bad_options_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
