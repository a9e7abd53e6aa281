/*
 * frame_namer: how a writer asks for a node's frame name, and the namer
 * of tries keyed by interned strings (folded files, perf profiles, named
 * tries), which the tracer and every writer share.
 */
#ifndef PROFILE_FRAME_NAMER_H
#define PROFILE_FRAME_NAMER_H

#include <stddef.h>

#include "common/call_node.h"

/*
 * Names a node's frame. Returns a string that stays valid until the next
 * call (it may be `buf`), or NULL when memory runs out. The name must not
 * contain ';' or a newline.
 */
typedef const char *(*frame_namer)(void *ctx, const struct call_node *node, char *buf, size_t size);

/* Names frames by their interned strings (a frame_namer over a struct strtab). */
const char *folded_name_of(void *strtab, const struct call_node *node, char *buf, size_t size);

#endif
