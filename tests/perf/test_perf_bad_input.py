"""`cli perf fold` on files that are not (or no longer) usable perf.data.

Every case must end in exit 65 (a file that is not a usable perf.data)
or 66 (a file that cannot be read) with exactly one stderr line, starting
`error:`, that names what is wrong (and, for a damaged file, the byte
offset where), and nothing on stdout; never a signal or a sanitizer
report (the suite runs this under ASan and UBSan):

- an empty file, a short file, a wrong magic, a byte-swapped file, the
  old PERFFILE format, a pipe-mode stream, a wrong header size;
- a valid recording (a perfgen file) cut at every offset of its header
  and its ends and every fifth between (every offset with
  ZKPROF_LONG_TESTS=1), and at many
  offsets (a real `perf record` file: skipped, exit 77 or a failure under
  CI=true, when perf cannot record here); a cut
  in the feature sections, after the data, is not refused: as in perf
  script, it costs the features (one `warning:` line), and the samples
  fold as in the whole file;
- lengths that point past the end: the data section, the attribute
  section, the ids of an attribute, an attribute's own size, a record's
  size, a call chain's length, a feature section, a build-id record, an
  event name, an AUXTRACE payload; a file name without its terminator;
  a sample shorter than its fields; compressed records (perf record -z)
  that do not decompress, hold a record that cannot be there, or give a
  data size past their end (COMPRESSED2); one cut inside its zstd data
  folds what came before it, with a warning;
- a missing file and a directory (66);
- usage errors (64) and --help (0, naming every option).

Run: CLI=build/cli/cli python3 tests/perf/test_perf_bad_input.py [-v] [Class[.test]]
"""

import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perftest import *  # noqa: E402,F401,F403
from perfgen import *  # noqa: E402,F401,F403
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

SANITIZER_MARKS = ("Sanitizer", "runtime error:", "LeakSanitizer")


def valid_recording():
    """A small recording with every kind of record and feature folding reads."""
    p = PerfData()
    p.kernel_mmap(KERNEL, 0x1000000)
    p.comm(10, 10, "prog", 5)
    p.mmap2(10, 10, 0x400000, 0x2000, 0x1000, "/nonexistent/prog", 6)
    p.mmap(10, 10, 0x500000, 0x1000, 0, "/nonexistent/lib.so", 7)
    p.sample(10, 10, 20, 0x400010, [CONTEXT_KERNEL, KERNEL + 0x10, CONTEXT_USER, 0x400010])
    p.finished_round()
    p.fork(11, 10, 11, 10, 21)
    p.comm(11, 11, "child", 22, exec_=True)
    p.sample(11, 11, 30, 0x400020, [CONTEXT_USER, 0x400020, 0x500010])
    p.exit(11, 10, 11, 10, 31)
    p.build_id("/nonexistent/prog", bytes(range(20)))
    return p


class BadInput(PerfFilesTest):
    def path(self, name, data):
        return self.write_file(name, data)

    def fold_bytes(self, data, name="bad.data"):
        return fold(self.path(name, data), kallsyms=self.kallsyms)

    def assert_refused(self, r, code=EXIT_DATAERR, *words):
        self.assertEqual(r.code, code, r.describe())
        self.assertEqual(r.stdout, "", r.describe())
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.describe())
        self.assertTrue(lines[0].startswith("error: "), r.describe())
        for w in words:
            self.assertIn(w, lines[0], r.describe())
        for mark in SANITIZER_MARKS:
            self.assertNotIn(mark, r.stderr)

    def refused(self, data, *words, code=EXIT_DATAERR):
        r = self.fold_bytes(data)
        self.assert_refused(r, code, *words)
        return r


class Headers(BadInput):
    def test_control(self):
        r = self.fold_bytes(valid_recording().to_bytes())
        self.assertEqual(r.code, 0, r.describe())
        self.assertEqual(folded_lines(r.stdout), ["child;[lib.so];[prog] 4000",
                                                  "prog;[prog];_stext 4000"])

    def test_empty(self):
        self.refused(b"", "empty")

    def test_short(self):
        self.refused(b"PERF", "too short")
        self.refused(b"PERFILE2" + struct.pack("<Q", 104) + bytes(30), "inside its 104-byte header")

    def test_magic(self):
        self.refused(b"ELF\0" + bytes(200), "magic")
        self.refused(b"hello world, this is not a perf.data file at all" * 4, "magic")

    def test_byte_swapped(self):
        data = bytearray(valid_recording().to_bytes())
        data[0:8] = b"2ELIFREP"
        self.refused(bytes(data), "byte order")

    def test_old_format(self):
        self.refused(b"PERFFILE" + bytes(200), "PERFFILE")

    def test_pipe(self):
        self.refused(b"PERFILE2" + struct.pack("<Q", 16) + bytes(64), "pipe")

    def test_header_size(self):
        data = bytearray(valid_recording().to_bytes())
        data[8:16] = struct.pack("<Q", 96)
        self.refused(bytes(data), "header size", "offset 8")

    def test_missing_and_directory(self):
        self.assert_refused(fold(os.path.join(self.dir, "nope.data")), EXIT_NOINPUT, "nope.data")
        self.assert_refused(fold(self.dir), EXIT_NOINPUT, "directory")


class Lengths(BadInput):
    """One length at a time made to point past what is there."""

    def setUp(self):
        self.p = valid_recording()
        self.data = bytearray(self.p.to_bytes())
        self.lay = self.p.layout()

    def put(self, offset, fmt, value):
        struct.pack_into(fmt, self.data, offset, value)

    def record_offset(self, index):
        return self.lay["data"] + sum(len(r) for r in self.p.records[:index])

    def test_data_section(self):
        self.put(48, "<Q", len(self.data))  # data size
        self.refused(bytes(self.data), "data section", "past the end")

    def test_attr_section(self):
        self.put(32, "<Q", 1 << 40)
        self.refused(bytes(self.data), "attribute section", "past the end")

    def test_attr_size(self):
        self.put(16, "<Q", 40)
        self.refused(bytes(self.data), "attribute size", "offset 16")
        self.data = bytearray(self.p.to_bytes())
        self.put(self.lay["attrs"] + 4, "<I", 0xFFFFFFF8)  # the attr's own size
        self.refused(bytes(self.data), "event attribute at offset 104")

    def test_ids(self):
        self.put(self.lay["attrs"] + ATTR_SIZE + 8, "<Q", 1 << 50)
        self.refused(bytes(self.data), "ids", "past the end")

    def test_record_size(self):
        at = self.record_offset(3)
        self.put(at + 6, "<H", 0xFFF0)
        self.refused(bytes(self.data), f"offset {at}", "past the end of the data section")
        self.put(at + 6, "<H", 4)
        self.refused(bytes(self.data), f"offset {at}", "less than its own header")

    def test_callchain_length(self):
        at = self.record_offset(4)  # the first SAMPLE: ip, tid, time, period, then nr
        self.put(at + 8 + 32, "<Q", 1 << 61)
        self.refused(bytes(self.data), f"offset {at}", "call chain")

    def test_short_sample(self):
        at = self.record_offset(4)
        self.put(at + 6, "<H", 8 + 12)  # header and 12 bytes: not even ip, tid, time
        self.refused(bytes(self.data), f"offset {at}")

    def test_unterminated_name(self):
        at = self.record_offset(2)  # MMAP2: 64 fixed bytes, then the name and the trailer
        size = struct.unpack_from("<H", self.data, at + 6)[0]
        for i in range(at + 8 + 64, at + size):
            self.data[i] = ord("x")
        self.refused(bytes(self.data), f"offset {at}", "not terminated")

    def test_feature_section(self):
        """A feature section past the end is lost, not fatal (perf script reads on)."""
        control = self.fold_bytes(bytes(self.data))
        index = self.lay["features"]  # BUILD_ID's entry comes first
        self.put(index + 8, "<Q", 1 << 40)
        r = self.fold_bytes(bytes(self.data))
        self.assertEqual((r.code, r.stdout), (0, control.stdout), r.describe())
        self.assertEqual(len(r.warnings), 1, r.describe())
        self.assertIn("1 of them lost (with the build ids", r.warnings[0])

    def test_build_id_record(self):
        index = self.lay["features"]
        section = struct.unpack_from("<Q", self.data, index)[0]
        self.put(section + 6, "<H", 0xFFF0)
        self.refused(bytes(self.data), "build id record", "past the end")

    def test_event_name(self):
        index = self.lay["features"] + 2 * 16  # BUILD_ID, ARCH, EVENT_DESC
        section = struct.unpack_from("<Q", self.data, index)[0]
        self.put(section + 8 + ATTR_SIZE + 4, "<I", 1 << 30)  # the name's length
        self.refused(bytes(self.data), "event name", "past the end")

    def test_auxtrace_payload(self):
        p = valid_recording()
        p.raw(AUXTRACE, 0, struct.pack("<QQQIIII", 1 << 40, 0, 0, 0, 0, 0, 0))
        self.refused(p.to_bytes(), "AUXTRACE", "past the end")

    def test_compressed(self):
        p = valid_recording()
        at = p.layout()["data"] + p.layout()["data_size"]
        p.raw(COMPRESSED, 0, bytes(16))
        self.refused(p.to_bytes(), f"compressed record at offset {at}", "does not decompress")

    def test_compressed_garbage(self):
        """zstd data that decompresses to something that is not records."""
        p = valid_recording()
        p.compressed_record(zstd_compress(struct.pack("<IHH", 9, 0, 4) + bytes(16)))
        self.refused(p.to_bytes(), "gives a size of 4 bytes")
        p = valid_recording()
        p.compressed_record(zstd_compress(struct.pack("<IHH", COMPRESSED, 0, 16) + bytes(8)))
        self.refused(p.to_bytes(), "cannot be inside compressed data")

    def test_compressed2_size(self):
        p = valid_recording()
        p.raw(COMPRESSED2, 0, struct.pack("<Q", 1 << 20) + bytes(8))
        self.refused(p.to_bytes(), "COMPRESSED2", "data size past its end")
        # A body shorter than the size field itself (fuzz_perf found that its
        # size wrapped and overflowed the decompression buffer).
        for body in (bytes(7), b"\xff" * 7, b""):
            p = valid_recording()
            del p.records[p.compress(first=0, chunks=2)[-1]]  # leaves half a record undone
            p.raw(COMPRESSED2, 0, body)
            self.refused(p.to_bytes(), "COMPRESSED2", "data size past its end")

    def test_compressed_cut(self):
        """A compressed record cut inside its zstd data: what came before folds, with a warning."""
        control = self.fold_bytes(valid_recording().to_bytes())
        p = valid_recording()
        p.compress(first=0, chunks=2)
        whole = self.fold_bytes(p.to_bytes())
        self.assertEqual((whole.code, whole.stdout, whole.stderr), (0, control.stdout, ""))
        last = p.records[-1]
        p.records[-1] = struct.pack("<IHH", COMPRESSED, 0, len(last) - 8) + last[8:-8]
        r = self.fold_bytes(p.to_bytes())
        self.assertEqual(r.code, 0, r.describe())
        self.assertEqual(len(r.warnings), 1, r.describe())
        self.assertIn("end inside a zstd block", r.warnings[0])
        for mark in SANITIZER_MARKS:
            self.assertNotIn(mark, r.stderr)


def data_end(data):
    """Where the data section ends (the feature sections follow)."""
    offset, size = struct.unpack_from("<QQ", data, 40)
    return offset + size


# the perf file header (104 bytes) and the attributes after it
HEADER_SPAN = 256


class Truncation(BadInput):
    def cut_everywhere(self, data, offsets, whole):
        for off in offsets:
            r = self.fold_bytes(data[:off], name="cut.data")
            with self.subTest(offset=off):
                if off < data_end(data):
                    self.assert_refused(r, EXIT_DATAERR)
                else:  # only features lost: the samples fold as in the whole file
                    self.assertEqual((r.code, r.stdout), (0, whole), r.describe())
                    self.assertEqual(len(r.warnings), 1, r.describe())
                    self.assertIn("ends inside its feature sections", r.warnings[0])

    def test_cut_at_every_offset(self):
        """Every offset with ZKPROF_LONG_TESTS=1; by default every offset of
        the file header and the attributes, of the last records and around
        the data's end, and every fifth in between (a fifth of the runs)."""
        data = valid_recording().to_bytes()
        end = data_end(data)
        if os.environ.get("ZKPROF_LONG_TESTS") == "1":
            offsets = range(len(data))
        else:
            offsets = sorted(set(range(0, HEADER_SPAN)) | set(range(HEADER_SPAN, len(data), 5))
                             | set(range(max(0, end - 64), min(len(data), end + 64)))
                             | set(range(max(0, len(data) - 32), len(data))))
        self.cut_everywhere(data, offsets, self.fold_bytes(data).stdout)

    def test_cut_real_recording(self):
        if not shutil.which("perf") or not shutil.which("cc"):
            self.skipTest("perf or cc is not installed")
        src = os.path.join(self.dir, "spin.c")
        with open(src, "w") as f:
            f.write("volatile unsigned long x; int main(void) { for (unsigned long i = 0; "
                    "i < 30000000; i++) x += i; return 0; }\n")
        exe, data = os.path.join(self.dir, "spin"), os.path.join(self.dir, "real.data")
        subprocess.run(["cc", "-O2", "-fno-omit-frame-pointer", src, "-o", exe], check=True)
        env = dict(os.environ, HOME=self.dir)  # perf's build-id cache goes there
        rec = subprocess.run(["perf", "record", "-g", "-F", "4000", "-o", data, exe],
                             capture_output=True, env=env)
        if rec.returncode != 0 or not os.path.exists(data):
            self.skipTest("perf record is not permitted here: " + rec.stderr.decode()[-200:])
        blob = open(data, "rb").read()
        whole = self.fold_bytes(blob, name="whole.data")
        self.assertEqual(whole.code, 0, whole.describe())
        n = 60
        self.cut_everywhere(blob, sorted({1 + (len(blob) - 2) * i // n for i in range(n)}
                                         | {len(blob) - 1, data_end(blob)}), whole.stdout)


class Usage(BadInput):
    def test_help(self):
        r = cli("perf", "fold", "--help")
        self.assertEqual(r.code, 0, r.describe())
        for flag in ("-o", "--event", "--pid", "--tid", "--addrs", "--kallsyms",
                     "--buildid-dir", "--format", "--title", "--width"):
            self.assertIn(flag, r.stdout)

    def test_usage_errors(self):
        for args in (["--bogus"], ["a.data", "b.data"], ["--event", ""], ["--event"],
                     ["--width", "5"]):
            with self.subTest(args=args):
                r = cli("perf", "fold", *args)
                self.assertEqual(r.code, 64, r.describe())
                self.assertTrue(r.stderr.startswith("error: "), r.describe())


if __name__ == "__main__":
    setup_cli()
    ctest_status.main()
