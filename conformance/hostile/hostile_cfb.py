"""Hostile .xls containers (Compound File Binary) and SST record files: FAT and DIFAT chains that
loop, chains and stream sizes that run past the file, directory trees that cycle, string tables
whose counts, lengths or continuation records lie."""
import struct

FREE, END, FAT_SECT = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
NO_STREAM = 0xFFFFFFFF
SECTOR = 512


def record(kind, data):
    return struct.pack("<HH", kind, len(data)) + data


def sst_record(strings, total=None, unique=None):
    body = struct.pack("<II", len(strings) if total is None else total, len(strings) if unique is None else unique)
    for text in strings:
        body += struct.pack("<HB", len(text), 0) + text.encode("latin-1")
    return record(0x00FC, body)


def workbook_stream(sst):
    bof = record(0x0809, struct.pack("<HHHHII", 0x0600, 0x0005, 0x0DBB, 0x07CC, 0, 0x0206))
    return bof + sst + record(0x000A, b"")


def directory_entry(name, kind, left, right, child, start, size):
    """One 128-byte CFB directory entry (black, no CLSID, times or state bits)."""
    raw = name.encode("utf-16-le")
    entry = bytearray(128)
    entry[0:len(raw)] = raw
    struct.pack_into("<HBB", entry, 64, len(raw) + 2 if name else 0, kind, 1)
    struct.pack_into("<III", entry, 68, left, right, child)
    struct.pack_into("<II", entry, 116, start, size)
    return bytes(entry)


class Cfb:
    """A version 3 compound file with one stream (at least 4,096 bytes, so in regular sectors):
    stream sectors, then one FAT sector, then one directory sector. Fields stay editable."""

    def __init__(self, stream, name="Workbook"):
        self.stream = stream.ljust(4096, b"\0")
        self.size = len(self.stream)
        self.stream_sectors = (len(self.stream) + SECTOR - 1) // SECTOR
        self.fat_sector = self.stream_sectors
        self.dir_sector = self.stream_sectors + 1
        self.fat = [i + 1 for i in range(self.stream_sectors)]
        self.fat[-1] = END
        self.fat += [FAT_SECT, END]
        self.fat_count = 1
        self.difat = [self.fat_sector]
        self.difat_start, self.difat_count = END, 0
        self.extra_sectors = []  # appended after the directory (for DIFAT sectors)
        # name, type, left, right, child, start, size
        self.entries = [["Root Entry", 5, NO_STREAM, NO_STREAM, 1, END, 0],
                        [name, 2, NO_STREAM, NO_STREAM, NO_STREAM, 0, self.size]]

    def bytes(self):
        header = bytearray(SECTOR)
        header[0:8] = bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
        struct.pack_into("<HHHHH", header, 0x18, 0x3E, 3, 0xFFFE, 9, 6)
        struct.pack_into("<IIIIIIII", header, 0x2C, self.fat_count, self.dir_sector, 0, 4096, END, 0,
                         self.difat_start, self.difat_count)
        for k in range(109):
            struct.pack_into("<I", header, 0x4C + 4 * k, self.difat[k] if k < len(self.difat) else FREE)
        data = self.stream.ljust(self.stream_sectors * SECTOR, b"\0")
        fat = (self.fat + [FREE] * 128)[:128]
        data += struct.pack("<128I", *fat)
        directory = b""
        for fields in self.entries + [["", 0, NO_STREAM, NO_STREAM, NO_STREAM, 0, 0]] * 2:
            directory += directory_entry(*fields)
        data += directory
        for sector in self.extra_sectors:
            data += sector
        return bytes(header) + data


def xls(sst=None):
    return Cfb(workbook_stream(sst if sst is not None else sst_record(["alpha", "beta"])))


def cfb_fat_cycle():
    """The Workbook stream's last FAT entry points back at its first sector."""
    c = xls()
    c.fat[c.stream_sectors - 1] = 0
    return c.bytes()


def cfb_fat_self_loop_directory():
    """The directory sector's FAT entry points at itself."""
    c = xls()
    c.fat[c.dir_sector] = c.dir_sector
    return c.bytes()


def cfb_difat_loop():
    """The header claims 50,000 FAT sectors; the one DIFAT sector lists none and names itself next."""
    c = xls()
    c.fat_count = 50_000
    c.difat_start, c.difat_count = c.dir_sector + 1, 1
    c.fat.append(0xFFFFFFFC)  # DIFSECT
    c.extra_sectors.append(struct.pack("<127I", *([FREE] * 127)) + struct.pack("<I", c.dir_sector + 1))
    return c.bytes()


def cfb_chain_past_file():
    """A FAT entry of the stream's chain names sector 1,000,000 (the file has 10)."""
    c = xls()
    c.fat[2] = 1_000_000
    return c.bytes()


def cfb_stream_size_2gib():
    """The directory says the Workbook stream has 2 GiB; the file has 5 KiB."""
    c = xls()
    c.entries[1][6] = 0x80000000
    return c.bytes()


def cfb_stream_more_sectors_than_chain():
    """The stream claims 5,000 bytes (10 sectors) but its chain ends after 8 sectors."""
    c = xls()
    c.entries[1][6] = 5000
    return c.bytes()


def cfb_directory_tree_cycle():
    """The directory's red-black tree cycles (the stream entry is its own left sibling, the root's
    child); entries are read in order, never by walking the tree."""
    c = xls()
    c.entries[1][2] = 1
    c.entries[1][3] = 1
    return c.bytes()


def cfb_sst_count_billions():
    """An .xls whose SST claims 2,147,483,647 unique strings and holds two."""
    return xls(sst_record(["alpha", "beta"], total=0x7FFFFFFF, unique=0x7FFFFFFF)).bytes()


def sst_count_billions():
    """A raw SST record claiming 2,147,483,647 unique strings, holding none."""
    return sst_record([], total=0x7FFFFFFF, unique=0x7FFFFFFF)


def sst_ext_rst_2gib():
    """A string whose cbExtRst claims 2 GiB of extended data."""
    body = struct.pack("<II", 1, 1) + struct.pack("<HB", 1, 0x04) + struct.pack("<I", 0x7FFFFFFF) + b"a"
    return record(0x00FC, body)


def sst_runs_lie():
    """A string claiming 65,535 formatting runs (262,140 bytes) with none present."""
    body = struct.pack("<II", 1, 1) + struct.pack("<HBH", 1, 0x08, 0xFFFF) + b"a"
    return record(0x00FC, body)


def sst_string_across_65535_continues():
    """One string of 65,535 characters, each in its own CONTINUE record (legal, and slow for any
    reader that rescans): accepted in bounded time."""
    out = record(0x00FC, struct.pack("<II", 1, 1) + struct.pack("<HB", 0xFFFF, 0) + b"a")
    piece = record(0x003C, b"\x00b")
    return out + piece * 0xFFFE


KINDS = {name: fn for name, fn in list(globals().items())
         if (name.startswith("cfb_") or name.startswith("sst_")) and callable(fn) and name != "sst_record"}
