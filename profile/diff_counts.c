/*
 * diff_counts: the before counts, moved out of the trie and grown with it.
 */
#include "profile/diff_counts.h"

#include <stdlib.h>
#include <string.h>

int diff_counts_take_before(struct diff_counts *d, struct trie *t)
{
    uint64_t *before = malloc((t->count ? t->count : 1) * sizeof(*before));
    if (!before)
        return -1;
    for (size_t i = 0; i < t->count; i++) {
        before[i] = t->nodes[i].count;
        t->nodes[i].count = 0;
    }
    free(d->before);
    d->before = before;
    d->count = t->count;
    return 0;
}

int diff_counts_cover(struct diff_counts *d, const struct trie *t)
{
    if (t->count <= d->count)
        return 0;
    uint64_t *before = realloc(d->before, t->count * sizeof(*before));
    if (!before)
        return -1;
    memset(before + d->count, 0, (t->count - d->count) * sizeof(*before));
    d->before = before;
    d->count = t->count;
    return 0;
}

void diff_counts_free(struct diff_counts *d)
{
    free(d->before);
    d->before = NULL;
    d->count = 0;
}
