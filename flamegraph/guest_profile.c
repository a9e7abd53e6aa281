/*
 * guest_profile: the SPEC's stack rules, applied at every reported jump.
 *
 * Link registers are x1 and x5. For a jump at pc to target t:
 *   jal  rd=link                      CALL t
 *   jal  rd=other                     JUMP t
 *   jalr rd=link, rs1 not link        CALL t
 *   jalr rd=link, rs1=link=rd         CALL t
 *   jalr rd=link, rs1=link!=rd        RETURN, then CALL t
 *   jalr rd=other, rs1=link           RETURN to t
 *   jalr rd=other, rs1 not link       JUMP t
 */
#include "flamegraph/guest_profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/folded.h"
#include "symtab/demangle.h"

/* ---- target -> function cache ---- */

static bool target_cache_init(struct target_cache *c)
{
    c->mask = 1023;
    c->used = 0;
    c->slots = calloc(c->mask + 1, sizeof(*c->slots));
    return c->slots != NULL;
}

static struct target_cache_slot *target_slot(struct target_cache_slot *slots, size_t mask,
                                             uint64_t target)
{
    for (size_t i = (target * 0x9e3779b97f4a7c15ull >> 20) & mask;; i = (i + 1) & mask)
        if (!slots[i].used || slots[i].target == target)
            return &slots[i];
}

static bool target_cache_grow(struct target_cache *c)
{
    size_t mask = c->mask * 2 + 1;
    struct target_cache_slot *slots = calloc(mask + 1, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i <= c->mask; i++)
        if (c->slots[i].used)
            *target_slot(slots, mask, c->slots[i].target) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->mask = mask;
    return true;
}

/* The function (index + 1) holding `target`, or 0; looked up once per target. */
static uint32_t function_of(struct guest_profile *p, uint64_t target)
{
    struct target_cache *c = &p->targets;
    struct target_cache_slot *s = target_slot(c->slots, c->mask, target);
    if (s->used)
        return s->func;
    const struct symtab_func *f = symtab_lookup(p->syms, target);
    uint32_t func = f ? (uint32_t)(f - p->syms->funcs) + 1 : 0;
    if ((c->used + 1) * 2 > c->mask + 1) {
        if (!target_cache_grow(c))
            return func; /* still correct, just not cached */
        s = target_slot(c->slots, c->mask, target);
    }
    *s = (struct target_cache_slot){.target = target, .func = func, .used = 1};
    c->used++;
    return func;
}

/* ---- the stack ---- */

static struct guest_frame *top(struct guest_profile *p)
{
    return &p->stack[p->depth - 1];
}

/* Points a frame at `node`, caching the range of the node's function on the frame. */
static void set_frame_node(struct guest_profile *p, struct guest_frame *f, uint32_t node)
{
    uint32_t aux = p->trie.nodes[node].aux;
    f->node = node;
    f->lo = aux ? p->syms->funcs[aux - 1].start : 0;
    f->hi = aux ? p->syms->funcs[aux - 1].end : 0;
}

/* Tells the interpreter which jumps it may skip: those inside the top's function. */
static void publish_top(struct guest_profile *p)
{
    p->tracer.top_lo = top(p)->lo;
    p->tracer.top_hi = top(p)->hi;
}

/* The frame node for `target` under `parent`, resolving its function if new. */
static uint32_t frame_node(struct guest_profile *p, uint32_t parent, uint64_t target)
{
    bool created;
    uint32_t node = trie_child(&p->trie, parent, target, &created);
    if (node == UINT32_MAX) {
        p->out_of_memory = true;
        return UINT32_MAX;
    }
    if (created)
        p->trie.nodes[node].aux = function_of(p, target);
    return node;
}

static void push(struct guest_profile *p, uint64_t target, uint64_t ret)
{
    if (p->depth == p->capacity) {
        size_t cap = p->capacity * 2;
        struct guest_frame *s = realloc(p->stack, cap * sizeof(*s));
        if (!s) {
            p->out_of_memory = true;
            return;
        }
        p->stack = s;
        p->capacity = cap;
    }
    uint32_t node = frame_node(p, top(p)->node, target);
    if (node == UINT32_MAX)
        return;
    struct guest_frame *f = &p->stack[p->depth++];
    f->ret = ret;
    set_frame_node(p, f, node);
}

static void pop_to_depth(struct guest_profile *p, size_t depth)
{
    p->depth = depth < 1 ? 1 : depth; /* the root frame is never popped */
}

/* A tail call: the top frame becomes a frame for `target`, keeping its return address. */
static void replace_top(struct guest_profile *p, uint64_t target)
{
    uint32_t parent = p->trie.nodes[top(p)->node].parent;
    uint32_t node = frame_node(p, parent, target);
    if (node != UINT32_MAX)
        set_frame_node(p, top(p), node);
}

static bool frame_holds(const struct guest_frame *f, uint64_t addr)
{
    return addr >= f->lo && addr < f->hi;
}

static void jump(struct guest_profile *p, uint64_t target)
{
    const struct guest_frame *cur = top(p);
    if (frame_holds(cur, target))
        return; /* a loop, a branch table, self tail recursion */
    if (cur->lo == cur->hi && function_of(p, target) == 0)
        return; /* neither in a function */
    replace_top(p, target);
}

static void return_to(struct guest_profile *p, uint64_t target)
{
    /* The nearest frame (not the root) whose return address is the target. */
    for (size_t i = p->depth; i-- > 1;) {
        if (p->stack[i].ret == target) {
            pop_to_depth(p, i);
            return;
        }
    }
    /* longjmp: the nearest frame below the top whose function holds the target. */
    for (size_t i = p->depth - 1; i-- > 0;) {
        if (frame_holds(&p->stack[i], target)) {
            pop_to_depth(p, i + 1);
            return;
        }
    }
    jump(p, target);
}

static void on_transfer(struct flow_tracer *t, uint64_t pc, uint64_t target, unsigned rd,
                        unsigned rs1, uint64_t retired)
{
    struct guest_profile *p = (struct guest_profile *)t;
    guest_profile_flush(p, retired);
    if (p->out_of_memory)
        return;
    bool rd_link = trace_is_link(rd), rs1_link = trace_is_link(rs1);
    uint64_t ret = pc + 4;
    if (!rd_link && rs1_link && target == top(p)->ret) { /* the common return */
        p->depth--;
    } else if (rd_link && rs1_link && rs1 != rd) { /* RETURN, then CALL */
        pop_to_depth(p, p->depth - 1);
        push(p, target, ret);
    } else if (rd_link) {
        push(p, target, ret);
    } else if (rs1_link) {
        return_to(p, target);
    } else {
        jump(p, target);
    }
    publish_top(p);
}

bool guest_profile_init(struct guest_profile *p, const struct symtab *syms, uint64_t entry)
{
    memset(p, 0, sizeof(*p));
    p->tracer.transfer = on_transfer;
    p->syms = syms;
    p->capacity = 256;
    p->stack = malloc(p->capacity * sizeof(*p->stack));
    if (!p->stack || !trie_init(&p->trie) || !target_cache_init(&p->targets)) {
        guest_profile_free(p);
        return false;
    }
    uint32_t root = frame_node(p, TRIE_ROOT, entry);
    if (root == UINT32_MAX) {
        guest_profile_free(p);
        return false;
    }
    p->stack[0].ret = GUEST_NO_RETURN;
    set_frame_node(p, &p->stack[0], root);
    p->depth = 1;
    publish_top(p);
    return true;
}

void guest_profile_free(struct guest_profile *p)
{
    if (p->names && p->syms)
        for (size_t i = 0; i < p->syms->count; i++)
            free(p->names[i]);
    free(p->names);
    free(p->stack);
    free(p->targets.slots);
    trie_free(&p->trie);
    memset(p, 0, sizeof(*p));
}

void guest_profile_flush(struct guest_profile *p, uint64_t retired)
{
    if (retired > p->charged) {
        p->trie.nodes[top(p)->node].count += retired - p->charged;
        p->charged = retired;
    }
}

uint64_t guest_profile_total(const struct guest_profile *p)
{
    return trie_total(&p->trie);
}

/* ---- writing ---- */

static const char *raw_name(void *ctx, const struct trie_node *node, char *buf, size_t size)
{
    (void)ctx;
    snprintf(buf, size, "0x%llx", (unsigned long long)node->key);
    return buf;
}

static const char *function_name(void *ctx, const struct trie_node *node, char *buf, size_t size)
{
    struct guest_profile *p = ctx;
    if (!node->aux)
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

int guest_profile_write_folded(struct guest_profile *p, FILE *out, bool raw)
{
    if (p->out_of_memory) {
        errno = ENOMEM;
        return -1;
    }
    if (!raw && !p->names) {
        p->names = calloc(p->syms->count ? p->syms->count : 1, sizeof(*p->names));
        if (!p->names) {
            errno = ENOMEM;
            return -1;
        }
    }
    return folded_write(out, &p->trie, raw ? raw_name : function_name, p);
}
