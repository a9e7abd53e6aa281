/*
 * script_line: header and frame lines of `perf script` text, taken apart
 * by hand with the same results as stackcollapse-perf.pl's regexes on
 * what perf prints (differences are noted at each function).
 */
#include "perf/fold/script_line.h"

#include <string.h>

#include "perf/fold/frame_name.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t skip_space(const char *s, size_t len, size_t p)
{
    while (p < len && is_space(s[p]))
        p++;
    return p;
}

/* Decimal digits at s[p..): their end, or 0 when there are none or too many. */
static size_t parse_decimal(const char *s, size_t len, size_t p, int64_t *value)
{
    size_t e = p;
    int64_t v = 0;
    while (e < len && is_digit(s[e]) && e - p < 18)
        v = v * 10 + (s[e++] - '0');
    if (e == p || (e < len && is_digit(s[e])))
        return 0;
    *value = v;
    return e;
}

/*
 * A pid or tid at s[p..): decimal digits, or "-1", which perf prints for
 * samples of no thread (system-wide recordings); its end, or 0.
 */
static size_t parse_id(const char *s, size_t len, size_t p, int64_t *value)
{
    if (p + 2 <= len && s[p] == '-' && s[p + 1] == '1' && (p + 2 == len || !is_digit(s[p + 2]))) {
        *value = -1;
        return p + 2;
    }
    return parse_decimal(s, len, p, value);
}

/* "A" or "A/B" at s[p..) followed by a space: the field's end, or 0. */
static size_t pid_field(const char *s, size_t len, size_t p, int64_t *a, int64_t *b)
{
    size_t e = parse_id(s, len, p, a);
    if (!e)
        return 0;
    *b = PERF_ID_UNKNOWN;
    if (e < len && s[e] == '/' && !(e = parse_id(s, len, e + 1, b)))
        return 0;
    return e < len && is_space(s[e]) ? e : 0;
}

/* The end of a "[003]" cpu field at s[p..), or 0. */
static size_t cpu_field(const char *s, size_t len, size_t p)
{
    if (p >= len || s[p] != '[')
        return 0;
    size_t e = p + 1;
    while (e < len && is_digit(s[e]))
        e++;
    return e > p + 1 && e < len && s[e] == ']' ? e + 1 : 0;
}

/* The end of a "2738.487175:" time field at s[p..), or 0. */
static size_t time_field(const char *s, size_t len, size_t p)
{
    size_t e = p;
    while (e < len && is_digit(s[e]))
        e++;
    if (e == p || e >= len || s[e] != '.')
        return 0;
    size_t f = ++e;
    while (e < len && is_digit(s[e]))
        e++;
    return e > f && e < len && s[e] == ':' ? e + 1 : 0;
}

/* "[003]" (cpu) or "2738.487175:" (time) at s[p..). */
static bool cpu_or_time_at(const char *s, size_t len, size_t p)
{
    return cpu_field(s, len, p) || time_field(s, len, p);
}

struct pid_candidate {
    size_t comm_end, field_end;
    int64_t a, b;
};

/* The script's candidate: the shortest comm followed by a pid field. */
static bool first_candidate(const char *s, size_t len, struct pid_candidate *c)
{
    for (size_t i = 1; i < len; i++) {
        if (!is_space(s[i]) || is_space(s[i - 1]))
            continue;
        size_t e = pid_field(s, len, skip_space(s, len, i), &c->a, &c->b);
        if (e) {
            c->comm_end = i;
            c->field_end = e;
            return true;
        }
    }
    return false;
}

/*
 * Differs from the script (whose regex ends the comm at the first number
 * and needs two characters of comm): in a run of pid-like numbers the one
 * before the cpu or time field is the pid field, so "Worker 1 1234 [000]"
 * is comm "Worker 1"; a one-letter comm is a comm.
 */
bool script_header_parse(const char *line, size_t len, struct script_header *h)
{
    if (len == 0 || is_space(line[0]))
        return false;
    struct pid_candidate first, c;
    if (!first_candidate(line, len, &first))
        return false;
    struct pid_candidate chosen = first;
    for (c = first;;) {
        size_t next = skip_space(line, len, c.field_end);
        if (cpu_or_time_at(line, len, next)) {
            chosen = c;
            break;
        }
        struct pid_candidate n = {.comm_end = c.field_end};
        if (!(n.field_end = pid_field(line, len, next, &n.a, &n.b)))
            break;
        c = n;
    }
    h->comm = line;
    h->comm_len = chosen.comm_end;
    if (chosen.b == PERF_ID_UNKNOWN) { /* perf script's default: the TID alone */
        h->pid = PERF_ID_UNKNOWN;
        h->tid = chosen.a;
    } else {
        h->pid = chosen.a;
        h->tid = chosen.b;
    }
    size_t cpu = cpu_field(line, len, skip_space(line, len, chosen.field_end));
    h->fields_end = cpu ? cpu : chosen.field_end;
    return true;
}

/* Parses decimal s[p..e) into *v; false when it does not fit. */
static bool parse_period(const char *s, size_t p, size_t e, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = p; i < e; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

/* Whether the "[PERIOD] EVENT:" tail may start after s[..p): a ':' or the header fields. */
static bool tail_anchor(const char *s, size_t p, const struct script_header *h)
{
    return p == h->fields_end || (p > 0 && s[p - 1] == ':');
}

bool script_event_parse(const char *line, size_t len, const struct script_header *h,
                        struct script_event *e)
{
    *e = (struct script_event){0};
    while (len > 0 && is_space(line[len - 1]))
        len--;
    if (len < 2 || line[len - 1] != ':')
        return true;
    size_t name_end = len - 1, name = name_end;
    while (name > 0 && !is_space(line[name - 1]))
        name--;
    if (name == name_end || name == 0)
        return true;
    size_t digits_end = name; /* back over the spaces, the period, the spaces */
    while (digits_end > 0 && is_space(line[digits_end - 1]))
        digits_end--;
    size_t digits = digits_end;
    while (digits > 0 && is_digit(line[digits - 1]))
        digits--;
    size_t before = digits;
    while (before > 0 && is_space(line[before - 1]))
        before--;
    bool with_period =
        digits < digits_end && digits >= h->fields_end && tail_anchor(line, before, h);
    if (!with_period && !tail_anchor(line, digits_end, h))
        return true;
    if (cpu_or_time_at(line, len, name))
        return true; /* "comm tid time:" names no event */
    if (with_period) {
        if (!parse_period(line, digits, digits_end, &e->period))
            return false;
        e->has_period = true;
    }
    e->name = line + name;
    e->name_len = name_end - name;
    return true;
}

static bool is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned hex_value(char c)
{
    return is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/* The "(" that opens the group whose ")" is s[close], or SIZE_MAX. */
static size_t matching_open(const char *s, size_t close)
{
    size_t depth = 0;
    for (size_t i = close + 1; i > 0; i--) {
        if (s[i - 1] == ')')
            depth++;
        else if (s[i - 1] == '(' && --depth == 0)
            return i - 1;
    }
    return SIZE_MAX;
}

/* The script's choice: the last " (" before s[close]. */
static size_t last_space_paren(const char *s, size_t close)
{
    for (size_t i = close; i > 1; i--)
        if (s[i - 1] == '(' && s[i - 2] == ' ')
            return i - 1;
    return SIZE_MAX;
}

/*
 * "SYMBOL (MODULE)", "(MODULE)" or "SYMBOL". Differs from the script
 * (which takes the last " (" for the module's start) when the module
 * holds parentheses: "(/x/a.out (deleted))" is module "/x/a.out
 * (deleted)", not "deleted)".
 */
static void split_module(const char *s, size_t len, struct script_frame *f)
{
    f->sym = s;
    f->sym_len = len;
    f->module = NULL;
    f->module_len = 0;
    if (len < 2 || s[len - 1] != ')')
        return;
    size_t open = matching_open(s, len - 1);
    if (open == SIZE_MAX || (open > 0 && !is_space(s[open - 1])))
        open = last_space_paren(s, len - 1);
    if (open == SIZE_MAX)
        return;
    f->module = s + open + 1;
    f->module_len = len - 2 - open;
    f->sym_len = open;
    while (f->sym_len > 0 && is_space(s[f->sym_len - 1]))
        f->sym_len--;
}

/*
 * Differs from the script, which wants " (MODULE)" after a symbol: a line
 * with the address alone (perf script -F ip) or without a module (-F
 * ip,sym) is a frame too, and "ADDR (MODULE)" (-F ip,dso) is a frame
 * without a symbol (the script reads the address's last digit as one).
 */
static bool frame_at(const char *line, size_t len, struct script_frame *f)
{
    size_t p = skip_space(line, len, 0), e = p;
    uint64_t addr = 0;
    while (e < len && is_hex(line[e]) && e - p < 16)
        addr = addr << 4 | hex_value(line[e++]);
    if (e == p || (e < len && !is_space(line[e])))
        return false;
    while (len > e && is_space(line[len - 1]))
        len--;
    p = skip_space(line, len, e);
    f->addr = addr;
    split_module(line + p, len - p, f);
    return true;
}

bool script_frame_parse(const char *line, size_t len, struct script_frame *f)
{
    return len > 0 && is_space(line[0]) && frame_at(line, len, f);
}

bool script_unindented_frame_parse(const char *line, size_t len, struct script_frame *f)
{
    while (len > 0 && is_space(line[len - 1]))
        len--;
    /* the script's form: ADDR SYMBOL (MODULE), the module with no space */
    if (len < 4 || line[len - 1] != ')' || !is_hex(line[0]))
        return false;
    size_t open = matching_open(line, len - 1);
    return open > 0 && open != SIZE_MAX && line[open - 1] == ' ' &&
           !memchr(line + open, ' ', len - open) && frame_at(line, len, f) && f->sym_len > 0;
}

/*
 * Read forward, as inferno reads it: after the header's fields, an
 * optional time, an optional period, then the event: the word whose
 * last ':' is followed by white space; the frame is what comes after.
 */
bool script_sample_frame_parse(const char *line, size_t len, const struct script_header *h,
                               struct script_event *e, struct script_frame *f)
{
    *e = (struct script_event){0};
    size_t p = skip_space(line, len, h->fields_end), t = time_field(line, len, p);
    if (t)
        p = skip_space(line, len, t);
    size_t digits = p;
    while (digits < len && is_digit(line[digits]))
        digits++;
    if (digits > p && digits < len && is_space(line[digits])) {
        if (!parse_period(line, p, digits, &e->period))
            return false;
        e->has_period = true;
        p = skip_space(line, len, digits);
    }
    size_t end = p;
    while (end < len && !is_space(line[end]))
        end++;
    if (end - p < 2 || line[end - 1] != ':' || end == len)
        return false;
    e->name = line + p;
    e->name_len = end - 1 - p;
    return script_frame_parse(line + end, len - end, f) && (f->sym_len > 0 || f->module);
}
