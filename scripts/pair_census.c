/*
 * pair_census: how often each pair of operations runs one after the other
 * in a guest, the figure from which executor/interp_pairs.h is chosen
 * (scripts/pair_census drives it; docs/PERFORMANCE.md, "Fused pairs").
 *
 * usage: pair_census GUEST.elf RAW.folded
 *
 * RAW.folded is `cli execute --flamegraph-raw` of a guest built with DWARF,
 * whose frames end in `@0x<pc>`: the instructions retired at each pc. An
 * instruction at pc that is not a jump falls through to pc + its length;
 * the pair (op at pc, op at pc + length) ran at most as often as the
 * rarer of the two, and that count (an upper bound where a branch is
 * taken) is its weight. The pairs are printed one a line, "FIRST SECOND
 * WEIGHT", the operations as decode.c names them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "executor/decode.h"
#include "executor/elf_image.h"

/* Retired counts by pc, an open-addressed table. */
struct pc_counts {
    uint64_t *pc;
    uint64_t *count;
    size_t cap; /* a power of two */
    size_t used;
};

static size_t slot_of(const struct pc_counts *t, uint64_t pc)
{
    size_t i = (size_t)(pc * 0x9E3779B97F4A7C15ull) & (t->cap - 1);
    while (t->pc[i] && t->pc[i] != pc)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static int counts_grow(struct pc_counts *t)
{
    struct pc_counts n = {calloc(t->cap * 2, 8), calloc(t->cap * 2, 8), t->cap * 2, t->used};
    if (!n.pc || !n.count) {
        free(n.pc);
        free(n.count);
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (t->pc[i]) {
            size_t j = slot_of(&n, t->pc[i]);
            n.pc[j] = t->pc[i];
            n.count[j] = t->count[i];
        }
    }
    free(t->pc);
    free(t->count);
    *t = n;
    return 0;
}

static int counts_add(struct pc_counts *t, uint64_t pc, uint64_t n)
{
    if (2 * (t->used + 1) > t->cap && counts_grow(t) != 0)
        return -1;
    size_t i = slot_of(t, pc);
    if (!t->pc[i]) {
        t->pc[i] = pc;
        t->used++;
    }
    t->count[i] += n;
    return 0;
}

static uint64_t counts_get(const struct pc_counts *t, uint64_t pc)
{
    size_t i = slot_of(t, pc);
    return t->pc[i] ? t->count[i] : 0;
}

/* Adds one raw line's count to the pc after its last '@'; lines without one are skipped. */
static int read_raw(FILE *f, struct pc_counts *t)
{
    char *line = NULL;
    size_t size = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &size, f) > 0) {
        char *at = strrchr(line, '@');
        char *space = strrchr(line, ' ');
        if (!at || !space || space < at)
            continue;
        uint64_t pc = strtoull(at + 1, NULL, 16);
        uint64_t n = strtoull(space + 1, NULL, 10);
        if (pc && n)
            rc = counts_add(t, pc, n);
    }
    free(line);
    return rc;
}

/* The instruction at pc as the hart decodes it (OP_ILLEGAL where no segment holds it). */
static struct insn insn_at(const struct elf_image *img, uint64_t pc)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (pc < s->vaddr || pc + 2 > s->vaddr + s->filesz)
            continue;
        const uint8_t *p = s->data + (pc - s->vaddr);
        uint16_t half = (uint16_t)(p[0] | p[1] << 8);
        if (img->rvc && (half & 3) != 3)
            return decode_compressed(half, img->xlen);
        if (pc + 4 > s->vaddr + s->filesz)
            break;
        return decode_insn((uint32_t)half | (uint32_t)(p[2] | p[3] << 8) << 16, img->xlen);
    }
    return (struct insn){.op = OP_ILLEGAL};
}

static int is_jump(unsigned op)
{
    const char *name = insn_op_name(op);
    return strstr(name, "JAL") != NULL; /* JAL, JALR, their _CALL, _RET and C_ forms */
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pair_census GUEST.elf RAW.folded\n");
        return 64;
    }
    struct elf_image img;
    struct error e = ERROR_INIT;
    struct elf_limits limits = {.address_space_end = UINT64_MAX};
    if (elf_image_load(argv[1], &limits, &img, &e) != 0) {
        fprintf(stderr, "error: %s\n", e.msg);
        return 65;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 66;
    }
    struct pc_counts t = {calloc(1024, 8), calloc(1024, 8), 1024, 0};
    if (!t.pc || !t.count || read_raw(f, &t) != 0) {
        fprintf(stderr, "error: out of memory\n");
        return 71;
    }
    fclose(f);
    static uint64_t pairs[OP_COUNT][OP_COUNT];
    for (size_t i = 0; i < t.cap; i++) {
        if (!t.pc[i])
            continue;
        uint64_t pc = t.pc[i];
        unsigned first = insn_at(&img, pc).op;
        if (is_jump(first))
            continue;
        uint64_t next = pc + insn_op_length(first);
        uint64_t both = counts_get(&t, next);
        if (both > t.count[i])
            both = t.count[i];
        if (both)
            pairs[first][insn_at(&img, next).op] += both;
    }
    for (unsigned a = 0; a < OP_COUNT; a++)
        for (unsigned b = 0; b < OP_COUNT; b++)
            if (pairs[a][b])
                printf("%s %s %" PRIu64 "\n", insn_op_name(a), insn_op_name(b), pairs[a][b]);
    free(t.pc);
    free(t.count);
    elf_image_free(&img);
    return 0;
}
