/*
 * named_trie: one pass over the source nodes, parents first (a node's id
 * is always above its parent's), mapping each to its named node.
 */
#include "profile/named_trie.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int named_trie_build(const struct trie *src, frame_namer name, void *ctx, struct trie *dst,
                     struct strtab *names)
{
    uint32_t *map = malloc((src->count ? src->count : 1) * sizeof(*map));
    if (!map) {
        errno = ENOMEM;
        return -1;
    }
    map[TRIE_ROOT] = TRIE_ROOT;
    dst->nodes[TRIE_ROOT].count += src->nodes[TRIE_ROOT].count;
    char buf[64];
    int rc = 0;
    for (size_t i = 1; rc == 0 && i < src->count; i++) {
        const struct call_node *node = &src->nodes[i];
        errno = 0;
        const char *frame = name(ctx, node, buf, sizeof(buf));
        uint32_t id = frame ? strtab_intern(names, frame, strlen(frame)) : 0;
        bool created;
        uint32_t to = id ? trie_child(dst, map[node->parent], id, &created) : UINT32_MAX;
        if (to == UINT32_MAX) {
            if (!errno || frame)
                errno = ENOMEM;
            rc = -1;
            break;
        }
        dst->nodes[to].count += node->count;
        map[i] = to;
    }
    free(map);
    return rc;
}
