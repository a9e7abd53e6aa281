/*
 * test_perf_frames: the frame rules of docs/PERF.md#folding-rules (perf/fold/frame_name.h),
 * rule by rule with their edge cases, and the taking apart of `perf
 * script` header and frame lines (perf/fold/script_line.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perf/fold/event_match.h"
#include "perf/fold/frame_name.h"
#include "perf/fold/script_line.h"

static char result[1024];

/* The frame of (sym, module, addr), copied into `result`. */
static const char *frame_opts(const char *sym, const char *module, uint64_t addr, bool addrs,
                              bool java)
{
    struct perf_name n = {0};
    const struct perf_name_opts o = {.addrs = addrs};
    const struct perf_frame f = {.sym = sym,
                                 .sym_len = sym ? strlen(sym) : 0,
                                 .module = module,
                                 .module_len = module ? strlen(module) : 0,
                                 .addr = addr,
                                 .java = java};
    assert_int_equal(perf_frame_name(&n, &f, &o), 0);
    assert_true(n.len < sizeof(result));
    memcpy(result, n.data ? n.data : "", n.len);
    result[n.len] = '\0';
    assert_int_equal(strlen(result), n.len);
    perf_name_free(&n);
    return result;
}

static const char *frame(const char *sym)
{
    return frame_opts(sym, "/usr/bin/prog", 0x1234, false, false);
}

static const char *comm(const char *name, int64_t pid, int64_t tid, bool want_pid, bool want_tid)
{
    struct perf_name n = {0};
    const struct perf_name_opts o = {.pid = want_pid, .tid = want_tid};
    assert_int_equal(perf_comm_name(&n, name, strlen(name), pid, tid, &o), 0);
    snprintf(result, sizeof(result), "%s", n.data);
    perf_name_free(&n);
    return result;
}

static void test_offset_is_stripped(void **state)
{
    (void)state;
    assert_string_equal(frame("main+0x1f"), "main");
    assert_string_equal(frame("cpu_startup_entry+0x800047c022ec"), "cpu_startup_entry");
    assert_string_equal(frame("main"), "main");
    /* Only a trailing "+0x<lowercase hex>" is an offset. */
    assert_string_equal(frame("main+0x"), "main+0x");
    assert_string_equal(frame("main+0x1F"), "main+0x1F");
    assert_string_equal(frame("operator+0x10+0x4"), "operator+0x10");
    assert_string_equal(frame("a+0x1fz"), "a+0x1fz");
}

static void test_arguments_are_cut(void **state)
{
    (void)state;
    assert_string_equal(frame("std::vector<int, std::allocator<int> >::push_back(int const&)+0x2a"),
                        "std::vector<int, std::allocator<int> >::push_back");
    assert_string_equal(frame("foo(int)"), "foo");
    assert_string_equal(frame("foo()"), "foo");
    assert_string_equal(frame("ns::Cls::method(char const*) const"), "ns::Cls::method");
    /* From the first "(" outside <>, {}, [] and (), whatever follows. */
    assert_string_equal(frame("std::function<void (int)>::operator()(int) const"),
                        "std::function<void (int)>::operator");
    assert_string_equal(frame("{lambda(int, int)#2}::operator()"),
                        "{lambda(int, int)#2}::operator");
    assert_string_equal(frame("foo<Vec::<usize>>(Vec<usize>)"), "foo<Vec::<usize>>");
    assert_string_equal(frame("[(foo)]::bar()"), "[(foo)]::bar");
    assert_string_equal(frame("unbalanced(int"), "unbalanced");
    assert_string_equal(frame("a>b(int)"), "a>b");
    /* Operators open and close no bracket. */
    assert_string_equal(frame("std::operator<< <std::char_traits<char> >(std::ostream&, char)"),
                        "std::operator<< <std::char_traits<char> >");
    assert_string_equal(frame("bool operator<(A const&, A const&)"), "bool operator<");
    assert_string_equal(frame("X::operator[](unsigned long)"), "X::operator[]");
    assert_string_equal(frame("X::operator->() const"), "X::operator->");
    assert_string_equal(frame("myoperator<(int)>(x)"), "myoperator<(int)>");
}

/* A frame with the annotation options. */
static const char *annotated(const char *sym, const char *module, bool kernel, bool jit)
{
    struct perf_name n = {0};
    const struct perf_name_opts o = {.kernel = kernel, .jit = jit};
    const struct perf_frame f = {.sym = sym,
                                 .sym_len = strlen(sym),
                                 .module = module,
                                 .module_len = strlen(module),
                                 .addr = 0x10};
    assert_int_equal(perf_frame_name(&n, &f, &o), 0);
    snprintf(result, sizeof(result), "%s", n.data);
    perf_name_free(&n);
    return result;
}

static void test_annotations(void **state)
{
    (void)state;
    assert_string_equal(annotated("f+0x1", "[kernel.kallsyms]", true, false), "f_[k]");
    assert_string_equal(annotated("f", "[nf_conntrack_ipv4]", true, true), "f_[k]");
    assert_string_equal(annotated("f", "/lib/modules/4.3/build/vmlinux", true, false), "f_[k]");
    assert_string_equal(annotated("f", "/boot/vmlinux-5.4.14-x-2020.1.11", true, false), "f_[k]");
    assert_string_equal(annotated("f", "/lib/modules/5.4/mlx5_core.ko", true, false), "f_[k]");
    assert_string_equal(annotated("[unknown]", "[kernel.kallsyms]", true, false),
                        "[[kernel.kallsyms]]_[k]");
    assert_string_equal(annotated("[unknown]", "[unknown]", true, true), "[unknown]");
    assert_string_equal(annotated("f", "/usr/lib/libc.so.6", true, true), "f");
    assert_string_equal(annotated("f", "/boot/vmlinux-5 x", true, false), "f");
    assert_string_equal(annotated("f", "[kernel.kallsyms]", false, true), "f");
    assert_string_equal(annotated("Lx/Y;::p", "/tmp/perf-19982.map", false, true), "Lx/Y:::p_[j]");
    assert_string_equal(annotated("f_[j]", "/tmp/perf-1.map", false, true), "f_[j]");
    assert_string_equal(annotated("f", "/tmp/perf-.map", false, true), "f");
    assert_string_equal(annotated("fib.smx::fib+0x3c", "/tmp/jitted-31714-41.so", false, true),
                        "fib.smx::fib_[j]");
    assert_string_equal(annotated("f", "/tmp/perf-1.map", false, false), "f");
}

static void test_inline_chains(void **state)
{
    (void)state;
    /* perf-map-agent's unfolded frames: caller first, the rest marked "_[i]", ';'-joined. */
    assert_string_equal(annotated("La/B;::f->Lc/D;::g->e(I)V", "/tmp/perf-1.map", false, true),
                        "La/B:::f_[j];Lc/D:::g_[i];e_[i]");
    assert_string_equal(annotated("a->b_[i]", "/x", false, false), "a;b_[i]");
    assert_string_equal(annotated("X::operator->() const+0x4", "/x", false, false),
                        "X::operator->");
    assert_string_equal(frame_opts("Lx/Y;.a->Lx/Z;.b", "/tmp/perf-1.map", 1, false, true),
                        "x/Y:.a;x/Z:.b_[i]");
}

static void test_rust_legacy_names(void **state)
{
    (void)state;
    assert_string_equal(frame("std::sys::unix::fs::File::open::hb90e1c1c787080f0"),
                        "std::sys::unix::fs::File::open");
    assert_string_equal(frame("_$LT$std..fs..ReadDir$u20$as$u20$core..iter..traits..iterator.."
                              "Iterator$GT$::next::hc14f1750ca79129b"),
                        "<std::fs::ReadDir as core::iter::traits::iterator::Iterator>::next");
    assert_string_equal(frame("rg::search_parallel::_$u7b$$u7b$closure$u7d$$u7d$::"
                              "h6e849b55a66fcd85+0x1c"),
                        "rg::search_parallel::_{{closure}}");
    assert_string_equal(frame("_$LT$$RF$std..fs..File$u20$as$u20$std..io..Read$GT$::read::"
                              "h5d84059cf335c8e6"),
                        "<&std::fs::File as std::io::Read>::read");
    /* An unknown escape ends the decoding; no hash, no change. */
    assert_string_equal(frame("a..b$zz$c..d::h0123456789abcdef"), "a::b$zz$c..d");
    assert_string_equal(frame("_ZN4test1a2bcE"), "_ZN4test1a2bcE");
    assert_string_equal(frame("a..b::h0123456789abcdeg"), "a..b::h0123456789abcdeg");
}

static void test_anonymous_namespace_is_kept(void **state)
{
    (void)state;
    assert_string_equal(frame("(anonymous namespace)::foo(int)"), "(anonymous namespace)::foo");
    assert_string_equal(frame("(anonymous namespace)::foo(int)+0x10"),
                        "(anonymous namespace)::foo");
    assert_string_equal(frame("ns::(anonymous namespace)::Impl::run((anonymous namespace)::X)"),
                        "ns::(anonymous namespace)::Impl::run");
    assert_string_equal(frame("(anonymous namespace)::(anonymous namespace)::f"),
                        "(anonymous namespace)::(anonymous namespace)::f");
    /* Only the exact words. */
    assert_string_equal(frame("(anonymous)::f"), "");
    assert_string_equal(frame("(anonymous namespace"), "");
}

static void test_go_names_keep_parentheses(void **state)
{
    (void)state;
    assert_string_equal(frame("net/http.(*Client).Do"), "net/http.(*Client).Do");
    assert_string_equal(frame("net/http.(*Client).Do+0x4f"), "net/http.(*Client).Do");
    assert_string_equal(frame("main.(*T).Method"), "main.(*T).Method");
    assert_string_equal(frame("runtime.(*mheap).alloc.func1"), "runtime.(*mheap).alloc.func1");
    /* ".(" without a later ")." is not Go: cut as usual. */
    assert_string_equal(frame("a.(b)"), "a.");
    assert_string_equal(frame("f(x).g"), "f");
}

static void test_quotes_and_semicolons(void **state)
{
    (void)state;
    assert_string_equal(frame("RegExp:[&<>\\\"\\']"), "RegExp:[&<>\\\\]");
    assert_string_equal(frame("say \"hi\""), "say hi");
    assert_string_equal(frame("it's"), "its");
    assert_string_equal(frame("a;b;c"), "a:b:c");
    assert_string_equal(frame("Lfoo;.bar(I)V"), "Lfoo:.bar");
    assert_string_equal(frame("\"\""), ""); /* nothing left: the frame is left out */
}

static void test_java_tidy(void **state)
{
    (void)state;
    assert_string_equal(frame_opts("Lorg/mozilla/javascript/ContextFactory;.call(Lorg/mozilla/"
                                   "javascript/ContextAction;)Ljava/lang/Object;",
                                   "/tmp/perf-1.map", 0, false, true),
                        "org/mozilla/javascript/ContextFactory:.call");
    assert_string_equal(frame_opts("LFoo;.bar", "/tmp/perf-1.map", 0, false, true), "LFoo:.bar");
    assert_string_equal(frame_opts("Lorg/x/Y;.m", "/tmp/perf-1.map", 0, false, false),
                        "Lorg/x/Y:.m");
    assert_true(perf_comm_is_java("java", 4));
    assert_true(perf_comm_is_java("java_thread", 11));
    assert_false(perf_comm_is_java("jav", 3));
    assert_false(perf_comm_is_java("C2 CompilerThre", 15));
}

static void test_unknown_symbols(void **state)
{
    (void)state;
    assert_string_equal(frame_opts("[unknown]", "[unknown]", 0x7f12ab, false, false), "[unknown]");
    assert_string_equal(frame_opts("[unknown]", NULL, 0x7f12ab, false, false), "[unknown]");
    assert_string_equal(frame_opts(NULL, NULL, 0x7f12ab, false, false), "[unknown]");
    assert_string_equal(frame_opts("", "", 0x7f12ab, false, false), "[unknown]");
    assert_string_equal(
        frame_opts("[unknown]", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f12ab, false, false),
        "[libc.so.6]");
    assert_string_equal(frame_opts(NULL, "libfoo.so", 1, false, false), "[libfoo.so]");
    assert_string_equal(frame_opts("[unknown]", "[kernel.kallsyms]", 1, false, false),
                        "[[kernel.kallsyms]]");
    assert_string_equal(frame_opts("[unknown]", "/tmp/perf-4242.map", 1, false, false),
                        "[perf-4242.map]");
    /* The module is not put through the symbol rules (but ";" still goes). */
    assert_string_equal(frame_opts("[unknown]", "/x/a.out (deleted)", 1, false, false),
                        "[a.out (deleted)]");
    assert_string_equal(frame_opts("[unknown]", "/x/we;ird.so", 1, false, false), "[we:ird.so]");
    /* A symbol that merely contains "[unknown]" is a symbol. */
    assert_string_equal(frame_opts("[unknown]x", "/lib/a.so", 1, false, false), "[unknown]x");
}

static void test_addrs(void **state)
{
    (void)state;
    assert_string_equal(frame_opts("[unknown]", "/usr/lib/libc.so.6", 0x7f12ab, true, false),
                        "[libc.so.6 <7f12ab>]");
    assert_string_equal(frame_opts("[unknown]", "[unknown]", 0x7f12ab, true, false),
                        "[unknown <7f12ab>]");
    assert_string_equal(frame_opts("[unknown]", "[unknown]", 0, true, false), "[unknown <0>]");
    assert_string_equal(frame_opts("[unknown]", NULL, 0xffffffff8103ce3bull, true, false),
                        "[unknown <ffffffff8103ce3b>]");
    /* A frame with a symbol keeps no address. */
    assert_string_equal(frame_opts("main+0x9", "/bin/prog", 0x1059, true, false), "main");
}

static void test_comm(void **state)
{
    (void)state;
    assert_string_equal(comm("prog", 12, 13, false, false), "prog");
    assert_string_equal(comm("V8 WorkerThread", 12, 13, false, false), "V8_WorkerThread");
    assert_string_equal(comm("a  b", -1, 13, false, false), "a__b");
    assert_string_equal(comm("prog", 12, 13, true, false), "prog-12");
    assert_string_equal(comm("prog", 12, 13, false, true), "prog-12/13");
    assert_string_equal(comm("prog", 12, 13, true, true), "prog-12/13");
    assert_string_equal(comm(":-1", -1, -1, false, true), ":-1--1/-1");
    assert_string_equal(comm("prog", PERF_ID_UNKNOWN, 13, true, false), "prog-?");
    assert_string_equal(comm("prog", PERF_ID_UNKNOWN, 13, false, true), "prog-?/13");
    assert_string_equal(comm("swapper", 0, 0, false, true), "swapper-0/0");
    assert_string_equal(comm("Web Content", 7, 8, false, true), "Web_Content-7/8");
    assert_string_equal(comm("semi;colon", 7, 8, false, false), "semi:colon");
}

static void test_symbol_tidy_in_place(void **state)
{
    (void)state;
    char name[] = "ns::f(int)+0x10";
    size_t len = perf_symbol_tidy(name, strlen(name), false);
    assert_int_equal(len, 5);
    assert_memory_equal(name, "ns::f", 5);
}

/* Header of `line`, asserting it parses. */
static struct script_header header(const char *line)
{
    struct script_header h;
    if (!script_header_parse(line, strlen(line), &h))
        fail_msg("not a header: '%s'", line);
    return h;
}

static void assert_header(const char *line, const char *want_comm, int64_t pid, int64_t tid)
{
    struct script_header h = header(line);
    char got[256];
    snprintf(got, sizeof(got), "%.*s", (int)h.comm_len, h.comm);
    assert_string_equal(got, want_comm);
    assert_int_equal(h.pid, pid);
    assert_int_equal(h.tid, tid);
}

static void test_header_fields(void **state)
{
    (void)state;
    assert_header("java 25607 4794564.109216: 1 cycles:", "java", PERF_ID_UNKNOWN, 25607);
    assert_header("java 12688 [002] 6544038.708352: 235 cpu-clock:", "java", PERF_ID_UNKNOWN,
                  12688);
    assert_header("V8 WorkerThread 25607 4794564.109216: 104345 cycles:", "V8 WorkerThread",
                  PERF_ID_UNKNOWN, 25607);
    assert_header("java 24636/25607 [000] 4794564.109216: 1 cycles:", "java", 24636, 25607);
    assert_header("V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:", "V8 WorkerThread",
                  24636, 25607);
    assert_header("swapper     0 [000] 158665.570607: cpu-clock:", "swapper", PERF_ID_UNKNOWN, 0);
    assert_header("prog 21132  2738.487175:     250000 cpu-clock:ppp: ", "prog", PERF_ID_UNKNOWN,
                  21132);
    assert_header("kworker/u8:2 123/123 [001] 1.5: 1 cycles:", "kworker/u8:2", 123, 123);
    /* Numbers in the comm: the pid field is the one before cpu or time. */
    assert_header("Worker 1 1234 [000] 1.000001: 1 cycles:", "Worker 1", PERF_ID_UNKNOWN, 1234);
    assert_header("Worker 1 1234 1.000001: 1 cycles:", "Worker 1", PERF_ID_UNKNOWN, 1234);
    assert_header("a 1 2 3/4 5.5: x:", "a 1 2", 3, 4);
    /* Without cpu or time, the first number after the comm, as the script. */
    assert_header("prog 1234 250000 cycles:", "prog", PERF_ID_UNKNOWN, 1234);
    assert_header("x 7 ", "x", PERF_ID_UNKNOWN, 7);

    struct script_header h;
    assert_false(script_header_parse("x 7", 3, &h)); /* the script wants a space after it */
    assert_false(script_header_parse("\t4005d0 main (/a.out)", 21, &h));
    assert_false(script_header_parse("main;a;b 12x", 12, &h));
    assert_false(script_header_parse("no numbers here", 15, &h));
    assert_false(script_header_parse("", 0, &h));
    /* System-wide recordings: perf prints -1 for samples of no thread. */
    assert_header(":-1    -1 [000]  1234.000001:     777 cycles:", ":-1", PERF_ID_UNKNOWN, -1);
    assert_header(":-1    -1/-1 [000]  1234.000001:     777 cycles:", ":-1", -1, -1);
    assert_header("a -12 3 1.5: x:", "a -12", PERF_ID_UNKNOWN, 3);
}

static void assert_event(const char *line, const char *name, int has_period, uint64_t period)
{
    struct script_header h = header(line);
    struct script_event e;
    assert_true(script_event_parse(line, strlen(line), &h, &e));
    if (!name) {
        assert_null(e.name);
        return;
    }
    assert_non_null(e.name);
    char got[128];
    snprintf(got, sizeof(got), "%.*s", (int)e.name_len, e.name);
    assert_string_equal(got, name);
    assert_int_equal(e.has_period, has_period);
    if (has_period)
        assert_int_equal(e.period, period);
}

static void test_header_event_and_period(void **state)
{
    (void)state;
    assert_event("prog 21132  2738.487175:     250000 cpu-clock:ppp: ", "cpu-clock:ppp", 1, 250000);
    assert_event("java 25607 4794564.109216: cycles:", "cycles", 0, 0);
    assert_event("java 25607 [001] 4794564.109216: 0 cycles:u:", "cycles:u", 1, 0);
    assert_event("p 1 1.5: 18446744073709551615 cycles:", "cycles", 1, UINT64_MAX);
    /* Without a time field: after the pid or cpu field (the script sees none). */
    assert_event("prog 1234     250000 cpu-clock:ppp:", "cpu-clock:ppp", 1, 250000);
    assert_event("prog 1234 [003] 250000 cycles:", "cycles", 1, 250000);
    assert_event("prog 1234 cycles:", "cycles", 0, 0);
    /* No event. */
    assert_event("prog 1234 2939.381215: ", NULL, 0, 0);
    assert_event("prog 1234 1.5: sched:sched_switch: prev_comm=a prev_pid=1", NULL, 0, 0);
    assert_event("prog 1234 1.5: 1 cycles: 4005d0 main (/a.out)", NULL, 0, 0);

    const char *big = "p 1 1.5: 18446744073709551616 cycles:";
    struct script_header h = header(big);
    struct script_event e;
    assert_false(script_event_parse(big, strlen(big), &h, &e));
}

static void test_event_matches(void **state)
{
    (void)state;
    assert_true(script_event_matches("cycles", "cycles", 6));
    assert_true(script_event_matches("cycles", "cycles:ppp", 10));
    assert_true(script_event_matches("cpu-clock", "cpu-clock:pppH", 14));
    assert_true(script_event_matches("cycles:u", "cycles:u", 8));
    assert_false(script_event_matches("cycles", "cycles:", 7));
    assert_false(script_event_matches("cycles", "instructions", 12));
    assert_false(script_event_matches("cycle", "cycles", 6));
    assert_false(script_event_matches("sched", "sched:sched_switch", 18));
    assert_false(script_event_matches("cycles:u", "cycles", 6));
}

static struct script_frame frame_line(const char *line)
{
    struct script_frame f;
    if (!script_frame_parse(line, strlen(line), &f))
        fail_msg("not a frame line: '%s'", line);
    return f;
}

static void assert_frame_line(const char *line, uint64_t addr, const char *sym, const char *module)
{
    struct script_frame f = frame_line(line);
    char got[256];
    assert_int_equal(f.addr, addr);
    snprintf(got, sizeof(got), "%.*s", (int)f.sym_len, f.sym);
    assert_string_equal(got, sym);
    if (!module) {
        assert_null(f.module);
        return;
    }
    assert_non_null(f.module);
    snprintf(got, sizeof(got), "%.*s", (int)f.module_len, f.module);
    assert_string_equal(got, module);
}

static void test_frame_lines(void **state)
{
    (void)state;
    assert_frame_line("\t            11ea c+0x9a (/tmp/pc/prog)", 0x11ea, "c+0x9a", "/tmp/pc/prog");
    assert_frame_line("\t ffffffff8103ce3b native_safe_halt ([kernel.kallsyms])",
                      0xffffffff8103ce3bull, "native_safe_halt", "[kernel.kallsyms]");
    assert_frame_line("\t               0 [unknown] ([unknown])", 0, "[unknown]", "[unknown]");
    assert_frame_line("        4005d0 foo(int) const (/a.out)", 0x4005d0, "foo(int) const",
                      "/a.out");
    assert_frame_line("\t 1219 b (inlined)", 0x1219, "b", "inlined");
    assert_frame_line("\t 1219 f (/x/a.out (deleted))", 0x1219, "f", "/x/a.out (deleted)");
    assert_frame_line("\t 1219 (/x/a.out)", 0x1219, "", "/x/a.out");
    assert_frame_line("\t 1219 main", 0x1219, "main", NULL);
    assert_frame_line("\t 1219 foo(int)", 0x1219, "foo(int)", NULL);
    assert_frame_line("\t 1219", 0x1219, "", NULL);
    assert_frame_line("\t 1219 sym (mod)\r", 0x1219, "sym", "mod");
    /* Unbalanced: the script's rule, the last " (" before the last ")". */
    assert_frame_line("\t 1 f (/we(ird)", 1, "f", "/we(ird");

    struct script_frame f;
    assert_false(script_frame_parse("prog 1 1.5: cycles:", 19, &f));
    assert_false(script_frame_parse("  prog.c:12", 11, &f));
    assert_false(script_frame_parse("\t xyz main (/a)", 15, &f));
    assert_false(script_frame_parse("\t 12345678901234567 main (/a)", 29, &f));
    assert_false(script_frame_parse("\t", 1, &f));
}

/* Frame lines without indent, in the script's "ADDR SYMBOL (MODULE)" form only. */
static void test_unindented_frame_lines(void **state)
{
    (void)state;
    struct script_frame f;
    const char *line = "7f72432b4e9a start_thread (/lib/libpthread-2.15.so)";
    assert_true(script_unindented_frame_parse(line, strlen(line), &f));
    assert_int_equal(f.addr, 0x7f72432b4e9a);
    assert_int_equal(f.sym_len, strlen("start_thread"));
    assert_memory_equal(f.sym, "start_thread", f.sym_len);
    line = "7f7241fbe6d8 arrayOopDesc::base(BasicType) const (/opt/libjvm.so)\n";
    assert_true(script_unindented_frame_parse(line, strlen(line), &f));
    static const char *const not_frames[] = {
        "prog 1 1.5: cycles:",    /* a header the header parser refused */
        "cc1 main (/usr/bin/cc1", /* no closing parenthesis */
        "abc main (a module)",    /* a module with a space */
        "xyz main (/a)",          /* no address */
        "7f72 (/a)",              /* no space before the module's parenthesis */
        "",
    };
    for (size_t i = 0; i < sizeof(not_frames) / sizeof(*not_frames); i++)
        assert_false(script_unindented_frame_parse(not_frames[i], strlen(not_frames[i]), &f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offset_is_stripped),
        cmocka_unit_test(test_arguments_are_cut),
        cmocka_unit_test(test_annotations),
        cmocka_unit_test(test_inline_chains),
        cmocka_unit_test(test_rust_legacy_names),
        cmocka_unit_test(test_anonymous_namespace_is_kept),
        cmocka_unit_test(test_go_names_keep_parentheses),
        cmocka_unit_test(test_quotes_and_semicolons),
        cmocka_unit_test(test_java_tidy),
        cmocka_unit_test(test_unknown_symbols),
        cmocka_unit_test(test_addrs),
        cmocka_unit_test(test_comm),
        cmocka_unit_test(test_symbol_tidy_in_place),
        cmocka_unit_test(test_header_fields),
        cmocka_unit_test(test_header_event_and_period),
        cmocka_unit_test(test_event_matches),
        cmocka_unit_test(test_frame_lines),
        cmocka_unit_test(test_unindented_frame_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
