/*
 * nexus: the ABI of Nexus zkVM guests (RV32IM, the nexus-rt crate), in the
 * release form the ELF's layout (or --zkvm-release) picks. Docs: docs/ZKVMS.md.
 *
 * 0.3.x, code from 0x88: as its first-pass (Harvard) emulator runs them
 * (vm/src/emulator/executor.rs, vm/src/system/syscall.rs).
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
 *
 * 0.2.x, code from 0 (nexus-xyz/nexus-zkvm runtime/linker-scripts/default.x,
 * v0.2.4 = 0b787f2e: `. = 0`, __memory_top = 0x40_0000): the VM (vm/src/eval.rs,
 * vm/src/syscalls.rs, vm/src/lib.rs init_vm) starts at e_entry with every
 * register 0 (nexus-rt's _start sets gp and sp = __memory_top - 4), over a
 * sparse 4 GiB memory that reads 0 (memory/paged.rs), word and half accesses
 * aligned (memory/cacheline.rs: Misaligned). An ecall's number is in s2
 * (x18), its arguments in a1 and a2, its result in a0 (parse.rs
 * translate_nexus sets the ecall's rd to a0):
 *   1 WriteLog (a1 bytes, a2 long, to stdout; a0 = 0)
 *   2 ReadFromPrivateInput (a0 = the tape's next byte, u32::MAX at its end)
 *   3 WriteToOutput (appended to the output tape, the public output; a0 = 0)
 *   5 ProfileCycles (0.2.2+, 2c777ed2: label "^#NAME" / "$#NAME"; a0 = 5)
 * any other number is UnknownECall. There is no exit call: `unimp`, the
 * word 0xc0001073 (`csrrw x0, cycle, x0`, parse.rs "UNIMP"), keeps the pc
 * where it is and ends eval's loop: the run halts, main's result (or
 * abort's 1) in a0, the exit status here. The 0.2 VM has no M extension
 * (RV32I, parse.rs: ALU funct7 0 or 0x20 only); nexus-rt 0.2's guests are
 * built for riscv32i, and M words run here rather than fault.
 *
 * Between v0.2.4 and v0.3.0 nexus-zkvm's own tree (e.g. dd73c2bc, 5159c5a3,
 * the ELFs in its vm/test) built guests with 0.2's layout and `unimp` halt but
 * 0.3's calls in a7 (vm/src/system/syscall.rs at 5159c5a3: 512 Write, 513
 * Exit, 1024..1027): code from 0 whose ecalls set a7, not s2, runs so.
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
    NEXUS02_WRITE_LOG = 1, /* 0.2.x: numbers in s2 */
    NEXUS02_READ_PRIVATE_INPUT = 2,
    NEXUS02_WRITE_TO_OUTPUT = 3,
    NEXUS02_PROFILE_CYCLES = 5,
    NEXUS02_UNIMP = 0xc0001073, /* csrrw x0, cycle, x0: 0.2's halt */
    NEXUS_CSR_CYCLE = 0xc00,
    REG_S2 = 18,
};

/* How the guest's calls and halt work: its release form. */
enum nexus_form {
    FORM_03,    /* 0.3.x: code from 0x88, calls in a7, Exit */
    FORM_02,    /* 0.2.x: code from 0, calls in s2, unimp halts */
    FORM_02_A7, /* the tree between 0.2.4 and 0.3.0: 0.2's layout, 0.3's calls in a7 */
};

/* A release as a number: 0.2.4 is 204. */
#define NEXUS_RELEASE(minor, patch) ((minor)*100 + (patch))

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
    enum nexus_form form;
    int release;           /* NEXUS_RELEASE(...), 0 when only the form is known */
    char release_why[200]; /* what chose the form, for --stats */
    size_t public_written; /* 0.2: bytes WriteToOutput wrote */
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

static enum ecall_result nexus03_ecall(struct machine *m, const char **call)
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

/* 0.2's WriteLog (to stdout) and WriteToOutput (the public output): a2 bytes at a1; a0 = 0. */
static enum ecall_result nexus02_write(struct machine *m, const char *call, int host_fd)
{
    uint64_t p = machine_get_reg(m, REG_A1), len = machine_get_reg(m, REG_A2);
    if (!mem_range_has(&m->mem, p, len, PAGE_R))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, p, "the bytes are not in memory");
    if (!abi_write_fd(host_fd, mem_host(&m->mem, p), len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, p, "the host could not write them");
    if (host_fd == m->io.public_output_fd)
        ((struct nexus_state *)m->abi_state)->public_written += len;
    machine_set_reg(m, REG_A0, 0);
    return ECALL_CONTINUE;
}

/*
 * 0.2's ProfileCycles (vm/src/eval.rs handle_profile_cycles, v0.2.4): the
 * name is what follows the label's last '#', its first character '^'
 * starts the region, '$' ends it; any other label, or the end of a region
 * never started, is InvalidProfileLabel. a0 = 5, the call's number.
 */
static enum ecall_result nexus02_profile_cycles(struct machine *m)
{
    struct nexus_state *st = m->abi_state;
    uint64_t p = machine_get_reg(m, REG_A1), len = machine_get_reg(m, REG_A2);
    if (len >= sizeof(st->label) || !abi_load(m, p, st->label, len))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "ProfileCycles", p,
                         "the label is not in memory (or longer than 255 bytes)");
    st->label[len] = '\0';
    const char *name = strrchr(st->label, '#'); /* Rust's split('#').last() */
    name = name ? name + 1 : st->label;
    size_t name_len = len - (size_t)(name - st->label);
    if (st->label[0] == '^')
        regions_start(&st->regions, name, name_len, m->ecall_clock);
    else if (st->label[0] == '$' && region_known(&st->regions, name, name_len))
        regions_end(&st->regions, name, name_len, m->ecall_clock);
    else
        return abi_fault(m, FAULT_ECALL_ARGUMENT, "ProfileCycles", p,
                         st->label[0] == '$'
                             ? "the end of a region never started (Nexus: InvalidProfileLabel)"
                             : "the label is not ^#NAME or $#NAME (Nexus: InvalidProfileLabel)");
    machine_set_reg(m, REG_A0, NEXUS02_PROFILE_CYCLES);
    return ECALL_CONTINUE;
}

/* 0.2.x: the number in s2 (vm/src/syscalls.rs SyscallCode::try_from, v0.2.0..v0.2.4). */
static enum ecall_result nexus02_ecall(struct machine *m, const char **call)
{
    struct nexus_state *st = m->abi_state;
    uint64_t nr = machine_get_reg(m, REG_S2);
    switch (nr) {
    case NEXUS02_WRITE_LOG: *call = "WriteLog"; return nexus02_write(m, *call, m->io.stdout_fd);
    case NEXUS02_READ_PRIVATE_INPUT: *call = "ReadFromPrivateInput"; return nexus_read_private(m);
    case NEXUS02_WRITE_TO_OUTPUT:
        *call = "WriteToOutput";
        return nexus02_write(m, *call, m->io.public_output_fd);
    case NEXUS02_PROFILE_CYCLES:
        if (st->release >= NEXUS_RELEASE(2, 2)) { /* 2c777ed2 (v0.2.2) added it */
            *call = "ProfileCycles";
            return nexus02_profile_cycles(m);
        }
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr,
                         "ProfileCycles (5) came with 0.2.2; this guest runs as an older 0.2 "
                         "(Nexus: UnknownECall)");
    default:
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, nr,
                         "no call has this number in s2 (Nexus 0.2: UnknownECall)");
    }
}

static enum ecall_result nexus_ecall(struct machine *m, const char **call)
{
    const struct nexus_state *st = m->abi_state;
    return st->form == FORM_02 ? nexus02_ecall(m, call) : nexus03_ecall(m, call);
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

/*
 * An access to `cycle` that interp_csr does not take (abi_nexus's CSR
 * range): in 0.2's layout `unimp` halts; any other is what the
 * interpreter makes of it, an unsupported CSR access (Nexus 0.3:
 * UnimplementedInstruction, 0.2: InvalidInstruction).
 */
static enum ecall_result nexus_csr(struct machine *m, uint32_t w, const char **call)
{
    const struct nexus_state *st = m->abi_state;
    if (st->form != FORM_03 && w == NEXUS02_UNIMP) {
        *call = "unimp";
        m->exit_status = (int)(machine_get_reg(m, REG_A0) & 0xff);
        return ECALL_EXIT;
    }
    m->fault =
        (struct fault){.kind = FAULT_UNSUPPORTED_CSR, .pc = m->pc, .addr = w >> 20, .word = w};
    return ECALL_FAULT;
}

static enum ecall_result nexus_custom(struct machine *m, uint32_t w, const char **call)
{
    const struct nexus_state *st = m->abi_state;
    unsigned major = w & 0x7f, funct3 = (w >> 12) & 7;
    if (major == 0x73)
        return nexus_csr(m, w, call);
    if (st->form != FORM_03) /* rin, wou, keccakf and precompiles came with 0.3 */
        return abi_fault(m, FAULT_UNSUPPORTED_ECALL, NULL, w,
                         "Nexus before 0.3 has no custom instructions (InvalidInstruction)");
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
static int nexus_public_input(struct nexus_state *st, const struct machine_input *in,
                              struct error *e)
{
    size_t n = in ? in->size : 0;
    st->input_size = 4 + (n + 3) / 4 * 4;
    st->input = calloc(1, st->input_size);
    if (!st->input) {
        error_fail(e, ERROR_NO_MEMORY, "out of memory");
        return -1;
    }
    uint32_t len = (uint32_t)n;
    memcpy(st->input, &len, 4);
    if (n)
        memcpy(st->input + 4, in->data, n);
    return 0;
}

/* "0.2.4"; "0.3" for a form whose patch release nothing said. */
static const char *release_text(const struct nexus_state *st, char *buf, size_t size)
{
    if (st->form == FORM_02_A7)
        return "0.2's layout with 0.3's calls";
    if (st->release == 0)
        return st->form == FORM_02 ? "0.2" : "0.3";
    snprintf(buf, size, "0.%d.%d", st->release / 100, st->release % 100);
    return buf;
}

/* --zkvm-release: "0.2", "v0.2.3", "0.3.6"; a left-out patch is the minor's last release. */
static bool parse_release(const char *given, int *release)
{
    const char *p = given + (given[0] == 'v');
    char *end;
    unsigned long major = strtoul(p, &end, 10), minor, patch;
    if (end == p || *end != '.' || major != 0)
        return false;
    p = end + 1;
    minor = strtoul(p, &end, 10);
    if (end == p || (minor != 2 && minor != 3))
        return false;
    patch = minor == 2 ? 4 : 6; /* v0.2.4, v0.3.6: the last of each */
    if (*end == '.') {
        p = end + 1;
        unsigned long last = patch;
        patch = strtoul(p, &end, 10);
        if (end == p || patch > last)
            return false;
    }
    *release = NEXUS_RELEASE((int)minor, (int)patch);
    return *end == '\0';
}

/* Whether an executable segment starts at 0, where 0.2's linker script puts the text. */
static bool code_from_zero(const struct elf_image *img)
{
    for (size_t i = 0; i < img->nsegments; i++)
        if ((img->segments[i].rights & SEG_X) && img->segments[i].vaddr == 0)
            return true;
    return false;
}

/* The register a `li rd, imm` (addi rd, x0, imm) sets, or 0; its immediate in *imm. */
static unsigned li_rd(uint32_t w, int32_t *imm)
{
    if ((w & 0x000ff07f) != 0x13)
        return 0;
    *imm = (int32_t)w >> 20;
    return (w >> 7) & 31;
}

/*
 * Whether the code's ecalls take their number in a7, as 0.3 does (a `li
 * a7, 0x200..0x405` among the 8 words before them), and none in s2, as
 * 0.2's `ecall!` does (`li s2, 1..5`).
 */
static bool calls_in_a7(const struct elf_image *img)
{
    unsigned a7 = 0, s2 = 0;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *seg = &img->segments[i];
        size_t n = (seg->rights & SEG_X) ? seg->filesz / 4 : 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t w, v;
            memcpy(&w, seg->data + 4 * k, 4);
            if (w != 0x73) /* ecall */
                continue;
            for (size_t j = k; j-- > 0 && k - j <= 8;) {
                int32_t imm;
                memcpy(&v, seg->data + 4 * j, 4);
                unsigned rd = li_rd(v, &imm);
                if (rd == REG_A7 || rd == REG_S2) {
                    a7 += rd == REG_A7 &&
                          ((imm >= 0x200 && imm <= 0x201) || (imm >= 0x400 && imm <= 0x405));
                    s2 += rd == REG_S2 && imm >= 1 && imm <= 5;
                    break;
                }
            }
        }
    }
    return a7 > 0 && s2 == 0;
}

/* The release form: --zkvm-release's, else the ELF's layout (code from 0: 0.2) and calls. */
static int pick_form(struct nexus_state *st, const struct elf_image *img, const char *given,
                     struct error *e)
{
    if (given) {
        if (!parse_release(given, &st->release)) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "--zkvm-release %s is not a Nexus release (0.2.0 to 0.2.4, 0.3.0 to "
                       "0.3.6: 0.2, 0.2.1, v0.3.6, ...)",
                       given);
            return -1;
        }
        st->form = st->release < NEXUS_RELEASE(3, 0) ? FORM_02 : FORM_03;
        snprintf(st->release_why, sizeof(st->release_why), "--zkvm-release %s", given);
    } else if (!code_from_zero(img)) {
        st->form = FORM_03;
        snprintf(st->release_why, sizeof(st->release_why),
                 "no code from 0, where 0.2 links it (0.3 links it from 0x88); no --zkvm-release");
    } else if (calls_in_a7(img)) {
        st->form = FORM_02_A7;
        snprintf(st->release_why, sizeof(st->release_why),
                 "code from 0 as 0.2 links it, ecalls numbered in a7 as 0.3 does: nexus-zkvm's "
                 "tree between v0.2.4 and v0.3.0 (e.g. 5159c5a3); no --zkvm-release");
    } else {
        st->form = FORM_02;
        st->release = NEXUS_RELEASE(2, 4);
        snprintf(st->release_why, sizeof(st->release_why),
                 "code from 0 (0.2's runtime/linker-scripts/default.x): calls as v0.2.4 runs "
                 "them; no --zkvm-release");
    }
    return 0;
}

/* 0.2's layouts: one input, the private tape; all 4 GiB readable and writable, as its VM's. */
static int nexus02_setup(struct machine *m, const struct elf_image *img, struct nexus_state *st,
                         struct error *e)
{
    if (m->io.ninputs > 1) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "Nexus 0.2 takes one input, the private input tape; %zu --input files were "
                   "given",
                   m->io.ninputs);
        return -1;
    }
    if (m->io.ninputs > 0) {
        st->private_input = m->io.inputs[0].data;
        st->private_size = m->io.inputs[0].size;
    }
    abi_map_flat(m, img, 0, GUEST_SPACE_SIZE);
    return 0;
}

static int nexus_setup(struct machine *m, const struct elf_image *img, struct error *e)
{
    struct nexus_state *st = abi_alloc_state(m, sizeof(struct nexus_state), e);
    if (!st)
        return -1;
    if (m->xlen != 32) {
        error_fail(e, ERROR_UNSUPPORTED, "Nexus guests are RV32IM (ELFCLASS32), this one is RV64");
        return -1;
    }
    if (pick_form(st, img, m->io.zkvm_release, e) != 0)
        return -1;
    if (st->form != FORM_03)
        return nexus02_setup(m, img, st, e);
    if (code_from_zero(img)) { /* only --zkvm-release 0.3 reaches here with such code */
        error_fail(e, ERROR_UNSUPPORTED,
                   "code from 0 is Nexus 0.2's layout (0.3 links it from 0x88): leave out "
                   "--zkvm-release or give a 0.2 one");
        return -1;
    }
    if (m->io.ninputs > 2) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "Nexus takes two inputs: the private input tape, then the public input; "
                   "%zu --input files were given",
                   m->io.ninputs);
        return -1;
    }
    if (abi_check_inside(img, 0x88, NEXUS_MEMORY_TOP, "Nexus's memory (after 0x80 and 0x84)", e) !=
        0)
        return -1;
    if (m->io.ninputs > 0) {
        st->private_input = m->io.inputs[0].data;
        st->private_size = m->io.inputs[0].size;
    }
    if (nexus_public_input(st, m->io.ninputs > 1 ? &m->io.inputs[1] : NULL, e) != 0)
        return -1;
    abi_map_flat(m, img, 0, NEXUS_MEMORY_TOP); /* 0x80 and 0x84 read 0: nothing is there */
    struct precompile_scan scan = {img, st, section_count(img)};
    abi_each_symbol(img, note_precompile, &scan);
    return 0;
}

static void nexus_report(const struct machine *m, FILE *out)
{
    const struct nexus_state *st = m->abi_state;
    char buf[16];
    fprintf(out, "nexus-release: %s (%s)\n", release_text(st, buf, sizeof(buf)), st->release_why);
    size_t public_size = st->output.size > 4 ? st->output.size - 4 : 0;
    fprintf(out, "public-output: %zu bytes\n",
            st->form == FORM_02 ? st->public_written : public_size);
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
    .custom_csr_lo = NEXUS_CSR_CYCLE, /* writes of cycle: 0.2's unimp halt (nexus_csr) */
    .custom_csr_hi = NEXUS_CSR_CYCLE + 1,
    .takes_release = true,
    .report = nexus_report,
    .destroy = nexus_destroy,
};
