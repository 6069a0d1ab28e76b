#!/usr/bin/python3
"""Generates conformance/cases/sst/: raw SST record files (.sst) at every continuation boundary.

Usage: sst_cases.py OUT_DIR [DOCCONFORM_BINARY]
With the binary, also writes y_xls_*.xls: workbooks from `docconform gen strings` +
`docconform xls write` (the .xls writer's own cases), n_cfb_name_length_200.xls, one of them
with a directory entry name length past [MS-CFB]'s 64 bytes, and i_xls_*.xls, y_xls_three_sheets.xls
with its Workbook stream renamed or taken out of its compound file, and the two misnamed cases
(records named .xls, a workbook stream named .sst). The .sst y_ cases are written by the small writer below, which follows the continuation rules of
conformance/SPEC.md, format sst, on its own (independently of the C++ writers); the n_ and i_ cases
are laid out byte by byte. Deterministic: the same files on every run.
"""
import os
import struct
import sys

MAX = 8224


def rec(rtype, data):
    return struct.pack("<HH", rtype, len(data)) + data


def ext_segments(ext):
    """(size, keep together, piece) for each part of an ExtRst block, as POI writes them."""
    n = len(ext)
    if n >= 14:
        reserved, cb, _, _, _, cch1, cch2 = struct.unpack("<7H", ext[:14])
        if reserved == 1 and 4 + cb == n and cch1 == cch2 and 14 + 2 * cch1 <= n:
            text = 2 * cch1
            runs = (n - 14 - text) // 6
            out = [(8, 8, 8), (6, 6, 6)]
            if text:
                out.append((text, min(text, MAX), 2))
            out += [(6, 6, 6)] * runs
            extra = n - 14 - text - 6 * runs
            if extra:
                out.append((extra, extra, extra))
            return out
    out = []
    if n:
        out.append((min(8, n), min(8, n), min(8, n)))
    if n > 8:
        out.append((min(6, n - 8), min(6, n - 8), min(6, n - 8)))
    if n > 14:
        out.append((n - 14, min(2, n - 14), 2))
    return out


class Sst:
    """SST + CONTINUE records following the writer rules; EXTSST per the spec formula."""

    def __init__(self, total=None):
        self.records = [bytearray(8)]  # cstTotal and cstUnique, filled in by bytes()
        self.total = total
        self.starts = []

    def avail(self):
        return MAX - len(self.records[-1])

    def new_record(self):
        self.records.append(bytearray())

    def position(self):
        return sum(4 + len(r) for r in self.records[:-1]) + 4 + len(self.records[-1])

    def add(self, text, runs=None, ext=None):
        units = list(struct.unpack("<%dH" % (len(text.encode("utf-16-le", "surrogatepass")) // 2),
                                   text.encode("utf-16-le", "surrogatepass")))
        wide = any(u > 0xFF for u in units)
        unit = 2 if wide else 1
        flags = (1 if wide else 0) | (4 if ext is not None else 0) | (8 if runs is not None else 0)
        header = struct.pack("<HB", len(units), flags)
        if runs is not None:
            header += struct.pack("<H", len(runs))
        if ext is not None:
            header += struct.pack("<I", len(ext))
        if self.avail() < len(header) + unit:  # header + first character (1 byte when empty)
            self.new_record()
        self.starts.append((self.position(), len(self.records[-1]) + 4))
        self.records[-1] += header
        i = 0
        while True:
            n = min(len(units) - i, self.avail() // unit)
            chunk = units[i:i + n]
            self.records[-1] += struct.pack("<%dH" % n, *chunk) if wide else bytes(chunk)
            i += n
            if i == len(units):
                break
            self.new_record()
            self.records[-1] += b"\x01" if wide else b"\x00"
        for ich, ifnt in runs or []:
            if self.avail() < 4:
                self.new_record()
            self.records[-1] += struct.pack("<HH", ich, ifnt)
        if ext is not None:
            at = 0
            for size, keep, unit in ext_segments(ext):
                if self.avail() < keep:
                    self.new_record()
                end = at + size
                while at < end:
                    piece = min(unit, end - at)
                    if self.avail() < piece:
                        self.new_record()
                    self.records[-1] += ext[at:at + piece]
                    at += piece

    def bytes(self):
        count = len(self.starts)
        total = count if self.total is None else self.total
        out = rec(0x00FC, struct.pack("<ii", total, count) + bytes(self.records[0][8:]))
        for r in self.records[1:]:
            out += rec(0x003C, bytes(r))
        dsst = max(count // 128 + 1, 8)
        extsst = struct.pack("<H", dsst)
        for k in range(0, count, dsst):
            ib, cb = self.starts[k]
            extsst += struct.pack("<IHH", ib, cb, 0)
        return out + rec(0x00FF, extsst)


def table(strings, total=None):
    sst = Sst(total)
    for s in strings:
        if isinstance(s, tuple):
            sst.add(*s)
        else:
            sst.add(s)
    return sst.bytes()


def filler(nbytes, ch="a"):
    return ch * (nbytes - 3)


def ext_rst(phonetic):
    cb = 4 + 6 + 2 * len(phonetic) + 6
    out = struct.pack("<HHHHHHH", 1, cb, 0, 1, 1, len(phonetic), len(phonetic))
    out += phonetic.encode("utf-16-le") + struct.pack("<HHH", 0, 0, 1)
    return out


def cases():
    c = {}
    c["y_empty_table"] = table([])
    c["y_one_string"] = table(["hello"])
    c["y_empty_strings"] = table(["", "", "x", ""])
    for left in (1, 2, 3):
        c["y_header_%d_bytes_before_record_end" % left] = table([filler(MAX - 8 - left), "next", "\u4e00wide"])
        c["y_wide_header_%d_bytes_before_record_end" % left] = table([filler(MAX - 8 - left), "\u4e00wide"])
    c["y_header_and_first_char_exactly_fit"] = table([filler(MAX - 8 - 4), "xyz"])
    c["y_empty_string_moves_with_three_bytes_left"] = table([filler(MAX - 8 - 3), "", "z"])
    c["y_empty_string_fits_in_four_bytes"] = table([filler(MAX - 8 - 4), "", "z"])
    c["y_wide_split_between_units"] = table(["ab", "\u0101" * 5000])
    c["y_wide_odd_byte_left_unused"] = table(["\u4e00" * 4107])
    c["y_compressed_split"] = table(["\u00e9" * 9000])
    c["y_string_ends_at_record_end"] = table([filler(MAX - 8), "next"])
    c["y_runs_across_boundary"] = table([("r" * (MAX - 8 - 5 - 2), [(0, 1), (3, 5)]), "after"])
    c["y_runs_after_chars_end_at_record_end"] = table([("r" * (MAX - 8 - 5), [(1, 2)]), "after"])
    c["y_ext_rst_across_boundary"] = table([("p" * (MAX - 8 - 7 - 10), None, ext_rst("\u30a2" * 20)), "after"])
    c["y_ext_rst_phonetic_text_moves"] = table([("k" * (MAX - 8 - 7 - 8 - 6 - 30), None, ext_rst("\u30a2" * 20)), "after"])
    c["y_ext_rst_run_moves"] = table([("k" * (MAX - 8 - 7 - 8 - 6 - 40 - 4), None, ext_rst("\u30a2" * 20)), "after"])
    c["y_ext_rst_three_records"] = table([("kanji", [(0, 1)], ext_rst("\u30a2" * 9000)), "after"])
    c["y_longest_compressed"] = table(["A" * 65535])
    c["y_longest_wide"] = table(["\u4e00" * 65535])
    c["y_surrogate_pair_split"] = table(["ab", "\U0001F600" * 3000])
    c["y_lone_surrogates"] = table(["\ud800", "x\udc00y", "\udbff\ud800"])
    c["y_mixed_scripts"] = table(["plain", "caf\u00e9", "\u65e5\u672c\u8a9e", "\U0001F600 smile", "tab\tnew\nline"])
    c["y_many_strings"] = table(["s%05d" % i for i in range(5000)])

    # Shapes other writers produce, written by hand.
    counts = lambda total, unique: struct.pack("<ii", total, unique)
    c["y_header_then_zero_chars"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 3, 0)) + rec(0x3C, b"\x00abc")
    c["y_compression_switches"] = (rec(0xFC, counts(1, 1) + struct.pack("<HBH", 4, 1, 0x4E00)) + rec(0x3C, b"\x00x") +
                                   rec(0x3C, b"\x01" + struct.pack("<HH", 0xE9, 0x3042)))
    c["y_no_extsst"] = rec(0xFC, counts(2, 2) + struct.pack("<HB", 1, 0) + b"a" + struct.pack("<HB", 1, 0) + b"b")
    c["i_trailing_bytes_after_strings"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 1, 0) + b"z" + b"junk")
    c["i_cst_total_zero"] = rec(0xFC, counts(0, 1) + struct.pack("<HB", 1, 0) + b"z")
    c["i_reserved_flag_bits"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 1, 0xF2) + b"z")
    c["n_too_few_strings"] = rec(0xFC, counts(3, 3) + struct.pack("<HB", 5, 0) + b"zzzzz" + struct.pack("<HB", 5, 0) + b"yyyyy")
    c["n_count_exceeds_data"] = rec(0xFC, counts(1000, 1000) + struct.pack("<HB", 1, 0) + b"z")
    c["n_characters_past_end"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 50, 0) + b"zz")
    c["n_continue_missing"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 4, 0) + b"zz") + rec(0x0022, b"xx")
    c["n_truncated_record"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 3, 0) + b"abc")[:-2]
    c["n_continuation_flags_0x08"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 2, 0) + b"z") + rec(0x3C, b"\x08y")
    c["n_odd_byte_in_utf16"] = (rec(0xFC, counts(1, 1) + struct.pack("<HBH", 2, 1, 0x4E00) + b"x") +
                                rec(0x3C, b"\x01" + struct.pack("<H", 0x4E01)))
    c["n_split_header"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 2, 8) + b"\x01") + rec(0x3C, b"\x00ab\x00\x00\x00\x00")
    c["n_negative_unique_count"] = rec(0xFC, struct.pack("<ii", 0, -1))
    c["n_negative_ext_rst_size"] = rec(0xFC, counts(1, 1) + struct.pack("<HBi", 0, 4, -1))
    c["n_record_after_sst"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 1, 0) + b"z") + rec(0x000A, b"")
    c["n_not_an_sst"] = rec(0x0031, b"x" * 20)
    c["n_negative_total_count"] = rec(0xFC, counts(-1, 1) + struct.pack("<HB", 1, 0) + b"z")
    c["n_counts_truncated"] = rec(0xFC, struct.pack("<i", 1) + b"\x01\x00")
    c["n_counts_split_across_records"] = rec(0xFC, counts(1, 1)[:4]) + rec(0x3C, counts(1, 1)[4:] + struct.pack("<HB", 1, 0) + b"z")
    c["n_runs_past_end"] = rec(0xFC, counts(1, 1) + struct.pack("<HBH", 1, 8, 100) + b"z" + struct.pack("<HH", 0, 1))
    c["n_ext_rst_past_end"] = rec(0xFC, counts(1, 1) + struct.pack("<HBi", 1, 4, 100) + b"z" + b"\x01\x00\x00\x00")
    c["n_split_ext_rst_size"] = rec(0xFC, counts(1, 1) + struct.pack("<HB", 1, 4) + b"\x02\x00") + rec(0x3C, b"\x00\x00z\xaa\xbb")
    c["n_empty_continue_inside_characters"] = (rec(0xFC, counts(1, 1) + struct.pack("<HB", 4, 0) + b"ab") + rec(0x3C, b"") +
                                               rec(0x3C, b"\x00cd"))
    c["i_empty_continue_between_strings"] = (rec(0xFC, counts(2, 2) + struct.pack("<HB", 1, 0) + b"a") + rec(0x3C, b"") +
                                             rec(0x3C, struct.pack("<HB", 1, 0) + b"b"))
    c["i_continue_of_flags_byte_only"] = (rec(0xFC, counts(1, 1) + struct.pack("<HB", 4, 0) + b"ab") + rec(0x3C, b"\x00") +
                                          rec(0x3C, b"\x00cd"))
    # cRun 2: runs (0, 1) and (1, 5); the record ends between the second run's ich and ifnt, or inside its ich.
    rich = counts(2, 2) + struct.pack("<HBH", 2, 8, 2) + b"ab" + struct.pack("<HH", 0, 1)
    c["i_run_split_between_ich_and_ifnt"] = rec(0xFC, rich + b"\x01\x00") + rec(0x3C, b"\x05\x00" + struct.pack("<HB", 1, 0) + b"z")
    c["i_run_split_inside_ich"] = rec(0xFC, rich + b"\x01") + rec(0x3C, b"\x00\x05\x00" + struct.pack("<HB", 1, 0) + b"z")
    # A 6-byte ExtRst block (not a well-formed one) split after 3 bytes.
    c["i_ext_rst_split_inside_header"] = (rec(0xFC, counts(2, 2) + struct.pack("<HBi", 1, 4, 6) + b"a" + b"\x01\x00\x02") +
                                          rec(0x3C, b"\x00\x00\x00" + struct.pack("<HB", 1, 0) + b"z"))
    one = rec(0xFC, counts(1, 1) + struct.pack("<HB", 1, 0) + b"z")
    c["n_two_extsst_records"] = one + rec(0xFF, struct.pack("<HIHH", 8, 12, 12, 0)) * 2
    c["n_continue_after_extsst"] = one + rec(0xFF, struct.pack("<HIHH", 8, 12, 12, 0)) + rec(0x3C, b"xx")
    c["i_extsst_wrong_offsets"] = one + rec(0xFF, struct.pack("<HIHH", 8, 999, 77, 0))
    c["i_extsst_without_buckets"] = one + rec(0xFF, struct.pack("<H", 8))
    return c


XLS_CASES = [
    ("y_xls_mixed", ["--count", "300", "--mix", "mixed", "--seed", "1"], []),
    ("y_xls_rich", ["--count", "200", "--mix", "rich", "--seed", "2"], []),
    ("y_xls_cjk_split", ["--count", "800", "--mix", "cjk", "--seed", "3"], []),
    ("y_xls_three_sheets", ["--count", "50", "--mix", "emoji", "--seed", "4"], ["--rows-per-sheet", "8", "--columns-per-sheet", "2"]),
]


def cfb_name_length_200(xls):
    """The workbook with its Workbook directory entry's name length field set to 200 ([MS-CFB]
    2.6.1 allows at most 64 bytes): the entry names past its own name field."""
    data = bytearray(xls)
    name = "Workbook".encode("utf-16-le") + b"\0\0"
    at = data.find(name)
    while at >= 0 and (at - 512) % 128 != 0:  # directory entries are 128 bytes, after the 512-byte header
        at = data.find(name, at + 1)
    if at < 0:
        raise AssertionError("no Workbook directory entry")
    struct.pack_into("<H", data, at + 64, 200)
    return bytes(data)


def rename_workbook_entry(xls, name):
    """The workbook with its Workbook directory entry renamed (a name of at most 8 characters)."""
    data = bytearray(xls)
    at = data.find("Workbook".encode("utf-16-le") + b"\0\0")
    while at >= 0 and (at - 512) % 128 != 0:
        at = data.find("Workbook".encode("utf-16-le") + b"\0\0", at + 1)
    if at < 0:
        raise AssertionError("no Workbook directory entry")
    field = name.encode("utf-16-le") + b"\0\0"
    data[at:at + 64] = field.ljust(64, b"\0")
    struct.pack_into("<H", data, at + 64, len(field))
    return bytes(data)


def workbook_stream(xls):
    """The Workbook stream of a file `docconform xls write` made (one stream, its sectors first and in order)."""
    data = bytearray(xls)
    at = data.find("Workbook".encode("utf-16-le") + b"\0\0")
    while at >= 0 and (at - 512) % 128 != 0:
        at = data.find("Workbook".encode("utf-16-le") + b"\0\0", at + 1)
    start, size = struct.unpack_from("<II", data, at + 116)
    if start != 0:
        raise AssertionError("the Workbook stream does not start at sector 0")
    return bytes(data[512:512 + size])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(cases().items()):
        with open(os.path.join(out, name + ".sst"), "wb") as f:
            f.write(data)
    print("%d cases written to %s" % (len(cases()), out))
    if len(sys.argv) > 2:
        import subprocess
        import tempfile
        binary = sys.argv[2]
        with tempfile.TemporaryDirectory() as tmp:
            for name, gen, layout in XLS_CASES:
                strings = os.path.join(tmp, name + ".jsonl")
                subprocess.run([binary, "gen", "strings"] + gen + [strings], check=True)
                subprocess.run([binary, "xls", "write", "--strings", strings] + layout + [os.path.join(out, name + ".xls")], check=True)
        with open(os.path.join(out, "y_xls_mixed.xls"), "rb") as f:
            damaged = cfb_name_length_200(f.read())
        with open(os.path.join(out, "n_cfb_name_length_200.xls"), "wb") as f:
            f.write(damaged)
        with open(os.path.join(out, "y_xls_three_sheets.xls"), "rb") as f:
            base = f.read()
        derived = {
            "i_xls_workbook_name_upper_case": rename_workbook_entry(base, "WORKBOOK"),
            "i_xls_stream_named_book": rename_workbook_entry(base, "Book"),
            "i_xls_bare_biff_stream": workbook_stream(base),
        }
        # The name tells the kind: each kind's bytes under the other's name.
        misnamed = {
            "n_record_file_named_xls.xls": cases()["y_one_string"],
            "n_workbook_stream_named_sst.sst": derived["i_xls_bare_biff_stream"],
        }
        for name, data in sorted(derived.items()):
            with open(os.path.join(out, name + ".xls"), "wb") as f:
                f.write(data)
        for name, data in sorted(misnamed.items()):
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
        print("%d workbooks written to %s" % (len(XLS_CASES) + 1 + len(derived) + len(misnamed), out))


if __name__ == "__main__":
    main()
