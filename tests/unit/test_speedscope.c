/*
 * test_speedscope: speedscope_write's JSON read back with jansson, a JSON
 * reader that is not ours, and checked against speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json, generated from
 * speedscope's src/lib/file-format-spec.ts): "$schema", shared.frames[]
 * with a string "name", profiles[] "sampled" (name, unit, startValue,
 * endValue, samples of frame indices in range, weights of the same
 * length) or "evented" (events O/C at non-decreasing "at", balanced);
 * test_schema_check_rejects shows the check refuses what breaks these.
 * The expected frames, stacks, weights and totals are worked out by hand
 * from each test's input, in the order speedscope.h documents (frames
 * bytewise by name; samples depth-first, siblings by name). Also: string
 * escaping (quotes, backslashes, control characters, invalid UTF-8
 * replaced, valid UTF-8 kept), each also decoded by jansson, and the
 * writer's errors.
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
#include <jansson.h>

#include "../ctest_skip.h"
#include "flamegraph/folded_read.h"
#include "flamegraph/json_write.h"
#include "flamegraph/speedscope.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

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

/* JSON text of `len` bytes through json_out_string (caller frees). */
static char *escape(const char *s, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    struct json_out j = {.f = out};
    json_out_string(&j, s, len);
    assert_int_equal(json_finish(&j), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

/*
 * json_out_string's text for the `len` bytes at s is `want`, and jansson reads
 * it back as the string `decoded` (`decoded_len` bytes).
 */
static void assert_escapes_to(const char *s, size_t len, const char *want, const char *decoded,
                              size_t decoded_len)
{
    char *got = escape(s, len);
    assert_string_equal(got, want);
    json_error_t err;
    json_t *v = json_loads(got, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!v)
        fail_msg("jansson cannot read %s: %s", got, err.text);
    assert_true(json_is_string(v));
    assert_int_equal(json_string_length(v), decoded_len);
    assert_memory_equal(json_string_value(v), decoded, decoded_len);
    json_decref(v);
    free(got);
}

/* As assert_escapes_to, decoded a NUL-terminated string. */
static void assert_escapes(const char *s, size_t len, const char *want, const char *decoded)
{
    assert_escapes_to(s, len, want, decoded, strlen(decoded));
}

/* ------------------------------------------------------------------ */
/* The file read back with jansson and checked against the schema      */

/*
 * The schema check: schema_problem(doc) is NULL for a document that
 * file-format-spec.ts allows, else what is wrong with it (in a static
 * buffer). test_schema_check_rejects shows that it can say no.
 */
static char problem[256];

#define PROBLEM(...) (snprintf(problem, sizeof(problem), __VA_ARGS__), problem)

/* Is member `key` of object o there and of JSON type `type`? */
static const char *need(json_t *o, const char *key, json_type type)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return PROBLEM("required member \"%s\" missing", key);
    if (json_typeof(v) != type)
        return PROBLEM("member \"%s\" has JSON type %d, not %d", key, json_typeof(v), type);
    return NULL;
}

/* Is member `key` of o a number (speedscope's `number`: integer or real)? */
static const char *need_number(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return v && json_is_number(v) ? NULL : PROBLEM("member \"%s\" missing or not a number", key);
}

/* Is v a frame index: an integer in [0, frames)? */
static const char *need_frame_index(json_t *v, size_t frames)
{
    if (!v || !json_is_integer(v))
        return PROBLEM("a frame index is not an integer");
    json_int_t i = json_integer_value(v);
    if (i < 0 || (size_t)i >= frames)
        return PROBLEM("frame index %lld out of range (%zu frames)", (long long)i, frames);
    return NULL;
}

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        const char *why_ = (expr);                                                                 \
        if (why_)                                                                                  \
            return why_;                                                                           \
    } while (0)

static const char *const speedscope_units[] = {"none",         "nanoseconds", "microseconds",
                                               "milliseconds", "seconds",     "bytes"};

/* A sampled profile's samples and weights. */
static const char *sampled_problem(json_t *prof, size_t frames)
{
    CHECK(need(prof, "samples", JSON_ARRAY));
    CHECK(need(prof, "weights", JSON_ARRAY));
    json_t *samples = json_object_get(prof, "samples"), *weights = json_object_get(prof, "weights");
    if (json_array_size(samples) != json_array_size(weights))
        return PROBLEM("%zu samples, %zu weights", json_array_size(samples),
                       json_array_size(weights));
    size_t i, k;
    json_t *v, *index;
    json_array_foreach(samples, i, v)
    {
        if (!json_is_array(v))
            return PROBLEM("sample %zu is not an array", i);
        json_array_foreach(v, k, index)
        {
            CHECK(need_frame_index(index, frames));
        }
    }
    json_array_foreach(weights, i, v)
    {
        if (!json_is_number(v))
            return PROBLEM("weight %zu is not a number", i);
    }
    return NULL;
}

/* An evented profile's events: O or C, `at` non-decreasing, balanced. */
static const char *evented_problem(json_t *prof, size_t frames)
{
    CHECK(need(prof, "events", JSON_ARRAY));
    json_t *events = json_object_get(prof, "events"), *e;
    size_t depth = 0, i, open[64];
    double at = json_number_value(json_object_get(prof, "startValue"));
    json_array_foreach(events, i, e)
    {
        CHECK(need(e, "type", JSON_STRING));
        CHECK(need_number(e, "at"));
        CHECK(need_frame_index(json_object_get(e, "frame"), frames));
        const char *kind = json_string_value(json_object_get(e, "type"));
        size_t f = (size_t)json_integer_value(json_object_get(e, "frame"));
        if (json_number_value(json_object_get(e, "at")) < at)
            return PROBLEM("event %zu goes back in time", i);
        at = json_number_value(json_object_get(e, "at"));
        if (strcmp(kind, "O") == 0) {
            if (depth == sizeof(open) / sizeof(open[0]))
                return PROBLEM("events nest too deep for this check");
            open[depth++] = f;
        } else if (strcmp(kind, "C") != 0) {
            return PROBLEM("event type \"%s\" is neither O nor C", kind);
        } else if (depth == 0 || open[--depth] != f) {
            return PROBLEM("event %zu closes a frame that is not the open one", i);
        }
    }
    return depth ? PROBLEM("%zu frames never closed", depth) : NULL;
}

/* One profile as file-format-spec.ts says: the members of its type. */
static const char *profile_problem(json_t *prof, size_t frames)
{
    if (!json_is_object(prof))
        return PROBLEM("a profile is not an object");
    CHECK(need(prof, "type", JSON_STRING));
    CHECK(need(prof, "name", JSON_STRING));
    CHECK(need(prof, "unit", JSON_STRING));
    CHECK(need_number(prof, "startValue"));
    CHECK(need_number(prof, "endValue"));
    const char *unit = json_string_value(json_object_get(prof, "unit"));
    bool known = false;
    for (size_t i = 0; i < sizeof(speedscope_units) / sizeof(speedscope_units[0]); i++)
        known = known || strcmp(unit, speedscope_units[i]) == 0;
    if (!known)
        return PROBLEM("unit \"%s\" is not a speedscope unit", unit);
    /* "must be greater than or equal to the startValue" */
    if (json_number_value(json_object_get(prof, "endValue")) <
        json_number_value(json_object_get(prof, "startValue")))
        return PROBLEM("endValue below startValue");
    const char *type = json_string_value(json_object_get(prof, "type"));
    if (strcmp(type, "sampled") == 0)
        return sampled_problem(prof, frames);
    if (strcmp(type, "evented") == 0)
        return evented_problem(prof, frames);
    return PROBLEM("profile type \"%s\" is neither sampled nor evented", type);
}

static const char *schema_problem(json_t *doc)
{
    if (!json_is_object(doc))
        return PROBLEM("the file is not a JSON object");
    CHECK(need(doc, "$schema", JSON_STRING));
    if (strcmp(json_string_value(json_object_get(doc, "$schema")), SCHEMA) != 0)
        return PROBLEM("$schema is not %s", SCHEMA);
    CHECK(need(doc, "shared", JSON_OBJECT));
    CHECK(need(json_object_get(doc, "shared"), "frames", JSON_ARRAY));
    json_t *frames = json_object_get(json_object_get(doc, "shared"), "frames");
    size_t i;
    json_t *v;
    json_array_foreach(frames, i, v)
    {
        if (!json_is_object(v))
            return PROBLEM("frame %zu is not an object", i);
        CHECK(need(v, "name", JSON_STRING));
    }
    CHECK(need(doc, "profiles", JSON_ARRAY));
    json_t *profiles = json_object_get(doc, "profiles");
    json_array_foreach(profiles, i, v)
    {
        CHECK(profile_problem(v, json_array_size(frames)));
    }
    /* the optional members: of their types when there */
    if (json_object_get(doc, "name"))
        CHECK(need(doc, "name", JSON_STRING));
    if (json_object_get(doc, "exporter"))
        CHECK(need(doc, "exporter", JSON_STRING));
    if (json_object_get(doc, "activeProfileIndex"))
        CHECK(need_number(doc, "activeProfileIndex"));
    return NULL;
}

/* jansson's reading of speedscope_write's text, checked against the schema. */
static json_t *read_speedscope(const char *text)
{
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    if (!doc)
        fail_msg("jansson cannot read the file: line %d: %s", err.line, err.text);
    const char *why = schema_problem(doc);
    if (why)
        fail_msg("not a speedscope file: %s", why);
    return doc;
}

/* A stack the test expects: frame names from the outermost, ';'-joined. */
struct sample {
    const char *stack;
    json_int_t weight;
};

/* Sample i of prof as frame names joined by ';', in a malloc'd string. */
static char *sample_stack(json_t *doc, json_t *prof, size_t i)
{
    json_t *frames = json_object_get(json_object_get(doc, "shared"), "frames");
    json_t *sample = json_array_get(json_object_get(prof, "samples"), i);
    size_t len = 1, k;
    json_t *index;
    json_array_foreach(sample, k, index)
    {
        json_t *f = json_array_get(frames, (size_t)json_integer_value(index));
        len += json_string_length(json_object_get(f, "name")) + 1;
    }
    char *text = malloc(len), *at = text;
    assert_non_null(text);
    json_array_foreach(sample, k, index)
    {
        json_t *name =
            json_object_get(json_array_get(frames, (size_t)json_integer_value(index)), "name");
        if (k)
            *at++ = ';';
        memcpy(at, json_string_value(name), json_string_length(name));
        at += json_string_length(name);
    }
    *at = 0;
    return text;
}

/*
 * The one sampled profile of doc: named `name`, in `unit`, from 0 to
 * `total`, whose samples are `want` (n of them, in order) and whose
 * weights add up to `total`; the frames are `frames` (nframes, in order).
 */
static void assert_profile(json_t *doc, const char *name, const char *unit,
                           const char *const *frames, size_t nframes, const struct sample *want,
                           size_t n, json_int_t total)
{
    json_t *shared = json_object_get(json_object_get(doc, "shared"), "frames");
    assert_int_equal(json_array_size(shared), nframes);
    for (size_t i = 0; i < nframes; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(shared, i), "name")),
                            frames[i]);
    json_t *profiles = json_object_get(doc, "profiles");
    assert_int_equal(json_array_size(profiles), 1);
    json_t *prof = json_array_get(profiles, 0);
    assert_string_equal(json_string_value(json_object_get(prof, "type")), "sampled");
    assert_string_equal(json_string_value(json_object_get(prof, "name")), name);
    assert_string_equal(json_string_value(json_object_get(prof, "unit")), unit);
    assert_true(json_is_integer(json_object_get(prof, "startValue")));
    assert_int_equal(json_integer_value(json_object_get(prof, "startValue")), 0);
    assert_true(json_is_integer(json_object_get(prof, "endValue")));
    assert_int_equal(json_integer_value(json_object_get(prof, "endValue")), total);
    json_t *weights = json_object_get(prof, "weights");
    assert_int_equal(json_array_size(weights), n);
    json_int_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        char *stack = sample_stack(doc, prof, i);
        assert_string_equal(stack, want[i].stack);
        free(stack);
        json_t *w = json_array_get(weights, i);
        assert_true(json_is_integer(w));
        assert_int_equal(json_integer_value(w), want[i].weight);
        sum += json_integer_value(w);
    }
    assert_int_equal(sum, total);
    /* the file's own members */
    assert_string_equal(json_string_value(json_object_get(doc, "name")), name);
    assert_int_equal(json_integer_value(json_object_get(doc, "activeProfileIndex")), 0);
    assert_string_equal(json_string_value(json_object_get(doc, "exporter")), "zkprof");
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_whole_file(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "main;sha;compress 7\nmain 2\nmain;blake 5\nidle 1\n");
    char *text = write_json(&f, "guest", "none");
    json_t *doc = read_speedscope(text);
    /* frames by name: blake 0, compress 1, idle 2, main 3, sha 4; samples
     * depth-first, siblings by name; 7 + 2 + 5 + 1 = 15 */
    static const char *const frames[] = {"blake", "compress", "idle", "main", "sha"};
    static const struct sample want[] = {
        {"idle", 1}, {"main", 2}, {"main;blake", 5}, {"main;sha;compress", 7}};
    assert_profile(doc, "guest", "none", frames, COUNT(frames), want, COUNT(want), 15);
    /* the stacks as indices too: [2], [3], [3,0], [3,4,1] */
    json_t *samples =
        json_object_get(json_array_get(json_object_get(doc, "profiles"), 0), "samples");
    json_t *deepest = json_array_get(samples, 3);
    assert_int_equal(json_array_size(deepest), 3);
    assert_int_equal(json_integer_value(json_array_get(deepest, 0)), 3);
    assert_int_equal(json_integer_value(json_array_get(deepest, 1)), 4);
    assert_int_equal(json_integer_value(json_array_get(deepest, 2)), 1);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(samples, 0), 0)), 2);
    json_decref(doc);
    free(text);
    fixture_free(&f);
}

static void test_empty_trie(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    char *text = write_json(&f, "p", "bytes");
    json_t *doc = read_speedscope(text);
    assert_profile(doc, "p", "bytes", NULL, 0, NULL, 0, 0);
    json_decref(doc);
    free(text);
    fixture_free(&f);
}

/* One frame per distinct name, however many nodes and depths carry it. */
static void test_frames_deduplicated(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "a;b;a;b 1\nb;a 2\na 3\nb;b;b 4\n");
    char *text = write_json(&f, "p", "none");
    json_t *doc = read_speedscope(text);
    /* a 0, b 1; a before b at every level; 3 + 1 + 2 + 4 = 10 */
    static const char *const frames[] = {"a", "b"};
    static const struct sample want[] = {{"a", 3}, {"a;b;a;b", 1}, {"b;a", 2}, {"b;b;b", 4}};
    assert_profile(doc, "p", "none", frames, COUNT(frames), want, COUNT(want), 10);
    json_decref(doc);
    free(text);
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
    char *text = write_json(&f, "p", "nanoseconds");
    json_t *doc = read_speedscope(text);
    /* a (count 0) has no sample of its own; UINT64_MAX / 2 = 2^63 - 1 */
    static const char *const frames[] = {"a", "b"};
    static const struct sample want[] = {{"a;b", INT64_C(9223372036854775807)}};
    assert_profile(doc, "p", "nanoseconds", frames, COUNT(frames), want, COUNT(want),
                   INT64_C(9223372036854775807));
    json_decref(doc);
    free(text);
    fixture_free(&f);
}

static void test_names_escaped(void **state)
{
    (void)state;
    struct fixture f;
    fixture_init(&f);
    read_folded(&f, "say \"hi\";C:\\dir\\x 1\nbell\x07tab\t 2\n\xff\xfe 3\n");
    char *text = write_json(&f, "a \"quoted\\\" profile", "none");
    /* the escapes json_out_string writes for them */
    assert_non_null(strstr(text, "{\"name\":\"C:\\\\dir\\\\x\"}"));
    assert_non_null(strstr(text, "{\"name\":\"say \\\"hi\\\"\"}"));
    assert_non_null(strstr(text, "{\"name\":\"bell\\u0007tab\\u0009\"}"));
    assert_non_null(strstr(text, "{\"name\":\"\xEF\xBF\xBD\xEF\xBF\xBD\"}"));
    /* and what a JSON reader makes of them: the names as read, each of
     * \xff and \xfe (no UTF-8) one U+FFFD (EF BF BD); bytewise order:
     * 'C' 0x43, 'b' 0x62, 's' 0x73, 0xEF */
    json_t *doc = read_speedscope(text);
    static const char *const frames[] = {"C:\\dir\\x", "bell\x07tab\t", "say \"hi\"",
                                         "\xEF\xBF\xBD\xEF\xBF\xBD"};
    static const struct sample want[] = {
        {"bell\x07tab\t", 2}, {"say \"hi\";C:\\dir\\x", 1}, {"\xEF\xBF\xBD\xEF\xBF\xBD", 3}};
    assert_profile(doc, "a \"quoted\\\" profile", "none", frames, COUNT(frames), want, COUNT(want),
                   6);
    json_decref(doc);
    free(text);
    fixture_free(&f);
}

static void test_string_escapes(void **state)
{
    (void)state;
    assert_escapes("", 0, "\"\"", "");
    assert_escapes("plain", 5, "\"plain\"", "plain");
    assert_escapes("\"\\/", 3, "\"\\\"\\\\/\"", "\"\\/");
    assert_escapes("\x01\n\x1f\x7f", 4, "\"\\u0001\\u000a\\u001f\x7f\"", "\x01\n\x1f\x7f");
    assert_escapes_to("a\0b", 3, "\"a\\u0000b\"", "a\0b", 3);
}

static void test_utf8_kept_or_replaced(void **state)
{
    (void)state;
#define FFFD "\xEF\xBF\xBD"
    /* valid: 2, 3 and 4 bytes, and the edges U+0080, U+07FF, U+FFFF, U+10FFFF */
    assert_escapes("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 9,
                   "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"",
                   "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    assert_escapes("\xC2\x80\xDF\xBF\xEF\xBF\xBF\xF4\x8F\xBF\xBF", 11,
                   "\"\xC2\x80\xDF\xBF\xEF\xBF\xBF\xF4\x8F\xBF\xBF\"",
                   "\xC2\x80\xDF\xBF\xEF\xBF\xBF\xF4\x8F\xBF\xBF");
    /* lone continuation, bad leads, overlongs: one U+FFFD per byte */
    assert_escapes("a\x80z", 3, "\"a" FFFD "z\"", "a" FFFD "z");
    assert_escapes("\xC0\xAF", 2, "\"" FFFD FFFD "\"", FFFD FFFD);
    assert_escapes("\xE0\x80\xAF", 3, "\"" FFFD FFFD FFFD "\"", FFFD FFFD FFFD);
    assert_escapes("\xF5\x80", 2, "\"" FFFD FFFD "\"", FFFD FFFD);
    /* surrogates and beyond U+10FFFF */
    assert_escapes("\xED\xA0\x80", 3, "\"" FFFD FFFD FFFD "\"", FFFD FFFD FFFD);
    assert_escapes("\xF4\x90\x80\x80", 4, "\"" FFFD FFFD FFFD FFFD "\"", FFFD FFFD FFFD FFFD);
    /* truncated sequences: one U+FFFD for the maximal subpart */
    assert_escapes("\xE2\x82z", 3, "\"" FFFD "z\"", FFFD "z");
    assert_escapes("\xF0\x9F\x98", 3, "\"" FFFD "\"", FFFD);
    assert_escapes("\xF0\x9F\x98\xE2\x82\xAC", 6, "\"" FFFD "\xE2\x82\xAC\"", FFFD "\xE2\x82\xAC");
    assert_escapes("\xE2\x82\"", 3, "\"" FFFD "\\\"\"", FFFD "\"");
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

/*
 * The schema check says no to what file-format-spec.ts does not allow:
 * each document below is a valid one (the first) with one thing broken.
 */
static void test_schema_check_rejects(void **state)
{
    (void)state;
#define FILE_WITH(frames, profile)                                                                 \
    "{\"$schema\":\"" SCHEMA "\",\"shared\":{\"frames\":[" frames "]},\"profiles\":[" profile "]}"
#define SAMPLED(unit, start, end, samples, weights)                                                \
    "{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"" unit "\",\"startValue\":" start             \
    ",\"endValue\":" end ",\"samples\":[" samples "],\"weights\":[" weights "]}"
#define EVENTED(events)                                                                            \
    "{\"type\":\"evented\",\"name\":\"p\",\"unit\":\"none\",\"startValue\":0,"                     \
    "\"endValue\":9,\"events\":[" events "]}"
#define EV(type, at, frame) "{\"type\":\"" type "\",\"at\":" at ",\"frame\":" frame "}"
    static const struct {
        const char *text;
        bool valid;
    } docs[] = {
        {FILE_WITH("{\"name\":\"a\"},{\"name\":\"b\"}",
                   SAMPLED("none", "0", "3", "[0],[0,1]", "1,2")),
         true},
        {FILE_WITH("{\"name\":\"a\"}", EVENTED(EV("O", "0", "0") "," EV("C", "9", "0"))), true},
        /* broken: */
        {"{\"shared\":{\"frames\":[]},\"profiles\":[]}", false}, /* no $schema */
        {"{\"$schema\":\"x\",\"shared\":{\"frames\":[]},\"profiles\":[]}", false},
        {FILE_WITH("{\"nom\":\"a\"}", ""), false}, /* frame without name */
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("none", "0", "3", "[0],[1]", "1,2")), false},
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("none", "0", "3", "[0],[-1]", "1,2")), false},
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("none", "0", "3", "[0],[0]", "1")), false},
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("none", "0", "3", "[0]", "\"1\"")), false},
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("cycles", "0", "3", "[0]", "3")), false},
        {FILE_WITH("{\"name\":\"a\"}", SAMPLED("none", "4", "3", "[0]", "3")), false},
        {FILE_WITH("{\"name\":\"a\"}", "{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\","
                                       "\"startValue\":0,\"endValue\":1,\"samples\":[]}"),
         false}, /* no weights */
        {FILE_WITH("{\"name\":\"a\"}", "{\"type\":\"flat\",\"name\":\"p\",\"unit\":\"none\","
                                       "\"startValue\":0,\"endValue\":1}"),
         false},
        {FILE_WITH("{\"name\":\"a\"}", EVENTED(EV("O", "0", "0"))), false}, /* never closed */
        {FILE_WITH("{\"name\":\"a\"},{\"name\":\"b\"}",
                   EVENTED(EV("O", "0", "0") "," EV("C", "1", "1"))),
         false},
        {FILE_WITH("{\"name\":\"a\"}", EVENTED(EV("O", "5", "0") "," EV("C", "1", "0"))), false},
        {FILE_WITH("{\"name\":\"a\"}", EVENTED(EV("X", "0", "0"))), false},
    };
#undef EV
#undef EVENTED
#undef SAMPLED
#undef FILE_WITH
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        json_error_t err;
        json_t *doc = json_loads(docs[i].text, 0, &err);
        if (!doc)
            fail_msg("document %zu is no JSON: %s", i, err.text);
        const char *why = schema_problem(doc);
        if (docs[i].valid && why)
            fail_msg("document %zu refused: %s", i, why);
        if (!docs[i].valid && !why)
            fail_msg("document %zu passed the schema check: %s", i, docs[i].text);
        json_decref(doc);
    }
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
    char *text = write_json(&f, "p", "none");
    json_t *doc = read_speedscope(text);
    /* one frame r; one sample: frame 0 DEPTH times, weight 3 */
    json_t *frames = json_object_get(json_object_get(doc, "shared"), "frames");
    assert_int_equal(json_array_size(frames), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(frames, 0), "name")), "r");
    json_t *prof = json_array_get(json_object_get(doc, "profiles"), 0);
    json_t *samples = json_object_get(prof, "samples");
    assert_int_equal(json_array_size(samples), 1);
    json_t *chain = json_array_get(samples, 0);
    assert_int_equal(json_array_size(chain), DEPTH);
    size_t i;
    json_t *index;
    json_array_foreach(chain, i, index)
    {
        assert_int_equal(json_integer_value(index), 0);
    }
    json_t *weights = json_object_get(prof, "weights");
    assert_int_equal(json_array_size(weights), 1);
    assert_int_equal(json_integer_value(json_array_get(weights, 0)), 3);
    assert_int_equal(json_integer_value(json_object_get(prof, "endValue")), 3);
    json_decref(doc);
    free(text);
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
        cmocka_unit_test(test_schema_check_rejects),
        cmocka_unit_test(test_deep_chain),
    };
    return ctest_skip_status(cmocka_run_group_tests(tests, NULL, NULL));
}
