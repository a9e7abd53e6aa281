/*
 * frame_memo: a direct-mapped memo of resolved addresses (perf/frame_memo.h).
 */
#include "perf/frame_memo.h"

#include <stdlib.h>
#include <string.h>

int frame_memo_init(struct frame_memo *m, unsigned bits)
{
    m->slots = NULL;
    m->bits = 0;
    if (bits < FRAME_MEMO_MIN_BITS || bits > FRAME_MEMO_MAX_BITS)
        return -1;
    /*
     * Zeroed by writing, not calloc'ed: a calloc'ed page first read maps
     * the shared zero page, and its first write then flushes the TLB of
     * every CPU running one of our threads (DWARF is inflated and opened
     * on threads while samples are folded): an interrupt each, costly in
     * a virtual machine (6% of a small DWARF fold's time).
     */
    size_t size = ((size_t)1 << bits) * sizeof(*m->slots);
    if (!(m->slots = malloc(size)))
        return -1;
    memset(m->slots, 0, size);
    m->bits = bits;
    return 0;
}

void frame_memo_free(struct frame_memo *m)
{
    free(m->slots);
    m->slots = NULL;
    m->bits = 0;
}

const uint32_t *frame_memo_refind(struct frame_memo *m, const struct frame_memo_key *key,
                                  const struct frame_memo_proof *proof, size_t *count)
{
    if (!m->slots || !proof || !proof->dso)
        return NULL;
    struct frame_memo_entry *e = frame_memo_slot(m, key);
    if (e->count == 0 || e->key.addr != key->addr || e->key.space != key->space ||
        e->key.how != key->how || e->proof.dso != proof->dso || e->proof.bias != proof->bias ||
        e->proof.flags != proof->flags)
        return NULL;
    e->key.generation = key->generation;
    *count = e->count;
    return e->count == 1 ? &e->one : e->frames;
}
