/*
 * palette: name hash -> three numbers in [0, 1] -> a color in the
 * palette's range (the ranges of flamegraph.pl's palettes), and the
 * language guesses of the lang palette.
 */
#include "flamegraph/palette.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

const char palette_names[] =
    "hot, mem, io, red, green, blue, aqua, yellow, purple, orange, gray, lang "
    "(java, js, perl, rust)";

static const struct {
    const char *name;
    enum palette palette;
} palette_table[] = {
    {"hot", PALETTE_HOT},       {"mem", PALETTE_MEM},       {"io", PALETTE_IO},
    {"red", PALETTE_RED},       {"green", PALETTE_GREEN},   {"blue", PALETTE_BLUE},
    {"aqua", PALETTE_AQUA},     {"yellow", PALETTE_YELLOW}, {"purple", PALETTE_PURPLE},
    {"orange", PALETTE_ORANGE}, {"gray", PALETTE_GRAY},     {"grey", PALETTE_GRAY},
    {"lang", PALETTE_LANG},     {"java", PALETTE_LANG},     {"js", PALETTE_LANG},
    {"perl", PALETTE_LANG},     {"rust", PALETTE_LANG},
};

bool palette_parse(const char *name, enum palette *out)
{
    for (size_t i = 0; i < sizeof(palette_table) / sizeof(palette_table[0]); i++) {
        if (strcmp(name, palette_table[i].name) == 0) {
            *out = palette_table[i].palette;
            return true;
        }
    }
    return false;
}

/* Three independent numbers in [0, 1] from the name: FNV-1a, then a 64-bit finalizer. */
static void name_hash(const char *s, size_t len, double v[3])
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    for (int i = 0; i < 3; i++)
        v[i] = (double)((h >> (21 * i)) & 0x1fffff) / (double)0x1fffff;
}

static uint8_t channel(double base, double span, double v)
{
    double c = base + span * v;
    return (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
}

/* flamegraph.pl's palette ranges, with v from the name's hash. */
static struct rgb basic_color(enum palette p, const double v[3])
{
    switch (p) {
    case PALETTE_MEM: return (struct rgb){0, channel(190, 50, v[1]), channel(0, 210, v[0])};
    case PALETTE_IO:
        return (struct rgb){channel(80, 60, v[0]), channel(80, 60, v[0]), channel(190, 55, v[1])};
    case PALETTE_RED:
        return (struct rgb){channel(200, 55, v[0]), channel(50, 80, v[0]), channel(50, 80, v[0])};
    case PALETTE_GREEN:
        return (struct rgb){channel(50, 60, v[0]), channel(200, 55, v[0]), channel(50, 60, v[0])};
    case PALETTE_BLUE:
        return (struct rgb){channel(80, 60, v[0]), channel(80, 60, v[0]), channel(205, 50, v[0])};
    case PALETTE_AQUA:
        return (struct rgb){channel(50, 60, v[0]), channel(165, 55, v[0]), channel(165, 55, v[0])};
    case PALETTE_YELLOW:
        return (struct rgb){channel(175, 55, v[0]), channel(175, 55, v[0]), channel(50, 20, v[0])};
    case PALETTE_PURPLE:
        return (struct rgb){channel(190, 65, v[0]), channel(80, 60, v[0]), channel(190, 65, v[0])};
    case PALETTE_ORANGE: return (struct rgb){channel(190, 65, v[0]), channel(90, 65, v[0]), 0};
    case PALETTE_GRAY:
        return (struct rgb){channel(160, 50, v[0]), channel(160, 50, v[0]), channel(160, 50, v[0])};
    case PALETTE_HOT:
    case PALETTE_LANG:
    default:
        return (struct rgb){channel(205, 50, v[2]), channel(0, 230, v[0]), channel(0, 55, v[1])};
    }
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static bool contains(const char *s, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, needle, n) == 0)
            return true;
    return false;
}

static bool all_hex(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool is_hex_address(const char *s, size_t len)
{
    return len > 2 && starts_with(s, len, "0x") && all_hex(s + 2, len - 2);
}

/* Rust's legacy symbol hash: "::h" and 16 hex digits at the end. */
static bool has_rust_hash(const char *s, size_t len)
{
    return len > 19 && memcmp(s + len - 19, "::h", 3) == 0 && all_hex(s + len - 16, 16);
}

static bool is_rust_std(const char *s, size_t len)
{
    static const char *const prefixes[] = {
        "core::",       "alloc::",        "<core::",    "<alloc::",          "<std::",
        "std::rt::",    "std::io::",      "std::sys::", "std::sys_common::", "std::panicking::",
        "std::panic::", "std::backtrace", "std::fs::",  "std::env::",        "std::process::",
    };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (starts_with(s, len, prefixes[i]))
            return true;
    return false;
}

static bool is_rust_user(const char *s, size_t len)
{
    return contains(s, len, "{{closure}}") || contains(s, len, " as ") ||
           contains(s, len, "$LT$") || contains(s, len, "::{{") || has_rust_hash(s, len) ||
           (len > 0 && s[0] == '<' && contains(s, len, "::"));
}

static bool is_script(const char *s, size_t len)
{
    static const char *const exts[] = {".py", ".js", ".mjs", ".rb", ".pl", ".pm", ".php", ".lua"};
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        size_t n = strlen(exts[i]);
        for (size_t j = 0; j + n <= len; j++) {
            if (memcmp(s + j, exts[i], n) != 0)
                continue;
            char after = j + n < len ? s[j + n] : '\0';
            if (after == ':' || after == ')' || after == '\0')
                return true;
        }
    }
    return false;
}

static bool is_java(const char *s, size_t len)
{
    static const char *const prefixes[] = {"java/",  "javax/", "jdk/", "sun/", "Ljava/", "java.",
                                           "javax.", "jdk.",   "sun.", "org/", "com/"};
    if (ends_with(s, len, "_[j]") || ends_with(s, len, "_[i]"))
        return true;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (starts_with(s, len, prefixes[i]))
            return true;
    return false;
}

/* GCC's clone suffixes (foo.part.0, foo.cold, foo.isra.0, ...) keep a C name a C name. */
static bool is_c_clone(const char *dot, size_t len)
{
    static const char *const suffixes[] = {".part",     ".cold", ".isra",       ".constprop",
                                           ".lto_priv", ".llvm", ".localalias", ".clone"};
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        if (starts_with(dot, len, suffixes[i]))
            return true;
    return false;
}

/* Go: package path, a dot, a name (runtime.mallocgc, net/http.(*Client).Do). */
static bool is_go(const char *s, size_t len)
{
    if (contains(s, len, "::") || memchr(s, ' ', len))
        return false;
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/')
            slash = s + i;
    const char *from = slash ? slash + 1 : s;
    const char *dot = memchr(from, '.', len - (size_t)(from - s));
    if (!dot || dot == s || dot + 1 == s + len)
        return false;
    return !is_c_clone(dot, len - (size_t)(dot - s));
}

enum language palette_language(const char *s, size_t len)
{
    if (len == 0 || is_hex_address(s, len) || starts_with(s, len, "[unknown"))
        return LANG_UNKNOWN;
    if (ends_with(s, len, "_[k]") || contains(s, len, "kernel.kallsyms") ||
        starts_with(s, len, "[kernel"))
        return LANG_KERNEL;
    if (s[0] == '[')
        return LANG_UNKNOWN; /* [libc.so.6]: a module without symbols */
    if (is_java(s, len))
        return LANG_JAVA;
    if (is_script(s, len))
        return LANG_SCRIPT;
    if (is_rust_std(s, len))
        return LANG_RUST_STD;
    if (is_rust_user(s, len))
        return LANG_RUST;
    if (contains(s, len, "::") || contains(s, len, "operator") || memchr(s, '<', len))
        return LANG_CPP;
    if (is_go(s, len))
        return LANG_GO;
    return LANG_C;
}

static enum palette language_palette(enum language l)
{
    switch (l) {
    case LANG_CPP: return PALETTE_YELLOW;
    case LANG_RUST: return PALETTE_AQUA;
    case LANG_RUST_STD: return PALETTE_ORANGE;
    case LANG_GO: return PALETTE_BLUE;
    case LANG_JAVA: return PALETTE_GREEN;
    case LANG_SCRIPT: return PALETTE_PURPLE;
    case LANG_KERNEL: return PALETTE_ORANGE;
    case LANG_UNKNOWN: return PALETTE_GRAY;
    case LANG_C:
    default: return PALETTE_RED;
    }
}

struct rgb palette_color(enum palette p, const char *s, size_t len)
{
    double v[3];
    name_hash(s, len, v);
    if (p == PALETTE_LANG)
        p = language_palette(palette_language(s, len));
    return basic_color(p, v);
}

struct rgb palette_diff_color(double delta, double max_abs_delta)
{
    if (delta == 0 || max_abs_delta <= 0)
        return (struct rgb){250, 250, 250};
    double share = fabs(delta) / max_abs_delta;
    /* From 220 (a tiny change) down to 80, so black text stays readable. */
    uint8_t pale = (uint8_t)lround(220.0 - 140.0 * (share > 1 ? 1 : share));
    if (delta > 0)
        return (struct rgb){255, pale, pale};
    return (struct rgb){pale, pale, 255};
}
