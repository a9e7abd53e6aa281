/*
 * inline_query: a test-only program over symtab/inline_chain.h. Reads
 * addresses (hex, one a line) on stdin and prints for each one line
 * `0x<addr> FRAMES`: the frames outermost first, joined by `;`, the
 * function frame named from the symbol table as `cli --flamegraph` names
 * it and the inlined frames below it from DWARF, by the rules of
 * scripts/enrich_flamegraph.py (docs/FORMATS.md, "Raw folded stacks").
 * With --lines each frame gets ` (FILE:LINE)`, FILE the full path, where
 * the source line is known; without, the chains skip lines
 * (inline_chains_skip_lines), as cli's do. With --named it reads ranges instead (`LO HI`,
 * hex) and prints `0x<lo> 0x<hi> N`, N 1 when some address of [lo, hi)
 * has a named inline level (inline_chains_any_named, every 2 bytes), else
 * 0. DWARF damage is one `warning:` line on stderr. Exit 0, or 1 with an
 * `error:` line.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symtab/demangle.h"
#include "symtab/inline_chain.h"
#include "symtab/symtab.h"

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *size = n;
    return buf;
}

/* A name with `;` written `:`, as in a folded stack. */
static void put_name(const char *name)
{
    for (const char *c = name; *c; c++)
        putchar(*c == ';' ? ':' : *c);
}

static void put_location(bool lines, const char *file, unsigned line)
{
    if (lines && file && line)
        printf(" (%s:%u)", file, line);
}

/* One address's frames: the function, then the named inline levels. */
static int print_frames(const struct symtab *tab, struct inline_chains *ic, uint64_t pc, bool lines,
                        struct error *e)
{
    const struct inline_chain *chain = inline_chain_at(ic, pc, e);
    if (!chain)
        return -1;
    const struct symtab_func *func = symtab_lookup(tab, pc);
    printf("0x%" PRIx64 " ", pc);
    if (!func) { /* no function: the address alone, as cli writes it */
        printf("0x%" PRIx64, pc);
        put_location(lines, chain->file, chain->line);
        putchar('\n');
        return 0;
    }
    char *name = demangle_symbol(func->name);
    if (!name)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    put_name(name);
    free(name);
    /* A frame's line is where its inner frame was inlined; the last one's, the pc's. */
    for (size_t i = 0; i <= chain->depth; i++) {
        if (i > 0 && !chain->frames[i - 1].name)
            continue; /* an unnamed inline level is left out, its line too */
        if (i > 0) {
            putchar(';');
            put_name(chain->frames[i - 1].name);
        }
        if (i < chain->depth)
            put_location(lines, chain->frames[i].call_file, chain->frames[i].call_line);
        else
            put_location(lines, chain->file, chain->line);
    }
    putchar('\n');
    return 0;
}

/* One range's answer: whether an address in it has a named inline level. */
static int print_named(struct inline_chains *ic, const char *line, struct error *e)
{
    char *end;
    uint64_t lo = strtoull(line, &end, 16), hi = strtoull(end, NULL, 16);
    int named = inline_chains_any_named(ic, lo, hi, 2, e);
    if (named < 0)
        return -1;
    printf("0x%" PRIx64 " 0x%" PRIx64 " %d\n", lo, hi, named);
    return 0;
}

int main(int argc, char **argv)
{
    bool lines = argc == 3 && strcmp(argv[1], "--lines") == 0;
    bool named = argc == 3 && strcmp(argv[1], "--named") == 0;
    if (argc != 2 && !lines && !named) {
        fprintf(stderr, "usage: inline_query [--lines | --named] ELF < addresses or ranges\n");
        return 1;
    }
    const char *path = argv[argc - 1];
    size_t size;
    uint8_t *file = read_file(path, &size);
    if (!file) {
        fprintf(stderr, "error: cannot read %s\n", path);
        return 1;
    }
    struct error e = ERROR_INIT;
    struct symtab tab;
    struct inline_chains *ic = NULL;
    int rc = symtab_load(&tab, file, size, &e);
    if (rc == 0) {
        rc = inline_chains_open(&ic, file, size, &e);
        if (rc == 0 && !lines) /* frames alone, as cli reads them without --lines */
            inline_chains_skip_lines(ic);
        char line[64];
        while (rc == 0 && fgets(line, sizeof(line), stdin))
            rc = named ? print_named(ic, line, &e)
                       : print_frames(&tab, ic, strtoull(line, NULL, 16), lines, &e);
        if (ic && inline_chains_warning(ic))
            fprintf(stderr, "warning: %s\n", inline_chains_warning(ic));
        inline_chains_close(ic);
        symtab_free(&tab);
    }
    free(file);
    if (rc != 0) {
        fprintf(stderr, "error: %s\n", e.msg);
        return 1;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
