/*
 * frame_memo: a direct-mapped memo of resolved addresses (perf/frame_memo.h).
 */
#include "perf/frame_memo.h"

#include <stdbool.h>
#include <stdlib.h>

int frame_memo_init(struct frame_memo *m, unsigned bits)
{
    m->slots = NULL;
    m->bits = 0;
    if (bits < FRAME_MEMO_MIN_BITS || bits > FRAME_MEMO_MAX_BITS)
        return -1;
    if (!(m->slots = calloc((size_t)1 << bits, sizeof(*m->slots))))
        return -1;
    m->bits = bits;
    return 0;
}

void frame_memo_free(struct frame_memo *m)
{
    free(m->slots);
    m->slots = NULL;
    m->bits = 0;
}

static struct frame_memo_entry *slot_of(const struct frame_memo *m,
                                        const struct frame_memo_key *key)
{
    uint64_t h = (key->addr ^ (uint64_t)(uintptr_t)key->space * 0xc2b2ae3d27d4eb4full ^
                  (uint64_t)key->how << 48) *
                 0x9e3779b97f4a7c15ull;
    return &m->slots[h >> (64 - m->bits)];
}

static bool same_key(const struct frame_memo_key *a, const struct frame_memo_key *b)
{
    return a->addr == b->addr && a->space == b->space && a->generation == b->generation &&
           a->how == b->how;
}

const uint32_t *frame_memo_find(const struct frame_memo *m, const struct frame_memo_key *key,
                                size_t *count)
{
    if (!m->slots)
        return NULL;
    const struct frame_memo_entry *e = slot_of(m, key);
    if (e->count == 0 || !same_key(&e->key, key))
        return NULL;
    *count = e->count;
    return e->count == 1 ? &e->one : e->frames;
}

const uint32_t *frame_memo_refind(struct frame_memo *m, const struct frame_memo_key *key,
                                  const struct frame_memo_proof *proof, size_t *count)
{
    if (!m->slots || !proof || !proof->dso)
        return NULL;
    struct frame_memo_entry *e = slot_of(m, key);
    if (e->count == 0 || e->key.addr != key->addr || e->key.space != key->space ||
        e->key.how != key->how || e->proof.dso != proof->dso || e->proof.bias != proof->bias ||
        e->proof.flags != proof->flags)
        return NULL;
    e->key.generation = key->generation;
    *count = e->count;
    return e->count == 1 ? &e->one : e->frames;
}

void frame_memo_put(struct frame_memo *m, const struct frame_memo_key *key,
                    const struct frame_memo_proof *proof, const uint32_t *frames, size_t count)
{
    if (!m->slots || count == 0 || count > UINT32_MAX || !frames)
        return;
    for (size_t i = 0; i < count; i++)
        if (frames[i] == 0)
            return;
    struct frame_memo_entry *e = slot_of(m, key);
    e->key = *key;
    e->proof = proof ? *proof : (struct frame_memo_proof){.dso = NULL};
    e->count = (uint32_t)count;
    e->one = frames[0];
    e->frames = count == 1 ? NULL : frames;
}
