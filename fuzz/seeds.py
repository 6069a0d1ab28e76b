#!/usr/bin/python3
"""Writes the generated seeds of the canonical_dump, cfb_container, inflate_differential,
strings_file and xml_text_decoding targets into corpus/<target>/, each file named by the sha1 of its content, and
copies the small real .xls files corpus/README.md lists for cfb_container. Run from anywhere;
existing files are kept.

    fuzz/seeds.py [--shared DIR] [TARGET...]
"""
import argparse
import hashlib
import pathlib
import re
import struct
import sys
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def utf16le(text):
    return text.encode("utf-16-le", "surrogatepass")


def canonical_dump():
    units = [utf16le('plain ASCII with "quotes" and \\ backslashes'),
             utf16le("\u00e9\u4e2d\U0001F600 \t\n\r\x00\x7f"),
             struct.pack("<4H", 0xD800, 0x0041, 0xDFFF, 0xFFFF),
             utf16le("u") + struct.pack("<H", 0x22)]
    doubles = [0.1, 1.5, 123.456, -0.0, 1e21, 1e-7, 1e-6, 2.0 ** 53, 2.0 ** 70, 5e-324,
               1.7976931348623157e308, 2.2250738585072014e-308, float("inf"), float("-inf"),
               float("nan"), -987654321.125, 1 / 3]
    seeds = units + [struct.pack("<d", d) for d in doubles]
    seeds.append(b"".join(struct.pack("<d", d) for d in doubles))
    # integers and short decimals m x 10^e come from the bit patterns too
    seeds.append(struct.pack("<q", 12345 << 11) + struct.pack("<hh", 15, -3) + b"\0" * 4)
    return seeds


def cfb_container():
    def trip(name, stream=b"", large=None):
        head = bytes([len(name)]) + utf16le(name)
        if large is not None:
            head += b"L" + struct.pack("<I", large)[:3]
        return head + stream
    return [trip("Workbook", b"BIFF8 record bytes " * 3),
            trip("Book", bytes(range(256)) * 20),          # 5,120 bytes: above the cutoff
            trip("", b"x"),                                 # empty name
            trip("Workbook", b"ab", large=4096),            # exactly the cutoff
            trip("W", b"\x01\x02\x03", large=300 << 10),    # 300 KiB: several FAT sectors
            trip("a/b", b"forbidden name")]


def xml_text_decoding():
    pieces = [b"\x00plain", b"\x00&amp;&lt;&gt;&quot;&apos;", b"\x01&#65;&#x42;&#x1F600;",
              b"\x02a\r\nb\rc", b"\x03<![CDATA[<&>]]>x<!-- split -->y",
              b"\x00_x000D__x005F_x0041__xD83D__xDE00_", b"\x01\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80",
              b"\x00</t><t>second", b"\x02<?pi?>&#10;&#13;&#9;"]
    seeds = []
    # shared strings whole, worksheet, split at 32/128 bytes; 0x10: text kept to XML characters
    for mode in (0x00, 0x01, 0x02, 0x06, 0x10, 0x11, 0x16):
        seeds.append(bytes([mode]) + b"\xff".join(pieces))
    seeds.append(b"\x00\x00&#000000000065;")
    seeds.append(b"\x01\x00\xc0\xaf passthrough")
    return seeds


def inflate_differential():
    """Real deflate streams: the smallest deflated zip parts of the bundled XLSX cases and the
    smallest FlateDecode streams of the bundled PDF cases (one of each per file), each after a
    byte that seeds the piece sizes; and one stored, one fixed and one dynamic block."""
    cases = ROOT / "conformance" / "cases"
    streams = []
    for path in sorted((cases / "xlsx").glob("*.xlsx"))[::3]:
        try:
            with zipfile.ZipFile(path) as archive, path.open("rb") as raw:
                infos = [i for i in archive.infolist() if i.compress_type == zipfile.ZIP_DEFLATED and 64 < i.compress_size < 8192]
                if not infos:
                    continue
                info = max(infos, key=lambda i: i.compress_size)
                raw.seek(info.header_offset + 26)
                name_len, extra_len = struct.unpack("<HH", raw.read(4))
                raw.seek(info.header_offset + 30 + name_len + extra_len)
                streams.append(raw.read(info.compress_size))
        except (zipfile.BadZipFile, struct.error):
            continue
    for path in sorted((cases / "pdf").glob("*.pdf"))[::3]:
        data = path.read_bytes()
        found = [m.group(1) for m in re.finditer(rb"/FlateDecode.{0,200}?stream\r?\n(.{16,8192}?)\r?\nendstream", data, re.S)]
        if found:
            streams.append(found[0])
    text = b"<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>" * 20
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    streams += [zlib.compress(b"stored block", 0), zlib.compress(b"fixed", 9), raw.compress(text) + raw.flush()]
    return [bytes([i * 37 % 256]) + s for i, s in enumerate(streams)]


def strings_file():
    lines = [b'"plain"', b'""', '"caf\\u00e9 \u4e2d \U0001F600"'.encode(), b'"\\uD800 lone \\uDFFF"',
             b'"\\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t"', b'{"s": "rich", "runs": [[0, 1], [2, 3]]}',
             b'{"s": "phonetic", "ext": "0100080000000000"}', b'{"runs": [], "s": "runs first"}',
             b'"plain"', b"  \t\r", b'"crlf"\r']
    return [b"\n".join(lines) + b"\n",
            b"",                                             # no cells
            b'"no final newline"',
            b'"\xc3\x28 ill-formed UTF-8"\n',                 # rejected
            b'"unterminated\n',                               # rejected
            b'{"s": "x", "runs": [[70000, 0]]}\n',            # a run index past 16 bits
            b'"' + b"a" * 9000 + b'"\n"\\u4E2D"\n' + b'""\n' * 3,
            b'{"s": "odd hex", "ext": "ZZ"}\n']               # rejected


GENERATED = {"canonical_dump": canonical_dump, "cfb_container": cfb_container,
             "inflate_differential": inflate_differential, "strings_file": strings_file, "xml_text_decoding": xml_text_decoding}

# Small real files (corpus-real/xls, see corpus/README.md): 512-byte sectors with and without a
# mini stream, files with broken headers, a truncated file, a fuzzer-minimized POI case.
REAL = {"cfb_container": ["calamine__too_small.xls", "libxls__xls2csv_ole_ole2_fread_327.xls",
                          "poi__clusterfuzz-testcase-minimized-POIHSSFFuzzer-6137883240824832.xls",
                          "xlrd__biff4_no_format_no_window2.xls", "poi__chinese-provinces.xls",
                          "poi__xor-encryption-abc.xls", "calamine__capitalized_wbook_stream.xls",
                          "libxls__mtcars.xls", "poi__MissingBits.xls"]}


def write(target, content):
    folder = ROOT / "corpus" / target
    (folder / "regressions").mkdir(parents=True, exist_ok=True)
    (folder / "regressions" / ".keep").touch()
    (folder / hashlib.sha1(content).hexdigest()).write_bytes(content)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"), help="the shared data folder")
    parser.add_argument("targets", nargs="*", default=sorted(GENERATED))
    args = parser.parse_args()
    for target in args.targets:
        for content in GENERATED[target]():
            write(target, content)
        for name in REAL.get(target, []):
            path = pathlib.Path(args.shared) / "corpus-real" / "xls" / name
            if not path.exists():
                sys.exit(f"seeds: {path} is missing")
            write(target, path.read_bytes())


if __name__ == "__main__":
    main()
