/*
 * stack: walking a sample's call chain as perf's
 * thread__resolve_callchain_sample does, and naming each entry through
 * perf/fold/frame_name.h, once per function.
 */
#include "perf/fold/stack.h"

#include <stdlib.h>
#include <string.h>

#define SKIP_FRAME UINT32_MAX /* a name that comes out empty: the frame is left out */
/* The frame memo: 1 << MEMO_BITS slots, one probe per address of every sample. */
#define MEMO_BITS    14
#define MEMO_JAVA    (1u << 8)
#define MEMO_UNWOUND (1u << 9)

/* The PERF_REG_*_IP / _PC index of each architecture perf records user registers for. */
static int ip_register_of(const char *arch)
{
    static const struct {
        const char *prefix;
        int reg;
    } table[] = {
        {"x86_64", 8}, {"i386", 8}, {"i686", 8},   {"aarch64", 32}, {"arm64", 32},
        {"riscv", 0},  {"arm", 15}, {"ppc64", 32}, {"powerpc", 32},
    };
    if (!arch)
        return -1;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (strncmp(arch, table[i].prefix, strlen(table[i].prefix)) == 0)
            return table[i].reg;
    return -1;
}

/*
 * A file DSO's files are chosen (symbol_paths.files_chosen): in a DWARF
 * recording its unwound frames will ask about its inlined functions, so
 * its DWARF starts inflating now, beside the reading of its symbols (for
 * libc's debug file about 1 ms earlier than at its first question).
 */
static void files_chosen(void *arg, struct perf_dso *dso)
{
    struct stack *s = arg;
    if (s->dwarf_attr && s->inlines && dso->kind == DSO_FILE)
        inline_frames_prefetch(s->inlines, dso);
}

void stack_init(struct stack *s, struct perf_machine *m, struct strtab *names,
                const struct perf_name_opts *opts, const char *arch, bool inlines)
{
    memset(s, 0, sizeof(*s));
    s->m = m;
    s->names = names;
    s->opts = opts;
    s->ip_register = ip_register_of(arch);
    frame_memo_init(&s->memo, MEMO_BITS); /* an empty memo when memory is short */
    s->unwind = unwind_dwarf_new(m, arch);
    s->inlines =
        inlines ? inline_frames_new(m->paths.debug_cache, m->paths.debug_cache_later) : NULL;
    m->paths.files_chosen = files_chosen;
    m->paths.files_chosen_arg = s;
}

void stack_process_exit(struct stack *s, int32_t pid)
{
    if (s->unwind)
        unwind_dwarf_forget(s->unwind, pid);
}

void stack_free(struct stack *s)
{
    perf_name_free(&s->name);
    free(s->text);
    free(s->frames);
    free(s->chain_ids);
    frame_memo_free(&s->memo);
    unwind_dwarf_free(s->unwind);
    inline_frames_free(s->inlines);
    if (s->m)
        s->m->paths.files_chosen = NULL;
    memset(s, 0, sizeof(*s));
}

/* Marks `id` as the name of an inline chain's frames; false when memory runs out. */
static bool mark_chain(struct stack *s, uint32_t id)
{
    if (id >= s->chain_ids_len) {
        size_t len = (size_t)id + 1 > s->chain_ids_len * 2 ? (size_t)id + 1 : s->chain_ids_len * 2;
        uint8_t *ids = realloc(s->chain_ids, len);
        if (!ids)
            return false;
        memset(ids + s->chain_ids_len, 0, len - s->chain_ids_len);
        s->chain_ids = ids;
        s->chain_ids_len = len;
    }
    s->chain_ids[id] = 1;
    return true;
}

/*
 * Interns the name just made; 0 when memory runs out. An inline chain's
 * frames are interned as one name, marked, and pushed frame by frame.
 */
static uint32_t intern_name(struct stack *s)
{
    if (s->name.len == 0)
        return SKIP_FRAME;
    uint32_t id = strtab_intern(s->names, s->name.data, s->name.len);
    if (id && memchr(s->name.data, PERF_FRAME_SEPARATOR, s->name.len) && !mark_chain(s, id))
        return 0;
    return id;
}

static uint32_t name_frame(struct stack *s, const char *sym, const char *module, uint64_t addr,
                           bool java)
{
    struct perf_frame f = {
        .sym = sym,
        .sym_len = sym ? strlen(sym) : 0,
        .module = module,
        .module_len = module ? strlen(module) : 0,
        .addr = addr,
        .java = java,
    };
    if (perf_frame_name(&s->name, &f, s->opts))
        return 0;
    return intern_name(s);
}

/* "name+0x0": the symbol as perf script prints it (any offset folds the same way). */
static const char *printed_symbol(struct stack *s, const char *name)
{
    size_t len = strlen(name);
    if (len + 5 > s->text_cap) {
        size_t cap = len + 64;
        char *text = realloc(s->text, cap);
        if (!text)
            return NULL;
        s->text = text;
        s->text_cap = cap;
    }
    memcpy(s->text, name, len);
    memcpy(s->text + len, "+0x0", 5);
    return s->text;
}

static uint32_t function_frame(struct stack *s, const struct perf_location *loc, bool java)
{
    uint32_t *cached = loc->dso->frames ? &loc->dso->frames[loc->func_index] : NULL;
    if (cached && *cached && !java)
        return *cached;
    char *readable =
        symbol_name(&loc->dso->syms, &loc->dso->lookup, loc->func_index, loc->dso->demangle);
    if (!readable)
        return 0;
    const char *text = printed_symbol(s, readable);
    free(readable);
    uint32_t id = text ? name_frame(s, text, loc->dso->name, loc->addr, java) : 0;
    if (cached && !java)
        *cached = id;
    return id;
}

/* A frame for what `loc` resolved to; 0 when memory runs out. */
static uint32_t location_frame(struct stack *s, const struct perf_location *loc, bool java)
{
    if (loc->func)
        return function_frame(s, loc, java);
    uint32_t *cached = loc->dso ? &loc->dso->unknown_frame : &s->unknown_frame;
    if (*cached && !s->opts->addrs)
        return *cached;
    uint32_t id = name_frame(s, NULL, loc->dso ? loc->dso->name : NULL, loc->addr, java);
    if (!s->opts->addrs)
        *cached = id;
    return id;
}

static int push_one(struct stack *s, uint32_t id);

/* The frames of an inline chain's name, the leaf (its last) first. */
static int push_chain(struct stack *s, uint32_t id)
{
    const char *name = strtab_get(s->names, id);
    for (size_t e = strlen(name);;) {
        size_t b = e;
        while (b > 0 && name[b - 1] != PERF_FRAME_SEPARATOR)
            b--;
        if (b < e && push_one(s, strtab_intern(s->names, name + b, e - b)))
            return -1;
        if (b == 0)
            return 0;
        e = b - 1;
    }
}

static int push(struct stack *s, uint32_t id)
{
    if (id == 0)
        return -1;
    if (id == SKIP_FRAME)
        return 0;
    if (id < s->chain_ids_len && s->chain_ids[id])
        return push_chain(s, id);
    return push_one(s, id);
}

static int push_one(struct stack *s, uint32_t id)
{
    if (id == 0)
        return -1;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 256;
        uint32_t *frames = realloc(s->frames, cap * sizeof(*frames));
        if (!frames)
            return -1;
        s->frames = frames;
        s->capacity = cap;
    }
    s->frames[s->count++] = id;
    return 0;
}

/* The address space `ip` is resolved in for `cpumode`, and its generation; NULL: none. */
static const void *space_of(const struct stack *s, const struct perf_thread *t, uint8_t cpumode,
                            uint64_t *generation)
{
    if (cpumode == PERF_RECORD_MISC_USER) {
        *generation = t->maps->generation;
        return t->maps;
    }
    if (cpumode == PERF_RECORD_MISC_KERNEL) {
        *generation = s->m->kernel.generation;
        return &s->m->kernel;
    }
    return NULL;
}

/* The memo's key for `ip`, resolved `how`; false: no address space to key it by. */
static bool memo_key(const struct stack *s, const struct perf_thread *t, uint8_t cpumode,
                     uint64_t ip, uint32_t how, struct frame_memo_key *key)
{
    key->addr = ip;
    key->how = how | cpumode;
    key->space = space_of(s, t, cpumode, &key->generation);
    return key->space != NULL;
}

static int push_frames(struct stack *s, const uint32_t *frames, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (push(s, frames[i]))
            return -1;
    return 0;
}

/*
 * What a user address's frames follow from (perf_machine_locate): the
 * mapping there, its file and where the file lies; false: no mapping.
 */
static bool user_proof(const struct perf_thread *t, uint64_t ip, struct frame_memo_proof *proof)
{
    const struct perf_map *map = perf_maps_find(t->maps, ip);
    if (!map || !map->dso)
        return false;
    *proof = (struct frame_memo_proof){map->dso, map->start - map->pgoff, map->identity};
    return true;
}

/*
 * The frames remembered for an unwound (user) address, in its
 * generation or in an earlier one with the same mapping there (`proof`).
 */
static const uint32_t *remembered(struct stack *s, const struct perf_thread *t,
                                  const struct frame_memo_key *key, struct frame_memo_proof *proof,
                                  size_t *count)
{
    const uint32_t *frames = frame_memo_find(&s->memo, key, count);
    proof->dso = NULL;
    if (frames || !s->memo.slots || !user_proof(t, key->addr, proof))
        return frames;
    return frame_memo_refind(&s->memo, key, proof, count);
}

static int push_address(struct stack *s, struct perf_thread *t, uint8_t cpumode, uint64_t ip,
                        bool java)
{
    struct frame_memo_key key;
    uint32_t how = java ? MEMO_JAVA : 0;
    size_t count;
    const uint32_t *frames; /* in this generation only: a call chain's miss is its look-up */
    if (memo_key(s, t, cpumode, ip, how, &key) &&
        (frames = frame_memo_find(&s->memo, &key, &count)))
        return push(s, frames[0]); /* a call-chain entry is one frame */
    struct perf_location loc;
    if (perf_machine_locate(s->m, t, cpumode, ip, &loc))
        return -1;
    uint32_t id = location_frame(s, &loc, java);
    /* keyed again: the first kernel lookup loads its symbols (a new generation) */
    if (memo_key(s, t, cpumode, ip, how, &key))
        frame_memo_put(&s->memo, &key, NULL, &id, 1);
    return push(s, id);
}

/* A marker's new mode; false for a marker perf does not know (the chain is void). */
static bool context_mode(uint64_t marker, uint8_t *cpumode)
{
    switch (marker) {
    case PERF_CONTEXT_HV: *cpumode = PERF_RECORD_MISC_HYPERVISOR; return true;
    case PERF_CONTEXT_KERNEL: *cpumode = PERF_RECORD_MISC_KERNEL; return true;
    case PERF_CONTEXT_USER: *cpumode = PERF_RECORD_MISC_USER; return true;
    default: return false;
    }
}

/* The user pc among the sampled registers, when it was recorded. */
static bool user_pc(const struct stack *s, const struct perf_sample *sample, uint64_t *pc)
{
    if (s->ip_register < 0 || !sample->user_regs_abi ||
        !(sample->user_regs_mask & (1ull << s->ip_register)))
        return false;
    uint64_t below = sample->user_regs_mask & ((1ull << s->ip_register) - 1);
    memcpy(pc, sample->user_regs + 8 * (size_t)__builtin_popcountll(below), 8);
    return true;
}

/* Returns 0, or -1 when memory runs out. */
static int walk_chain(struct stack *s, const struct perf_sample *sample, struct perf_thread *t,
                      bool java)
{
    uint8_t cpumode = PERF_RECORD_MISC_USER;
    size_t entries = 0;
    for (uint64_t i = 0; i < sample->nr_callchain && entries < STACK_MAX_ENTRIES; i++) {
        uint64_t ip;
        memcpy(&ip, sample->callchain + 8 * i, 8);
        if (ip >= PERF_CONTEXT_MAX) {
            if (!context_mode(ip, &cpumode)) {
                s->count = 0; /* perf: "the callchain is corrupted, discard all" */
                return 0;
            }
            continue;
        }
        entries++;
        if (push_address(s, t, cpumode, ip, java))
            return -1;
    }
    return 0;
}

/* A frame perf prints with "(inlined)": a name from the DWARF, not a symbol. */
static uint32_t inlined_frame(struct stack *s, const char *name, uint64_t addr, bool java)
{
    const char *text = printed_symbol(s, name);
    return text ? name_frame(s, text, "inlined", addr, java) : 0;
}

/*
 * perf's unwind_entry and append_inlines: an unwound user address whose
 * function has code inlined there is the inlined functions, innermost
 * first, then the function (by its symbol when the DWARF names it so).
 * With `hold`, an address whose DSO's DWARF is still being inflated
 * (its inflating started here when it was not yet) pushes nothing and
 * returns STACK_WAITS.
 */
static int push_unwound_address(struct stack *s, struct perf_thread *t, uint64_t ip, bool java,
                                bool hold)
{
    struct frame_memo_key key;
    struct frame_memo_proof proof = {.dso = NULL};
    size_t count;
    const uint32_t *frames;
    bool keyed = !java && memo_key(s, t, PERF_RECORD_MISC_USER, ip, MEMO_UNWOUND, &key);
    if (keyed && (frames = remembered(s, t, &key, &proof, &count)))
        return push_frames(s, frames, count);
    struct perf_location loc;
    if (perf_machine_locate(s->m, t, PERF_RECORD_MISC_USER, ip, &loc))
        return -1;
    if (hold && loc.func && s->inlines && !inline_frames_prefetch(s->inlines, loc.dso))
        return STACK_WAITS;
    struct inline_chain *chain =
        loc.func && s->inlines ? inline_frames_at(s->inlines, loc.dso, loc.addr) : NULL;
    if (!chain || chain->count == 0) {
        uint32_t id = location_frame(s, &loc, java);
        if (keyed)
            frame_memo_put(&s->memo, &key, &proof, &id, 1);
        return push(s, id);
    }
    for (size_t i = 0; i < chain->count; i++) {
        uint32_t id = java ? 0 : chain->frames[i];
        if (!id)
            id = strcmp(chain->names[i], symbol_kept_name(&loc.dso->syms, &loc.dso->lookup,
                                                          loc.func_index, loc.dso->demangle)) == 0
                     ? function_frame(s, &loc, java)
                     : inlined_frame(s, chain->names[i], loc.addr, java);
        if (!java)
            chain->frames[i] = id;
        if (push(s, id))
            return -1;
    }
    if (keyed) /* the chain's frames stay while s->inlines does */
        frame_memo_put(&s->memo, &key, &proof, chain->frames, chain->count);
    return 0;
}

/*
 * perf's thread__resolve_callchain_unwind: the user stack unwound from the
 * sampled registers into s->ips; without an unwinder (memory) or
 * registers, the sampled user pc alone, as before unwinding existed.
 */
static void unwind_user(struct stack *s, const struct perf_sample *sample, struct perf_thread *t)
{
    size_t n = 0;
    s->dwarf_end = UNWIND_NO_MEMORY;
    if (s->unwind)
        n = unwind_dwarf_user(s->unwind, t, sample, s->ips, STACK_MAX_ENTRIES, &s->dwarf_end);
    if (n == 0 && user_pc(s, sample, &s->ips[0]))
        n = 1;
    else if (n == 0 && sample->cpumode == PERF_RECORD_MISC_USER)
        s->ips[n++] = sample->ip;
    s->nips = n;
}

/*
 * Starts inflating, on worker threads, the DWARF the unwound addresses
 * from `from` on will ask about, for those not named before, so that
 * every DSO of a waiting sample inflates meanwhile. 0, or -1: no memory.
 */
static int prefetch_unwound(struct stack *s, struct perf_thread *t, size_t from)
{
    for (size_t i = from; s->inlines && i < s->nips; i++) {
        struct frame_memo_key key;
        size_t count;
        if (!s->ips[i] || (memo_key(s, t, PERF_RECORD_MISC_USER, s->ips[i], MEMO_UNWOUND, &key) &&
                           frame_memo_find(&s->memo, &key, &count)))
            continue;
        struct perf_location loc;
        if (perf_machine_locate(s->m, t, PERF_RECORD_MISC_USER, s->ips[i], &loc))
            return -1;
        if (loc.func)
            inline_frames_prefetch(s->inlines, loc.dso);
    }
    return 0;
}

/*
 * Pushes the frames of unwound addresses; with `hold`, stops at the first
 * one whose DWARF is still being inflated (STACK_WAITS, `*at` its index).
 */
static int name_unwound(struct stack *s, struct perf_thread *t, const uint64_t *ips, size_t n,
                        bool java, bool hold, size_t *at)
{
    for (*at = 0; *at < n; ++*at) {
        int rc = ips[*at] ? push_unwound_address(s, t, ips[*at], java, hold) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

int stack_name_unwound(struct stack *s, struct perf_thread *t, const uint64_t *ips, size_t n)
{
    size_t at;
    return name_unwound(s, t, ips, n, perf_comm_is_java(t->comm, strlen(t->comm)), false, &at);
}

bool stack_dwarf_ready(struct stack *s)
{
    return !s->inlines || inline_frames_ready(s->inlines);
}

int stack_build(struct stack *s, const struct perf_attr *a, const struct perf_sample *sample,
                struct perf_thread *thread, bool others_wait)
{
    s->count = 0;
    s->nips = 0;
    s->dwarf = false;
    bool java = perf_comm_is_java(thread->comm, strlen(thread->comm));
    bool dwarf_event =
        (a->sample_type & PERF_SAMPLE_REGS_USER) && (a->sample_type & PERF_SAMPLE_STACK_USER);
    if (dwarf_event)
        s->dwarf_attr = true; /* before any frame loads a DSO (files_chosen) */
    if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
        return push_address(s, thread, sample->cpumode, sample->ip, java);
    if (walk_chain(s, sample, thread, java))
        return -1;
    bool dwarf = dwarf_event && sample->user_regs_abi && sample->user_stack_size > 0;
    if (!dwarf)
        return 0;
    s->dwarf = true;
    unwind_user(s, sample, thread);
    size_t kernel = s->count, at = 0;
    int rc = others_wait ? STACK_WAITS /* named after them, in order */
                         : name_unwound(s, thread, s->ips, s->nips, java, true, &at);
    if (rc != STACK_WAITS)
        return rc;
    s->count = kernel; /* the user frames are named when the sample no longer waits */
    return prefetch_unwound(s, thread, at) ? -1 : STACK_WAITS;
}

uint32_t stack_comm_frame(struct stack *s, struct perf_thread *t, int32_t pid, int32_t tid)
{
    bool cacheable = !s->opts->pid && !s->opts->tid;
    if (cacheable && t->comm_frame)
        return t->comm_frame;
    if (perf_comm_name(&s->name, t->comm, strlen(t->comm), pid, tid, s->opts))
        return 0;
    uint32_t id = strtab_intern(s->names, s->name.data, s->name.len);
    if (cacheable)
        t->comm_frame = id;
    return id;
}
