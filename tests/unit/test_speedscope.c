/*
 * test_speedscope: speedscope_write's JSON, byte for byte on small
 * tries: frames deduplicated and sorted by name, one sample per counted
 * node with its weight, string escaping (quotes, backslashes, control
 * characters, invalid UTF-8 replaced, valid UTF-8 kept), and its errors.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../ctest_skip.h"
#include "flamegraph/folded_read.h"
#include "flamegraph/json_write.h"
#include "flamegraph/speedscope.h"

#define HEAD       "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
#define TAIL(name) "}],\n\"name\":\"" name "\",\"activeProfileIndex\":0,\"exporter\":\"zkprof\"}\n"

struct fixture {
    struct trie t;
    struct strtab names;
};

static void fixture_init(struct fixture *f)
{
    assert_true(trie_init(&f->t));
    assert_true(strtab_init(&f->names));
}

static void fixture_free(struct fixture *f)
{
    strtab_free(&f->names);
    trie_free(&f->t);
}

static void read_folded(struct fixture *f, const char *text)
{
    struct error why = ERROR_INIT;
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    if (folded_read(in, &f->t, &f->names, NULL, &why) != 0)
        fail_msg("folded_read: %s", why.msg);
    fclose(in);
}

/* speedscope_write into a string (caller frees); asserts success. */
static char *write_json(const struct fixture *f, const char *name, const char *unit)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(speedscope_write(out, &f->t, &f->names, name, unit), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

/* JSON text of `len` bytes through json_string (caller frees). */
static char *escape(const char *s, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    struct json_out j = {.f = out};
    json_string(&j, s, len);
    assert_int_equal(json_finish(&j), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void assert_escapes(const char *s, size_t len, const char *want)
{
    char *got = escape(s, len);
    assert_string_equal(got, want);
    free(got);
}

static size_t occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_whole_file(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "main;sha;compress 7\nmain 2\nmain;blake 5\nidle 1\n");
    char *json = write_json(&f, "guest", "none");
    /* frames by name: blake 0, compress 1, idle 2, main 3, sha 4; siblings by name */
    assert_string_equal(json, HEAD "\"shared\":{\"frames\":[\n"
                                   "{\"name\":\"blake\"},\n{\"name\":\"compress\"},\n"
                                   "{\"name\":\"idle\"},\n{\"name\":\"main\"},\n"
                                   "{\"name\":\"sha\"}]},\n"
                                   "\"profiles\":[{\"type\":\"sampled\",\"name\":\"guest\","
                                   "\"unit\":\"none\",\"startValue\":0,\"endValue\":15,\n"
                                   "\"samples\":[\n[2],\n[3],\n[3,0],\n[3,4,1]],\n"
                                   "\"weights\":[\n1,\n2,\n5,\n7]" TAIL("guest"));
    free(json);
    fixture_free(&f);
}

static void test_empty_trie(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    char *json = write_json(&f, "p", "bytes");
    assert_string_equal(json, HEAD "\"shared\":{\"frames\":[]},\n"
                                   "\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\","
                                   "\"unit\":\"bytes\",\"startValue\":0,\"endValue\":0,\n"
                                   "\"samples\":[],\n\"weights\":[]" TAIL("p"));
    free(json);
    fixture_free(&f);
}

/* One frame per distinct name, however many nodes and depths carry it. */
static void test_frames_deduplicated(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "a;b;a;b 1\nb;a 2\na 3\nb;b;b 4\n");
    char *json = write_json(&f, "p", "none");
    assert_int_equal(occurrences(json, "{\"name\":"), 2);
    assert_non_null(strstr(json, "\"samples\":[\n[0],\n[0,1,0,1],\n[1,0],\n[1,1,1]],\n"));
    assert_non_null(strstr(json, "\"weights\":[\n3,\n1,\n2,\n4]"));
    assert_non_null(strstr(json, "\"endValue\":10,"));
    free(json);
    fixture_free(&f);
}

/* Zero counts get no sample; the virtual root's count is no frame's. */
static void test_zero_counts_and_root(void **state)
{
    (void)state;
    struct fixture f;
    bool created;
    fixture_init(&f);
    uint32_t a = strtab_intern(&f.names, "a", 1), b = strtab_intern(&f.names, "b", 1);
    uint32_t na = trie_child(&f.t, TRIE_ROOT, a, &created);
    uint32_t nb = trie_child(&f.t, na, b, &created);
    f.t.nodes[TRIE_ROOT].count = 100;
    f.t.nodes[nb].count = UINT64_MAX / 2;
    char *json = write_json(&f, "p", "nanoseconds");
    assert_non_null(strstr(json, "\"endValue\":9223372036854775807,"));
    assert_non_null(strstr(json, "\"samples\":[\n[0,1]],\n\"weights\":[\n9223372036854775807]"));
    free(json);
    fixture_free(&f);
}

static void test_names_escaped(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "say \"hi\";C:\\dir\\x 1\nbell\x07tab\t 2\n\xff\xfe 3\n");
    char *json = write_json(&f, "a \"quoted\\\" profile", "none");
    assert_non_null(strstr(json, "{\"name\":\"C:\\\\dir\\\\x\"}"));
    assert_non_null(strstr(json, "{\"name\":\"say \\\"hi\\\"\"}"));
    assert_non_null(strstr(json, "{\"name\":\"bell\\u0007tab\\u0009\"}"));
    assert_non_null(strstr(json, "{\"name\":\"\xEF\xBF\xBD\xEF\xBF\xBD\"}"));
    assert_non_null(strstr(json, "\"name\":\"a \\\"quoted\\\\\\\" profile\""));
    free(json);
    fixture_free(&f);
}

static void test_string_escapes(void **state)
{
    (void)state;
    assert_escapes("", 0, "\"\"");
    assert_escapes("plain", 5, "\"plain\"");
    assert_escapes("\"\\/", 3, "\"\\\"\\\\/\"");
    assert_escapes("\x01\n\x1f\x7f", 4, "\"\\u0001\\u000a\\u001f\x7f\"");
    assert_escapes("a\0b", 3, "\"a\\u0000b\"");
}

static void test_utf8_kept_or_replaced(void **state)
{
    (void)state;
#define FFFD "\xEF\xBF\xBD"
    /* valid: 2, 3 and 4 bytes, and the edges U+0080, U+07FF, U+FFFF, U+10FFFF */
    assert_escapes("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 9,
                   "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
    assert_escapes("\xC2\x80\xDF\xBF\xEF\xBF\xBF\xF4\x8F\xBF\xBF", 11,
                   "\"\xC2\x80\xDF\xBF\xEF\xBF\xBF\xF4\x8F\xBF\xBF\"");
    /* lone continuation, bad leads, overlongs: one U+FFFD per byte */
    assert_escapes("a\x80z", 3, "\"a" FFFD "z\"");
    assert_escapes("\xC0\xAF", 2, "\"" FFFD FFFD "\"");
    assert_escapes("\xE0\x80\xAF", 3, "\"" FFFD FFFD FFFD "\"");
    assert_escapes("\xF5\x80", 2, "\"" FFFD FFFD "\"");
    /* surrogates and beyond U+10FFFF */
    assert_escapes("\xED\xA0\x80", 3, "\"" FFFD FFFD FFFD "\"");
    assert_escapes("\xF4\x90\x80\x80", 4, "\"" FFFD FFFD FFFD FFFD "\"");
    /* truncated sequences: one U+FFFD for the maximal subpart */
    assert_escapes("\xE2\x82z", 3, "\"" FFFD "z\"");
    assert_escapes("\xF0\x9F\x98", 3, "\"" FFFD "\"");
    assert_escapes("\xF0\x9F\x98\xE2\x82\xAC", 6, "\"" FFFD "\xE2\x82\xAC\"");
    assert_escapes("\xE2\x82\"", 3, "\"" FFFD "\\\"\"");
#undef FFFD
}

static void test_errors(void **state)
{
    (void)state;
    struct fixture f;
    bool created;
    fixture_init(&f);
    read_folded(&f, "a;b 1\n");
    FILE *out = fopen("/dev/null", "w");
    assert_non_null(out);
    errno = 0;
    assert_int_equal(speedscope_write(out, &f.t, &f.names, "p", "cycles"), -1);
    assert_int_equal(errno, EINVAL);
    trie_child(&f.t, TRIE_ROOT, 99, &created); /* a key that is no string id */
    errno = 0;
    assert_int_equal(speedscope_write(out, &f.t, &f.names, "p", "none"), -1);
    assert_int_equal(errno, EINVAL);
    fclose(out);
    fixture_free(&f);
}

static void test_write_error(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "a;b 1\n");
    FILE *out = fopen("/dev/full", "w");
    if (!out)
        ctest_skip("no /dev/full");
    errno = 0;
    assert_int_equal(speedscope_write(out, &f.t, &f.names, "p", "none"), -1);
    assert_int_equal(errno, ENOSPC);
    fclose(out);
    fixture_free(&f);
}

/* Deep stacks: a 100,000-frame chain walks without recursion. */
static void test_deep_chain(void **state)
{
    (void)state;
    enum { DEPTH = 100000 };
    struct fixture f;
    bool created;
    fixture_init(&f);
    uint32_t id = strtab_intern(&f.names, "r", 1), node = TRIE_ROOT;
    for (int i = 0; i < DEPTH; i++)
        node = trie_child(&f.t, node, id, &created);
    f.t.nodes[node].count = 3;
    char *json = write_json(&f, "p", "none");
    char *sample = malloc(2 * DEPTH + 16);
    assert_non_null(sample);
    char *p = sample + sprintf(sample, "\"samples\":[\n[0");
    for (int i = 1; i < DEPTH; i++)
        p += sprintf(p, ",0");
    strcpy(p, "]],");
    assert_non_null(strstr(json, sample));
    free(sample);
    assert_non_null(strstr(json, "\"weights\":[\n3]"));
    free(json);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_file),
        cmocka_unit_test(test_empty_trie),
        cmocka_unit_test(test_frames_deduplicated),
        cmocka_unit_test(test_zero_counts_and_root),
        cmocka_unit_test(test_names_escaped),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_utf8_kept_or_replaced),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_deep_chain),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
