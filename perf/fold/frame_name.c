/*
 * frame_name: comm and call-chain entries -> folded frame names (docs/PERF.md#folding-rules), rule
 * by rule as stackcollapse-perf.pl applies them.
 *
 * Where this differs from the script, docs/PERF.md ("Where this departs from
 * stackcollapse-perf.pl") says why:
 *   - "(anonymous namespace)::f(int)" is "(anonymous namespace)::f"; the
 *     script drops every symbol that starts with "(", this one included.
 *   - "[module basename]" is not put through the symbol rules: a module
 *     "/x/a.out (deleted)" gives "[a.out (deleted)]", not "[a.out ".
 *   - The argument list is cut at the first "(" outside <>, {}, [] and (),
 *     as inferno cuts it, so that template and lambda names stay whole.
 *   - Legacy Rust names are tidied, as inferno tidies them.
 *   - "operator->" is not split as an inline chain.
 *   - ";" in a comm becomes ":" and a newline anywhere a space, so that a
 *     name never breaks the folded format.
 */
#include "perf/fold/frame_name.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void perf_name_free(struct perf_name *n)
{
    free(n->data);
    n->data = NULL;
    n->len = n->cap = 0;
}

static int name_reserve(struct perf_name *n, size_t need)
{
    if (need + 1 <= n->cap)
        return 0;
    size_t cap = n->cap ? n->cap : 64;
    while (cap < need + 1)
        cap *= 2;
    char *data = realloc(n->data, cap);
    if (!data)
        return -1;
    n->data = data;
    n->cap = cap;
    return 0;
}

static int name_append(struct perf_name *n, const char *s, size_t len)
{
    if (name_reserve(n, n->len + len))
        return -1;
    memcpy(n->data + n->len, s, len);
    n->len += len;
    n->data[n->len] = '\0';
    return 0;
}

static int name_set(struct perf_name *n, const char *s, size_t len)
{
    n->len = 0;
    if (name_reserve(n, len))
        return -1;
    return name_append(n, s, len);
}

/* ";" would split the frame and a newline the line: ";" -> ":", newline -> " ". */
static void make_folded_safe(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ';')
            s[i] = ':';
        else if (s[i] == '\n')
            s[i] = ' ';
    }
}

/* The length without a trailing "+0x<lowercase hex>" (perf's symoff). */
static size_t strip_offset(const char *s, size_t len)
{
    size_t i = len;
    while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || (s[i - 1] >= 'a' && s[i - 1] <= 'f')))
        i--;
    if (i == len || i < 3 || memcmp(s + i - 3, "+0x", 3) != 0)
        return len;
    return i - 3;
}

/* A Go method such as "net/http.(*Client).Do": ".(" and, later, ")." */
static bool is_go_name(const char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] != '.' || s[i + 1] != '(')
            continue;
        for (size_t j = i + 2; j + 1 < len; j++)
            if (s[j] == ')' && s[j + 1] == '.')
                return true;
        return false;
    }
    return false;
}

static bool is_ident(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * The characters of the operator named at s[i..) by an "operator" that
 * ends at i ("operator<<", "operator->", "operator[]"): stepped over, so
 * that they open or close no bracket. "operator()" is 0: its "(" is where
 * the name is cut, as the script cuts it.
 */
static size_t operator_symbol(const char *s, size_t len, size_t i)
{
    static const char ops[] = "<>=!+-*/%^&|~,[]";
    if (i < 8 || memcmp(s + i - 8, "operator", 8) != 0 || (i > 8 && is_ident(s[i - 9])))
        return 0;
    size_t e = i;
    while (e < len && s[e] != '\0' && strchr(ops, s[e]))
        e++;
    return e - i;
}

/*
 * The argument list's start: the first "(" outside every <>, {}, [] and
 * () group, so that "std::function<int (int)>::operator()(int)" is
 * "std::function<int (int)>::operator" and "{lambda(int)#1}::operator()"
 * keeps its lambda, as inferno cuts (the script cuts at the first "(",
 * halving them); "(anonymous namespace)" is never a cut point.
 */
static size_t cut_arguments(const char *s, size_t len)
{
    static const char anon[] = "(anonymous namespace)";
    const size_t anon_len = sizeof(anon) - 1;
    size_t depth = 0;
    for (size_t i = 0; i < len; i++) {
        i += operator_symbol(s, len, i);
        if (i >= len)
            break;
        switch (s[i]) {
        case '(':
            if (depth == 0 && !(len - i >= anon_len && memcmp(s + i, anon, anon_len) == 0))
                return i;
            depth++;
            break;
        case '<':
        case '{':
        case '[': depth++; break;
        case ')':
        case '>':
        case '}':
        case ']': depth -= depth > 0; break;
        default: break;
        }
    }
    return len;
}

static size_t drop_quotes(char *s, size_t len)
{
    size_t w = 0;
    for (size_t r = 0; r < len; r++)
        if (s[r] != '"' && s[r] != '\'')
            s[w++] = s[r];
    return w;
}

/* Java signatures: "Lorg/x/Y:.m" -> "org/x/Y:.m" (after the other rules). */
static size_t java_tidy(char *s, size_t len)
{
    if (len == 0 || s[0] != 'L' || !memchr(s, '/', len))
        return len;
    memmove(s, s + 1, len - 1);
    return len - 1;
}

/* The symbol rules after the offset's removal, in place. */
static size_t tidy(char *name, size_t len, bool java)
{
    make_folded_safe(name, len);
    if (!is_go_name(name, len))
        len = cut_arguments(name, len);
    len = drop_quotes(name, len);
    if (java)
        len = java_tidy(name, len);
    return len;
}

size_t perf_symbol_tidy(char *name, size_t len, bool java)
{
    return tidy(name, strip_offset(name, len), java);
}

/* A legacy Rust escape ("$LT$") at the start of s[..len) and what it stands for. */
static bool rust_escape(const char *s, size_t len, size_t *escape_len, char *c)
{
    static const struct {
        const char *text;
        char c;
    } escapes[] = {
        {"$SP$", '@'},   {"$BP$", '*'},  {"$RF$", '&'},  {"$LT$", '<'},  {"$GT$", '>'},
        {"$LP$", '('},   {"$RP$", ')'},  {"$C$", ','},   {"$u7e$", '~'}, {"$u20$", ' '},
        {"$u27$", '\''}, {"$u3d$", '='}, {"$u5b$", '['}, {"$u5d$", ']'}, {"$u7b$", '{'},
        {"$u7d$", '}'},  {"$u3b$", ';'}, {"$u2b$", '+'}, {"$u21$", '!'}, {"$u22$", '"'},
    };
    for (size_t i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
        size_t n = strlen(escapes[i].text);
        if (n <= len && memcmp(s, escapes[i].text, n) == 0) {
            *escape_len = n;
            *c = escapes[i].c;
            return true;
        }
    }
    return false;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * A legacy-mangled Rust name perf left half demangled
 * ("_$LT$std..fs..File$u20$as$u20$Read$GT$::read::h5d84059cf335c8e6"),
 * tidied as inferno tidies it: the "h" and 16 hex digits of the hash (and
 * the "::" before them) dropped, "_$" at the start made "$", ".." made
 * "::", "$LT$" "<" and the other escapes their character; the first
 * unknown escape ends the decoding. A name without such a hash is left
 * alone. In place: the result is never longer.
 */
static size_t rust_legacy_tidy(char *s, size_t len)
{
    if (len < 17 || s[len - 17] != 'h')
        return len;
    for (size_t i = len - 16; i < len; i++)
        if (!is_hex(s[i]))
            return len;
    len -= 17;
    if (len >= 2 && s[len - 2] == ':' && s[len - 1] == ':')
        len -= 2;
    size_t r = len >= 2 && s[0] == '_' && s[1] == '$' ? 1 : 0, w = 0;
    while (r < len) {
        size_t n;
        char c;
        if (s[r] == '.' && r + 1 < len && s[r + 1] == '.') {
            s[w++] = ':';
            s[w++] = ':';
            r += 2;
        } else if (s[r] != '$') {
            s[w++] = s[r++];
        } else if (rust_escape(s + r, len - r, &n, &c)) {
            s[w++] = c;
            r += n;
        } else {
            memmove(s + w, s + r, len - r);
            w += len - r;
            break;
        }
    }
    return w;
}

/* The next "->" of an inline chain in s[from..len), not "operator->"; len when none. */
static size_t next_arrow(const char *s, size_t len, size_t from)
{
    for (size_t i = from; i + 1 < len; i++)
        if (s[i] == '-' && s[i + 1] == '>' && !(i >= 8 && memcmp(s + i - 8, "operator", 8) == 0))
            return i;
    return len;
}

static bool is_unknown(const char *s, size_t len)
{
    return !s || len == 0 || (len == 9 && memcmp(s, "[unknown]", 9) == 0);
}

/* Where `what` first occurs in s[..len), or NULL. */
static const char *find(const char *s, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, what, n) == 0)
            return s + i;
    return NULL;
}

static bool contains(const char *s, size_t len, const char *what)
{
    return find(s, len, what) != NULL;
}

/*
 * A kernel module: the script's "[kernel.kallsyms]", "[nf_conntrack]" and
 * ".../vmlinux", and, as inferno, ".../vmlinux-5.4.14-x" and "x.ko"; none
 * with "unknown" in it.
 */
static bool is_kernel_module(const char *m, size_t len)
{
    if (!m || len == 0 || contains(m, len, "unknown"))
        return false;
    if (m[0] == '[' || (len >= 3 && memcmp(m + len - 3, ".ko", 3) == 0))
        return true;
    const char *v = NULL;
    for (const char *p = m; (p = find(p, len - (size_t)(p - m), "vmlinux")); p++)
        v = p;
    if (!v)
        return false;
    for (const char *p = v; p < m + len; p++)
        if (!is_ident(*p) && *p != '-' && *p != '.')
            return false;
    return true;
}

/*
 * A JIT's module: the script's "/tmp/perf-PID.map" (anywhere in it), and,
 * as inferno, the "/jitted-*.so" files of `perf inject --jit`.
 */
static bool is_jit_module(const char *m, size_t len)
{
    if (!m)
        return false;
    for (const char *p = m; (p = find(p, len - (size_t)(p - m), "/tmp/perf-")); p++) {
        size_t i = (size_t)(p - m) + 10, d = i;
        while (d < len && m[d] >= '0' && m[d] <= '9')
            d++;
        if (d > i && len - d >= 4 && memcmp(m + d, ".map", 4) == 0)
            return true;
    }
    return contains(m, len, "/jitted-") && len >= 3 && memcmp(m + len - 3, ".so", 3) == 0;
}

/* "[unknown]" or "[basename]", with --addrs "[... <addr>]", appended to out. */
static int unknown_frame(struct perf_name *out, const struct perf_frame *f,
                         const struct perf_name_opts *o)
{
    const char *base = "unknown";
    size_t base_len = 7;
    if (!is_unknown(f->module, f->module_len)) {
        base = f->module;
        base_len = f->module_len;
        for (size_t i = f->module_len; i > 0; i--) {
            if (f->module[i - 1] == '/') {
                base = f->module + i;
                base_len = f->module_len - i;
                break;
            }
        }
    }
    char addr[32] = "";
    if (o->addrs)
        snprintf(addr, sizeof(addr), " <%" PRIx64 ">", f->addr);
    size_t at = out->len;
    if (name_append(out, "[", 1) || name_append(out, base, base_len) ||
        name_append(out, addr, strlen(addr)) || name_append(out, "]", 1))
        return -1;
    make_folded_safe(out->data + at, out->len - at);
    return 0;
}

/*
 * The script's annotations on the frame at out->data[at..]: "_[i]" on
 * each frame of an inline chain after its first, else "_[k]" (--kernel)
 * or "_[j]" (--jit) from the module; a name that has the mark already
 * gets no second one.
 */
static int annotate(struct perf_name *out, size_t at, bool inlined, const struct perf_frame *f,
                    const struct perf_name_opts *o)
{
    const char *name = out->data + at;
    size_t len = out->len - at;
    if (inlined)
        return contains(name, len, "_[i]") ? 0 : name_append(out, "_[i]", 4);
    if (o->kernel && is_kernel_module(f->module, f->module_len))
        return name_append(out, "_[k]", 4);
    if (o->jit && is_jit_module(f->module, f->module_len) && !contains(name, len, "_[j]"))
        return name_append(out, "_[j]", 4);
    return 0;
}

/* One frame of an inline chain, s[..len) untidied, appended to out. */
static int chain_frame(struct perf_name *out, const char *s, size_t len, bool inlined,
                       const struct perf_frame *f, const struct perf_name_opts *o)
{
    if (inlined && name_append(out, ";", 1))
        return -1;
    size_t at = out->len;
    if (len == 9 && memcmp(s, "[unknown]", 9) == 0) {
        if (unknown_frame(out, f, o))
            return -1;
    } else {
        if (name_append(out, s, len))
            return -1;
        out->len = at + tidy(out->data + at, len, f->java);
        out->data[out->len] = '\0';
    }
    return annotate(out, at, inlined, f, o);
}

int perf_frame_name(struct perf_name *out, const struct perf_frame *f,
                    const struct perf_name_opts *o)
{
    out->len = 0;
    if (name_reserve(out, 0))
        return -1;
    out->data[0] = '\0';
    size_t sym_len = f->sym ? strip_offset(f->sym, f->sym_len) : 0;
    if (is_unknown(f->sym, sym_len))
        return unknown_frame(out, f, o) || annotate(out, 0, false, f, o) ? -1 : 0;
    if (f->sym[0] == '(' && cut_arguments(f->sym, sym_len) == 0)
        return 0; /* the script skips these (process names) */
    char *raw = malloc(sym_len + 1);
    if (!raw)
        return -1;
    memcpy(raw, f->sym, sym_len);
    size_t raw_len = rust_legacy_tidy(raw, sym_len);
    int rc = 0;
    for (size_t p = 0, e; rc == 0 && p <= raw_len; p = e + 2) {
        e = next_arrow(raw, raw_len, p);
        rc = chain_frame(out, raw + p, e - p, p > 0, f, o);
    }
    free(raw);
    return rc;
}

static void format_id(char *buf, size_t size, int64_t id)
{
    if (id == PERF_ID_UNKNOWN)
        snprintf(buf, size, "?");
    else
        snprintf(buf, size, "%" PRId64, id);
}

int perf_comm_name(struct perf_name *out, const char *comm, size_t len, int64_t pid, int64_t tid,
                   const struct perf_name_opts *o)
{
    char pid_text[24], tid_text[24], suffix[64] = "";
    format_id(pid_text, sizeof(pid_text), pid);
    format_id(tid_text, sizeof(tid_text), tid);
    if (o->tid)
        snprintf(suffix, sizeof(suffix), "-%s/%s", pid_text, tid_text);
    else if (o->pid)
        snprintf(suffix, sizeof(suffix), "-%s", pid_text);
    if (name_set(out, comm, len) || name_append(out, suffix, strlen(suffix)))
        return -1;
    make_folded_safe(out->data, out->len);
    for (size_t i = 0; i < out->len; i++)
        if (out->data[i] == ' ')
            out->data[i] = '_';
    return 0;
}

bool perf_comm_is_java(const char *comm, size_t len)
{
    return len >= 4 && memcmp(comm, "java", 4) == 0;
}
