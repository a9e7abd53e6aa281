/*
 * run: a guest run's steps, from loading to the profile, and its one
 * teardown (run.h).
 */
#include "run/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi_util.h"
#include "executor/abi/detect_code.h"

bool run_raw_image(const struct run_options *o)
{
    return !o->image && o->zkvm && strcmp(o->zkvm, "airbender") == 0 &&
           elf_image_file_is_raw(o->guest_path);
}

/*
 * ZKsync Airbender keeps a program's code in app.bin and writes app.elf
 * beside it without the code, for its symbols (dump_bin.sh: objcopy -R
 * .text). The app.bin beside an ELF without code, or NULL: "app.bin" in
 * the ELF's folder, else the ELF's name with .bin for .elf.
 */
static char *airbender_code_beside(const char *elf_path)
{
    const char *slash = strrchr(elf_path, '/');
    size_t dir = slash ? (size_t)(slash - elf_path) + 1 : 0, len = strlen(elf_path);
    char *path = malloc(len + 16);
    if (!path)
        return NULL;
    snprintf(path, len + 16, "%.*sapp.bin", (int)dir, elf_path);
    if (elf_image_file_is_raw(path))
        return path;
    if (len > 4 && strcmp(elf_path + len - 4, ".elf") == 0) {
        snprintf(path, len + 16, "%.*s.bin", (int)(len - 4), elf_path);
        if (elf_image_file_is_raw(path))
            return path;
    }
    free(path);
    return NULL;
}

/* Whether --zkvm lets an ELF without code run as Airbender's app.bin beside it. */
static bool may_run_code_beside(const struct run_options *o)
{
    return !o->image &&
           (!o->zkvm || strcmp(o->zkvm, "auto") == 0 || strcmp(o->zkvm, "airbender") == 0);
}

/*
 * Loads the guest. The ELF must fit the whole guest address space; each
 * ABI checks its own memory map when it lays the machine out. A raw image
 * (objcopy -O binary) runs only as Airbender's app.bin, loaded at 0 as
 * Airbender's runner loads it; so does an ELF without code that has its
 * app.bin beside it (airbender_code_beside).
 */
static int load_guest(struct run *r, struct error *e)
{
    const struct run_options *o = r->o;
    struct elf_limits limits = {
        .address_space_end = GUEST_SPACE_SIZE,
        .code_span_max = CODE_SPAN_LARGE, /* the widest any ABI takes: fit_span_to_abi */
    };
    if (run_raw_image(o))
        return elf_image_load_raw(o->guest_path, 0, o->symbols, &limits, &r->img, e);
    int rc = o->image ? elf_image_from_memory(o->image, o->image_size, &limits, &r->img, e)
                      : elf_image_load(o->guest_path, &limits, &r->img, e);
    if (rc != 0)
        return -1;
    if (abi_elf_without_code(&r->img) && may_run_code_beside(o) &&
        (r->code_beside = airbender_code_beside(o->guest_path))) {
        elf_image_free(&r->img);
        return elf_image_load_raw(r->code_beside, 0, o->guest_path, &limits, &r->img, e);
    }
    char why[400];
    if (detect_not_program(&r->img, why, sizeof(why))) { /* whatever --zkvm says */
        elf_image_free(&r->img);
        return error_fail(e, ERROR_UNSUPPORTED, "%s", why);
    }
    return 0;
}

/*
 * --zkvm NAME, or what the ELF shows. An error when nothing decides: such
 * a guest would fault as a Linux one, so the user is told which --zkvm to
 * try.
 */
static int choose_abi(struct run *r, struct error *e)
{
    const char *zkvm = r->o->zkvm;
    if (r->code_beside) {
        r->abi = &abi_airbender;
        snprintf(r->abi_why, sizeof(r->abi_why),
                 "%s: the ELF's code was removed (Airbender's app.elf); its program %s, beside "
                 "it, runs with its symbols",
                 zkvm && strcmp(zkvm, "auto") != 0 ? "--zkvm airbender" : "auto", r->code_beside);
        return 0;
    }
    if (zkvm && strcmp(zkvm, "auto") != 0) {
        r->abi = abi_by_name(zkvm);
        snprintf(r->abi_why, sizeof(r->abi_why), "--zkvm %s", zkvm);
        return r->abi ? 0 : error_fail(e, ERROR_UNSUPPORTED, "no zkVM ABI called %s", zkvm);
    }
    char why[480];
    r->abi = abi_detect(&r->img, why, sizeof(why));
    if (!r->abi)
        return error_fail(e, ERROR_UNSUPPORTED, "%s", why);
    snprintf(r->abi_why, sizeof(r->abi_why), "auto: %s%s", why,
             r->img.container ? ", in a RISC Zero program binary (R0BF)" : "");
    return 0;
}

/*
 * The executable span the chosen ABI takes: CODE_SPAN_MAX unless it asks
 * for more (Airbender, whose stack lies in the executable segment), so
 * that other guests keep the cache and the cost clock they had.
 */
static int fit_span_to_abi(struct run *r, struct error *e)
{
    uint64_t max = r->abi->code_span_max ? r->abi->code_span_max : CODE_SPAN_MAX;
    return elf_image_check_code_span(&r->img, max, e);
}

/*
 * An ELF built with C runs under a zkVM whose hart has none as that
 * executor runs it: without C (abi->without_c; docs/ZKVMS.md, "Compressed
 * instructions").
 */
static int fit_hart_to_abi(struct run *r, struct error *e)
{
    if (!r->img.rvc || !r->abi->without_c)
        return 0;
    struct error dropped = ERROR_INIT;
    if (elf_image_drop_c(&r->img, &dropped) != 0) {
        char reason[256];
        run_missing_c_reason(r->abi->name, r->img.xlen, reason, sizeof(reason));
        return error_fail(e, dropped.status, "%s%s", dropped.msg, reason);
    }
    warning_say(&r->o->warnings,
                "%s is built with compressed instructions (EF_RISCV_RVC), which %s's "
                "executor does not run: it runs as RV%dIM, where the first one is an illegal "
                "instruction",
                r->o->guest_path, r->abi->name, r->img.xlen);
    return 0;
}

int run_open(struct run *r, const struct run_options *o, struct error *e)
{
    memset(r, 0, sizeof(*r));
    r->o = o;
    r->next_checkpoint = o->checkpoint_cycles ? o->checkpoint_cycles : UINT64_MAX;
    if (load_guest(r, e) != 0)
        return -1;
    r->loaded = true;
    struct error no_symbols = ERROR_INIT;
    if (symtab_load(&r->syms, r->img.file, r->img.file_size, &no_symbols) != 0)
        memset(&r->syms, 0, sizeof(r->syms)); /* no names in messages, but still runnable */
    if (choose_abi(r, e) != 0 || fit_span_to_abi(r, e) != 0 || fit_hart_to_abi(r, e) != 0)
        return -1;
    return 0;
}

/*
 * The inline frames of a profile (docs/CONTRACT.md, "Inline frames"): none
 * with --no-inline, without DWARF, or when the ELF cannot be read for it
 * (then with a warning: the profile has function frames only).
 */
static int open_inlines(struct run *r, struct error *e)
{
    const struct run_options *o = r->o;
    if ((o->no_inline && !o->lines) || !o->profile)
        return 0;
    const char *what = o->lines ? "inline frames and lines" : "inline frames";
    struct error unread = ERROR_INIT;
    if (inline_chains_open(&r->inlines, r->img.file, r->img.file_size, &unread) != 0) {
        r->inlines = NULL;
        if (unread.status == ERROR_NO_MEMORY)
            return error_fail(e, unread.status, "%s", unread.msg);
        warning_say(&o->warnings, "%s: %s; %s left out", o->guest_path, unread.msg, what);
        return 0;
    }
    if (!inline_chains_has_dwarf(r->inlines)) {
        if (o->lines)
            warning_say(&o->warnings,
                        "%s has no DWARF (.debug_info): --lines writes function names "
                        "without lines; build the guest with -g",
                        o->guest_path);
        inline_chains_close(r->inlines);
        r->inlines = NULL;
    } else if (!o->lines) {
        inline_chains_skip_lines(r->inlines);
    }
    return 0;
}

int run_jolt_memory(const char *sizes, struct jolt_memory *out, struct error *e)
{
    struct jolt_layout unused;
    *out = jolt_memory_default();
    if (jolt_memory_parse(sizes, out, e) != 0)
        return -1;
    return jolt_layout_compute(out, &unused, e);
}

int run_start(struct run *r, const struct machine_io *io, struct error *e)
{
    if (open_inlines(r, e) != 0)
        return -1;
    struct error refused = ERROR_INIT;
    if (machine_init(&r->m, &r->img, r->abi, io, &refused) != 0) {
        /* the host refused memory, or the guest does not fit the ABI: said with its choice */
        if (refused.status == ERROR_NO_MEMORY)
            return error_fail(e, refused.status, "%s", refused.msg);
        return error_fail(e, refused.status, "%s: %s (as a %s guest: %s)", r->o->guest_path,
                          refused.msg, r->abi->name, r->abi_why);
    }
    r->built = true;
    return 0;
}

/* The length of the guest's instruction at pc, for the profile of a guest with C. */
static unsigned guest_insn_length(void *img, uint64_t pc)
{
    return elf_image_insn_length(img, pc);
}

/* How the profile counts: every pc, only where weights differ, or by the cost clock. */
static struct guest_profile_options profile_options(struct run *r)
{
    struct run_weights *w = &r->weights;
    bool every_pc = r->inlines && (r->o->lines || r->o->raw);
    bool weigh_pcs = w->nmodels > 0 && run_weights_need_pcs(w);
    /* one such weight, beside any of one cost per instruction: the clock counts it */
    bool cost_clock = weigh_pcs && !every_pc && run_weights_clock(w, &r->m, &r->syms);
    if (cost_clock)
        weigh_pcs = false;
    struct guest_profile_options po = {
        .inlines = r->inlines,
        .all_pcs = every_pc || weigh_pcs,
        .insn_length = r->img.rvc ? guest_insn_length : NULL,
        .insn_ctx = &r->img,
        .cost_clock = cost_clock,
    };
    if (weigh_pcs && !every_pc) /* only functions whose pcs' costs differ */
        run_weights_watch(w, &po, &r->img);
    return po;
}

int run_engine(struct run *r, struct error *e)
{
    return machine_choose_engine(&r->m, e);
}

int run_trace(struct run *r, struct error *e)
{
    if (r->o->profile) {
        struct guest_profile_options po = profile_options(r);
        if (!guest_profile_init_with(&r->profile, &r->syms, r->img.entry, &po))
            return error_fail(e, ERROR_NO_MEMORY, "out of memory setting up the profile");
        r->profiling = true;
        machine_attach_tracer(&r->m, &r->profile.tracer);
    }
    if (!run_weights_start(&r->weights, &r->m))
        return error_fail(e, ERROR_NO_MEMORY, "out of memory setting up the page tracker");
    return 0;
}

/* How much may run before the next stop for progress, a checkpoint or the budget. */
static uint64_t next_budget(const struct run *r)
{
    uint64_t budget = 1ull << 28, retired = r->m.retired;
    if (r->o->max_cycles && r->o->max_cycles - retired < budget)
        budget = r->o->max_cycles - retired;
    if (r->next_checkpoint - retired < budget)
        budget = r->next_checkpoint - retired;
    return budget;
}

enum run_stop run_execute(struct run *r)
{
    r->ran = true;
    struct page_touch *pages = &r->weights.pages;
    enum stop_reason why = pages->model ? page_touch_run(pages, &r->m, next_budget(r))
                                        : machine_run(&r->m, next_budget(r));
    if (why == STOP_EXIT)
        return RUN_EXITED;
    if (why == STOP_FAULT)
        return RUN_FAULTED;
    if (r->o->max_cycles && r->m.retired >= r->o->max_cycles)
        return RUN_SPENT;
    if (r->m.retired < r->next_checkpoint)
        return RUN_GOING;
    r->next_checkpoint += r->o->checkpoint_cycles;
    return RUN_CHECKPOINT;
}

void run_finish(struct run *r)
{
    if (r->weights.pages.model)
        page_touch_finish(&r->weights.pages, &r->m);
}

/* The counts brought up to what retired (guest_profile_flush), once per stop. */
static void flush(struct run *r)
{
    if (r->flushed_at == r->m.retired + 1)
        return;
    guest_profile_flush(&r->profile, r->m.retired);
    r->flushed_at = r->m.retired + 1;
}

/*
 * How the profile is written (GUEST_WRITE_*): raw, or names with --lines
 * (not for a report, which sums functions up) and --no-inline (which
 * keeps the profile per pc only with --lines).
 */
static unsigned write_flags(const struct run_options *o, enum run_frames frames)
{
    if (frames == RUN_FRAMES_RAW)
        return GUEST_WRITE_RAW;
    return (frames == RUN_FRAMES_NAMED && o->lines ? GUEST_WRITE_LINES : 0) |
           (o->no_inline ? GUEST_WRITE_NO_INLINE : 0);
}

/* The instructions alone: the named stacks, their lines' sources, one weight. */
static int instructions_profile(struct run *r, unsigned flags, struct profile *out)
{
    if (guest_profile_named(&r->profile, flags, out->trie, out->names, out) != 0)
        return -1;
    if (profile_adopt_counts(out, "instructions", "count", true) < 0) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

int run_profile(struct run *r, enum run_frames frames, struct profile *out)
{
    if (!profile_init(out)) {
        errno = ENOMEM;
        return -1;
    }
    flush(r);
    unsigned flags = write_flags(r->o, frames);
    if (r->weights.nmodels == 0)
        return instructions_profile(r, flags, out);
    return run_weights_profile(&r->weights, &r->profile, flags, &r->img, out);
}

void run_weight_stats(struct run *r, FILE *out)
{
    if (r->profiling) /* the per-pc counts as written: taken branches folded, open runs noted */
        flush(r);
    run_weights_stats(&r->weights, r->profiling ? &r->profile : NULL, &r->img, out);
}

/* Bad DWARF, and branches the guest rewrote, noticed while the profile was written. */
static void warn_after_writing(const struct run *r)
{
    const char *guest = r->o->guest_path;
    if (r->inlines && inline_chains_warning(r->inlines))
        warning_say(&r->o->warnings, "%s: %s", guest, inline_chains_warning(r->inlines));
    if (r->profiling && r->profile.runs_rewritten)
        warning_say(&r->o->warnings,
                    "%s: the guest rewrote a branch it had taken: per-pc counts "
                    "around it are off",
                    guest);
}

void run_close(struct run *r)
{
    if (r->ran)
        warn_after_writing(r);
    if (r->profiling)
        guest_profile_free(&r->profile);
    run_weights_free(&r->weights);
    if (r->built)
        machine_destroy(&r->m);
    inline_chains_close(r->inlines);
    if (r->loaded) {
        symtab_free(&r->syms);
        elf_image_free(&r->img);
    }
    free(r->code_beside);
    memset(r, 0, sizeof(*r));
}
