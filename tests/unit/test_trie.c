/*
 * test_trie: the call-graph trie keeps one node per (parent, key), finds
 * it again at any depth, and the folded writer sorts, merges and skips
 * zero counts as docs/FORMATS.md#folded-stacks says.
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
#include "profile/frame_namer.h"
#include "profile/trie.h"

static void test_child_is_found_again(void **state)
{
    (void)state;
    struct trie t;
    bool created;
    assert_true(trie_init(&t));
    uint32_t a = trie_child(&t, TRIE_ROOT, 0x100, &created);
    assert_true(created);
    uint32_t b = trie_child(&t, a, 0x200, &created);
    assert_true(created);
    uint32_t c = trie_child(&t, TRIE_ROOT, 0x200, &created); /* same key, other parent */
    assert_true(created);
    assert_int_not_equal(b, c);
    assert_int_equal(trie_child(&t, a, 0x200, &created), b);
    assert_false(created);
    assert_int_equal(trie_child(&t, TRIE_ROOT, 0x100, &created), a);
    assert_int_equal(t.nodes[b].parent, a);
    trie_free(&t);
}

/* A million nested frames: every level a new node, found again on the way back. */
static void test_million_levels(void **state)
{
    (void)state;
    enum { DEPTH = 1000000 };
    struct trie t;
    bool created;
    assert_true(trie_init(&t));
    uint32_t *path = malloc(DEPTH * sizeof(*path));
    assert_non_null(path);
    uint32_t node = TRIE_ROOT;
    for (uint32_t i = 0; i < DEPTH; i++) {
        node = trie_child(&t, node, 0x1000 + (i % 3) * 4, &created);
        assert_true(created);
        path[i] = node;
    }
    node = TRIE_ROOT;
    for (uint32_t i = 0; i < DEPTH; i++) {
        node = trie_child(&t, node, 0x1000 + (i % 3) * 4, &created);
        if (created || node != path[i])
            fail_msg("level %u not found again", i);
    }
    assert_int_equal(t.count, DEPTH + 1);
    free(path);
    trie_free(&t);
}

static const char *key_names[] = {"", "main", "f", "g", "f"};

static const char *name_by_key(void *ctx, const struct call_node *n, char *buf, size_t size)
{
    (void)ctx;
    (void)buf;
    (void)size;
    return key_names[n->key];
}

static void test_folded_sorted_merged(void **state)
{
    (void)state;
    struct trie t;
    bool created;
    assert_true(trie_init(&t));
    uint32_t m = trie_child(&t, TRIE_ROOT, 1, &created);
    uint32_t f = trie_child(&t, m, 2, &created);
    uint32_t g = trie_child(&t, m, 3, &created);
    uint32_t f2 = trie_child(&t, m, 4, &created); /* another target named "f": merges */
    uint32_t gf = trie_child(&t, g, 2, &created);
    t.nodes[m].count = 5;
    t.nodes[f].count = 7;
    t.nodes[g].count = 0; /* left out */
    t.nodes[f2].count = 3;
    t.nodes[gf].count = 1;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(folded_write(out, &t, name_by_key, NULL), 0);
    fclose(out);
    assert_string_equal(text, "main 5\nmain;f 10\nmain;g;f 1\n");
    assert_int_equal(trie_total(&t), 16);
    free(text);
    trie_free(&t);
}

/* Reading folded text and writing it back sorts and merges it. */
static void test_read_roundtrip(void **state)
{
    (void)state;
    const char input[] = "main;g 2\nmain 5\r\n\nmain;f:x 7\nmain;g 1\nmain;g;h 0\n";
    struct trie t;
    struct strtab names;
    assert_true(trie_init(&t));
    assert_true(strtab_init(&names));
    FILE *in = fmemopen((void *)input, sizeof(input) - 1, "r");
    struct error why = ERROR_INIT;
    assert_int_equal(folded_read(in, &t, &names, NULL, &why), 0);
    fclose(in);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(folded_write(out, &t, folded_name_of, &names), 0);
    fclose(out);
    assert_string_equal(text, "main 5\nmain;f:x 7\nmain;g 3\n");
    free(text);
    trie_free(&t);
    strtab_free(&names);
}

static void test_read_rejects_bad_lines(void **state)
{
    (void)state;
    const char *bad[] = {"main\n", "main 12x\n", "main;f -3\n", "7\n", "a 99999999999999999999\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct trie t;
        struct strtab names;
        assert_true(trie_init(&t));
        assert_true(strtab_init(&names));
        FILE *in = fmemopen((void *)bad[i], strlen(bad[i]), "r");
        struct error why = ERROR_INIT;
        assert_int_equal(folded_read(in, &t, &names, NULL, &why), -1);
        assert_non_null(strstr(why.msg, "line 1"));
        assert_int_equal(why.status, ERROR_CORRUPT);
        fclose(in);
        trie_free(&t);
        strtab_free(&names);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_is_found_again),   cmocka_unit_test(test_million_levels),
        cmocka_unit_test(test_folded_sorted_merged),   cmocka_unit_test(test_read_roundtrip),
        cmocka_unit_test(test_read_rejects_bad_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
