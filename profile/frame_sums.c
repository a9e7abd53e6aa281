/*
 * frame_sums: self and inclusive sums per frame name and weight, in one
 * pass over a profile's nodes (see frame_sums.h); a name is taken once
 * per stack by a stamp: the node that last counted it.
 */
#include "profile/frame_sums.h"

#include <stdlib.h>
#include <string.h>

static bool node_has_value(const struct profile *p, uint32_t node)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (profile_value(p, w, node))
            return true;
    return false;
}

int frame_sums_build(struct frame_sums *s, const struct profile *p)
{
    size_t nn = p->names->count ? p->names->count : 1, nw = p->nweights ? p->nweights : 1;
    s->p = p;
    s->nnames = nn;
    s->self = calloc(nn * nw, sizeof(*s->self));
    s->incl = calloc(nn * nw, sizeof(*s->incl));
    s->used = malloc(nn * sizeof(*s->used));
    uint32_t *stamp = calloc(nn, sizeof(*stamp)); /* the node that last counted a name */
    bool *seen = calloc(nn, sizeof(*seen));
    int rc = s->self && s->incl && s->used && stamp && seen ? 0 : -1;
    const struct trie *t = p->trie;
    for (uint32_t i = 1; rc == 0 && i < t->count; i++) {
        uint32_t key = (uint32_t)t->nodes[i].key;
        if (!seen[key]) {
            seen[key] = true;
            s->used[s->nused++] = key;
        }
        if (!node_has_value(p, i))
            continue;
        for (size_t w = 0; w < p->nweights; w++)
            s->self[w * nn + key] += profile_value(p, w, i);
        for (uint32_t n = i; n != TRIE_ROOT; n = t->nodes[n].parent) {
            uint32_t k = (uint32_t)t->nodes[n].key;
            if (stamp[k] == i)
                continue;
            stamp[k] = i;
            for (size_t w = 0; w < p->nweights; w++)
                s->incl[w * nn + k] += profile_value(p, w, i);
        }
    }
    free(stamp);
    free(seen);
    return rc;
}

void frame_sums_free(struct frame_sums *s)
{
    free(s->self);
    free(s->incl);
    free(s->used);
}

bool frame_is_ecall(const struct strtab *names, uint32_t id)
{
    size_t len = names->lengths[id], k = strlen(FRAME_ECALL_PREFIX);
    const char *s = strtab_get(names, id);
    return len > k + 1 && memcmp(s, FRAME_ECALL_PREFIX, k) == 0 && s[len - 1] == ']';
}

size_t frame_calls_weight(const struct profile *p)
{
    int w = profile_find_weight(p, "instructions");
    return w >= 0 ? (size_t)w : 0;
}
