/*
 * frame_memo: a direct-mapped memo of resolved addresses (perf/fold/frame_memo.h).
 */
#include "perf/fold/frame_memo.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The table's bytes (mmap and munmap take them to the end of the last page). */
static size_t table_bytes(unsigned bits)
{
    return ((size_t)1 << bits) * sizeof(struct frame_memo_entry);
}

int frame_memo_init(struct frame_memo *m, unsigned bits)
{
    m->slots = NULL;
    m->bits = 0;
    if (bits < FRAME_MEMO_MIN_BITS || bits > FRAME_MEMO_MAX_BITS)
        return -1;
    /*
     * Mapped with its pages written now (MAP_POPULATE), not calloc'ed: a
     * calloc'ed page first read maps the shared zero page, and its first
     * write then flushes the TLB of every CPU running one of our threads
     * (DWARF is inflated and opened on threads while samples are folded):
     * an interrupt each, costly in a virtual machine (6% of a small DWARF
     * fold's time). malloc and memset do not do it: gcc makes them calloc.
     */
    void *slots = mmap(NULL, table_bytes(bits), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (slots == MAP_FAILED)
        return -1;
    m->slots = slots;
    m->bits = bits;
    return 0;
}

void frame_memo_free(struct frame_memo *m)
{
    if (m->slots)
        munmap(m->slots, table_bytes(m->bits));
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
