"""`cli perf fold` on perf.data files written record by record (perfgen).

Each case builds a recording whose stacks follow from its records alone,
with a small ELF (perftest.prog_elf) and a small kallsyms text, and checks
the folded output line for line against stacks derived here by hand
(docs/PERF.md#folding-rules):

- Symbols: user frames named from the ELF at file offsets (PT_LOAD
  adjustment), size-less functions ending at the next, aliases (not weak
  wins), C++ names demangled without parameters, ';' and quotes in names,
  Go and "(anonymous namespace)" names kept whole, a name starting with
  "(" left out, [module] and [unknown] frames, kernel frames from
  kallsyms, a kernel address past the kernel map, kernel frames without
  kallsyms ([[kernel.kallsyms]] and a warning).
- Machine: records applied in time order within rounds (a COMM written
  after a sample but stamped before it names the sample), a record later
  than its round, FORK (the child takes the parent's name and maps),
  exec (COMM), a thread sharing its process's maps, a mapping split by a
  newer one, EXIT changing nothing, a thread first seen in a sample
  (":TID"), the idle task ("swapper"), context markers (HV, an unknown
  marker voiding the chain), the 127-entry limit.
- Events: three events told apart by sample id, default event names with
  perf's modifiers, the first sample's event counted with a warning,
  --event NAME with and without modifiers, a fixed period (perf record
  -c) and no period, a recording without call chains (leaf frames and a
  warning), records without timestamps handled in file order.
- Naming: --pid, --tid, --addrs, comm with spaces and ';', the java tidy;
  samples of no thread (pid -1, system-wide recordings) weighed by period.
- Machine also: the same file with its records compressed (perf record
  -z: COMPRESSED and COMPRESSED2, records straddling compressed records)
  folds exactly as uncompressed.
- Dwarf: --call-graph dwarf samples: kernel frames and the user pc, one
  warning with the count.
- Against: every file above, and random symbol soups that stress perf's
  symbol tree, also folded by `perf script | cli perf collapse`: byte-equal
  output; skipped without perf (exit 77, 1 under CI=true).

Run: CLI=build/cli/cli python3 tests/perf/test_perf_synthetic.py [-v] [Group[.test]]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perftest import *  # noqa: E402,F401,F403
import perftest  # noqa: E402
from perfgen import *  # noqa: E402,F401,F403
from elfgen import STT_NOTYPE  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

STT_OBJECT = 1
BASE = 0x555000  # where prog.elf's text is mapped (file offset 0x1000)
K = KERNEL

FUNCS = [
    ("main", 0x401000, 0x100, STB_GLOBAL),
    ("alpha", 0x401100, 0x100, STB_GLOBAL),
    ("beta", 0x401200, 0, STB_LOCAL),  # size-less: ends at the next symbol
    ("_ZN2ns5Klass6methodEi", 0x401300, 0x80, STB_GLOBAL),
    ("_ZN12_GLOBAL__N_13fooEv", 0x401400, 0x40, STB_LOCAL),
    ("we;ird'\"name", 0x401500, 0x40, STB_GLOBAL),
    ("net/http.(*Client).Do", 0x401600, 0x40, STB_GLOBAL),
    ("(weird)", 0x401700, 0x40, STB_GLOBAL),
    ("weak_a", 0x401800, 0x40, STB_WEAK),
    ("strong_a", 0x401800, 0x40, STB_GLOBAL),
    ("Lcom/x/Y;.run(I)V", 0x401880, 0x40, STB_GLOBAL),  # perf's Java demangler
    ("Lcom/x/Z;run", 0x4018c0, 0x40, STB_GLOBAL),  # no prototype: the java tidy
    ("tail", 0x401a00, 0x40, STB_GLOBAL),
]


def at(name, off=0x10):
    """The run-time address of a function of prog.elf (plus off)."""
    for n, v, _, _ in FUNCS:
        if n == name:
            return BASE + v - 0x401000 + off
    raise KeyError(name)


GAP = BASE + 0x950  # no function covers it: [prog.elf]
NOWHERE = 0x9999000  # no mapping covers it: [unknown]


class Synthetic(PerfFilesTest):
    files = {}  # name -> (path, fold flags, script args, collapse-comparable)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.elf = os.path.join(cls.dir, "prog.elf")
        prog_elf(cls.elf, FUNCS)

    def write(self, name, p):
        return self.write_file(name, p.to_bytes())

    def base_file(self, events=None, **kw):
        p = PerfData(events, **kw)
        p.kernel_mmap(K, 0x1000000)
        p.comm(100, 100, "prog", 5)
        p.mmap2(100, 100, BASE, 0x3000, 0x1000, self.elf, 6)
        return p

    def fold_ok(self, path, *flags, kallsyms=True):
        r = fold(path, *flags, kallsyms=self.kallsyms if kallsyms else None)
        self.assertEqual(r.code, 0, r.describe())
        self.assertEqual(r.errors, [], r.describe())
        return r

    def assert_folded(self, path, expected, *flags, warnings=0):
        r = self.fold_ok(path, *flags)
        self.assertEqual(folded_lines(r.stdout), sorted(expected), r.describe())
        self.assertEqual(len(r.warnings), warnings, r.describe())
        return r


class Symbols(Synthetic):
    def symbols_file(self):
        p = self.base_file()
        p.sample(100, 100, 10, callchain=[
            CONTEXT_USER, at("(weird)", 4), at("we;ird'\"name"), at("net/http.(*Client).Do"),
            at("_ZN12_GLOBAL__N_13fooEv"), at("_ZN2ns5Klass6methodEi"), at("beta", 0x80),
            at("alpha"), at("main")])
        p.sample(100, 100, 11, callchain=[
            CONTEXT_KERNEL, K + 0x310, K + 0x210, K + 0x110, CONTEXT_USER,
            at("strong_a", 4), GAP, NOWHERE, at("main")], period=7)
        p.sample(100, 100, 12, callchain=[CONTEXT_KERNEL, K + 0x3000, K + 0x600, CONTEXT_USER,
                                          at("tail")], period=3)
        p.finished_round()
        return self.write("symbols.data", p)

    def test_names(self):
        self.assert_folded(self.symbols_file(), [
            "prog;main;alpha;beta;ns::Klass::method;(anonymous namespace)::foo;"
            "net/http.(*Client).Do;we:irdname 4000",
            "prog;main;[unknown];[prog.elf];strong_a;entry_SYSCALL_64;do_syscall_64;ksys_write 7",
            "prog;tail;_etext;[unknown] 3",
        ])

    def test_kernel_and_jit_annotations(self):
        # --kernel marks [kernel.kallsyms] frames _[k]; no module here is a JIT's
        expected = [
            "prog;main;alpha;beta;ns::Klass::method;(anonymous namespace)::foo;"
            "net/http.(*Client).Do;we:irdname 4000",
            "prog;main;[unknown];[prog.elf];strong_a;entry_SYSCALL_64_[k];do_syscall_64_[k];"
            "ksys_write_[k] 7",
            "prog;tail;_etext_[k];[unknown] 3",
        ]
        self.assert_folded(self.symbols_file(), expected, "--kernel")
        self.assert_folded(self.symbols_file(), expected, "--all")

    def test_addrs(self):
        # --addrs: the address as perf script prints it: the offset into the
        # file for user code, the address itself without a mapping or in the kernel
        self.assert_folded(self.symbols_file(), [
            "prog;main;alpha;beta;ns::Klass::method;(anonymous namespace)::foo;"
            "net/http.(*Client).Do;we:irdname 4000",
            "prog;main;[unknown <9999000>];[prog.elf <1950>];strong_a;entry_SYSCALL_64;"
            "do_syscall_64;ksys_write 7",
            f"prog;tail;_etext;[unknown <{K + 0x3000:x}>] 3",
        ], "--addrs")

    def test_kernel_without_kallsyms(self):
        r = fold(self.symbols_file(), "--kallsyms", os.path.join(self.dir, "none"))
        self.assertEqual(r.code, 0, r.describe())
        self.assertIn("prog;main;[unknown];[prog.elf];strong_a;[[kernel.kallsyms]];"
                      "[[kernel.kallsyms]];[[kernel.kallsyms]] 7", folded_lines(r.stdout))
        self.assertEqual(len(r.warnings), 1, r.describe())
        self.assertIn("kallsyms", r.warnings[0])

    def test_missing_binary(self):
        p = PerfData()
        p.comm(100, 100, "prog", 5)
        p.mmap2(100, 100, BASE, 0x3000, 0x1000, "/nonexistent/lib/libgone.so.1", 6)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, BASE + 0x10, BASE + 0x20])
        self.assert_folded(self.write("missing.data", p),
                           ["prog;[libgone.so.1];[libgone.so.1] 4000"])


class Machine(Synthetic):
    def machine_file(self, compress=None, name="machine.data"):
        """compress: None, or (record type, chunks): all but the first 3 records compressed."""
        p = self.base_file()
        # the COMM at t=25 is written after the sample at t=30: it still names it
        p.sample(100, 100, 30, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        p.comm(100, 100, "renamed", 25)
        p.finished_round()
        # a mapping over the middle of prog.elf's text
        p.mmap2(100, 100, BASE + 0x1000, 0x1000, 0, "/nonexistent/libx.so", 41)
        p.sample(100, 100, 42, callchain=[CONTEXT_USER, BASE + 0x1010, at("main"),
                                          BASE + 0x2010])
        p.finished_round()
        p.fork(200, 100, 200, 100, 50)  # a child process: the parent's name and maps
        p.sample(200, 200, 51, callchain=[CONTEXT_USER, at("beta")])
        p.comm(200, 200, "child", 52, exec_=True)
        p.sample(200, 200, 53, callchain=[CONTEXT_USER, at("beta")])
        p.fork(100, 100, 101, 100, 54)  # a thread of 100: its maps
        p.sample(100, 101, 55, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        p.sample(300, 301, 56, callchain=[CONTEXT_USER, 0x10])  # never announced
        p.sample(0, 0, 57, callchain=[CONTEXT_KERNEL, K + 0x110], cpumode=MISC_KERNEL)
        p.sample(100, 100, 58, callchain=[CONTEXT_HV, 0x1234, CONTEXT_USER, at("main")])
        p.sample(100, 100, 59, callchain=[CONTEXT_USER, at("main"), CONTEXT_GUEST, at("alpha")])
        p.sample(100, 100, 60, callchain=[CONTEXT_USER] + [at("alpha")] * 130 + [at("main")])
        p.finished_round()
        p.sample(100, 100, 35, callchain=[CONTEXT_USER, at("tail")])  # below the last flush
        p.exit(100, 100, 100, 100, 70)
        p.sample(100, 100, 71, callchain=[CONTEXT_USER, at("tail")])
        if compress:
            p.compress(first=3, chunks=compress[1], type_=compress[0])
        return self.write(name, p)

    def test_machine(self):
        self.assert_folded(self.machine_file(), [
            ":301;[unknown] 4000",  # a thread first seen in a sample
            "child;beta 4000",  # after the exec
            "renamed 4000",  # an unknown context marker voids the chain
            "renamed;[prog.elf];main;[libx.so] 4000",  # a mapping split by a newer one
            "renamed;alpha;" + ";".join(["alpha"] * 126) + " 4000",  # 127 entries at most
            "renamed;beta 4000",  # the forked child, before its exec: the parent's name
            "renamed;main;[unknown] 4000",  # a hypervisor entry
            "renamed;main;alpha 8000",  # the process and its thread
            "renamed;tail 8000",  # a late record, and one after EXIT
            "swapper;entry_SYSCALL_64 4000",
        ])

    def compressed_files(self):
        """The machine file as perf record -z writes it: one compressed record, then
        records cut across seven, in both record types."""
        return [Machine.machine_file(self, (kind, chunks), f"machine-z{kind}-{chunks}.data")
                for kind in (COMPRESSED, COMPRESSED2) for chunks in (1, 7)]

    def test_compressed(self):
        whole = self.fold_ok(self.machine_file()).stdout
        for path in self.compressed_files():
            with self.subTest(path=os.path.basename(path)):
                r = self.fold_ok(path)
                self.assertEqual((r.stdout, r.stderr), (whole, ""))


class Events(Synthetic):
    def three_events_file(self, desc):
        st = IDENTIFIER | IP | TID | TIME | CALLCHAIN | PERIOD
        events = [Event("cycles:ppp", 0, 0, st, ids=[11, 12],
                        flags=FLAG_FREQ | FLAG_SAMPLE_ID_ALL | (3 << PRECISE_SHIFT)),
                  Event("instructions:u", 0, 1, st | ID, ids=[13],
                        flags=FLAG_SAMPLE_ID_ALL | FLAG_EXCLUDE_KERNEL),
                  Event("page-faults", 1, 2, st, ids=[14], flags=FLAG_SAMPLE_ID_ALL)]
        p = PerfData(events, event_desc=desc)
        p.comm(100, 100, "three", 1)
        p.mmap2(100, 100, BASE, 0x3000, 0x1000, self.elf, 2)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, at("alpha")], event=1, period=3)
        p.sample(100, 100, 11, callchain=[CONTEXT_USER, at("beta")], event=0, period=5)
        p.sample(100, 100, 12, callchain=[CONTEXT_USER, at("main")], event=2, period=9)
        p.sample(100, 100, 13, callchain=[CONTEXT_USER, at("beta")], event=1, period=3)
        return self.write(f"three{int(desc)}.data", p)

    def test_first_event_counted(self):
        r = self.assert_folded(self.three_events_file(True),
                               ["three;alpha 3", "three;beta 3"], warnings=1)
        self.assertIn("'instructions:u'", r.warnings[0])

    def test_event_option(self):
        path = self.three_events_file(True)
        self.assert_folded(path, ["three;beta 5"], "--event", "cycles")
        self.assert_folded(path, ["three;beta 5"], "--event", "cycles:ppp")
        self.assert_folded(path, ["three;main 9"], "--event", "page-faults")
        r = self.assert_folded(path, [], "--event", "branches", warnings=1)
        self.assertIn("no sample of event 'branches'", r.warnings[0])

    def test_default_names(self):
        # without HEADER_EVENT_DESC the names are perf's: modifiers from the attributes
        path = self.three_events_file(False)
        self.assert_folded(path, ["three;alpha 3", "three;beta 3"], "--event", "instructions:uh")
        self.assert_folded(path, ["three;beta 5"], "--event", "cycles:ppp")
        self.assert_folded(path, ["three;main 9"], "--event", "page-faults:HG")

    def test_periods(self):
        # perf record -c N records no period per sample: each weighs N
        fixed = Event("cpu-clock", 1, 0, IP | TID | TIME | CALLCHAIN, sample_period=100000,
                      flags=FLAG_SAMPLE_ID_ALL)
        p = PerfData([fixed])
        p.comm(100, 100, "fixed", 1)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, 0x10])
        p.sample(100, 100, 11, callchain=[CONTEXT_USER, 0x10])
        self.assert_folded(self.write("fixed.data", p), ["fixed;[unknown] 200000"])
        # frequency mode without recorded periods (never written by perf): 1 each
        freq = Event("cpu-clock", 1, 0, IP | TID | TIME | CALLCHAIN, sample_period=4000)
        p = PerfData([freq])
        p.comm(100, 100, "freq", 1)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, 0x10])
        self.assert_folded(self.write("freq.data", p), ["freq;[unknown] 1"])

    def test_no_callchain(self):
        p = PerfData([Event("task-clock", 1, 1, IP | TID | TIME | PERIOD)])
        p.comm(100, 100, "flat", 1)
        p.mmap2(100, 100, BASE, 0x3000, 0x1000, self.elf, 2)
        p.sample(100, 100, 10, ip=at("alpha"))
        p.sample(100, 100, 11, ip=at("alpha"))
        p.sample(100, 100, 12, ip=K + 0x110, cpumode=MISC_KERNEL)
        p.kernel_mmap(K, 0x1000000, time=0)
        r = self.assert_folded(self.write("flat.data", p),
                               ["flat;alpha 8000", "flat;entry_SYSCALL_64 4000"], warnings=1)
        self.assertIn("without call chains", r.warnings[0])

    def test_no_timestamps(self):
        p = PerfData([Event("cpu-clock", 1, 0, IP | TID | CALLCHAIN | PERIOD, flags=0)])
        p.comm(100, 100, "notime", 0)
        p.mmap2(100, 100, BASE, 0x3000, 0x1000, self.elf, 0)
        p.sample(100, 100, 0, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        p.comm(100, 100, "later", 0)
        p.sample(100, 100, 0, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        self.assert_folded(self.write("notime.data", p),
                           ["later;main;alpha 4000", "notime;main;alpha 4000"])


class Naming(Synthetic):
    def naming_file(self):
        p = self.base_file()
        p.comm(100, 100, "my prog;v2", 7)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        p.fork(150, 100, 150, 100, 11)
        p.comm(150, 150, "java", 12)
        p.sample(150, 150, 13, callchain=[CONTEXT_USER, at("Lcom/x/Y;.run(I)V")])
        p.sample(100, 100, 14, callchain=[CONTEXT_USER, at("Lcom/x/Y;.run(I)V")])
        p.sample(150, 150, 15, callchain=[CONTEXT_USER, at("Lcom/x/Z;run")])
        p.sample(100, 100, 16, callchain=[CONTEXT_USER, at("Lcom/x/Z;run")])
        return self.write("naming.data", p)

    def test_default(self):
        # "Lcom/x/Y;.run(I)V" is Java-demangled by perf ("com.x.Y.run(int)");
        # "Lcom/x/Z;run" is not, and loses its "L" only under a java command
        self.assert_folded(self.naming_file(), [
            "java;com.x.Y.run 4000", "java;com/x/Z:run 4000",
            "my_prog:v2;Lcom/x/Z:run 4000", "my_prog:v2;com.x.Y.run 4000",
            "my_prog:v2;main;alpha 4000"])

    def test_pid_tid(self):
        path = self.naming_file()
        self.assert_folded(path, ["java-150;com.x.Y.run 4000", "java-150;com/x/Z:run 4000",
                                  "my_prog:v2-100;Lcom/x/Z:run 4000",
                                  "my_prog:v2-100;com.x.Y.run 4000",
                                  "my_prog:v2-100;main;alpha 4000"], "--pid")
        self.assert_folded(path, ["java-150/150;com.x.Y.run 4000",
                                  "java-150/150;com/x/Z:run 4000",
                                  "my_prog:v2-100/100;Lcom/x/Z:run 4000",
                                  "my_prog:v2-100/100;com.x.Y.run 4000",
                                  "my_prog:v2-100/100;main;alpha 4000"], "--tid")


    def no_thread_file(self):
        """Samples of no thread (pid -1), as system-wide recordings hold them."""
        p = self.base_file()
        p.sample(-1, -1, 10, callchain=[CONTEXT_KERNEL, K + 0x310, K + 0x110],
                 cpumode=MISC_KERNEL, period=1000)
        p.sample(-1, -1, 11, callchain=[CONTEXT_KERNEL, K + 0x310], cpumode=MISC_KERNEL,
                 period=777)
        p.sample(100, 100, 12, callchain=[CONTEXT_USER, at("alpha"), at("main")], period=5)
        return self.write("no_thread.data", p)

    def test_no_thread(self):
        path = self.no_thread_file()
        self.assert_folded(path, [":-1;entry_SYSCALL_64;ksys_write 1000", ":-1;ksys_write 777",
                                  "prog;main;alpha 5"])
        self.assert_folded(path, [":-1--1/-1;entry_SYSCALL_64;ksys_write 1000",
                                  ":-1--1/-1;ksys_write 777", "prog-100/100;main;alpha 5"],
                           "--tid")


class Dwarf(Synthetic):
    def dwarf_file(self):
        mask = 0xFF0FFF  # what perf records on x86-64: ip is register 8
        st = IP | TID | TIME | CALLCHAIN | PERIOD | REGS_USER | STACK_USER
        p = self.base_file([Event("cpu-clock", sample_type=st, sample_regs_user=mask,
                                  sample_stack_user=64, flags=FLAG_FREQ | FLAG_SAMPLE_ID_ALL |
                                  FLAG_EXCLUDE_CALLCHAIN_USER)])
        regs = [0] * 20
        regs[8] = at("alpha")
        p.sample(100, 100, 10, ip=K + 0x310, callchain=[CONTEXT_KERNEL, K + 0x310, K + 0x110],
                 cpumode=MISC_KERNEL, regs=regs, stack=bytes(64))
        regs[8] = at("beta")
        p.sample(100, 100, 11, ip=at("beta"), callchain=[], regs=regs, stack=bytes(64))
        p.sample(100, 100, 12, ip=K + 0x310, callchain=[CONTEXT_KERNEL, K + 0x310],
                 cpumode=MISC_KERNEL, regs=None, stack=b"")  # nothing captured
        return self.write("dwarf.data", p)

    def test_dwarf(self):
        r = self.assert_folded(self.dwarf_file(), [
            "prog;alpha;entry_SYSCALL_64;ksys_write 4000", "prog;beta 4000",
            "prog;ksys_write 4000"], warnings=1)
        # no sp among the registers, no file to unwind in: the sampled pcs alone
        self.assertIn("2 of 2 DWARF-unwound user stacks end early", r.warnings[0])


class Against(Synthetic):
    """The same files through perf script | cli perf collapse."""

    def setUp(self):
        if not have_perf():
            self.skipTest("perf is not installed")

    def same(self, path, *flags, script_args=()):
        mine = fold(path, *flags, kallsyms=self.kallsyms)
        # made to hit the departures from stackcollapse-perf.pl docs/PERF.md lists
        # ((anonymous namespace), ';' in a comm, tid -1): no perl check here
        ref = perf_script_collapse(path, *flags, kallsyms=self.kallsyms, script_args=script_args,
                                   perl_check=False)
        self.assertEqual(mine.code, 0, mine.describe())
        self.assertEqual(ref.code, 0, ref.describe())
        self.assertEqual(mine.stdout, ref.stdout, f"{path} {flags}")

    def test_against_perf_script(self):
        files = [Symbols.symbols_file(self), Machine.machine_file(self),
                 Events.three_events_file(self, True), Events.three_events_file(self, False),
                 Naming.naming_file(self), Naming.no_thread_file(self),
                 *[f for f in Machine.compressed_files(self)
                   if "z83" not in f],  # perf 6.1 predates COMPRESSED2
                 Dwarf.dwarf_file(self)]
        for path in files[:-1]:  # perf script unwinds the dwarf one itself
            with self.subTest(path=os.path.basename(path)):
                self.same(path)
                self.same(path, "--addrs")
                self.same(path, "--all")
                self.same(path, "--tid", script_args=("-F", "+pid"))

    def test_symbol_tree(self):
        """Random symbols (aliases, overlaps, labels, objects): every address named as perf does."""
        for seed in range(12):
            with self.subTest(seed=seed):
                self.same(self.symbol_soup(seed), "--addrs")

    def symbol_soup(self, seed):
        rnd = random.Random(seed)
        syms = []
        for i in range(rnd.randrange(5, 150)):
            start = TEXT_VADDR + rnd.randrange(0, 0x2000, rnd.choice([1, 4, 16, 64]))
            typ = rnd.choice([STT_FUNC] * 5 + [STT_NOTYPE, STT_OBJECT])
            bind = rnd.choice([STB_LOCAL, STB_GLOBAL, STB_GLOBAL, STB_WEAK])
            size = rnd.choice([0, 0, 1, 16, 64, 256, 1024])
            base = rnd.choice(["f", "_f", "__f", "ff", "SyS_x", "g", "_Z1f", "_ZN1a2bbE"])
            # C++ names ("_Z1fv" is "f"): perf compares aliases by their demangled names
            suffix = rnd.choice(["", "v", "i"]) if base.startswith("_Z") and i % 2 else str(i)
            syms.append((base + suffix, start, size, typ, bind))
        for i in range(rnd.randrange(0, 25)):
            s = rnd.choice(syms)
            syms.append((rnd.choice(["a", "_a", "aa"]) + str(i), s[1],
                         rnd.choice([0, s[2], 8]), rnd.choice([STT_FUNC, STT_NOTYPE]),
                         rnd.choice([STB_LOCAL, STB_GLOBAL, STB_WEAK])))
        rnd.shuffle(syms)
        elf = build_elf([Segment(TEXT_VADDR, bytes(0x2000), offset=TEXT_OFFSET)],
                        entry=TEXT_VADDR, xlen=64, machine=EM_X86_64,
                        symbols=[Symbol(n, v, s, t, b) for n, v, s, t, b in syms])
        path = os.path.join(self.dir, f"soup{seed}.elf")
        with open(path, "wb") as f:
            f.write(elf.replace(b".seg0\0", b".text\0"))
        p = PerfData()
        p.comm(100, 100, "soup", 1)
        p.mmap2(100, 100, BASE, 0x2000, 0x1000, path, 2)
        for i, off in enumerate(range(0, 0x2000, 4)):
            p.sample(100, 100, 10 + i, callchain=[CONTEXT_USER, BASE + off])
        return self.write(f"soup{seed}.data", p)


if __name__ == "__main__":
    setup_cli()
    ctest_status.main()
