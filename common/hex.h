/*
 * hex: the value of one hexadecimal digit, the one helper every text
 * reader here needs (kallsyms, /proc/PID/maps, OCaml's $xx escapes, the
 * precompile harnesses' requests).
 */
#ifndef COMMON_HEX_H
#define COMMON_HEX_H

/* 0-15 for '0'-'9', 'a'-'f', 'A'-'F'; -1 for any other character. */
static inline int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
