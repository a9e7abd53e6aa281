/*
 * frame_memo: what an address resolved to, remembered for the next
 * sample that meets it: (address space, its generation, address, how it
 * was resolved) -> the frames it became (strtab ids, innermost first:
 * one for a call-chain entry, an unwound address's inlined functions and
 * then its function). perf/fold/stack.c asks it before looking an address up
 * in the maps, the symbols and the inline chains, so a pc met again in an
 * unchanged address space costs one probe.
 *
 * A space's generation changes with every mapping (a heap growing is
 * one), so an entry also keeps what its frames follow from besides the
 * address (its proof: the mapping's file and where it lies): in a later
 * generation, the same proof at the same address resolves the same, and
 * the entry is taken over (frame_memo_refind).
 *
 * Direct-mapped: a slot holds the last key that hashed to it, so a memo
 * may forget (a miss is only the look-up done again), never mixes keys up.
 * A chain of more than one frame is not copied: `frames` must live as long
 * as the memo (perf/dwarf/inline_frames.h keeps its chains until it is freed).
 */
#ifndef PERF_FRAME_MEMO_H
#define PERF_FRAME_MEMO_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_MEMO_MIN_BITS 1
#define FRAME_MEMO_MAX_BITS 24

/* What the frames were made for, besides the address (part of the key). */
struct frame_memo_key {
    const void *space; /* the thread's perf_maps, or the machine's kernel; not NULL */
    uint64_t generation;
    uint64_t addr;
    uint32_t how; /* the caller's: cpumode, Java naming, unwound or not */
};

/* What the frames follow from besides the address; `dso` NULL: nothing to prove (key only). */
struct frame_memo_proof {
    const void *dso; /* the mapping's file */
    uint64_t bias;   /* its start - its file offset: where the file lies */
    uint32_t flags;  /* the caller's (an identity mapping) */
};

struct frame_memo_entry {
    struct frame_memo_key key;
    struct frame_memo_proof proof;
    const uint32_t *frames; /* `count` frames; &one when count is 1 */
    uint32_t count;         /* 0: empty slot */
    uint32_t one;
};

struct frame_memo {
    struct frame_memo_entry *slots;
    unsigned bits;
};

/* 1 << bits slots; -1 when bits is out of [MIN, MAX] or memory runs out (the memo is then empty).
 */
int frame_memo_init(struct frame_memo *m, unsigned bits);
void frame_memo_free(struct frame_memo *m);

static inline struct frame_memo_entry *frame_memo_slot(const struct frame_memo *m,
                                                       const struct frame_memo_key *key)
{
    uint64_t h = (key->addr ^ (uint64_t)(uintptr_t)key->space * 0xc2b2ae3d27d4eb4full ^
                  (uint64_t)key->how << 48) *
                 0x9e3779b97f4a7c15ull;
    return &m->slots[h >> (64 - m->bits)];
}

/*
 * The frames remembered for `key` and their number, or NULL (not
 * remembered, or no memo). Inline: one probe per frame of every sample.
 */
static inline const uint32_t *frame_memo_find(const struct frame_memo *m,
                                              const struct frame_memo_key *key, size_t *count)
{
    if (!m->slots)
        return NULL;
    const struct frame_memo_entry *e = frame_memo_slot(m, key);
    if (e->key.addr != key->addr || e->key.space != key->space || !key->space ||
        e->key.generation != key->generation || e->key.how != key->how)
        return NULL; /* an empty slot's space is NULL, no key's is */
    *count = e->count;
    return e->count == 1 ? &e->one : e->frames;
}

/*
 * The frames remembered for `key` in another generation of its space,
 * when they were put with this same proof (not one with a NULL dso): the
 * entry takes `key`'s generation. NULL: none such.
 */
const uint32_t *frame_memo_refind(struct frame_memo *m, const struct frame_memo_key *key,
                                  const struct frame_memo_proof *proof, size_t *count);

/*
 * Remembers `count` frames for `key` and `proof` (NULL: none) (one is copied; more are pointed to).
 * Nothing is kept for no frames, more than UINT32_MAX, or a frame id 0 (a
 * name that could not be made). Inline: once per address a sample meets first.
 */
static inline void frame_memo_put(struct frame_memo *m, const struct frame_memo_key *key,
                                  const struct frame_memo_proof *proof, const uint32_t *frames,
                                  size_t count)
{
    if (!m->slots || count == 0 || count > UINT32_MAX || !frames)
        return;
    for (size_t i = 0; i < count; i++)
        if (frames[i] == 0)
            return;
    struct frame_memo_entry *e = frame_memo_slot(m, key);
    e->key = *key;
    if (proof)
        e->proof = *proof;
    else
        e->proof.dso = NULL;
    e->count = (uint32_t)count;
    e->one = frames[0];
    e->frames = count == 1 ? NULL : frames;
}

#endif
