/*
 * test_frame_memo: the memo of resolved addresses (perf/fold/frame_memo.h):
 * found only under the key it was put with, taken over in a later
 * generation only with the same proof, never an answer of another key
 * (checked against a model over random puts on a 4-slot memo), and bad
 * sizes, empty chains and unmade frames kept out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perf/fold/frame_memo.h"

/* Objects whose addresses stand for address spaces and files. */
static int SPACE_A, SPACE_B, LIBC, OTHER_DSO;

static struct frame_memo_key key_of(const void *space, uint64_t generation, uint64_t addr,
                                    uint32_t how)
{
    return (struct frame_memo_key){space, generation, addr, how};
}

static void found_under_its_key_only(void **state)
{
    (void)state;
    struct frame_memo m;
    assert_int_equal(frame_memo_init(&m, 8), 0);
    struct frame_memo_key k = key_of(&SPACE_A, 7, 0x401000, 1);
    uint32_t id = 42;
    frame_memo_put(&m, &k, NULL, &id, 1);
    id = 99; /* one frame is copied */
    size_t count = 0;
    const uint32_t *f = frame_memo_find(&m, &k, &count);
    assert_non_null(f);
    assert_int_equal(count, 1);
    assert_int_equal(f[0], 42);
    struct frame_memo_key other = k;
    other.generation = 8;
    assert_null(frame_memo_find(&m, &other, &count));
    other = k, other.space = &SPACE_B;
    assert_null(frame_memo_find(&m, &other, &count));
    other = k, other.how = 2;
    assert_null(frame_memo_find(&m, &other, &count));
    other = k, other.addr = 0x401001;
    assert_null(frame_memo_find(&m, &other, &count));
    /* a chain is pointed to */
    static const uint32_t chain[3] = {5, 6, 7};
    frame_memo_put(&m, &k, NULL, chain, 3);
    f = frame_memo_find(&m, &k, &count);
    assert_ptr_equal(f, chain);
    assert_int_equal(count, 3);
    frame_memo_free(&m);
    assert_null(frame_memo_find(&m, &k, &count));
}

static void later_generation_with_same_proof(void **state)
{
    (void)state;
    struct frame_memo m;
    assert_int_equal(frame_memo_init(&m, 6), 0);
    struct frame_memo_key k = key_of(&SPACE_A, 3, 0x7f0000001234, 1);
    struct frame_memo_proof proof = {&LIBC, 0x7f0000000000, 0};
    uint32_t id = 11;
    frame_memo_put(&m, &k, &proof, &id, 1);
    struct frame_memo_key later = k;
    later.generation = 4; /* the heap grew */
    size_t count;
    assert_null(frame_memo_find(&m, &later, &count));
    struct frame_memo_proof moved = proof;
    moved.bias += 0x1000; /* libc mapped elsewhere */
    assert_null(frame_memo_refind(&m, &later, &moved, &count));
    moved = proof, moved.dso = &OTHER_DSO;
    assert_null(frame_memo_refind(&m, &later, &moved, &count));
    moved = proof, moved.flags = 1;
    assert_null(frame_memo_refind(&m, &later, &moved, &count));
    struct frame_memo_key elsewhere = later;
    elsewhere.space = &SPACE_B;
    assert_null(frame_memo_refind(&m, &elsewhere, &proof, &count));
    const uint32_t *f = frame_memo_refind(&m, &later, &proof, &count);
    assert_non_null(f);
    assert_int_equal(f[0], 11);
    /* taken over: found in the new generation, not in the old */
    assert_non_null(frame_memo_find(&m, &later, &count));
    assert_null(frame_memo_find(&m, &k, &count));
    /* put without a proof (kernel, no mapping): only its own generation */
    struct frame_memo_key kernel = key_of(&SPACE_B, 1, 0xffffffff81000000, 2);
    frame_memo_put(&m, &kernel, NULL, &id, 1);
    struct frame_memo_key kernel_later = kernel;
    kernel_later.generation = 2;
    struct frame_memo_proof none = {.dso = NULL};
    assert_null(frame_memo_refind(&m, &kernel_later, &none, &count));
    assert_null(frame_memo_refind(&m, &kernel_later, NULL, &count));
    frame_memo_free(&m);
}

static void bad_input_kept_out(void **state)
{
    (void)state;
    struct frame_memo m;
    struct frame_memo_key k = key_of(&SPACE_A, 1, 0x1000, 0);
    struct frame_memo_proof proof = {&LIBC, 0, 0};
    uint32_t id = 3;
    size_t count;
    assert_int_equal(frame_memo_init(&m, 0), -1);
    assert_int_equal(frame_memo_init(&m, FRAME_MEMO_MAX_BITS + 1), -1);
    assert_int_equal(frame_memo_init(&m, 1000), -1);
    /* an empty memo answers nothing and keeps nothing */
    frame_memo_put(&m, &k, &proof, &id, 1);
    assert_null(frame_memo_find(&m, &k, &count));
    assert_null(frame_memo_refind(&m, &k, &proof, &count));
    frame_memo_free(&m);
    assert_int_equal(frame_memo_init(&m, FRAME_MEMO_MIN_BITS), 0);
    frame_memo_put(&m, &k, &proof, &id, 0); /* no frames */
    assert_null(frame_memo_find(&m, &k, &count));
    frame_memo_put(&m, &k, &proof, NULL, 2);
    assert_null(frame_memo_find(&m, &k, &count));
    const uint32_t unmade[3] = {4, 0, 5}; /* a name that could not be made */
    frame_memo_put(&m, &k, &proof, unmade, 3);
    assert_null(frame_memo_find(&m, &k, &count));
    uint32_t zero = 0;
    frame_memo_put(&m, &k, &proof, &zero, 1);
    assert_null(frame_memo_find(&m, &k, &count));
    frame_memo_free(&m);
}

/* The model: the last frames put (or taken over) per (space, addr, how). */
struct model_entry {
    bool set;
    uint64_t generation;
    int proof; /* index into PROOFS; -1: none */
    uint32_t frames[3];
    size_t count;
};

static void never_another_keys_answer(void **state)
{
    (void)state;
    enum { SPACES = 2, ADDRS = 5, HOWS = 2 };
    enum { STEPS = 20000 };
    static int spaces[SPACES], dsos[2];
    const struct frame_memo_proof proofs[3] = {
        {&dsos[0], 0x1000, 0}, {&dsos[0], 0x2000, 0}, {&dsos[1], 0x1000, 0}};
    static uint32_t chains[STEPS][3]; /* each put's own: a kept chain is never written again */
    struct model_entry model[SPACES][ADDRS][HOWS];
    memset(model, 0, sizeof(model));
    struct frame_memo m;
    assert_int_equal(frame_memo_init(&m, 2), 0);
    srand(17);
    uint32_t next_id = 1;
    size_t found = 0, taken_over = 0;
    for (int step = 0; step < STEPS; step++) {
        int s = rand() % SPACES, a = rand() % ADDRS, h = rand() % HOWS;
        uint64_t generation = (uint64_t)(rand() % 3);
        struct frame_memo_key k =
            key_of(&spaces[s], generation, 0x400000 + 16 * (uint64_t)a, (uint32_t)h);
        struct model_entry *e = &model[s][a][h];
        int p = rand() % 4 - 1;
        size_t count;
        switch (rand() % 3) {
        case 0: { /* put */
            size_t n = 1 + (size_t)(rand() % 3);
            uint32_t *frames = chains[step];
            for (size_t i = 0; i < n; i++)
                frames[i] = next_id++;
            frame_memo_put(&m, &k, p < 0 ? NULL : &proofs[p], frames, n);
            *e = (struct model_entry){true, generation, p, {0}, n};
            memcpy(e->frames, frames, n * sizeof(*frames));
            break;
        }
        case 1: { /* find */
            const uint32_t *f = frame_memo_find(&m, &k, &count);
            if (f) {
                found++;
                assert_true(e->set);
                assert_int_equal(e->generation, generation);
                assert_int_equal(count, e->count);
                assert_memory_equal(f, e->frames, count * sizeof(*f));
            }
            break;
        }
        default: { /* refind */
            const uint32_t *f = frame_memo_refind(&m, &k, p < 0 ? NULL : &proofs[p], &count);
            if (f) {
                taken_over++;
                assert_true(e->set);
                assert_true(p >= 0 && e->proof == p);
                assert_int_equal(count, e->count);
                assert_memory_equal(f, e->frames, count * sizeof(*f));
                e->generation = generation;
            }
            break;
        }
        }
    }
    assert_true(found > 100 && taken_over > 100); /* the model was asked, not only missed */
    frame_memo_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found_under_its_key_only),
        cmocka_unit_test(later_generation_with_same_proof),
        cmocka_unit_test(bad_input_kept_out),
        cmocka_unit_test(never_another_keys_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
