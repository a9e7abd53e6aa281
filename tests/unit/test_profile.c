/*
 * test_profile: the profile of several weights (profile/profile.h):
 * a producer adds weights and values to an owned profile, a one-weight
 * trie is wrapped without a copy, merging matches frames and weights by
 * name (an unnamed folded count joins the first weight, which a named
 * weight then names), selecting a weight loads it into the node counts,
 * and a growing trie keeps every weight's column in step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/profile.h"

/* Adds `a;b;...` (frames split at ';') with one value per weight; returns the leaf. */
static uint32_t add_stack(struct profile *p, const char *stack, const uint64_t *values)
{
    uint32_t node = TRIE_ROOT;
    for (const char *s = stack; *s;) {
        size_t len = strcspn(s, ";");
        bool created;
        node = trie_child(p->trie, node, strtab_intern(p->names, s, len), &created);
        s += len + (s[len] == ';');
    }
    for (size_t w = 0; w < p->nweights; w++)
        profile_values(p, w)[node] += values[w];
    return node;
}

static void test_weights_and_select(void **state)
{
    (void)state;
    struct profile p;
    assert_true(profile_init(&p));
    assert_int_equal(profile_add_weight(&p, "instructions", "count", true), 0);
    assert_int_equal(profile_add_weight(&p, "cycles", "count", true), 1);
    uint32_t g = add_stack(&p, "main;f;g", (uint64_t[]){3, 30});
    add_stack(&p, "main;f", (uint64_t[]){2, 20});
    /* more nodes than the first capacity: every column grows with the trie */
    char name[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof(name), "main;x%d", i);
        add_stack(&p, name, (uint64_t[]){1, 2});
    }
    assert_int_equal(profile_total(&p, 0), 3005);
    assert_int_equal(profile_total(&p, 1), 6050);
    assert_int_equal(profile_find_weight(&p, "cycles"), 1);
    assert_int_equal(profile_find_weight(&p, "gas"), -1);
    assert_int_equal(profile_select_weight(&p, 1), 0);
    assert_int_equal(p.trie->nodes[g].count, 30);
    assert_int_equal(trie_total(p.trie), 6050);
    assert_int_equal(profile_select_weight(&p, 2), -1);
    profile_free(&p);
}

static void test_wrap_borrows_counts(void **state)
{
    (void)state;
    struct trie t;
    struct strtab names;
    struct profile p;
    bool created;
    assert_true(trie_init(&t));
    assert_true(strtab_init(&names));
    uint32_t n = trie_child(&t, TRIE_ROOT, strtab_intern(&names, "main", 4), &created);
    t.nodes[n].count = 7;
    assert_true(profile_wrap(&p, &t, &names, "instructions"));
    assert_int_equal(p.nweights, 1);
    assert_int_equal(profile_value(&p, 0, n), 7);
    assert_int_equal(profile_add_weight(&p, "cycles", "count", true), -1); /* borrowed */
    profile_free(&p);
    assert_int_equal(t.nodes[n].count, 7); /* the trie is the owner's still */
    strtab_free(&names);
    trie_free(&t);
}

static void test_merge_matches_names(void **state)
{
    (void)state;
    struct profile folded, named, sum;
    struct error e = ERROR_INIT;
    assert_true(profile_init(&folded) && profile_init(&named) && profile_init(&sum));
    assert_int_equal(profile_add_weight(&folded, "samples", "count", false), 0);
    add_stack(&folded, "main;f", (uint64_t[]){5});
    assert_int_equal(profile_add_weight(&named, "cycles", "count", true), 0);
    assert_int_equal(profile_add_weight(&named, "instructions", "count", true), 1);
    add_stack(&named, "main;f", (uint64_t[]){100, 1});
    add_stack(&named, "main;g", (uint64_t[]){200, 2});

    assert_int_equal(profile_merge(&sum, &folded, &e), 0); /* first: unnamed samples */
    assert_int_equal(profile_merge(&sum, &named, &e), 0);  /* cycles names it */
    assert_int_equal(profile_merge(&sum, &folded, &e), 0); /* then adds to cycles */
    assert_int_equal(sum.nweights, 2);
    assert_string_equal(profile_weight_name(&sum, 0), "cycles");
    assert_true(sum.weights[0].named);
    assert_string_equal(profile_weight_name(&sum, 1), "instructions");
    assert_int_equal(profile_total(&sum, 0), 310);
    assert_int_equal(profile_total(&sum, 1), 3);
    assert_int_equal(sum.trie->count, 4); /* root, main, f, g */
    profile_free(&folded);
    profile_free(&named);
    profile_free(&sum);
}

static void test_merge_overflow_is_an_error(void **state)
{
    (void)state;
    struct profile a, sum;
    struct error e = ERROR_INIT;
    assert_true(profile_init(&a) && profile_init(&sum));
    assert_int_equal(profile_add_weight(&a, "instructions", "count", true), 0);
    add_stack(&a, "main", (uint64_t[]){UINT64_MAX - 1});
    assert_int_equal(profile_merge(&sum, &a, &e), 0);
    assert_int_equal(profile_merge(&sum, &a, &e), -1);
    assert_int_equal(e.status, ERROR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "overflows"));
    profile_free(&a);
    profile_free(&sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_and_select),
        cmocka_unit_test(test_wrap_borrows_counts),
        cmocka_unit_test(test_merge_matches_names),
        cmocka_unit_test(test_merge_overflow_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
