"""Zip archives built byte by byte, so entries can lie: declared sizes that differ from the data,
central-directory entries that share one local entry (overlapping files), deflate streams that
inflate thousands of times their size, more entries than any reader should index."""
import struct
import zlib

DEFLATE = 8
STORE = 0


class Deflated:
    """A raw deflate stream of `repeat` copies of `chunk` (plus optional head and tail bytes),
    built without compressing gigabytes: after a full flush the compressor starts afresh, so one
    compressed copy of the chunk can be repeated. The CRC-32 and size of the inflated data are real."""

    def __init__(self, head, chunk, repeat, tail):
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        first = compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH)
        block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
        last = compressor.compress(tail) + compressor.flush(zlib.Z_FINISH)
        self.data = first + block * repeat + last
        self.size = len(head) + len(chunk) * repeat + len(tail)
        crc = zlib.crc32(head)
        for _ in range(repeat):
            crc = zlib.crc32(chunk, crc)
        self.crc = zlib.crc32(tail, crc)


def deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


class ZipBuilder:
    def __init__(self):
        self.out = bytearray()
        self.central = []

    def add(self, name, data=b"", *, stream=None, declared_size=None):
        """Adds a deflated entry (stream: a precomputed Deflated); declared_size overrides the
        uncompressed size written in both headers. Returns the local header offset."""
        if stream is None:
            stream = Deflated(data, b"", 0, b"")
        size = stream.size if declared_size is None else declared_size
        raw_name = name.encode()
        offset = len(self.out)
        self.out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, DEFLATE, 0, 0x21,
                                stream.crc, len(stream.data), size, len(raw_name), 0)
        self.out += raw_name + stream.data
        self.central.append((raw_name, stream.crc, len(stream.data), size, offset))
        return offset

    def alias(self, name, of, declared_size=None):
        """A central-directory entry named `name` whose data is the local entry of `of` (an
        overlapping file: no bytes of its own), declaring `of`'s size unless told otherwise."""
        _, crc, csize, size, offset = next(e for e in self.central if e[0] == of.encode())
        self.central.append((name.encode(), crc, csize, size if declared_size is None else declared_size, offset))

    def bytes(self):
        start = len(self.out)
        directory = bytearray()
        for raw_name, crc, csize, size, offset in self.central:
            directory += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, DEFLATE, 0, 0x21,
                                     crc, csize, size, len(raw_name), 0, 0, 0, 0, 0, offset)
            directory += raw_name
        count = len(self.central)
        if count > 0xFFFF:
            # ZIP64 end records carry the real entry count; the classic one says "see ZIP64".
            zip64_at = start + len(directory)
            directory += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count,
                                     len(directory), start)
            directory += struct.pack("<IIQI", 0x07064B50, 0, zip64_at, 1)
            count = 0xFFFF
        directory += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count,
                                 min(len(directory), 0xFFFFFFFF), min(start, 0xFFFFFFFF), 0)
        return bytes(self.out) + bytes(directory)


NS = ('xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def workbook_parts(sheet_count=1, shared_strings=False):
    """The package parts around the sheets: content types, relationships, workbook."""
    sheets = "".join(f'<sheet name="S{i}" sheetId="{i}" r:id="rId{i}"/>' for i in range(1, sheet_count + 1))
    rels = "".join(f'<Relationship Id="rId{i}" Type="{REL_TYPE}worksheet" Target="worksheets/sheet{i}.xml"/>'
                   for i in range(1, sheet_count + 1))
    if shared_strings:
        rels += f'<Relationship Id="rSst" Type="{REL_TYPE}sharedStrings" Target="sharedStrings.xml"/>'
    return [
        ("[Content_Types].xml",
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/></Types>'),
        ("_rels/.rels",
         f'<Relationships xmlns="{REL_NS}"><Relationship Id="rId1" Type="{REL_TYPE}officeDocument" '
         'Target="xl/workbook.xml"/></Relationships>'),
        ("xl/workbook.xml", f"<workbook {NS}><sheets>{sheets}</sheets></workbook>"),
        ("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{REL_NS}">{rels}</Relationships>'),
    ]


def sheet_xml(body):
    return f'<worksheet {NS}><sheetData>{body}</sheetData></worksheet>'
