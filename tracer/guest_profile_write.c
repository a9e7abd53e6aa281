/*
 * guest_profile_write: a guest profile's frames named (demangled function
 * names, 0x<target> raw, [ecall:NAME] for zkVM calls) into a name-keyed
 * trie, the form every writer takes (flamegraph/profile_write.h writes
 * it). The counts are inclusive while the guest runs; the trie takes own
 * counts, so they are turned into own counts for the copy and back after.
 * A per-pc mode profile goes through profile_expand (inline frames)
 * instead.
 */
#include <errno.h>
#include <stdlib.h>

#include "profile/frame_namer.h"
#include "profile/named_trie.h"
#include "symtab/demangle.h"
#include "tracer/guest_profile.h"
#include "tracer/profile_expand.h"

/*
 * Inclusive counts to each node's own, in place: a parent's id is smaller
 * than its children's, so in increasing order every node still holds its
 * inclusive count when it is taken from its parent.
 */
static void counts_to_self(struct trie *t)
{
    for (size_t i = 1; i < t->count; i++)
        if (t->nodes[i].parent != TRIE_ROOT)
            t->nodes[t->nodes[i].parent].count -= t->nodes[i].count;
}

/* The inverse: in decreasing order every node is whole before it is added up. */
static void counts_to_inclusive(struct trie *t)
{
    for (size_t i = t->count; i-- > 1;)
        if (t->nodes[i].parent != TRIE_ROOT)
            t->nodes[t->nodes[i].parent].count += t->nodes[i].count;
}

/* "[ecall:NAME]" for a call's leaf frame; NULL for any other node. */
static const char *call_name(const struct guest_profile *p, const struct call_node *node, char *buf,
                             size_t size)
{
    if (!guest_key_is_ecall(node->key))
        return NULL;
    snprintf(buf, size, "[ecall:%s]", p->calls[guest_ecall_index(node->key)]);
    return buf;
}

static const char *raw_name(void *ctx, const struct call_node *node, char *buf, size_t size)
{
    const char *call = call_name(ctx, node, buf, size);
    if (call)
        return call;
    snprintf(buf, size, "0x%llx", (unsigned long long)node->key);
    return buf;
}

static const char *function_name(void *ctx, const struct call_node *node, char *buf, size_t size)
{
    struct guest_profile *p = ctx;
    if (!node->aux) /* a call's leaf frame, or an address no symbol covers */
        return raw_name(ctx, node, buf, size);
    char **name = &p->names[node->aux - 1];
    if (!*name) {
        *name = demangle_symbol(p->syms->funcs[node->aux - 1].name);
        if (!*name)
            return NULL;
        for (char *c = *name; *c; c++)
            if (*c == ';')
                *c = ':';
    }
    return *name;
}

/* The namer for the profile's frames, once the name cache exists. */
static frame_namer namer_for(struct guest_profile *p, bool raw)
{
    if (p->out_of_memory) {
        errno = ENOMEM;
        return NULL;
    }
    if (!raw && !p->names) {
        p->names = calloc(p->syms->count ? p->syms->count : 1, sizeof(*p->names));
        if (!p->names) {
            errno = ENOMEM;
            return NULL;
        }
    }
    return raw ? raw_name : function_name;
}

int guest_profile_named(struct guest_profile *p, unsigned flags, struct trie *dst,
                        struct strtab *names, struct profile *sources)
{
    frame_namer name = namer_for(p, flags & GUEST_WRITE_RAW);
    if (!name)
        return -1;
    if (p->tracer.per_pc)
        return profile_expand(p, name, flags, dst, names, sources);
    counts_to_self(&p->trie);
    int rc = named_trie_build(&p->trie, name, p, dst, names);
    counts_to_inclusive(&p->trie);
    return rc;
}

frame_namer guest_profile_namer(struct guest_profile *p, bool raw)
{
    return namer_for(p, raw);
}
