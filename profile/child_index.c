/*
 * child_index: a counting pass over the parents, then a fill pass.
 */
#include "profile/child_index.h"

#include <stdlib.h>
#include <string.h>

int child_index_build(const struct trie *t, struct child_index *ci)
{
    size_t n = t->count ? t->count : 1;
    ci->first = calloc(t->count + 1, sizeof(*ci->first));
    ci->children = malloc(n * sizeof(*ci->children));
    uint32_t *fill = malloc(n * sizeof(*fill));
    if (!ci->first || !ci->children || !fill) {
        free(fill);
        return -1;
    }
    for (size_t i = 1; i < t->count; i++)
        ci->first[t->nodes[i].parent + 1]++;
    for (size_t i = 0; i < t->count; i++)
        ci->first[i + 1] += ci->first[i];
    memcpy(fill, ci->first, t->count * sizeof(*fill));
    for (size_t i = 1; i < t->count; i++)
        ci->children[fill[t->nodes[i].parent]++] = (uint32_t)i;
    free(fill);
    return 0;
}

void child_index_free(struct child_index *ci)
{
    free(ci->first);
    free(ci->children);
    ci->first = ci->children = NULL;
}
