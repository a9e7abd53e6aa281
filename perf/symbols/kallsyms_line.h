/*
 * kallsyms_line: one "ADDRESS TYPE NAME[\t[MODULE]]" line of a kallsyms
 * text as perf's kallsyms__parse reads it, and the properties of a line
 * that perf's kernel symbol rules ask about; shared by the whole-text
 * reader (kallsyms.c) and the lazy index (kallsyms_index.c).
 */
#ifndef PERF_KALLSYMS_LINE_H
#define PERF_KALLSYMS_LINE_H

#include <ctype.h>
#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/hex.h"
struct kallsyms_line {
    uint64_t addr;
    char type;
    const char *name; /* up to the end of the line, a module suffix included */
    size_t name_len;
};

/* perf's kallsyms__parse, one line: hex address, a space, the type, a space, the name. */
static inline bool parse_line(const char *line, size_t len, struct kallsyms_line *out)
{
    size_t i = 0;
    uint64_t addr = 0;
    for (int digit; i < len && (digit = hex_digit(line[i])) >= 0; i++)
        addr = addr * 16 + (uint64_t)digit;
    if (i == 0 || i + 3 >= len)
        return false;
    out->addr = addr;
    out->type = line[i + 1];
    out->name = line + i + 3;
    out->name_len = len - (i + 3);
    return true;
}

static inline bool type_counts(char type)
{
    int t = toupper((unsigned char)type);
    return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static inline uint8_t binding_of(char type)
{
    if (type == 'W')
        return STB_WEAK;
    return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

static inline bool is_function_type(char type)
{
    int t = toupper((unsigned char)type);
    return t == 'T' || t == 'W';
}

static inline bool is_trampoline(const struct kallsyms_line *l)
{
    static const char name[] = "__entry_SYSCALL_64_trampoline";
    return strnlen(l->name, l->name_len) == sizeof(name) - 1 &&
           memcmp(l->name, name, sizeof(name) - 1) == 0;
}

/* The length of a name in the text: to the line's end (or an earlier NUL). */
static inline size_t name_length(const char *name)
{
    size_t n = 0;
    while (name[n] != '\n' && name[n] != '\0')
        n++;
    return n;
}

#endif
