/*
 * fuzz_perf: libFuzzer target for the perf.data reader and everything a
 * file reaches without touching the disk: the header, attributes and
 * feature sections, every record (SAMPLE, MMAP, MMAP2, COMM, FORK,
 * EXIT, ..., and those inside COMPRESSED and COMPRESSED2 records: the
 * zstd stream and the records carried across them; perfgen.py --seeds
 * writes compressed seeds), the time ordering, the recorded machine, the folding and
 * the folded writer. An input "ZSTD" + perf.data has its data section
 * compressed first (fuzz_compressed). An input that starts like an ELF file goes to the
 * ELF symbol reader instead (perf's symbol rules, PLT entries), and one
 * that reads as text also to the kallsyms parser. An input that starts
 * "UNWD" is a DWARF sample's user registers and stack copy, unwound over
 * this program's own executable (fuzz_unwind). Any crash, leak or
 * sanitizer report is a bug: bad input must end in an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "flamegraph/folded.h"
#include "perf/symbols/elf_file.h"
#include "perf/symbols/elf_symbols.h"
#include "perf/fold/fold.h"
#include "perf/symbols/kallsyms.h"
#include "perf/data/perf_features.h"
#include "perf/data/perf_file.h"
#include "perf/fold/stack.h"
#include "profile/frame_namer.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_fold(const uint8_t *data, size_t size, bool pid, bool addrs)
{
    struct perf_file f;
    struct error e = ERROR_INIT;
    if (perf_file_from_memory(&f, data, size, &e) != 0)
        return;
    struct perf_fold_opts o = {
        .names = {.pid = pid, .tid = pid, .addrs = addrs},
        .kallsyms = "/nonexistent/kallsyms",
    };
    static const struct symbol_paths paths = {
        .buildid_dir = NULL, .debug_dir = "/nonexistent", .offline = true};
    struct trie t;
    struct strtab names;
    struct perf_fold_report report;
    if (trie_init(&t) && strtab_init(&names)) {
        if (perf_fold(&f, &o, &paths, &t, &names, &report, &e) == 0) {
            FILE *out = fopen("/dev/null", "w");
            if (out) {
                folded_write(out, &t, folded_name_of, &names);
                fclose(out);
            }
        }
        strtab_free(&names);
    }
    trie_free(&t);
    perf_file_close(&f);
}

static void fuzz_elf(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size); /* libelf may write to its image */
    struct elf_file ef;
    if (!copy)
        return;
    memcpy(copy, data, size);
    if (elf_file_from_memory(&ef, copy, size) == 0) {
        struct symbol_builder b;
        struct symtab tab;
        struct symbol_lookup lookup;
        symbol_builder_init(&b);
        if (elf_symbols_read(&b, &ef, &ef) >= 0 && elf_plt_symbols(&b, &ef) >= 0) {
            if (symbol_builder_finish(&b, &tab, &lookup) == 0) {
                for (uint64_t a = 0; a < 0x3000; a += 0x10)
                    symbol_find(&tab, &lookup, a);
                symtab_free(&tab);
                symbol_lookup_free(&lookup);
            }
        } else {
            symbol_builder_free(&b);
        }
        elf_file_close(&ef);
    }
    free(copy);
}

static void fuzz_kallsyms(const uint8_t *data, size_t size)
{
    struct symtab tab;
    struct symbol_lookup lookup;
    uint64_t start, end;
    struct kallsyms_reloc reloc = {"_text", 0xffffffff81000000ull};
    if (kallsyms_parse((const char *)data, size, size % 2 ? &reloc : NULL, true, &tab, &lookup,
                       &start, &end) == 1) {
        symbol_find(&tab, &lookup, start);
        symbol_find(&tab, &lookup, end - 1);
        symtab_free(&tab);
        symbol_lookup_free(&lookup);
    }
}

/*
 * "ZSTD" + a perf.data file: the file folded with its data section turned
 * into two COMPRESSED records (one zstd frame each, cut mid-section so a
 * record straddles them, as perf writes a wrapped ring buffer), so that
 * mutations reach the records inside rather than only break the zstd data.
 * The feature bitmap is cleared: the sections no longer sit after the data.
 */
static void fuzz_compressed(const uint8_t *data, size_t size)
{
    uint64_t offset, length;
    if (size < 104)
        return;
    memcpy(&offset, data + 40, 8);
    memcpy(&length, data + 48, 8);
    if (offset < 104 || offset > size || length > size - offset || length > 60000)
        return;
    size_t cut = (size_t)length / 2, bound = ZSTD_compressBound(cut) + ZSTD_compressBound(length);
    uint8_t *out = malloc((size_t)offset + bound + 16);
    if (!out)
        return;
    memcpy(out, data, (size_t)offset);
    memset(out + 72, 0, 32); /* no features */
    size_t at = (size_t)offset;
    for (size_t from = 0; from < length; from = cut, cut = (size_t)length) {
        size_t n = ZSTD_compress(out + at + 8, bound, data + offset + from, cut - from, 1);
        if (ZSTD_isError(n) || n + 8 > UINT16_MAX)
            goto done;
        uint32_t type = 81; /* PERF_RECORD_COMPRESSED */
        uint16_t misc = 0, rsize = (uint16_t)(n + 8);
        memcpy(out + at, &type, 4);
        memcpy(out + at + 4, &misc, 2);
        memcpy(out + at + 6, &rsize, 2);
        at += n + 8;
    }
    uint64_t new_length = at - (size_t)offset;
    memcpy(out + 48, &new_length, 8);
    fuzz_fold(out, at, false, false);
done:
    free(out);
}

#define UNWIND_MAGIC "UNWD"
#define UNWIND_REGS  20        /* perf's x86-64 user registers: AX..SS, R8..R15 */
#define UNWIND_MASK  0xff0fffu /* their bits */

extern const char __executable_start[]; /* where this program's image starts (the linker's) */

/* The recorded machine fuzz_unwind unwinds in: this executable mapped where it runs. */
struct unwind_world {
    struct perf_machine m;
    struct strtab names;
    struct perf_name_opts opts;
    struct stack stack;
    struct perf_thread *thread;
    uint64_t base, size;
};

static struct unwind_world *unwind_world(void)
{
    static struct unwind_world w;
    static int state; /* 0: not tried, 1: ready, -1: cannot be */
    if (state)
        return state > 0 ? &w : NULL;
    state = -1;
    static char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    struct stat st;
    if (n <= 0 || stat(exe, &st) != 0)
        return NULL;
    exe[n] = '\0';
    static const struct symbol_paths paths = {.debug_dir = "/nonexistent"};
    if (perf_machine_init(&w.m, &paths, "x86_64") || !strtab_init(&w.names))
        return NULL;
    w.base = (uint64_t)(uintptr_t)__executable_start;
    w.size = (uint64_t)st.st_size;
    struct perf_mmap_event ev = {.pid = 1,
                                 .tid = 1,
                                 .start = w.base,
                                 .len = w.size,
                                 .prot = PROT_READ | PROT_EXEC,
                                 .filename = exe};
    if (perf_machine_mmap(&w.m, PERF_RECORD_MISC_USER, &ev) ||
        !(w.thread = perf_threads_findnew(&w.m.threads, 1, 1)))
        return NULL;
    stack_init(&w.stack, &w.m, &w.names, &w.opts, "x86_64", true);
    state = 1;
    return &w;
}

/*
 * "UNWD", 20 registers (little-endian u64s in perf's order; the pc taken
 * modulo the executable's size, so that it lands in its code), then the
 * stack copy: perf/dwarf/unwind_dwarf.c's memory, register and module callbacks
 * under libdw, and the inline frames of what the unwinding reaches.
 */
static void fuzz_unwind(const uint8_t *data, size_t size)
{
    struct unwind_world *w = unwind_world();
    size_t head = strlen(UNWIND_MAGIC) + UNWIND_REGS * 8;
    if (!w || size < head)
        return;
    uint8_t regs[UNWIND_REGS * 8];
    memcpy(regs, data + strlen(UNWIND_MAGIC), sizeof(regs));
    uint64_t ip;
    memcpy(&ip, regs + 8 * 8, 8);
    ip = w->base + ip % w->size;
    memcpy(regs + 8 * 8, &ip, 8);
    const struct perf_attr a = {.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
                                               PERF_SAMPLE_STACK_USER,
                                .sample_regs_user = UNWIND_MASK};
    const struct perf_sample s = {
        .cpumode = PERF_RECORD_MISC_USER,
        .ip = ip,
        .pid = 1,
        .tid = 1,
        .user_regs_abi = 2,
        .user_regs = regs,
        .user_regs_mask = UNWIND_MASK,
        .user_stack = data + head,
        .user_stack_size = size - head,
    };
    if (stack_build(&w->stack, &a, &s, w->thread, false) == STACK_WAITS) /* its DWARF inflating */
        stack_name_unwound(&w->stack, w->thread, w->stack.ips, w->stack.nips);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "ZSTD", 4) == 0) {
        fuzz_compressed(data + 4, size - 4);
        return 0;
    }
    if (size >= strlen(UNWIND_MAGIC) && memcmp(data, UNWIND_MAGIC, strlen(UNWIND_MAGIC)) == 0) {
        fuzz_unwind(data, size);
        return 0;
    }
    if (size >= 4 && memcmp(data,
                            "\x7f"
                            "ELF",
                            4) == 0) {
        fuzz_elf(data, size);
        return 0;
    }
    if (size > 0 && data[0] >= '0' && data[0] <= 'f')
        fuzz_kallsyms(data, size);
    fuzz_fold(data, size, size % 3 == 1, size % 5 == 2);
    return 0;
}
