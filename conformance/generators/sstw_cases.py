#!/usr/bin/python3
"""Generates conformance/cases/sstw/: strings files (JSON Lines, one cell per line) that every
writer under test turns into a .xls (conformance/SPEC.md, format sstw).

Usage: sstw_cases.py OUT_DIR   (deterministic: the same files on every run)

Most cases are lists of cells written one JSON string a line; RAW holds files written byte for
byte (line endings, blank lines, escapes, a byte order mark, malformed UTF-8 and lines that are
no string).

The boundary case places its strings where the SST record in progress has a chosen number of
bytes left, by the continuation rules of conformance/SPEC.md, format sst ("Writing the table"):
fillers of computed length bring the free bytes of the open record to each target.
"""
import json
import os
import random
import string
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sst_cases import MAX, ext_rst  # noqa: E402  (the record size and a well-formed ExtRst)

EXCEL_CELL_LIMIT = 32767  # characters in one cell (Excel's specification and limits)
CCH_LIMIT = 0xFFFF  # cch is 16 bits
FILLER_MAX = 4000  # short enough for writers that never continue a string (SheetJS 0.18.5)


def line(cell):
    """A cell as the strings file writes it: UTF-8 text, \\uXXXX for controls and lone surrogates."""
    if isinstance(cell, dict):
        return "{" + ", ".join('"%s": %s' % (k, line_text(v) if k == "s" else json.dumps(v)) for k, v in cell.items()) + "}"
    return line_text(cell)


def line_text(text):
    quoted = json.dumps(text, ensure_ascii=False)
    return "".join("\\u%04X" % ord(c) if 0xD800 <= ord(c) <= 0xDFFF else c for c in quoted)


class Records:
    """Free bytes of the open SST record as the writer rules of the SPEC use them up."""

    def __init__(self):
        self.avail = MAX - 8  # cstTotal, cstUnique
        self.fillers = 0

    def add(self, text, runs=0):
        width = 2 if any(ord(c) > 0xFF for c in text) else 1
        units = len(text.encode("utf-16-le", "surrogatepass")) // 2
        header = 3 + (2 if runs else 0)
        if self.avail < header + width:
            self.avail = MAX
        self.avail -= header
        while True:
            take = min(units, self.avail // width)
            units -= take
            self.avail -= take * width
            if not units:
                break
            self.avail = MAX - 1  # a CONTINUE and its flags byte
        for _ in range(runs):
            if self.avail < 4:
                self.avail = MAX
            self.avail -= 4

    def filler(self, length):
        """A string of `length` characters not used before (equal strings share an entry): a
        counter in letters, padded with dots, so no two fillers are equal."""
        while True:
            self.fillers += 1
            digits, k = "", self.fillers
            while k:
                digits, k = string.ascii_letters[k % 52] + digits, k // 52
            if len(digits) <= length:
                break
        text = digits.ljust(length, ".")
        self.add(text)
        return text

    def fill_to(self, target):
        """Fillers after which `target` bytes of the open record are free."""
        out = []
        while self.avail != target:
            if self.avail - 3 - target > FILLER_MAX:
                out.append(self.filler(FILLER_MAX))
            elif self.avail < 4:
                out.append(self.filler(min(FILLER_MAX, MAX - 3 - target)))  # opens a CONTINUE of its own
            elif self.avail - 3 - target >= 1:
                out.append(self.filler(self.avail - 3 - target))
            else:
                out.append(self.filler(self.avail - 3))  # the record ends with this string
        return out


def boundary_cells():
    records = Records()
    cells = []
    for target, cell in [
        (0, "starts a record"),                  # the previous string ended the record exactly
        (3, "abc"),                              # header fits, no character: a CONTINUE first
        (4, "abcdef"),                           # one compressed character, then flags 0x00
        (5, "\u4e2d\u6587\u5b57\u7b26"),          # one UTF-16 character, then flags 0x01
        (6, "\u4e2d\u6587\u5b57\u7b26\u4e32"),    # one UTF-16 character and one byte unused
        (3, ""),                                 # an empty string opens a CONTINUE too
        (4, "\u00e9"),                           # a compressed string that just fits
        (16, {"s": "rich text", "runs": [[0, 1], [5, 2]]}),  # the first run opens a CONTINUE
        (5, "\U0001F600\U0001F680"),             # a surrogate pair split between records
    ]:
        cells += records.fill_to(target)
        cells.append(cell)
        if isinstance(cell, dict):
            records.add(cell["s"], len(cell["runs"]))
        else:
            records.add(cell)
    return cells


def cases():
    rng = random.Random(20261202)
    latin1 = "".join(chr(c) for c in range(0x20, 0x7F)) + "\u00e4\u00f6\u00fc\u00df\u00e9\u00e8\u00f1\u00e7\u00c5\u00d8\u00a9\u00ae\u00b0\u00b1\u00b5\u00b6\u00b7\u00bf\u00d7\u00f7"
    wide = ("\u03b1\u03b2\u03b3\u03b4\u03b5\u03a9\u0436\u0449\u042f\u0416\u4e2d\u6587\u5b57\u7b26\u4e32\u8868"
            "\u6f22\u5b57\u304b\u306a\u30ab\u30ca\ud55c\uad6d\uc5b4" "\U0001F600\U0001F680\U00010348" "\t\n\x01\x7f")
    latin1_cells = ["".join(rng.choice(latin1) for _ in range(rng.randint(1, 40))) for _ in range(500)]
    wide_cells = ["".join(rng.choice(latin1 + wide) for _ in range(rng.randint(1, 60))) for _ in range(800)]
    pool = latin1_cells[:200] + wide_cells[:200]
    c = {
        "y_latin1_compressed": latin1_cells,
        "y_non_latin1_utf16": wide_cells,
        "y_long_strings_continue": ["x" * EXCEL_CELL_LIMIT, "\u00e9" * 20000, "\u4e2d" * EXCEL_CELL_LIMIT,
                                    "a" * 8220 + "\U0001F600" * 100,
                                    "".join(rng.choice(latin1 + wide) for _ in range(30000))],
        "y_repeats_share_entries": [rng.choice(pool) if rng.random() < 0.3 else "s%d %s" % (i, rng.choice(pool))
                                    for i in range(5000)],
        "y_empty_strings": ["", "a", "", "b", ""],
        "y_no_strings": [],
        "y_boundary_each_kind": boundary_cells(),
        "y_lone_surrogates": ["\ud800", "a\udc00b", "\udbff\udfff", "\udfff\ud800", "\ud83d"],
        "y_rich_and_phonetic_text_kept": [
            {"s": "bold start", "runs": [[0, 1], [4, 0]]},
            {"s": "\u6f22\u5b57", "ext": ext_rst("\u304b\u3093\u3058").hex()},
            {"s": "both", "runs": [[1, 2]], "ext": ext_rst("\u3072").hex()},
            {"s": "no runs listed", "runs": []},
            "plain",
        ],
        "i_over_the_cell_limit": ["y" * (EXCEL_CELL_LIMIT + 1), "\u00e9" * CCH_LIMIT],
        "n_over_65535_units": ["ok", "z" * (CCH_LIMIT + 1)],
        "y_object_form_without_runs": [{"s": "object form"}, "plain", {"s": "\u4e2d object"}, {"s": "  spaces kept "}, "last"],
        "y_nul_characters": ["\x00", "a\x00b", "ends with nul\x00"],
        "y_noncharacters": ["\ufffe", "\uffff", "\ufdd0\ufdef", "\U0010ffff", "a\ufeffb"],
        "y_del_and_c1_controls": ["\x7f", "\x80\x85\x9f", "tab\there\x1b[0m"],
        "y_normalization_forms_distinct": ["caf\u00e9", "cafe\u0301", "\u00c5", "A\u030a", "\u212b", "\u2126", "\u03a9",
                                           "\uff21", "A"],
    }
    return c


# Files written byte for byte: line endings, blank lines, escapes and encodings that the
# line writer above never produces.
RAW = {
    "y_blank_lines_skipped": b'"first"\n\n   \n\t\r\n"second"\n \t \n\r\n"third"\n\n',
    "y_crlf_line_endings": b'"one"\r\n"two"\r\n{"s": "three"}\r\n',
    "y_json_escapes": (b'"quote \\" backslash \\\\ solidus \\/"\n"\\b\\f\\n\\r\\t"\n'
                       b'"\\u0041\\u00e9\\u4E2D\\uD83D\\uDE00"\n"A\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"\n'),
    "i_utf8_bom_at_start": b'\xef\xbb\xbf"after a byte order mark"\n"second"\n',
    "n_overlong_utf8": b'"ok"\n"over\xc0\xaflong"\n',
    "n_code_point_above_10ffff": b'"ok"\n"\xf4\x90\x80\x80"\n',
    "n_line_not_a_string": b'"ok"\n42\n',
    "n_object_without_s": b'"ok"\n{"runs": [[0, 1]]}\n',
    "n_text_after_string": b'"ok"\n"abc" "def"\n',
    "n_utf8_encoded_surrogates": b'"ok"\n"\xed\xa0\xbd\xed\xb8\x80"\n',
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, cells in sorted(cases().items()):
        with open(os.path.join(out, name + ".jsonl"), "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(line(cell) + "\n" for cell in cells))
    for name, data in sorted(RAW.items()):
        with open(os.path.join(out, name + ".jsonl"), "wb") as f:
            f.write(data)
    print("%d cases written to %s" % (len(cases()) + len(RAW), out))


if __name__ == "__main__":
    main()
