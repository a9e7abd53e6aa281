/*
 * nexus: the ABI of Nexus zkVM 0.3 guests (RV32IM, the nexus-rt crate), as
 * its first-pass (Harvard) emulator runs them (vm/src/emulator/executor.rs,
 * vm/src/system/syscall.rs). Docs: docs/ZKVMS.md.
 *
 * Memory is flat read-write from 0 to MEMORY_TOP = 0x8040_0000, where
 * nexus-rt's _start puts sp; the words at 0x80 and 0x84 (where the public
 * input's and output's addresses live) read 0, as in the first pass, whose
 * public input and output are spaces of their own: `rin` (custom-1, 0x2b,
 * funct3 0, I-type) loads a word of the input space (its length as a u32,
 * then its bytes), `wou` (custom-2, 0x5b, funct3 0, S-type) stores a word
 * into the output space (word 0 the exit code, the public output after
 * it). An ecall's number is in a7, arguments in a0..a2, the result in a0
 * (0xFFFF_FFFF unless the call says otherwise):
 *   0x200 Write (fd 1 only)   0x201 Exit      0x400 ReadFromPrivateInput (a byte)
 *   0x401 CycleCount ("^#NAME" / "$#NAME")    0x402 OverwriteStackPointer
 *   0x403 OverwriteHeapPointer                0x405 MemoryAdvise (0.3.2+: a0 reads -1)
 * Precompiles are custom-0 (0x0b) R-type instructions, index = funct7 << 3
 * | funct3, that a guest registers with nexus-precompiles' macros
 * (precompiles/macros/src/generation.rs, 29847b75): a symbol PRECOMPILE_<index>
 * (STT_OBJECT, a &str: pointer and length) names the crate that holds the
 * host code (vm/src/elf/parser.rs: parse_precompile_metadata). That code
 * is not here, but for the example crate dummy_div's DummyDiv (rd = rs1 /
 * rs2): another such instruction is exit 70 naming the precompile.
 * `keccakf` (0.3.2+: opcode 0x5A, funct3 0, S-type; its low bits 10 make it
 * no RV32IM word) runs Keccak-f[1600] in place on the 25 lanes at rs1 (the
 * immediate is not added), each lane two little-endian words, low first
 * (vm/src/cpu/instructions/custom/keccakf.rs, f2ad1265 = v0.3.6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/abi/regions.h"
#include "executor/machine.h"

enum {
    NEXUS_WRITE = 0x200,
    NEXUS_EXIT = 0x201,
    NEXUS_READ_PRIVATE_INPUT = 0x400,
    NEXUS_CYCLE_COUNT = 0x401,
    NEXUS_OVERWRITE_SP = 0x402,
    NEXUS_OVERWRITE_HEAP = 0x403,
    NEXUS_MEMORY_ADVISE = 0x405,
    NEXUS_MEMORY_TOP = 0x80400000,
    NEXUS_OPCODE_RIN = 0x2b, /* custom-1 */
    NEXUS_OPCODE_WOU = 0x5b, /* custom-2 */
    NEXUS_OUTPUT_MAX = 1 << 26,
    NEXUS_OPCODE_PRECOMPILE = 0x0b, /* custom-0 */
    NEXUS_OPCODE_KECCAKF = 0x5a,    /* nexus-common constants KECCAKF_OPCODE (0.3.2+) */
    NEXUS_PRECOMPILES_MAX = 16,
};

/* A precompile the ELF registers: its index and what its metadata string names. */
struct nexus_precompile {
    unsigned index;
    char path[96];
};

struct nexus_state {
    const uint8_t *private_input; /* the first --input: the private input tape */
    size_t private_size, private_at;
    uint8_t *input; /* the public input space: length word, then the second --input */
    size_t input_size;
    struct abi_buffer output; /* the output space: exit code word, then the public output */
    struct regions regions;
    char label[256];
    struct nexus_precompile precompiles[NEXUS_PRECOMPILES_MAX];
    size_t nprecompiles;
    char why[200]; /* a precompile's fault message */
};

static enum ecall_result nexus_write(struct machine *m)
{
    uint64_t fd = machine_get_reg(m, REG_A0), p = machine_get_reg(m, REG_A1),
             len = machine_get_reg(m, REG_A2);
    if (fd != 1) { /* Nexus writes only to stdout and returns -1 for another fd */
        machine_set_reg(m, REG_A0, UINT32_MAX);
        return ECALL_CONTINUE;
    }
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Write", p, "the bytes are not in memory");
    abi_write_fd(m->io.stdout_fd, mem_host(&m->mem, p), len);
    machine_set_reg(m, REG_A0, len);
    return ECALL_CONTINUE;
}

/* The output space after its first word (the exit code's), as Nexus's View hands it out. */
static enum ecall_result nexus_exit(struct machine *m)
{
    struct nexus_state *st = m->abi_state;
    m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
    if (st->output.size > 4 &&
        !abi_write_fd(m->io.public_output_fd, st->output.data + 4, st->output.size - 4))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "Exit", 0,
                         "the host could not write the public output");
    return ECALL_EXIT;
}

static bool region_known(const struct regions *r, const char *name, size_t len)
{
    for (size_t i = 0; i < r->count; i++)
        if (strlen(r->list[i].name) == len && memcmp(r->list[i].name, name, len) == 0)
            return true;
    return false;
}

/* "^#NAME" starts the region NAME, "$#NAME" ends it; an end of an unknown one returns -1. */
static enum ecall_result nexus_cycle_count(struct machine *m)
{
    struct nexus_state *st = m->abi_state;
    uint64_t p = machine_get_reg(m, REG_A0), len = machine_get_reg(m, REG_A1);
    if (len >= sizeof(st->label) || !abi_load(m, p, st->label, len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "CycleCount", p,
                         "the label is not in memory (or longer than 255 bytes)");
    st->label[len] = '\0';
    const char *name = st->label + 2;
    size_t name_len = len - 2;
    if (len < 2 || (st->label[0] != '^' && st->label[0] != '$') || st->label[1] != '#')
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "CycleCount", p,
                         "the label is not ^#NAME or $#NAME");
    uint64_t clock = m->ecall_clock;
    if (st->label[0] == '^')
        regions_start(&st->regions, name, name_len, clock);
    else if (region_known(&st->regions, name, name_len))
        regions_end(&st->regions, name, name_len, clock);
    else
        machine_set_reg(m, REG_A0, UINT32_MAX);
    return ECALL_CONTINUE;
}

static enum ecall_result nexus_read_private(struct machine *m)
{
    struct nexus_state *st = m->abi_state;
    uint64_t v = UINT32_MAX; /* the tape is exhausted */
    if (st->private_at < st->private_size)
        v = st->private_input[st->private_at++];
    machine_set_reg(m, REG_A0, v);
    return ECALL_CONTINUE;
}

static enum ecall_result nexus_ecall(struct machine *m, const char **call)
{
    uint64_t nr = machine_get_reg(m, REG_A7);
    switch (nr) {
    case NEXUS_WRITE: *call = "Write"; return nexus_write(m);
    case NEXUS_EXIT: *call = "Exit"; return nexus_exit(m);
    case NEXUS_READ_PRIVATE_INPUT: *call = "ReadFromPrivateInput"; return nexus_read_private(m);
    case NEXUS_CYCLE_COUNT: *call = "CycleCount"; return nexus_cycle_count(m);
    case NEXUS_OVERWRITE_SP:
        /* The first pass has no memory layout: sp stays, a0 reads -1. */
        *call = "OverwriteStackPointer";
        machine_set_reg(m, REG_A0, UINT32_MAX);
        return ECALL_CONTINUE;
    case NEXUS_OVERWRITE_HEAP:
        *call = "OverwriteHeapPointer"; /* 0: no overwrite, the heap follows the program */
        machine_set_reg(m, REG_A0, 0);
        return ECALL_CONTINUE;
    case NEXUS_MEMORY_ADVISE:
        /* nexus-rt's allocator reports each allocation; the first pass only counts it and
         * leaves the decoded default result, -1, in a0 (vm/src/system/syscall.rs, v0.3.6). */
        *call = "MemoryAdvise";
        machine_set_reg(m, REG_A0, UINT32_MAX);
        return ECALL_CONTINUE;
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr, "no call has this number in a7");
    }
}

static int32_t imm_i(uint32_t w)
{
    return (int32_t)w >> 20;
}

static int32_t imm_s(uint32_t w)
{
    return ((int32_t)w >> 25) * 32 | (int32_t)((w >> 7) & 0x1f);
}

/* rin: rd = the word at rs1 + imm of the public input space. */
static enum ecall_result nexus_rin(struct machine *m, uint32_t w)
{
    struct nexus_state *st = m->abi_state;
    uint32_t at = (uint32_t)machine_get_reg(m, (w >> 15) & 31) + (uint32_t)imm_i(w), v;
    if (at % 4 || at >= st->input_size)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "rin", at,
                         "the word is not in the public input (or not aligned)");
    memcpy(&v, st->input + at, 4);
    machine_set_reg(m, (w >> 7) & 31, v);
    return ECALL_CONTINUE;
}

/* wou: the word at rs1 + imm of the output space = rs2; the space grows as written. */
static enum ecall_result nexus_wou(struct machine *m, uint32_t w)
{
    struct nexus_state *st = m->abi_state;
    uint32_t at = (uint32_t)machine_get_reg(m, (w >> 15) & 31) + (uint32_t)imm_s(w);
    uint32_t v = (uint32_t)machine_get_reg(m, (w >> 20) & 31);
    if (at % 4 || !abi_buffer_put(&st->output, at, &v, 4, NEXUS_OUTPUT_MAX))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "wou", at,
                         "not an aligned word of the first 64 MiB of the output");
    return ECALL_CONTINUE;
}

/* Whether the registered path names this crate's type: the macro writes it quoted,
 * "\":: dummy_div :: DummyDiv\"" (stringify! of the path). */
static bool path_names(const char *path, const char *crate, const char *type)
{
    const char *c = strstr(path, crate), *t = c ? strstr(c, type) : NULL;
    return t && (!t[strlen(type)] || strcmp(t + strlen(type), "\"") == 0);
}

/*
 * nexus-precompiles' example DummyDiv (precompiles/examples/dummy_div/src/host.rs,
 * f2ad1265): rd = rs1 / rs2, unsigned; its host code is a Rust division,
 * which panics for a zero divisor. It is the one precompile whose host code
 * is all in its definition, so it runs here.
 */
static enum ecall_result dummy_div(struct machine *m, uint32_t w, const char **call)
{
    uint32_t rs1 = (uint32_t)machine_get_reg(m, (w >> 15) & 31),
             rs2 = (uint32_t)machine_get_reg(m, (w >> 20) & 31);
    *call = "DummyDiv";
    if (rs2 == 0)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, *call, 0,
                         "division by zero (the host's rs1 / rs2 panics)");
    machine_set_reg(m, (w >> 7) & 31, rs1 / rs2);
    return ECALL_CONTINUE;
}

/* A custom-0 instruction: the precompile PRECOMPILE_<funct7 << 3 | funct3> registers. */
static enum ecall_result run_precompile(struct machine *m, uint32_t w, const char **call)
{
    struct nexus_state *st = m->abi_state;
    unsigned index = (w >> 25) << 3 | ((w >> 12) & 7);
    for (size_t i = 0; i < st->nprecompiles; i++) {
        if (st->precompiles[i].index != index)
            continue;
        if (path_names(st->precompiles[i].path, "dummy_div", "DummyDiv"))
            return dummy_div(m, w, call);
        snprintf(st->why, sizeof(st->why),
                 "PRECOMPILE_%u (%s) runs host code from its own crate, which is not here", index,
                 st->precompiles[i].path);
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, "precompile", index, st->why);
    }
    snprintf(st->why, sizeof(st->why),
             "a custom-0 instruction (precompile %u) that no PRECOMPILE_%u symbol registers "
             "(Nexus: UndefinedInstruction)",
             index, index);
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w, st->why);
}

/*
 * keccakf: the state at rs1 (S-type; Nexus ignores the immediate). Its
 * word loads fault unaligned, as Nexus's UnalignedMemoryRead does.
 */
static enum ecall_result nexus_keccakf(struct machine *m, uint32_t w)
{
    uint64_t at = (uint32_t)machine_get_reg(m, (w >> 15) & 31);
    if (at % 4)
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "keccakf", at,
                         "the state is not word-aligned (Nexus: UnalignedMemoryRead)");
    return abi_keccakf_in_place(m, "keccakf", at);
}

static enum ecall_result nexus_custom(struct machine *m, uint32_t w, const char **call)
{
    unsigned major = w & 0x7f, funct3 = (w >> 12) & 7;
    if (major == NEXUS_OPCODE_KECCAKF && funct3 == 0) {
        *call = "keccakf";
        return nexus_keccakf(m, w);
    }
    if (major == NEXUS_OPCODE_RIN && funct3 == 0) {
        *call = "rin";
        return nexus_rin(m, w);
    }
    if (major == NEXUS_OPCODE_WOU && funct3 == 0) {
        *call = "wou";
        return nexus_wou(m, w);
    }
    if (major == NEXUS_OPCODE_PRECOMPILE)
        return run_precompile(m, w, call);
    return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                     "Nexus has no instruction with this opcode (custom-3, or custom-1 / custom-2 "
                     "/ 0x5A with a funct3 other than rin's, wou's and keccakf's 0: "
                     "UndefinedInstruction)");
}

/* The bytes [vaddr, vaddr + n) of section `shndx`, from the file (as Nexus reads them), or NULL. */
static const uint8_t *section_bytes(const struct elf_image *img, Elf *elf, size_t shndx,
                                    uint64_t vaddr, uint64_t n)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, shndx);
    if (!scn || !gelf_getshdr(scn, &sh) || vaddr < sh.sh_addr || sh.sh_type == SHT_NOBITS ||
        vaddr - sh.sh_addr > sh.sh_size || n > sh.sh_size - (vaddr - sh.sh_addr) ||
        sh.sh_offset + sh.sh_size > img->file_size)
        return NULL;
    return img->file + sh.sh_offset + (vaddr - sh.sh_addr);
}

static size_t section_count(const struct elf_image *img)
{
    size_t n = 0;
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (elf && elf_getshdrnum(elf, &n) != 0)
        n = 0;
    if (elf)
        elf_end(elf);
    return n;
}

/* What the scan of the symbols needs. */
struct precompile_scan {
    const struct elf_image *img;
    struct nexus_state *st;
    size_t nsections;
};

/* A PRECOMPILE_<index> symbol: a &str (pointer, length) in its section, the string there too. */
static void note_precompile(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name)
{
    struct precompile_scan *sc = ctx;
    struct nexus_state *st = sc->st;
    char *end;
    if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || strncmp(name, "PRECOMPILE_", 11) != 0 ||
        sym->st_size != 8 || st->nprecompiles == NEXUS_PRECOMPILES_MAX)
        return;
    unsigned long index = strtoul(name + 11, &end, 10);
    const uint8_t *str = section_bytes(sc->img, elf, sym->st_shndx, sym->st_value, 8);
    if (end == name + 11 || *end || index > 1023 || !str)
        return;
    uint32_t ptr, len;
    memcpy(&ptr, str, 4);
    memcpy(&len, str + 4, 4);
    /* the string itself lies in .rodata or .data, not in the note that holds the &str */
    const uint8_t *text = section_bytes(sc->img, elf, sym->st_shndx, ptr, len);
    for (size_t i = 1; !text && i < sc->nsections; i++)
        text = section_bytes(sc->img, elf, i, ptr, len);
    struct nexus_precompile *p = &st->precompiles[st->nprecompiles++];
    p->index = (unsigned)index;
    int shown = !text ? 0 : len < sizeof(p->path) ? (int)len : (int)sizeof(p->path) - 1;
    snprintf(p->path, sizeof(p->path), "%.*s", shown, text ? (const char *)text : "");
}

/* The public input space: its length as a u32, then the bytes, padded to a word. */
static bool nexus_public_input(struct nexus_state *st, const struct machine_input *in,
                               struct error *e)
{
    size_t n = in ? in->size : 0;
    st->input_size = 4 + (n + 3) / 4 * 4;
    st->input = calloc(1, st->input_size);
    if (!st->input) {
        error_fail(e, ERROR_NO_MEMORY, "out of memory");
        return false;
    }
    uint32_t len = (uint32_t)n;
    memcpy(st->input, &len, 4);
    if (n)
        memcpy(st->input + 4, in->data, n);
    return true;
}

static bool nexus_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct nexus_state *st = abi_alloc_state(m, sizeof(struct nexus_state), e);
    if (!st)
        return false;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED, "Nexus guests are RV32IM (ELFCLASS32), this one is RV64");
        return false;
    }
    if (m->io.ninputs > 2) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "Nexus takes two inputs: the private input tape, then the public input; "
                   "%zu --input files were given",
                   m->io.ninputs);
        return false;
    }
    if (!abi_check_inside(img, 0x88, NEXUS_MEMORY_TOP, "Nexus's memory (after 0x80 and 0x84)", e))
        return false;
    if (m->io.ninputs > 0) {
        st->private_input = m->io.inputs[0].data;
        st->private_size = m->io.inputs[0].size;
    }
    if (!nexus_public_input(st, m->io.ninputs > 1 ? &m->io.inputs[1] : NULL, e))
        return false;
    abi_map_flat(m, img, 0, NEXUS_MEMORY_TOP); /* 0x80 and 0x84 read 0: nothing is there */
    struct precompile_scan scan = {img, st, section_count(img)};
    abi_each_symbol(img, note_precompile, &scan);
    return true;
}

static void nexus_report(const struct machine *m, FILE *out)
{
    const struct nexus_state *st = m->abi_state;
    fprintf(out, "public-output: %zu bytes\n", st->output.size > 4 ? st->output.size - 4 : 0);
    regions_report(&st->regions, out);
}

static void nexus_destroy(struct machine *m)
{
    struct nexus_state *st = m->abi_state;
    if (st) {
        free(st->input);
        free(st->output.data);
        regions_free(&st->regions);
    }
    abi_free_state(m);
}

const struct abi abi_nexus = {
    .name = "nexus",
    .aligned_access = true, /* memory/variable.rs: UnalignedMemoryRead, UnalignedMemoryWrite */
    .without_c = true,      /* RV32I (with M): 4-byte instructions only */
    .setup = nexus_setup,
    .ecall = nexus_ecall,
    .custom_insn = nexus_custom,
    .extra_custom_major = NEXUS_OPCODE_KECCAKF,
    .report = nexus_report,
    .destroy = nexus_destroy,
};
