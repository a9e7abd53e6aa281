/*
 * detect_code: which zkVM a guest without symbol marks is for, from what
 * stripping leaves: where its segments lie (each zkVM links its guests at
 * its own addresses), and what its code does (each zkVM has its own
 * custom instructions, CSRs and ecall numbers). The facts per zkVM, from
 * their sources (docs/ZKVMS.md):
 *
 *  - ZisK: ROM from 0x8000_0000, RAM (data, bss) from 0xA000_0000
 *    (0xPolygonHermez/zisk core/src/mem.rs, 6182c8be); precompiles are
 *    `csrs 0x8xx` (ziskos/entrypoint/src/syscalls).
 *  - Jolt: one RAM from 0x8000_0000 (RAM_START_ADDRESS, a16z/jolt
 *    common/src/constants.rs), its I/O region (inputs, outputs, the panic
 *    and termination words) just below it, at 0x7FFF_xxxx, which the guest's
 *    code addresses with `lui`; inlines are custom-0 words with rd = x0 and
 *    funct7 < 8, VirtualHostIO / advice custom-2 (tracer/src/instruction/mod.rs).
 *  - Nexus: RV32, text from 0x88 in 0.3 (ELF_TEXT_START, nexus-xyz/nexus-zkvm
 *    common/src/constants/mod.rs, f2ad1265) or 0 in 0.2 (runtime/linker-scripts/
 *    default.x, 0b787f2e); ecall numbers in a7 0x200..0x405 (0.3) or in s2
 *    1..5 (0.2); a .note.nexus-precompiles section.
 *  - OpenVM: text at 0x0020_0800 (openvm-org/openvm crates/toolchain/build),
 *    no ecall at all, custom-0 words with funct3 0..3 (terminate, hint
 *    store, reveal, phantom: extensions/rv32im/guest/src/lib.rs); elsewhere
 *    (its toolchain tests' ELFs) when its terminate is there too.
 *  - SP1 (and Pico, linked as SP1): text at 0x0020_0800, `ecall` with the
 *    syscall code in t0 (sp1 crates/core/executor/src/syscalls/code.rs):
 *    HINT_LEN 0xF0, COMMIT 0x10, precompiles 0x1_01xx.
 *  - RISC Zero: `ecall` with its kind 0..7 in t0 (risc0/zkvm/platform/src/
 *    syscall.rs `pub mod ecall`) and no Linux number in a7.
 *  - lambda_vm: RV64, ecall numbers in a7 that Linux has not: 1 Print, 2
 *    Panic, 2^64-1 and down for its precompiles (lambda.c).
 *  - Linux: a PT_INTERP or PT_DYNAMIC segment, a GNU ABI note, ecalls with
 *    Linux syscall numbers (64 write, 93 exit, 214 brk, ...) in a7, or the
 *    first segment at 0x10000, where GNU ld links static Linux programs.
 */
#include "executor/abi/detect_code.h"

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/elf_image.h"

enum {
    CONSTS_MAX = 16, /* distinct values kept per register at ecalls */
    REG_T0_ = 5,
    REG_A0_ = 10,
    REG_A7_ = 17,
    REG_S2_ = 18,
    OPENVM_TEXT = 0x00200800, /* and SP1's, Pico's, RISC Zero's */
    SP1_V6_TEXT = 0x78000800,
    RAM_0x8 = 0x80000000, /* ZisK's ROM, Jolt's RAM */
    ZISK_ROM_END = 0x88000000,
    ZISK_RAM = 0xA0000000,
    ZISK_RAM_END = 0xC0000000,
    NEXUS_TEXT = 0x88,
};

/* The values a register held at the ecalls where the code just set it. */
struct consts {
    uint64_t v[CONSTS_MAX];
    unsigned n;
};

/* What the segments' words show. */
struct code_facts {
    unsigned ecalls;
    struct consts a7, t0, s2, a0;
    unsigned zisk_csrs;         /* csrs/csrw/... of a CSR in 0x800..0x8ff */
    unsigned custom0[8];        /* custom-0 (0x0b) words, by funct3 */
    unsigned custom0_rd0_small; /* custom-0 with rd = x0, funct7 < 8: Jolt's inlines */
    unsigned custom0_exit;      /* custom-0 funct3 0, rd = rs1 = x0: OpenVM's terminate */
    unsigned custom1, custom2, custom3, op5a;
    unsigned lui_below_0x8;      /* lui of 0x7FFF_x000: Jolt's I/O region */
    struct consts sp1_codes;     /* SP1-shaped precompile codes the code builds anywhere */
    uint64_t watch_lo, watch_hi; /* loads from [watch_lo, watch_hi) are kept in `loads` */
    struct consts loads;
};

/* What the ELF's headers show. */
struct header_facts {
    bool interp, dynamic, gnu_note, nexus_note, go_note;
    uint64_t exec_lo, exec_hi, load_lo, write_lo;
};

/* Register values the scan knows, set by li / lui / addi / slli and forgotten at control flow. */
struct regs {
    uint64_t v[32];
    uint32_t known;
};

/*
 * The code holds `addr` in the first page of its executable segments (a
 * linker may put the ELF headers in that page, before the text).
 */
static bool text_at(const struct header_facts *h, uint64_t addr)
{
    return h->exec_lo <= addr && addr < h->exec_hi && addr - h->exec_lo < 0x1000;
}

static void consts_add(struct consts *c, uint64_t v)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->v[i] == v)
            return;
    if (c->n < CONSTS_MAX)
        c->v[c->n++] = v;
}

static bool consts_has(const struct consts *c, uint64_t v)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->v[i] == v)
            return true;
    return false;
}

static int64_t sext(uint64_t v, unsigned bits)
{
    return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static void reg_set(struct regs *r, unsigned rd, uint64_t v)
{
    if (rd) {
        r->v[rd] = v;
        r->known |= 1u << rd;
    }
}

static void reg_forget(struct regs *r, unsigned rd)
{
    r->known &= ~(1u << rd);
}

static bool reg_known(const struct regs *r, unsigned rd)
{
    return r->known >> rd & 1;
}

static void note_ecall(struct code_facts *f, const struct regs *r)
{
    f->ecalls++;
    static const struct {
        unsigned reg;
        size_t off;
    } watched[] = {{REG_A7_, offsetof(struct code_facts, a7)},
                   {REG_T0_, offsetof(struct code_facts, t0)},
                   {REG_S2_, offsetof(struct code_facts, s2)},
                   {REG_A0_, offsetof(struct code_facts, a0)}};
    for (size_t i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
        if (reg_known(r, watched[i].reg))
            consts_add((struct consts *)((char *)f + watched[i].off), r->v[watched[i].reg]);
}

/* Does this major opcode write rd? (Those that do not: stores, branches, fences.) */
static bool writes_rd(unsigned op)
{
    switch (op) {
    case 0x03:
    case 0x07:
    case 0x13:
    case 0x17:
    case 0x1b:
    case 0x2f:
    case 0x33:
    case 0x37:
    case 0x3b:
    case 0x53:
    case 0x6f:
    case 0x67:
    case 0x73: return true;
    default: return false;
    }
}

/*
 * SP1's precompile codes: 0x00XX_01YY (the low byte the call, 01 "has a
 * chip", the third byte the cycles it costs: code.rs); a guest that calls
 * them through a wrapper builds them in a register before the call.
 */
static bool sp1_precompile_code(uint64_t v)
{
    return (v & 0xff00) == 0x0100 && v >> 16 <= 0x30 && (v & 0xff) >= 0x05;
}

static void note_value(struct code_facts *f, const struct regs *r, unsigned rd)
{
    if (rd && reg_known(r, rd) && sp1_precompile_code(r->v[rd]))
        consts_add(&f->sp1_codes, r->v[rd]);
}

/* A load from base register rs1 plus off: its address kept when watched. */
static void note_load(struct code_facts *f, const struct regs *r, unsigned rs1, uint64_t off)
{
    if (!reg_known(r, rs1))
        return;
    uint64_t addr = r->v[rs1] + off;
    if (addr >= f->watch_lo && addr < f->watch_hi)
        consts_add(&f->loads, addr);
}

/* addi (and addiw) and slli of a register the scan knows give a value it knows. */
static void scan_op_imm(struct code_facts *f, struct regs *r, uint32_t w)
{
    unsigned op = w & 0x7f, rd = w >> 7 & 31, f3 = w >> 12 & 7, rs1 = w >> 15 & 31;
    uint64_t imm = (uint64_t)sext(w >> 20, 12), v = rs1 ? r->v[rs1] : 0;
    if (rs1 && !reg_known(r, rs1))
        reg_forget(r, rd);
    else if (f3 == 0)
        reg_set(r, rd, op == 0x1b ? (uint64_t)sext(v + imm, 32) : v + imm);
    else if (f3 == 1 && op == 0x13)
        reg_set(r, rd, v << (w >> 20 & 0x3f));
    else
        reg_forget(r, rd);
    note_value(f, r, rd);
}

static void scan_word(struct code_facts *f, struct regs *r, uint32_t w)
{
    unsigned op = w & 0x7f, rd = w >> 7 & 31, f3 = w >> 12 & 7, rs1 = w >> 15 & 31;
    uint64_t imm_i = (uint64_t)sext(w >> 20, 12);
    if (w == 0x00000073) {
        note_ecall(f, r);
        return;
    }
    switch (op) {
    case 0x0b:
        f->custom0[f3]++;
        if (rd == 0 && w >> 25 < 8)
            f->custom0_rd0_small++;
        f->custom0_exit += f3 == 0 && rd == 0 && rs1 == 0;
        return;
    case 0x2b: f->custom1++; return;
    case 0x5b: f->custom2++; return;
    case 0x7b: f->custom3++; return;
    case 0x5a: f->op5a++; return;
    case 0x73:
        if (f3 != 0 && f3 != 4 && (w >> 20) >= 0x800 && (w >> 20) < 0x900)
            f->zisk_csrs++;
        break;
    case 0x37: {
        uint32_t hi = w & 0xfffff000;
        if (hi >= 0x7fff0000 && hi < 0x80000000)
            f->lui_below_0x8++;
        reg_set(r, rd, (uint64_t)sext(hi, 32));
        note_value(f, r, rd);
        return;
    }
    case 0x13:
    case 0x1b: scan_op_imm(f, r, w); return;
    case 0x03: note_load(f, r, rs1, imm_i); break;
    case 0x63:
    case 0x67:
    case 0x6f:
        r->known = 0; /* another block: its constants are not these */
        return;
    default: break;
    }
    if (writes_rd(op))
        reg_forget(r, rd);
}

/* c.lw, and c.ld on RV64: the load's address when watched (rs1' plus the scaled offset). */
static void scan_half_load(struct code_facts *f, const struct regs *r, uint16_t h, int xlen)
{
    unsigned fn = h >> 13, rs1 = 8 + (h >> 7 & 7);
    uint64_t off = (uint64_t)(h >> 10 & 7) << 3;
    if (fn == 2)
        note_load(f, r, rs1, off | (h >> 6 & 1) << 2 | (h >> 5 & 1) << 6);
    else if (fn == 3 && xlen == 64)
        note_load(f, r, rs1, off | (uint64_t)(h >> 5 & 3) << 6);
}

/* A compressed instruction: only what sets or forgets the registers that matter. */
static void scan_half(struct code_facts *f, struct regs *r, uint16_t h, int xlen)
{
    unsigned q = h & 3, fn = h >> 13, rd = h >> 7 & 31, rs2 = h >> 2 & 31;
    uint64_t imm6 = (uint64_t)sext((h >> 12 & 1) << 5 | (h >> 2 & 31), 6);
    unsigned rdp = 8 + (h >> 2 & 7), rdp_hi = 8 + (h >> 7 & 7);
    if (q == 1 && fn == 2) /* c.li */
        reg_set(r, rd, imm6);
    else if (q == 1 && fn == 3 && rd != 2) /* c.lui */
        reg_set(r, rd, imm6 << 12);
    else if (q == 1 && fn == 0 && reg_known(r, rd)) /* c.addi */
        reg_set(r, rd, r->v[rd] + imm6);
    else if (q == 1 && (fn == 5 || fn >= 6 || (fn == 1 && xlen == 32)))
        r->known = 0; /* c.j, c.beqz, c.bnez, c.jal */
    else if (q == 2 && fn == 4 && rs2 == 0)
        r->known = 0; /* c.jr, c.jalr, c.ebreak */
    else if (q == 2 && fn == 4 && (h >> 12 & 1) == 0 && reg_known(r, rs2))
        reg_set(r, rd, r->v[rs2]); /* c.mv */
    else if (q == 2 && fn == 0 && reg_known(r, rd))
        reg_set(r, rd, r->v[rd] << ((h >> 12 & 1) << 5 | rs2)); /* c.slli */
    else if (q == 2)
        reg_forget(r, rd);
    else if (q == 0) {
        scan_half_load(f, r, h, xlen);
        reg_forget(r, rdp);
    } else
        reg_forget(r, rdp_hi);
}

/* Every instruction of one executable segment, in order (linear sweep). */
static void scan_segment(struct code_facts *f, const struct elf_segment *s,
                         const struct elf_image *img)
{
    struct regs r = {.known = 0};
    const uint8_t *p = s->data;
    uint64_t i = 0, n = s->filesz;
    while (i + 2 <= n) {
        uint16_t h = (uint16_t)(p[i] | p[i + 1] << 8);
        if ((h & 3) != 3 && img->rvc) {
            scan_half(f, &r, h, img->xlen);
            i += 2;
            continue;
        }
        if (i + 4 > n)
            break;
        uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                     (uint32_t)p[i + 3] << 24;
        scan_word(f, &r, w);
        i += 4;
    }
}

static void scan_code(const struct elf_image *img, struct code_facts *f)
{
    for (size_t i = 0; i < img->nsegments; i++)
        if (img->segments[i].rights & SEG_X)
            scan_segment(f, &img->segments[i], img);
}

static void scan_sections(Elf *elf, struct header_facts *h)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        h->gnu_note |= strcmp(name, ".note.ABI-tag") == 0;
        h->nexus_note |= strcmp(name, ".note.nexus-precompiles") == 0;
        h->go_note |= strcmp(name, ".note.go.buildid") == 0;
    }
}

static void scan_headers(const struct elf_image *img, struct header_facts *h)
{
    elf_image_exec_span(img, &h->exec_lo, &h->exec_hi);
    h->load_lo = h->write_lo = UINT64_MAX;
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (s->vaddr < h->load_lo)
            h->load_lo = s->vaddr;
        if ((s->rights & SEG_W) && s->vaddr < h->write_lo)
            h->write_lo = s->vaddr;
    }
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (!elf)
        return;
    size_t n = 0;
    GElf_Ehdr eh;
    if (gelf_getehdr(elf, &eh))
        h->gnu_note |= eh.e_ident[EI_OSABI] == ELFOSABI_GNU;
    if (elf_getphdrnum(elf, &n) == 0)
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(elf, (int)i, &ph))
                continue;
            h->interp |= ph.p_type == PT_INTERP;
            h->dynamic |= ph.p_type == PT_DYNAMIC;
        }
    scan_sections(elf, h);
    elf_end(elf);
}

/* Linux RISC-V syscall numbers a libc's start, exit, I/O and allocator use (asm-generic/unistd.h).
 */
static bool linux_number(uint64_t n)
{
    static const uint16_t nums[] = {17,  29,  56,  57,  62,  63,  64,  66,  78,  79,  80,
                                    93,  94,  96,  98,  99,  113, 124, 129, 131, 134, 135,
                                    160, 169, 172, 178, 214, 215, 222, 226, 233, 261, 278};
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
        if (n == nums[i])
            return true;
    return false;
}

static bool any_of(const struct consts *c, bool (*pred)(uint64_t))
{
    for (unsigned i = 0; i < c->n; i++)
        if (pred(c->v[i]))
            return true;
    return false;
}

static bool all_of(const struct consts *c, bool (*pred)(uint64_t))
{
    for (unsigned i = 0; i < c->n; i++)
        if (!pred(c->v[i]))
            return false;
    return c->n > 0;
}

static bool nexus03_number(uint64_t n)
{
    return (n >= 0x200 && n <= 0x201) || (n >= 0x400 && n <= 0x405);
}

static bool nexus02_number(uint64_t n)
{
    return n >= 1 && n <= 5;
}

static bool risc0_kind(uint64_t n)
{
    return n <= 7;
}

/* SP1's codes that RISC Zero's kinds (0..7) do not have: COMMIT 0x10, HINT_LEN/READ 0xF0/0xF1,
 * precompiles. */
static bool sp1_code(uint64_t n)
{
    return n == 0x10 || n == 0x1a || n == 0x1b || n == 0xf0 || n == 0xf1 || (n >> 8 & 0xff) == 0x01;
}

/* Everything detection looked at. */
struct facts {
    const struct elf_image *img;
    struct header_facts h;
    struct code_facts c;
};

/* A rule: when `fits`, the ABI, with why. */
struct rule {
    const struct abi *(*decide)(const struct facts *f, char *why, size_t size);
};

static const struct abi *zisk_rule(const struct facts *f, char *why, size_t size)
{
    const struct header_facts *h = &f->h;
    if (f->img->xlen != 64 || h->exec_lo < RAM_0x8 || h->exec_hi > ZISK_ROM_END)
        return NULL;
    if (f->c.zisk_csrs) {
        snprintf(why, size,
                 "%u csrs/csrw of CSRs 0x800..0x8ff (ZisK's precompiles) in code at 0x%llx",
                 f->c.zisk_csrs, (unsigned long long)h->exec_lo);
        return &abi_zisk;
    }
    if (h->write_lo >= ZISK_RAM && h->write_lo < ZISK_RAM_END) {
        snprintf(
            why, size,
            "code at 0x%llx (ZisK's ROM, from 0x80000000) and data at 0x%llx (ZisK's RAM, from "
            "0xa0000000)%s",
            (unsigned long long)h->exec_lo, (unsigned long long)h->write_lo,
            h->go_note ? ", a Go program" : "");
        return &abi_zisk;
    }
    return NULL;
}

static const struct abi *jolt_rule(const struct facts *f, char *why, size_t size)
{
    const struct header_facts *h = &f->h;
    const struct code_facts *c = &f->c;
    if (h->load_lo != RAM_0x8 || (h->write_lo != UINT64_MAX && h->write_lo >= ZISK_RAM))
        return NULL;
    bool calls = consts_has(&c->a0, 0xC7C1E) || consts_has(&c->a0, 0x505249);
    if (!c->lui_below_0x8 && !c->custom0_rd0_small && !c->custom2 && !calls)
        return NULL;
    snprintf(why, size, "all segments from 0x80000000 (Jolt's RAM) and code that reaches %s",
             c->lui_below_0x8 ? "the I/O region below it (lui 0x7fff_x000)"
             : calls          ? "Jolt's cycle or print call (ecall, a0 0xc7c1e / 0x505249)"
                              : "Jolt's inline instructions (custom-0 rd x0, custom-2)");
    return &abi_jolt;
}

static const struct abi *nexus_rule(const struct facts *f, char *why, size_t size)
{
    const struct header_facts *h = &f->h;
    const struct code_facts *c = &f->c;
    if (f->img->xlen != 32)
        return NULL;
    if (h->nexus_note)
        snprintf(why, size, "a .note.nexus-precompiles section (nexus-precompiles' registry)");
    else if (any_of(&c->a7, nexus03_number) && !any_of(&c->a7, linux_number))
        snprintf(why, size,
                 "ecalls with Nexus 0.3's numbers in a7 (0x200.. write/exit, 0x400.. input)");
    else if (text_at(h, NEXUS_TEXT) && h->exec_lo != 0)
        snprintf(why, size, "code from 0x88 (Nexus 0.3's ELF_TEXT_START)");
    else if (h->exec_lo == 0 && all_of(&c->s2, nexus02_number) && !any_of(&c->a7, linux_number))
        snprintf(why, size, "code from 0 and ecalls with their number in s2 (Nexus 0.2's runtime)");
    else
        return NULL;
    return &abi_nexus;
}

/*
 * Code elsewhere than 0x200800 (OpenVM runs an ELF wherever it is linked,
 * as its toolchain tests are): no ecall at all, OpenVM's terminate, and
 * no custom-0 word outside OpenVM's funct3 0..3.
 */
static bool openvm_elsewhere(const struct code_facts *c)
{
    unsigned others = 0;
    for (int i = 4; i < 8; i++)
        others += c->custom0[i];
    return !c->ecalls && c->custom0_exit && !others && !c->custom2 && !c->lui_below_0x8;
}

static const struct abi *openvm_rule(const struct facts *f, char *why, size_t size)
{
    const struct code_facts *c = &f->c;
    if (!text_at(&f->h, OPENVM_TEXT) && openvm_elsewhere(c)) {
        snprintf(why, size,
                 "code at 0x%llx with no ecall and OpenVM's terminate (custom-0 funct3 0, rd = "
                 "rs1 = x0)",
                 (unsigned long long)f->h.exec_lo);
        return &abi_openvm;
    }
    /* OpenVM guests make no ecall; one with no call number set is no call of another zkVM. */
    if (!text_at(&f->h, OPENVM_TEXT) || !c->custom0[0] || c->t0.n || c->a7.n)
        return NULL;
    snprintf(
        why, size,
        "code at 0x200800, no zkVM's ecall, and OpenVM's custom-0 instructions (%u terminate, %u "
        "hint/reveal/phantom)",
        c->custom0[0], c->custom0[1] + c->custom0[2] + c->custom0[3]);
    return &abi_openvm;
}

static const struct abi *sp1_rule(const struct facts *f, char *why, size_t size)
{
    const struct code_facts *c = &f->c;
    bool v6 = f->img->xlen == 64 && text_at(&f->h, SP1_V6_TEXT);
    bool at_ecalls = any_of(&c->t0, sp1_code);
    if ((!text_at(&f->h, OPENVM_TEXT) && !v6) || !c->ecalls || any_of(&c->a7, linux_number) ||
        (!at_ecalls && c->sp1_codes.n < 2))
        return NULL;
    snprintf(why, size, "code at %s and %s", v6 ? "0x78000800 (SP1 v6)" : "0x200800",
             at_ecalls ? "ecalls with SP1's syscall codes in t0 (0x10 COMMIT, 0xf0 HINT_LEN, "
                         "0x1_01xx precompiles)"
                       : "SP1's precompile codes (0x00XX_01YY) built for its ecalls");
    return &abi_sp1;
}

static const struct abi *risc0_rule(const struct facts *f, char *why, size_t size)
{
    const struct code_facts *c = &f->c;
    if (f->img->xlen != 32 || !all_of(&c->t0, risc0_kind) || c->a7.n)
        return NULL;
    snprintf(why, size,
             "ecalls with RISC Zero's kinds in t0 (0 HALT .. 7 POSEIDON2) and no "
             "number in a7");
    return &abi_risc0;
}

/* lambda_vm's calls that Linux does not number so: Print 1, Panic 2, precompiles 2^64-1 down. */
static bool lambda_number(uint64_t n)
{
    return n == 1 || n == 2 || n >= UINT64_MAX - 63;
}

static const struct abi *lambda_rule(const struct facts *f, char *why, size_t size)
{
    if (f->img->xlen != 64 || !any_of(&f->c.a7, lambda_number))
        return NULL;
    snprintf(why, size,
             "ecalls with lambda_vm's numbers in a7 (1 Print, 2 Panic, 2^64-1.. "
             "precompiles; executor/src/vm/syscalls)");
    return &abi_lambda;
}

/*
 * Where GNU ld's elf32/64lriscv emulations put a static Linux executable's
 * first segment (binutils ld/emulparams/elf32lriscv-defs.sh TEXT_START_ADDR
 * 0x10000); no zkVM's toolchain links there (their texts start at 0x88,
 * 0x0020_0800, 0x0800_0000, 0x2000_0000, 0x7800_0000, 0x8000_0000).
 */
#define LINUX_TEXT_SEGMENT 0x10000

static const struct abi *linux_rule(const struct facts *f, char *why, size_t size)
{
    const struct header_facts *h = &f->h;
    if (h->interp || h->dynamic)
        snprintf(why, size, "a dynamically linked Linux program (PT_INTERP / PT_DYNAMIC)");
    else if (h->gnu_note)
        snprintf(why, size, "a GNU/Linux ABI note");
    else if (any_of(&f->c.a7, linux_number))
        snprintf(why, size, "no zkVM's marks; ecalls with Linux syscall numbers in a7");
    else if (h->load_lo == LINUX_TEXT_SEGMENT)
        snprintf(why, size,
                 "no zkVM's marks; loaded from 0x10000, where GNU ld links a static RISC-V Linux "
                 "program (its default -Ttext-segment), and no zkVM does");
    else
        return NULL;
    return &abi_linux;
}

static const struct rule rules[] = {{zisk_rule}, {jolt_rule},  {nexus_rule},  {openvm_rule},
                                    {sp1_rule},  {risc0_rule}, {lambda_rule}, {linux_rule}};

/* The zkVMs whose memory map the segments fit, for the message when nothing decides. */
static void candidates(const struct facts *f, char *out, size_t size)
{
    const struct header_facts *h = &f->h;
    const char *list;
    if (text_at(h, OPENVM_TEXT))
        list = abi_by_name("pico") ? "openvm sp1 pico risc0" : "openvm sp1 risc0";
    else if (h->load_lo >= RAM_0x8 && h->exec_hi <= ZISK_ROM_END)
        list = f->img->xlen == 64 ? "jolt zisk" : "jolt";
    else if (f->img->xlen == 32 && h->exec_lo < 0x10000) /* Airbender links at 0 too */
        list = abi_by_name("airbender") ? "nexus airbender" : "nexus";
    else
        list = f->img->xlen == 64 ? "zisk jolt sp1 openvm lambda" : "risc0 sp1 openvm nexus";
    char tries[200] = "";
    size_t at = 0;
    char names[64];
    snprintf(names, sizeof(names), "%s", list);
    for (char *save, *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save))
        at += (size_t)snprintf(tries + at, sizeof(tries) - at, "%s--zkvm %s", at ? ", " : "", t);
    snprintf(out, size,
             "no zkVM's marks (symbols, strings, memory map, custom instructions, ecall numbers) "
             "decide which zkVM this RV%d guest is for, and it is no Linux program (no PT_INTERP, "
             "no Linux syscall numbers); its entry at 0x%llx fits %s: try %s",
             f->img->xlen, (unsigned long long)f->img->entry, list, tries);
}

const struct abi *detect_from_code(const struct elf_image *img, char *reason, size_t reason_size)
{
    struct facts f = {.img = img};
    scan_headers(img, &f.h);
    scan_code(img, &f.c);
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        const struct abi *a = rules[i].decide(&f, reason, reason_size);
        if (a)
            return a;
    }
    candidates(&f, reason, reason_size);
    return NULL;
}

size_t code_load_addresses(const struct elf_image *img, uint64_t lo, uint64_t hi, uint64_t *out,
                           size_t max)
{
    struct code_facts f = {.watch_lo = lo, .watch_hi = hi};
    scan_code(img, &f);
    size_t n = f.loads.n < max ? f.loads.n : max;
    memcpy(out, f.loads.v, n * sizeof(*out));
    return n;
}

/*
 * ZisK's float library (lib-float/c/lib/ziskfloat.elf) is linked at
 * FLOAT_LIB_ROM_ADDR 0x87F0_0000 with its RAM at 0xBFFF_0000, and ZisK's
 * elf2rom puts it into every guest's ROM beside the guest
 * (0xPolygonHermez/zisk core/src/mem.rs, core/src/elf2rom.rs,
 * lib-float/c/scripts/link.ld at 6182c8be).
 */
static bool zisk_float_library(const struct elf_image *img, const struct header_facts *h)
{
    return img->xlen == 64 && h->exec_lo >= 0x87F00000 && h->exec_hi <= ZISK_ROM_END;
}

/* Whether an executable segment holds `mret` (0x30200073): machine-mode code, no user program's. */
static bool has_mret(const struct elf_image *img)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        for (uint64_t at = 0; (s->rights & SEG_X) && at + 4 <= s->filesz; at += 4) {
            uint32_t w;
            memcpy(&w, s->data + at, 4);
            if (w == 0x30200073)
                return true;
        }
    }
    return false;
}

/*
 * RISC Zero's v1compat kernel runs in machine mode in [KERNEL_START_ADDR
 * 0xC000_0000, KERNEL_END_ADDR 0xFF00_0000) and returns to the user
 * program with `mret` (risc0/risc0 risc0/circuit/rv32im/src/execute/
 * platform.rs, risc0/zkos/v1compat/src/kernel.s at v3.0.6, 1cc70cf0);
 * user programs lie below it and have no mret.
 */
static bool risc0_kernel(const struct elf_image *img, const struct header_facts *h)
{
    return img->xlen == 32 && h->exec_lo >= 0xC0000000 && img->entry >= 0xC0000000 &&
           img->entry < 0xFF000000 && has_mret(img);
}

bool detect_not_program(const struct elf_image *img, char *why, size_t why_size)
{
    struct header_facts h = {0};
    scan_headers(img, &h);
    if (zisk_float_library(img, &h))
        snprintf(why, why_size,
                 "this is ZisK's float library (ziskfloat.elf, ROM at 0x87f00000), which ZisK "
                 "links beside each guest, not a program: pass the guest's ELF (ZisK adds the "
                 "library itself)");
    else if (risc0_kernel(img, &h))
        snprintf(why, why_size,
                 "this is RISC Zero's machine-mode kernel (code from 0x%llx, in the kernel region "
                 "from 0xc0000000 above the user memory), not a program: pass the user ELF, or the "
                 "program "
                 "binary (R0BF) that holds the user ELF and this kernel",
                 (unsigned long long)h.exec_lo);
    else if (abi_elf_without_code(img))
        snprintf(why, why_size,
                 "this ELF is without its code (no executable section with bytes), kept for its "
                 "symbols as ZKsync Airbender's app.elf is (dump_bin.sh writes it with `objcopy "
                 "-R .text`): run the program it came from (Airbender: app.bin --zkvm airbender "
                 "--symbols app.elf)");
    else
        return false;
    return true;
}
