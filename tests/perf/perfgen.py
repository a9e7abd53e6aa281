"""perfgen: write perf.data files from scratch, record by record.

The perf tests use it to build exactly the recordings they need (a fork
between two samples, records out of time order, three events, a damaged
length) without running perf:

    from perfgen import *
    p = PerfData()
    p.comm(100, 100, "prog", time=10)
    p.mmap2(100, 100, 0x400000, 0x1000, 0, "/bin/prog", time=11)
    p.sample(100, 100, time=20, ip=0x400010,
             callchain=[CONTEXT_USER, 0x400010, 0x400020])
    p.finished_round()
    open("perf.data", "wb").write(p.to_bytes())

The layout is perf's: a 104-byte header, the attributes (each followed by
the section of its ids), the ids, the data section, then the feature
index and the feature sections (HEADER_BUILD_ID, HEADER_ARCH,
HEADER_EVENT_DESC). Every length can be made wrong afterwards by editing
the bytes; `layout()` says where things are.

Run `python3 perfgen.py --seeds DIR` to write a few small seed files for
the fuzzer.
"""

import os
import struct
import sys
from dataclasses import dataclass, field
from typing import List, Optional

# sample_type bits
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID, RAW = (
    1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8,
    1 << 9, 1 << 10)
BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT, DATA_SRC, IDENTIFIER = (
    1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16)

# record types and misc bits
MMAP, LOST, COMM, EXIT, FORK, SAMPLE, MMAP2 = 1, 2, 3, 4, 7, 9, 10
FINISHED_ROUND, AUXTRACE, COMPRESSED, COMPRESSED2 = 68, 71, 81, 83
MISC_KERNEL, MISC_USER, MISC_HYPERVISOR, MISC_GUEST_KERNEL = 1, 2, 3, 4
MISC_COMM_EXEC = MISC_MMAP_DATA = MISC_FORK_EXEC = 1 << 13
MISC_MMAP_BUILD_ID = 1 << 14
MISC_BUILD_ID_SIZE = 1 << 15

# call chain context markers
CONTEXT_HV = (1 << 64) - 32
CONTEXT_KERNEL = (1 << 64) - 128
CONTEXT_USER = (1 << 64) - 512
CONTEXT_GUEST = (1 << 64) - 2048

# attr flag bits
FLAG_EXCLUDE_USER, FLAG_EXCLUDE_KERNEL = 1 << 4, 1 << 5
FLAG_FREQ, FLAG_SAMPLE_ID_ALL, FLAG_EXCLUDE_CALLCHAIN_USER = 1 << 10, 1 << 18, 1 << 22
PRECISE_SHIFT = 15

FEAT_BUILD_ID, FEAT_ARCH, FEAT_EVENT_DESC, FEAT_COMPRESSED = 2, 6, 12, 27
ATTR_SIZE = 128  # what perf 6.1 writes
PROT_READ, PROT_EXEC = 1, 4


@dataclass
class Event:
    """One perf_event_attr and its stream ids."""
    name: Optional[str] = "cpu-clock"  # None: no HEADER_EVENT_DESC entry
    type: int = 1  # PERF_TYPE_SOFTWARE
    config: int = 0  # cpu-clock
    sample_type: int = IP | TID | TIME | CALLCHAIN | PERIOD
    sample_period: int = 4000
    flags: int = FLAG_FREQ | FLAG_SAMPLE_ID_ALL
    read_format: int = 0
    sample_regs_user: int = 0
    sample_stack_user: int = 0
    ids: List[int] = field(default_factory=lambda: [1])
    attr_size: int = ATTR_SIZE  # the size field written in the attr (0: ABI0)


def _attr_bytes(e, size):
    b = struct.pack("<IIQQQQQIIQ", e.type, e.attr_size, e.config, e.sample_period,
                    e.sample_type, e.read_format, e.flags, 0, 0, 0)
    b += struct.pack("<QQQIi", 0, 0, e.sample_regs_user, e.sample_stack_user, 0)
    return (b + bytes(max(0, size - len(b))))[:size]


def _padded(s, align=8):
    raw = s.encode() + b"\0"
    return raw + bytes(-len(raw) % align)


def _feature_string(s):
    raw = _padded(s, 64)
    return struct.pack("<I", len(raw)) + raw


class PerfData:
    def __init__(self, events=None, arch="x86_64", event_desc=True):
        self.events = events if events is not None else [Event()]
        self.arch = arch
        self.event_desc = event_desc
        self.records = []  # bytes of each record, in file order
        self.build_ids = []  # (pid, misc, id bytes, filename)
        self.header_overrides = {}
        self.compressed = False  # write HEADER_COMPRESSED (perf needs it to decompress)

    # -- records --------------------------------------------------------

    def _trailer(self, pid, tid, time, event=0):
        e = self.events[event]
        if not e.flags & FLAG_SAMPLE_ID_ALL:
            return b""
        st, out = e.sample_type, b""
        if st & TID:
            out += struct.pack("<II", pid & 0xFFFFFFFF, tid & 0xFFFFFFFF)
        if st & TIME:
            out += struct.pack("<Q", time)
        if st & ID:
            out += struct.pack("<Q", e.ids[0])
        if st & STREAM_ID:
            out += struct.pack("<Q", e.ids[0])
        if st & CPU:
            out += struct.pack("<II", 0, 0)
        if st & IDENTIFIER:
            out += struct.pack("<Q", e.ids[0])
        return out

    def raw(self, type_, misc, body):
        """Appends a record with this body (its size computed); returns its index."""
        self.records.append(struct.pack("<IHH", type_, misc, 8 + len(body)) + body)
        return len(self.records) - 1

    def mmap(self, pid, tid, start, length, pgoff, filename, time, misc=MISC_USER):
        body = struct.pack("<IIQQQ", pid & 0xFFFFFFFF, tid & 0xFFFFFFFF, start, length, pgoff)
        body += _padded(filename) + self._trailer(pid, tid, time)
        return self.raw(MMAP, misc, body)

    def mmap2(self, pid, tid, start, length, pgoff, filename, time, prot=PROT_READ | PROT_EXEC,
              flags=2, build_id=None, misc=MISC_USER):
        body = struct.pack("<IIQQQ", pid & 0xFFFFFFFF, tid & 0xFFFFFFFF, start, length, pgoff)
        if build_id is not None:
            misc |= MISC_MMAP_BUILD_ID
            body += struct.pack("<BBH", len(build_id), 0, 0) + build_id.ljust(20, b"\0")
        else:
            body += struct.pack("<IIQQ", 0xFE, 0, 1234, 0)
        body += struct.pack("<II", prot, flags) + _padded(filename)
        return self.raw(MMAP2, misc, body + self._trailer(pid, tid, time))

    def kernel_mmap(self, start, length, time=0, name="[kernel.kallsyms]_text"):
        return self.mmap(-1, 0, start, length, start, name, time, misc=MISC_KERNEL)

    def comm(self, pid, tid, comm, time, exec_=False):
        body = struct.pack("<II", pid, tid) + _padded(comm) + self._trailer(pid, tid, time)
        return self.raw(COMM, MISC_COMM_EXEC if exec_ else 0, body)

    def fork(self, pid, ppid, tid, ptid, time, misc=0):
        body = struct.pack("<IIIIQ", pid, ppid, tid, ptid, time) + self._trailer(pid, tid, time)
        return self.raw(FORK, misc, body)

    def exit(self, pid, ppid, tid, ptid, time):
        body = struct.pack("<IIIIQ", pid, ppid, tid, ptid, time) + self._trailer(pid, tid, time)
        return self.raw(EXIT, 0, body)

    def sample(self, pid, tid, time, ip=0, callchain=None, period=None, event=0,
               cpumode=MISC_USER, regs=None, stack=None):
        """A SAMPLE of events[event]; regs: list of register values (REGS_USER),
        stack: bytes of user stack (STACK_USER)."""
        e = self.events[event]
        st, body = e.sample_type, b""
        if st & IDENTIFIER:
            body += struct.pack("<Q", e.ids[0])
        if st & IP:
            body += struct.pack("<Q", ip)
        if st & TID:
            body += struct.pack("<II", pid & 0xFFFFFFFF, tid & 0xFFFFFFFF)
        if st & TIME:
            body += struct.pack("<Q", time)
        if st & ADDR:
            body += struct.pack("<Q", 0)
        if st & ID:
            body += struct.pack("<Q", e.ids[0])
        if st & STREAM_ID:
            body += struct.pack("<Q", e.ids[0])
        if st & CPU:
            body += struct.pack("<II", 0, 0)
        if st & PERIOD:
            body += struct.pack("<Q", e.sample_period if period is None else period)
        if st & CALLCHAIN:
            chain = callchain or []
            body += struct.pack("<Q", len(chain)) + b"".join(struct.pack("<Q", c) for c in chain)
        if st & REGS_USER:
            if regs is None:
                body += struct.pack("<Q", 0)
            else:
                body += struct.pack("<Q", 2) + b"".join(struct.pack("<Q", r) for r in regs)
        if st & STACK_USER:
            data = stack or b""
            body += struct.pack("<Q", len(data)) + data
            if data:
                body += struct.pack("<Q", len(data))
        return self.raw(SAMPLE, cpumode, body)

    def compress(self, first=0, chunks=1, type_=COMPRESSED, level=3):
        """Replaces records[first:] by compressed records, as perf record -z
        writes them: those records' bytes cut into `chunks` pieces (at any
        byte, so records straddle two compressed records, as when perf
        compresses a ring buffer that wrapped), each piece one zstd frame,
        the payload of a COMPRESSED (or COMPRESSED2) record. Returns the
        indexes of the compressed records."""
        self.compressed = True
        data = b"".join(self.records[first:])
        del self.records[first:]
        step = max(1, -(-len(data) // chunks))
        return [self.compressed_record(zstd_compress(data[at:at + step], level), type_)
                for at in range(0, len(data), step)]

    def compressed_record(self, payload, type_=COMPRESSED):
        """One compressed record holding `payload` (zstd bytes, maybe damaged)."""
        if type_ == COMPRESSED:
            return self.raw(COMPRESSED, 0, payload)
        size = 16 + len(payload)
        body = struct.pack("<Q", size - 16) + payload + bytes(-size % 8)
        return self.raw(COMPRESSED2, 0, body)

    def finished_round(self):
        return self.raw(FINISHED_ROUND, 0, b"")

    def build_id(self, filename, bid, pid=-1, misc=MISC_USER):
        self.build_ids.append((pid, misc, bid, filename))

    # -- the file -------------------------------------------------------

    def _features(self):
        feats = {}
        if self.build_ids:
            blob = b""
            for pid, misc, bid, name in self.build_ids:
                rest = struct.pack("<i", pid) + bid.ljust(20, b"\0") + bytes([len(bid), 0, 0, 0])
                rest += _padded(name, 64)
                blob += struct.pack("<IHH", 67, misc | MISC_BUILD_ID_SIZE, 8 + len(rest)) + rest
            feats[FEAT_BUILD_ID] = blob
        if self.arch is not None:
            feats[FEAT_ARCH] = _feature_string(self.arch)
        if self.compressed:  # version, type (1: zstd), level, ratio, mmap_len
            feats[FEAT_COMPRESSED] = struct.pack("<IIIII", 1, 1, 3, 4, 1 << 20)
        if self.event_desc:
            blob = struct.pack("<II", len(self.events), ATTR_SIZE)
            for e in self.events:
                blob += _attr_bytes(e, ATTR_SIZE) + struct.pack("<I", len(e.ids))
                blob += _feature_string(e.name or "")
                blob += b"".join(struct.pack("<Q", i) for i in e.ids)
            feats[FEAT_EVENT_DESC] = blob
        return feats

    def layout(self):
        """Offsets: header 0, attrs, ids, data, data_size, feature index."""
        attr_stride = ATTR_SIZE + 16
        attrs = 104
        ids = attrs + attr_stride * len(self.events)
        data = ids + 8 * sum(len(e.ids) for e in self.events)
        data_size = sum(len(r) for r in self.records)
        return dict(attrs=attrs, attr_stride=attr_stride, ids=ids, data=data,
                    data_size=data_size, features=data + data_size)

    def to_bytes(self):
        lay = self.layout()
        feats = self._features()
        out = bytearray()
        bitmap = 0
        for bit in feats:
            bitmap |= 1 << bit
        out += b"PERFILE2" + struct.pack("<QQ", 104, lay["attr_stride"])
        out += struct.pack("<QQ", lay["attrs"], lay["attr_stride"] * len(self.events))
        out += struct.pack("<QQ", lay["data"], lay["data_size"])
        out += struct.pack("<QQ", 0, 0)
        out += bitmap.to_bytes(32, "little")
        id_off = lay["ids"]
        for e in self.events:
            out += _attr_bytes(e, ATTR_SIZE) + struct.pack("<QQ", id_off, 8 * len(e.ids))
            id_off += 8 * len(e.ids)
        for e in self.events:
            out += b"".join(struct.pack("<Q", i) for i in e.ids)
        assert len(out) == lay["data"]
        for r in self.records:
            out += r
        index_size = 16 * len(feats)
        pos = len(out) + index_size
        index, bodies = b"", b""
        for bit in sorted(feats):
            index += struct.pack("<QQ", pos, len(feats[bit]))
            bodies += feats[bit]
            pos += len(feats[bit])
        out += index + bodies
        return bytes(out)


def zstd_compress(data, level=3):
    """zstd-compressed `data` (one frame), through libzstd (ctypes) or the zstd tool."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("zstd") or "libzstd.so.1"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        import subprocess
        return subprocess.run(["zstd", "-q", "-c", f"-{level}"], input=data, check=True,
                              capture_output=True).stdout
    lib.ZSTD_compressBound.restype = ctypes.c_size_t
    lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
    lib.ZSTD_compress.restype = ctypes.c_size_t
    lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                  ctypes.c_size_t, ctypes.c_int]
    lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
    cap = lib.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(cap)
    n = lib.ZSTD_compress(out, cap, data, len(data), level)
    assert not lib.ZSTD_isError(n), "ZSTD_compress failed"
    return out.raw[:n]


def write_seeds(directory):
    """A few small valid recordings for the fuzzer's corpus."""
    os.makedirs(directory, exist_ok=True)
    p = PerfData()
    p.kernel_mmap(0xFFFFFFFF81000000, 0x1000000)
    p.comm(10, 10, "seed", 5)
    p.mmap2(10, 10, 0x400000, 0x2000, 0x1000, "/nonexistent/seed", 6)
    p.sample(10, 10, 20, 0x400010, [CONTEXT_KERNEL, 0xFFFFFFFF81000010, CONTEXT_USER, 0x400010,
                                    0x400100])
    p.finished_round()
    p.fork(11, 10, 11, 10, 21)
    p.comm(11, 11, "child", 22, exec_=True)
    p.sample(11, 11, 30, 0x400020, [CONTEXT_USER, 0x400020])
    p.build_id("/nonexistent/seed", bytes(range(20)))
    open(os.path.join(directory, "basic.data"), "wb").write(p.to_bytes())

    events = [Event("cycles", 0, 0, IDENTIFIER | IP | TID | TIME | CALLCHAIN | PERIOD, ids=[7, 8]),
              Event("instructions", 0, 1, IDENTIFIER | IP | TID | TIME | CALLCHAIN | PERIOD,
                    ids=[9])]
    p = PerfData(events)
    p.comm(3, 3, "two", 1)
    p.sample(3, 3, 5, 0x10, [CONTEXT_USER, 0x10], event=1)
    p.sample(3, 3, 4, 0x20, [CONTEXT_USER, 0x20], event=0)
    p.finished_round()
    open(os.path.join(directory, "events.data"), "wb").write(p.to_bytes())

    dwarf = Event("cpu-clock", sample_type=IP | TID | TIME | CALLCHAIN | PERIOD | REGS_USER |
                  STACK_USER, sample_regs_user=0xFF0FFF, sample_stack_user=64)
    p = PerfData([dwarf])
    p.sample(4, 4, 9, 0x40, [], regs=list(range(20)), stack=bytes(64))
    open(os.path.join(directory, "dwarf.data"), "wb").write(p.to_bytes())

    for type_, name in ((COMPRESSED, "compressed.data"), (COMPRESSED2, "compressed2.data")):
        p = PerfData()
        p.comm(10, 10, "zipped", 5)
        p.mmap2(10, 10, 0x400000, 0x2000, 0x1000, "/nonexistent/zipped", 6)
        p.finished_round()
        for t in range(8):
            p.sample(10, 10, 20 + t, 0x400010, [CONTEXT_USER, 0x400010 + t, 0x400100])
        p.finished_round()
        p.compress(first=1, chunks=3, type_=type_)
        open(os.path.join(directory, name), "wb").write(p.to_bytes())
    # fuzz_perf compresses the data section of a "ZSTD" + perf.data input itself
    with open(os.path.join(directory, "basic.data"), "rb") as f:
        basic = f.read()
    open(os.path.join(directory, "zstd-basic.data"), "wb").write(b"ZSTD" + basic)
    # fuzz_perf's "UNWD" inputs: 20 registers (pc at 8, sp at 7), then a stack copy
    for i, words in enumerate(([0] * 8, list(range(0, 4096, 8)), [0x1000 + 8 * k for k in range(64)])):
        regs = [0] * 20
        regs[8], regs[7] = 0x1000 + 0x40 * i, 0x7FFF0000
        blob = b"UNWD" + struct.pack("<20Q", *regs) + struct.pack(f"<{len(words)}Q", *words)
        open(os.path.join(directory, f"unwind{i}.seed"), "wb").write(blob)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        write_seeds(sys.argv[2])
    else:
        sys.exit("usage: perfgen.py --seeds DIR")
