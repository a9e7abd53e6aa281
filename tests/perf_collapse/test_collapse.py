"""`cli perf collapse`: `perf script` text -> folded stacks (docs/PERF.md#folding-rules).

Each case is a hand-written `perf script` text for one rule, with the
folded output derived by hand from docs/PERF.md#folding-rules and the logic of
stackcollapse-perf.pl (FlameGraph), not from the program's output. Where
the two differ docs/PERF.md ("Where this departs from stackcollapse-perf.pl") wins and the case says so:

- "(anonymous namespace)::f(int)" is "(anonymous namespace)::f" (the
  script drops any symbol that starts with "(");
- a period of 0 weighs 0, so the stack is left out (the script counts 1);
- a comm with a number in it ("Worker 1") keeps the number, the pid field
  being the number right before the cpu or time field;
- a period printed without a time field still weighs;
- --pid/--tid with a TID of 0 give "-0" (the script prints "-?").

And where the script goes wrong on input it was not written for:
- a module with parentheses, "(/tmp/a.out (deleted))", is one module;
- "--event cycles" also selects "cycles:u" (perf's modifiers);
- CRLF lines and two samples without a blank line between them count like
  ordinary samples;
- a header that holds its sample's one frame (perf record without -g) is
  a whole sample, its comm padded or not (inferno reads it so).

As the script: a last sample without a blank line after it is left out
(with a warning here).

All expectations were also run through stackcollapse-perf.pl (kept outside
the repository) to confirm that these are the only differences.

Output lines must come sorted bytewise, so the expectations are sorted
here before comparing.

Run: CLI=build/cli/cli python3 tests/perf_collapse/test_collapse.py [-v]
"""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "")
EXIT_USAGE, EXIT_DATAERR, EXIT_NOINPUT, EXIT_CANTCREAT = 64, 65, 66, 73

LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"


def sample(header, *frames):
    """One sample as perf script prints it: header, frames leaf first, blank line."""
    return header + "\n" + "".join("\t    " + f + "\n" for f in frames) + "\n"


def run(args, stdin=""):
    data = stdin.encode() if isinstance(stdin, str) else stdin
    p = subprocess.run([CLI, "perf", "collapse", *args], input=data, capture_output=True,
                       timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class Base(unittest.TestCase):
    def collapse(self, text, *args):
        """Runs the collapse and returns its stdout lines, checking exit 0 and order."""
        code, out, err = run(list(args), text)
        self.assertEqual(code, 0, err)
        self.assertFalse([l for l in err.splitlines() if l.startswith("error:")], err)
        lines = out.splitlines()
        self.assertEqual(lines, sorted(lines, key=lambda l: l.encode()), "not sorted bytewise")
        return lines

    def check(self, text, expected, *args):
        self.assertEqual(self.collapse(text, *args),
                         sorted(expected, key=lambda l: l.encode()))


# The basic program of the real-perf test, as perf 6.1 prints it.
ABC = (
    sample("prog 21132  2738.487175:     250000 cpu-clock:ppp: ",
           "        11ea c+0x9a (/tmp/pc/prog)",
           "        1219 b+0x9 (/tmp/pc/prog)",
           "        1239 a+0x9 (/tmp/pc/prog)",
           "        1059 main+0x9 (/tmp/pc/prog)",
           "       2724a __libc_start_call_main+0x7a (%s)" % LIBC)
    + sample("prog 21132  2738.487429:     250000 cpu-clock:ppp: ",
             "        11e7 c+0x97 (/tmp/pc/prog)",
             "        1219 b+0x9 (/tmp/pc/prog)",
             "        1239 a+0x9 (/tmp/pc/prog)",
             "        1059 main+0x9 (/tmp/pc/prog)",
             "       2724a __libc_start_call_main+0x7a (%s)" % LIBC)
    + sample("prog 21132  2738.487670:     250000 cpu-clock:ppp: ",
             "        1219 b+0x9 (/tmp/pc/prog)",
             "        1239 a+0x9 (/tmp/pc/prog)",
             "        1059 main+0x9 (/tmp/pc/prog)",
             "       2724a __libc_start_call_main+0x7a (%s)" % LIBC)
)


class Stacks(Base):
    def test_root_first_offsets_stripped_periods_summed(self):
        # perf prints leaf first; folded is comm, then outermost caller to leaf.
        self.check(ABC, [
            "prog;__libc_start_call_main;main;a;b 250000",
            "prog;__libc_start_call_main;main;a;b;c 500000",
        ])

    def test_script_documentation_example(self):
        # The example at the top of stackcollapse-perf.pl.
        text = sample("swapper     0 [000] 158665.570607: cpu-clock: ",
                      "ffffffff8103ce3b native_safe_halt ([kernel.kallsyms])",
                      "ffffffff8101c6a3 default_idle ([kernel.kallsyms])",
                      "ffffffff81013236 cpu_idle ([kernel.kallsyms])",
                      "ffffffff815bf03e rest_init ([kernel.kallsyms])",
                      "ffffffff81aebbfe start_kernel ([kernel.kallsyms].init.text)")
        self.check(text, ["swapper;start_kernel;rest_init;cpu_idle;default_idle;native_safe_halt 1"])

    def test_no_period_weighs_one(self):
        text = (sample("java 25607 4794564.109216: cycles:", "4005d0 work (/a.out)",
                       "4005e0 main (/a.out)") * 3)
        self.check(text, ["java;main;work 3"])

    def test_kernel_frames_and_user_frames(self):
        text = sample("prog 7 [001] 10.000001: 100 cycles:",
                      "ffffffff815e3648 unmap_page_range+0x3f8 ([kernel.kallsyms])",
                      "ffffffff81000000 [unknown] ([kernel.kallsyms])",
                      "ffffffff81e0012f entry_SYSCALL_64_after_hwframe+0x76 ([kernel.kallsyms])",
                      "7f0000101234 munmap+0xb (%s)" % LIBC,
                      "401136 main+0x16 (/tmp/prog)")
        self.check(text, ["prog;main;munmap;entry_SYSCALL_64_after_hwframe;"
                          "[[kernel.kallsyms]];unmap_page_range 100"])

    def test_inline_frames(self):
        # Newer perf prints an inlined function as its own line, "(inlined)".
        text = sample("prog 5 1.000001: 10 cycles:",
                      "11ea c+0x9a (/tmp/prog)",
                      "11ea b (inlined)",
                      "1239 a+0x9 (/tmp/prog)",
                      "1059 main+0x9 (/tmp/prog)")
        self.check(text, ["prog;main;a;b;c 10"])

    def test_sample_without_frames_is_its_comm(self):
        text = sample("prog 5 1.000001: 3 cycles:") + sample("prog 5 1.000002: 4 cycles:",
                                                             "1059 main (/tmp/prog)")
        self.check(text, ["prog 3", "prog;main 4"])

    def test_comments_are_skipped(self):
        text = ("# ========\n# captured on    : Thu Nov 21 2024\n# cmdline : /usr/bin/perf "
                "record -g ./prog\n# ========\n#\n") + ABC
        self.check(text, [
            "prog;__libc_start_call_main;main;a;b 250000",
            "prog;__libc_start_call_main;main;a;b;c 500000",
        ])

    def test_crlf_lines(self):
        self.check(ABC.replace("\n", "\r\n"), [
            "prog;__libc_start_call_main;main;a;b 250000",
            "prog;__libc_start_call_main;main;a;b;c 500000",
        ])

    def test_last_sample_without_blank_line_is_left_out(self):
        text = ABC + "prog 21132  2738.5: 7 cpu-clock:ppp:\n\t 1059 main+0x9 (/tmp/pc/prog)"
        self.check(text, [
            "prog;__libc_start_call_main;main;a;b 250000",
            "prog;__libc_start_call_main;main;a;b;c 500000",
        ])
        code, out, err = run([], text)
        self.assertRegex(err, r"warning: stdin: line 21: left out the last sample")

    def test_single_line_samples(self):
        # perf record without -g: the frame on the header line, no blank lines.
        text = ("           false 39654 19115.489713:          1 cycles:u:  "
                "ffffffff9b201293 [unknown] ([unknown])\n"
                "false 39654 19115.489719:          3 cycles:u:      7fa68b1f2d84 _dl_start+0x4 "
                "(/usr/lib/ld-2.31.so)\n"
                "  prog 1/2 [001] 5.000001: 4 cpu-clock:ppp:  10 f(int) (/a)\n"
                "  prog 1/2 [001] 5.000001: 5 cpu-clock:ppp:  10 f(int) (/a)\n")
        self.check(text, ["false;[unknown] 1", "false;_dl_start 3"])
        self.check(text, ["prog-1/2;f 9"], "--tid", "--event", "cpu-clock")
        # A tracepoint's fields after its event are no frame: a header as usual.
        self.check(sample("prog 1 1.5: sched:sched_switch: prev_comm=a prev_pid=1", "10 x (/a)"),
                   ["prog;x 1"])

    def test_frame_line_outside_a_sample_is_reported(self):
        text = sample("prog 1 1.000001: 2 cycles:", "10 x (/a)") + "\t    20 y (/a)\n\n"
        code, out, err = run([], text)
        self.assertEqual((code, out), (0, "prog;x 2\n"), err)
        self.assertRegex(err, r"warning: stdin: line 4: skipped 1 frame line that belongs to no")
        # Frames of another event's sample are skipped without a word.
        code, out, err = run([], text.replace("\t    20 y (/a)\n", "")
                             + sample("prog 1 1.000002: 3 instructions:", "10 x (/a)"))
        self.assertNotIn("no sample", err)

    def test_header_right_after_frames(self):
        # No blank line between two samples: each still counts on its own.
        text = ("prog 1 1.000001: 2 cycles:\n\t 10 x (/a)\n"
                "prog 1 1.000002: 3 cycles:\n\t 20 y (/a)\n\n")
        self.check(text, ["prog;x 2", "prog;y 3"])

    def test_zero_period_weighs_zero(self):
        # docs/PERF.md#folding-rules: a sample weighs its period; zero counts are left out.
        text = sample("prog 1 1.000001: 0 cycles:", "10 x (/a)") + sample(
            "prog 1 1.000002: 5 cycles:", "20 y (/a)")
        self.check(text, ["prog;y 5"])

    def test_period_without_time_field(self):
        # perf script -F comm,tid,period,event,ip,sym,dso
        text = (sample("prog  1234     250000 cpu-clock:ppp: ", "10 x (/a)")
                + sample("prog  1234     250000 cpu-clock:ppp: ", "10 x (/a)"))
        self.check(text, ["prog;x 500000"])

    def test_empty_input(self):
        self.check("", [])
        self.check("# only a comment\n\n", [])

    def test_unrecognized_line_is_skipped_with_a_warning(self):
        text = sample("prog 1 1.000001: 2 cycles:", "10 x (/a)", "20 main (/a)").replace(
            "\t    20 main", "  prog.c:12\n\t    20 main")
        code, out, err = run([], text)
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "prog;main;x 2\n")
        self.assertRegex(err, r"warning: stdin: line 3: .*prog\.c:12")


class Comm(Base):
    def test_comm_with_spaces(self):
        text = (sample("V8 WorkerThread 25607 4794564.109216: 104345 cycles:", "10 x (/a)")
                + sample("V8 WorkerThread 24636/25607 [000] 94564.109216: 100 cycles:",
                         "10 x (/a)"))
        self.check(text, ["V8_WorkerThread;x 104445"])

    def test_comm_with_a_number(self):
        # docs/PERF.md#folding-rules: the comm, spaces made "_"; the script would cut it at "1".
        text = sample("Worker 1 1234 [000] 1.000001: 5 cycles:", "10 x (/a)")
        self.check(text, ["Worker_1;x 5"])

    def test_comm_with_slash_and_colon(self):
        text = sample("kworker/u8:2 123 [001] 1.000001: 5 cycles:",
                      "ffffffff81000010 worker_thread+0x10 ([kernel.kallsyms])")
        self.check(text, ["kworker/u8:2;worker_thread 5"])

    def test_pid_and_tid_when_printed(self):
        # perf script -F +pid: "PID/TID".
        text = (sample("prog 100/101 [000] 1.000001: 1 cycles:", "10 x (/a)")
                + sample("prog 100/102 [000] 1.000002: 2 cycles:", "10 x (/a)"))
        self.check(text, ["prog;x 3"])
        self.check(text, ["prog-100;x 3"], "--pid")
        self.check(text, ["prog-100/101;x 1", "prog-100/102;x 2"], "--tid")
        self.check(text, ["prog-100/101;x 1", "prog-100/102;x 2"], "--pid", "--tid")

    def test_pid_unknown_in_default_format(self):
        # perf script prints the TID alone by default: the PID is "?".
        text = sample("prog 101 1.000001: 1 cycles:", "10 x (/a)")
        self.check(text, ["prog-?;x 1"], "--pid")
        self.check(text, ["prog-?/101;x 1"], "--tid")

    def test_tid_zero(self):
        text = sample("swapper     0/0     [000] 1.000001: 1 cpu-clock:", "10 x (/a)")
        self.check(text, ["swapper-0/0;x 1"], "--tid")


class Frames(Base):
    def test_unknown_with_and_without_module(self):
        text = sample("prog 1 1.000001: 1 cycles:",
                      "7f0000001000 [unknown] (%s)" % LIBC,
                      "0 [unknown] ([unknown])",
                      "7f0000002000 [unknown] (/tmp/perf-4242.map)")
        self.check(text, ["prog;[perf-4242.map];[unknown];[libc.so.6] 1"])

    def test_addrs(self):
        text = sample("prog 1 1.000001: 1 cycles:",
                      "7f12ab [unknown] (%s)" % LIBC,
                      "0 [unknown] ([unknown])",
                      "401136 main+0x16 (/tmp/prog)")
        self.check(text, ["prog;main;[unknown <0>];[libc.so.6 <7f12ab>] 1"], "--addrs")
        self.check(text, ["prog;main;[unknown];[libc.so.6] 1"])

    def test_kernel_jit_all(self):
        text = sample("java 1 1.000001: 1 cycles:",
                      "ffffffff8103ce3b native_safe_halt ([kernel.kallsyms])",
                      "ffffffff81000000 [unknown] ([kernel.kallsyms])",
                      "8c3453 tcp_sendmsg (/lib/modules/4.3.0/build/vmlinux)",
                      "7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)",
                      "7f722d142700 La/B;::f->La/C;::g (/tmp/perf-19982.map)",
                      "401136 main+0x16 (/tmp/prog)")
        plain = ("java;main;a/B:::f;a/C:::g_[i];java/io/PrintStream:::print;tcp_sendmsg;"
                 "[[kernel.kallsyms]];native_safe_halt 1")
        kernel = ("java;main;a/B:::f;a/C:::g_[i];java/io/PrintStream:::print;tcp_sendmsg_[k];"
                  "[[kernel.kallsyms]]_[k];native_safe_halt_[k] 1")
        jit = ("java;main;a/B:::f_[j];a/C:::g_[i];java/io/PrintStream:::print_[j];tcp_sendmsg;"
               "[[kernel.kallsyms]];native_safe_halt 1")
        both = ("java;main;a/B:::f_[j];a/C:::g_[i];java/io/PrintStream:::print_[j];"
                "tcp_sendmsg_[k];[[kernel.kallsyms]]_[k];native_safe_halt_[k] 1")
        self.check(text, [plain])
        self.check(text, [kernel], "--kernel")
        self.check(text, [jit], "--jit")
        self.check(text, [both], "--all")
        self.check(text, [both], "--kernel", "--jit")

    def test_cpp_names(self):
        text = sample("cpp 9 1.000001: 1 cycles:",
                      "1180 (anonymous namespace)::spin(int)+0x10 (/tmp/cpp)",
                      "11c0 ns::W::operator()(int) const+0x4 (/tmp/cpp)",
                      "1200 long ns::run<ns::W>(ns::W, int)+0x8 (/tmp/cpp)",
                      "1300 std::vector<int, std::allocator<int> >::push_back(int const&)+0x2a"
                      " (/tmp/cpp)",
                      "1400 main+0x20 (/tmp/cpp)")
        self.check(text, ["cpp;main;std::vector<int, std::allocator<int> >::push_back;"
                          "long ns::run<ns::W>;ns::W::operator;(anonymous namespace)::spin 1"])

    def test_go_names(self):
        text = sample("server 3 1.000001: 1 cycles:",
                      "4a1000 net/http.(*Client).Do+0x4f (/usr/bin/server)",
                      "4a2000 main.fetch+0x20 (/usr/bin/server)",
                      "4a3000 runtime.main+0x1f7 (/usr/bin/server)")
        self.check(text, ["server;runtime.main;main.fetch;net/http.(*Client).Do 1"])

    def test_quotes_and_semicolons(self):
        text = sample("node 4 1.000001: 1 cycles:",
                      "13a80b608e0a RegExp:[&<>\\\"\\'] (/tmp/perf-7539.map)",
                      "13a80b609000 LazyCompile:~say \"hi\" it's (/tmp/perf-7539.map)",
                      "13a80b60a000 Lfoo;.bar(I)V (/tmp/perf-7539.map)")
        self.check(text, ["node;Lfoo:.bar;LazyCompile:~say hi its;RegExp:[&<>\\\\] 1"])

    def test_java_signatures(self):
        text = sample("java 4 1.000001: 1 cycles:",
                      "7f722d142778 Lorg/mozilla/javascript/ContextFactory;.call(Lorg/mozilla/"
                      "javascript/ContextAction;)Ljava/lang/Object; (/tmp/perf-19982.map)",
                      "7f722d143000 Lorg/mozilla/javascript/MemberBox;.<init>(Ljava/lang/"
                      "reflect/Method;)V (/tmp/perf-19982.map)")
        self.check(text, ["java;org/mozilla/javascript/MemberBox:.<init>;"
                          "org/mozilla/javascript/ContextFactory:.call 1"])

    def test_deleted_module(self):
        text = sample("prog 1 1.000001: 1 cycles:",
                      "1000 [unknown] (/tmp/a.out (deleted))",
                      "1100 work+0x10 (/tmp/a.out (deleted))")
        self.check(text, ["prog;work;[a.out (deleted)] 1"])

    def test_symbol_starting_with_paren_is_left_out(self):
        text = sample("prog 1 1.000001: 1 cycles:", "10 x (/a)", "20 (cloned) (/a)", "30 main (/a)")
        self.check(text, ["prog;main;x 1"])


class Events(Base):
    TWO = (sample("prog 1 1.000001: 100 cycles:", "10 x (/a)")
           + sample("prog 1 1.000002: 7 instructions:", "20 y (/a)")
           + sample("prog 1 1.000003: 100 cycles:", "30 z (/a)")
           + sample("prog 1 1.000004: 7 instructions:", "20 y (/a)"))

    def test_first_event_only(self):
        code, out, err = run([], self.TWO)
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "prog;x 100\nprog;z 100\n")
        self.assertRegex(err, r"warning: .*'cycles'.*instructions.*--event")

    def test_event_option(self):
        self.check(self.TWO, ["prog;y 14"], "--event", "instructions")
        self.check(self.TWO, ["prog;x 100", "prog;z 100"], "--event", "cycles")
        self.check(self.TWO, ["prog;y 14"], "--event-filter=instructions")

    def test_event_with_modifiers(self):
        text = (sample("prog 1 1.000001: 250000 cpu-clock:ppp: ", "10 x (/a)")
                + sample("prog 1 1.000002: 9 cycles:u: ", "10 x (/a)"))
        self.check(text, ["prog;x 250000"], "--event", "cpu-clock")
        self.check(text, ["prog;x 250000"], "--event", "cpu-clock:ppp")
        self.check(text, ["prog;x 9"], "--event", "cycles")

    def test_event_absent(self):
        code, out, err = run(["--event", "branch-misses"], self.TWO)
        self.assertEqual((code, out), (0, ""))
        self.assertRegex(err, r"warning: .*no sample of event 'branch-misses'.*cycles")

    def test_first_event_when_the_first_sample_is_frameless(self):
        text = sample("prog 1 1.000001: 3 instructions:") + sample("prog 1 1.000002: 5 cycles:",
                                                                "10 x (/a)")
        self.check(text, ["prog 3"])


class Errors(Base):
    def test_binary_input(self):
        code, out, err = run([], b"PERFILE2h\x00\x00\x00\x00\x00\x00\x00\x01\x02")
        self.assertEqual((code, out), (EXIT_DATAERR, ""))
        self.assertRegex(err, r"^error: stdin: line 1: .*perf fold")
        self.assertEqual(len(err.splitlines()), 1, err)

    def test_not_perf_script_text(self):
        code, out, err = run([], "# folded\nmain;a;b 12\nmain;a 3\n")
        self.assertEqual((code, out), (EXIT_DATAERR, ""))
        self.assertRegex(err, r"^error: stdin: line 2: not `perf script` output")
        self.assertEqual(len(err.splitlines()), 1, err)

    def test_period_overflow(self):
        code, _, err = run([], sample("prog 1 1.000001: 99999999999999999999 cycles:", "10 x (/a)"))
        self.assertEqual(code, EXIT_DATAERR)
        self.assertRegex(err, r"^error: stdin: line 1: .*64 bits")
        big = sample("prog 1 1.000001: 18446744073709551615 cycles:", "10 x (/a)")
        code, _, err = run([], big + big)
        self.assertEqual(code, EXIT_DATAERR)
        self.assertRegex(err, r"^error: stdin: line 6: .*overflow")

    def test_unreadable_input(self):
        code, out, err = run(["/nonexistent/perf.txt"])
        self.assertEqual((code, out), (EXIT_NOINPUT, ""))
        self.assertRegex(err, r"^error: cannot read /nonexistent/perf.txt")
        with tempfile.TemporaryDirectory() as d:
            code, out, err = run([d])
            self.assertEqual(code, EXIT_NOINPUT, err)
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_usage(self):
        for args in (["--bogus"], ["a", "b"], ["--event"], ["--event", ""], ["-o"]):
            code, out, err = run(args, ABC)
            self.assertEqual(code, EXIT_USAGE, (args, err))
            self.assertEqual(out, "")
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertTrue(err.startswith("error: "), err)

    def test_unwritable_output(self):
        code, _, err = run(["-o", "/nonexistent/dir/out.folded"], ABC)
        self.assertEqual(code, EXIT_CANTCREAT, err)
        self.assertTrue(err.startswith("error: "), err)

    def test_help(self):
        code, out, err = run(["--help"])
        self.assertEqual(code, 0, err)
        for word in ("-o", "--event", "--pid", "--tid", "--addrs", "--kernel", "--jit", "--all",
                     "--event-filter", "INPUT", "stdin"):
            self.assertIn(word, out)

    def test_addr2line_options_are_refused_with_the_reason(self):
        for option in ("--inline", "--context", "--srcline"):
            code, out, err = run([option], ABC)
            self.assertEqual((code, out), (EXIT_USAGE, ""), err)
            self.assertRegex(err, "^error: " + option + ": .*(perf script|cli perf fold)")


class Files(Base):
    def test_input_file_and_output_file(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "perf.txt"), os.path.join(d, "out.folded")
            with open(src, "w") as f:
                f.write(ABC)
            with open(dst, "w") as f:
                f.write("old contents\n")
            code, out, err = run(["-o", dst, src])
            self.assertEqual((code, out, err), (0, "", ""))
            with open(dst) as f:
                self.assertEqual(f.read(), "prog;__libc_start_call_main;main;a;b 250000\n"
                                           "prog;__libc_start_call_main;main;a;b;c 500000\n")
            self.assertEqual(sorted(os.listdir(d)), ["out.folded", "perf.txt"])
            # A failed run leaves the old output alone.
            code, _, _ = run(["-o", dst], "main;a 3\n")
            self.assertEqual(code, EXIT_DATAERR)
            with open(dst) as f:
                self.assertIn("main;a;b;c 500000", f.read())
            self.assertEqual(sorted(os.listdir(d)), ["out.folded", "perf.txt"])

    def test_dash_is_stdin(self):
        self.check(ABC, [
            "prog;__libc_start_call_main;main;a;b 250000",
            "prog;__libc_start_call_main;main;a;b;c 500000",
        ], "-")


def main():
    global CLI
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        CLI = sys.argv.pop(1)
    if not CLI:
        sys.exit("set CLI to the built cli (or pass it first)")
    ctest_status.main(verbosity=1)


if __name__ == "__main__":
    main()
