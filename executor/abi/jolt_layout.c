/*
 * jolt_layout: MemoryLayout::new's I/O addresses from a guest's declared
 * sizes (a16z/jolt @ 01f781858cd3ff3e04e3b4b801042494e1f9446a,
 * common/src/jolt_device.rs), the --jolt-memory option that spells them, and
 * the __jolt_max_*_size linker symbols that carry them in some guests.
 */
#include "executor/abi/jolt_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/abi/abi_util.h"

/* Each size as the attribute names it, and where it goes. */
struct jolt_size_name {
    const char *name;
    size_t offset; /* in struct jolt_memory */
};

static const struct jolt_size_name size_names[] = {
    {"max_input_size", offsetof(struct jolt_memory, max_input_size)},
    {"max_output_size", offsetof(struct jolt_memory, max_output_size)},
    {"max_trusted_advice_size", offsetof(struct jolt_memory, max_trusted_advice_size)},
    {"max_untrusted_advice_size", offsetof(struct jolt_memory, max_untrusted_advice_size)},
    {"stack_size", offsetof(struct jolt_memory, stack_size)},
    {"memory_size", offsetof(struct jolt_memory, memory_size)},
};
#define NSIZES    (sizeof(size_names) / sizeof(size_names[0]))
#define NIO_SIZES 4 /* the first four lay out the I/O region */

/* No size may reach this: the I/O region lies in the 2 GiB below RAM. */
#define JOLT_SIZE_MAX (1ull << 31)

struct jolt_memory jolt_memory_default(void)
{
    return (struct jolt_memory){.max_input_size = 4096,
                                .max_output_size = 4096,
                                .max_trusted_advice_size = 4096,
                                .max_untrusted_advice_size = 4096,
                                .stack_size = 4096,
                                .memory_size = 32ull << 20};
}

static uint64_t *size_field(struct jolt_memory *c, size_t i)
{
    return (uint64_t *)((char *)c + size_names[i].offset);
}

static uint64_t align_up8(uint64_t v)
{
    return (v + 7) & ~7ull;
}

static bool power_of_two_or_zero(uint64_t v)
{
    return (v & (v - 1)) == 0;
}

/* u64::next_power_of_two, for v below 2^62. */
static uint64_t next_power_of_two(uint64_t v)
{
    uint64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

int jolt_layout_compute(const struct jolt_memory *c, struct jolt_layout *l, struct error *e)
{
    const uint64_t *sizes[NIO_SIZES] = {&c->max_input_size, &c->max_output_size,
                                        &c->max_trusted_advice_size, &c->max_untrusted_advice_size};
    for (size_t i = 0; i < NIO_SIZES; i++)
        if (*sizes[i] >= JOLT_SIZE_MAX) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "Jolt's %s must leave the I/O region below RAM (got %llu)",
                       size_names[i].name, (unsigned long long)*sizes[i]);
            return -1;
        }
    uint64_t input = align_up8(c->max_input_size), output = align_up8(c->max_output_size);
    uint64_t trusted = align_up8(c->max_trusted_advice_size);
    uint64_t untrusted = align_up8(c->max_untrusted_advice_size);
    if (!power_of_two_or_zero(trusted) || !power_of_two_or_zero(untrusted)) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "Jolt's advice sizes are powers of two or 0 (got max_trusted_advice_size %llu, "
                   "max_untrusted_advice_size %llu, rounded up to 8)",
                   (unsigned long long)trusted, (unsigned long long)untrusted);
        return -1;
    }
    /* The panic and termination words take 8 bytes each; the region is a power of two of words. */
    uint64_t io_bytes = next_power_of_two((input + output + trusted + untrusted + 16) / 8) * 8;
    if (io_bytes > JOLT_RAM_START) {
        error_fail(e, ERROR_UNSUPPORTED, "Jolt's I/O region (%llu bytes) exceeds RAM_START_ADDRESS",
                   (unsigned long long)io_bytes);
        return -1;
    }
    uint64_t lowest = JOLT_RAM_START - io_bytes;
    if (trusted >= untrusted) { /* the larger (or equal) advice area comes first */
        l->trusted_advice_start = lowest;
        l->untrusted_advice_start = lowest + trusted;
    } else {
        l->untrusted_advice_start = lowest;
        l->trusted_advice_start = lowest + untrusted;
    }
    l->trusted_advice_end = l->trusted_advice_start + trusted;
    l->untrusted_advice_end = l->untrusted_advice_start + untrusted;
    l->input_start = l->trusted_advice_end > l->untrusted_advice_end ? l->trusted_advice_end
                                                                     : l->untrusted_advice_end;
    l->input_end = l->input_start + input;
    l->output_start = l->input_end;
    l->output_end = l->output_start + output;
    l->panic = l->output_end;
    l->termination = l->panic + 8;
    l->io_end = l->termination + 8;
    return 0;
}

/* A size: decimal or 0x hex digits, nothing else, below JOLT_SIZE_MAX. */
static bool parse_size(const char *s, size_t len, uint64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    bool hex = len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    const char *digits = hex ? buf + 2 : buf;
    for (const char *p = digits; *p; p++)
        if (!(hex ? strchr("0123456789abcdefABCDEF", *p) : strchr("0123456789", *p)))
            return false;
    errno = 0;
    unsigned long long v = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno || v >= JOLT_SIZE_MAX)
        return false;
    *out = v;
    return true;
}

static int size_index(const char *name, size_t len)
{
    for (size_t i = 0; i < NSIZES; i++)
        if (strlen(size_names[i].name) == len && memcmp(size_names[i].name, name, len) == 0)
            return (int)i;
    return -1;
}

/* One NAME=N item of the spec. */
static int parse_item(const char *item, size_t len, struct jolt_memory *c, bool seen[NSIZES],
                      struct error *e)
{
    const char *eq = memchr(item, '=', len);
    if (!eq) {
        error_fail(e, ERROR_UNSUPPORTED, "'%.*s' is not NAME=N", (int)len, item);
        return -1;
    }
    int i = size_index(item, (size_t)(eq - item));
    if (i < 0) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "unknown size '%.*s' (the names are max_input_size, max_output_size, "
                   "max_trusted_advice_size, max_untrusted_advice_size, stack_size, memory_size)",
                   (int)(eq - item), item);
        return -1;
    }
    if (seen[i]) {
        error_fail(e, ERROR_UNSUPPORTED, "%s given twice", size_names[i].name);
        return -1;
    }
    seen[i] = true;
    const char *value = eq + 1;
    if (!parse_size(value, len - (size_t)(value - item), size_field(c, (size_t)i))) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "%s wants a byte count below 2^31 in decimal or 0x hex, not '%.*s'",
                   size_names[i].name, (int)(len - (size_t)(value - item)), value);
        return -1;
    }
    return 0;
}

int jolt_memory_parse(const char *spec, struct jolt_memory *c, struct error *e)
{
    bool seen[NSIZES] = {false};
    const char *p = spec;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (parse_item(p, len, c, seen, e) != 0)
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* What jolt_memory_from_symbols finds. */
struct symbol_scan {
    struct jolt_memory *c;
    bool found;
};

static void take_size_symbol(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name)
{
    struct symbol_scan *sc = ctx;
    (void)elf;
    if (strncmp(name, "__jolt_", 7) != 0 || sym->st_shndx == SHN_UNDEF)
        return;
    int i = size_index(name + 7, strlen(name + 7));
    if (i < 0 || i >= NIO_SIZES)
        return;
    *size_field(sc->c, (size_t)i) = sym->st_value;
    sc->found = true;
}

bool jolt_memory_from_symbols(const struct elf_image *img, struct jolt_memory *c)
{
    struct symbol_scan sc = {.c = c, .found = false};
    abi_each_symbol(img, take_size_symbol, &sc);
    return sc.found;
}

void jolt_memory_format(const struct jolt_memory *c, char *buf, size_t size)
{
    snprintf(buf, size,
             "max_input_size=%llu,max_output_size=%llu,max_trusted_advice_size=%llu,"
             "max_untrusted_advice_size=%llu",
             (unsigned long long)c->max_input_size, (unsigned long long)c->max_output_size,
             (unsigned long long)c->max_trusted_advice_size,
             (unsigned long long)c->max_untrusted_advice_size);
}
