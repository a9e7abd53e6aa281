/*
 * call_node: one node of a call-graph trie, the layout shared by the trie
 * that owns the nodes (profile/trie.h), the guest tracer that finds
 * them (tracer/) and the executor's traced loops, which add to a node's
 * count without calling anything (executor/trace.h). A leaf header: it
 * includes nothing of the project, so each of them can.
 */
#ifndef COMMON_CALL_NODE_H
#define COMMON_CALL_NODE_H

#include <stdint.h>

struct call_node {
    uint64_t count;         /* the owner's: own or inclusive, as the owner says */
    uint64_t memo_key[2];   /* the two child keys looked up last (newest first) ... */
    uint64_t key;           /* the frame: a guest call target, or an interned name */
    uint32_t memo_child[2]; /* ... and those children (0: none) */
    uint32_t parent;
    uint32_t aux; /* the owner's (the guest tracer: function index + 1) */
};

#endif
