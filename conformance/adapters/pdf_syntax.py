"""PDF object syntax (ISO 32000-1, 7.3) read into Python values, and those values written in the
canonical form of conformance/SPEC.md, format pdf. Used by adapters whose library hands out PDF
syntax rather than an object model (libqpdf's unparse) and by the xref section walker.

Values: None, bool, int, float (reals), Name (name bytes, #xx decoded), bytes (string bytes),
Ref, list (arrays), dict (name -> value; the last of duplicated keys wins)."""
import re

from canonical import number_text, quote_bytes

WHITESPACE = b"\x00\t\n\x0c\r "
DELIMITERS = b"()<>[]{}/%"
NAME_ESCAPED = set(b"#()<>[]{}/%")
TOKEN_END = re.compile(rb"[\x00\t\n\x0c\r ()<>\[\]{}/%]")
INTEGER = re.compile(rb"[+-]?[0-9]+$")
REAL = re.compile(rb"[+-]?([0-9]+\.[0-9]*|\.[0-9]+)$")
ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f"}
MAX_DEPTH = 200  # SPEC rule 9
INFLATE_RATIO = 1000  # SPEC rule 9: an object stream may inflate to 1000 times its encoded size...
INFLATE_RATIO_FLOOR = 1 << 20  # ...once it is past 1 MiB


class SyntaxFault(ValueError):
    pass


class Name(bytes):
    pass


class Ref(tuple):
    pass


def inflates_past_limit(encoded, decoded):
    """Whether an object stream of `encoded` bytes that inflates to `decoded` breaks SPEC rule 9's
    ratio limit."""
    return decoded > INFLATE_RATIO_FLOOR and decoded > INFLATE_RATIO * max(encoded, 1)


def skip_space(data, pos):
    while pos < len(data):
        if data[pos] in WHITESPACE:
            pos += 1
        elif data[pos] == ord("%"):
            while pos < len(data) and data[pos] not in b"\r\n":
                pos += 1
        else:
            break
    return pos


def regular_token(data, pos):
    m = TOKEN_END.search(data, pos)
    end = m.start() if m else len(data)
    return data[pos:end], end


def literal_string(data, pos):
    """data[pos] is '('; returns (bytes, position after ')')."""
    out = bytearray()
    depth = 1
    pos += 1
    while pos < len(data):
        c = data[pos]
        if c == ord("\\"):
            pos += 1
            if pos >= len(data):
                break
            e = data[pos]
            if e in ESCAPES:
                out += ESCAPES[e]
            elif 0x30 <= e <= 0x37:
                digits = re.match(rb"[0-7]{1,3}", data[pos:pos + 3]).group()
                out.append(int(digits, 8) & 0xFF)
                pos += len(digits) - 1
            elif e == ord("\r"):
                if data[pos + 1:pos + 2] == b"\n":
                    pos += 1
            elif e != ord("\n"):
                out.append(e)
            pos += 1
            continue
        if c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return bytes(out), pos + 1
        elif c == ord("\r"):
            c = ord("\n")
            if data[pos + 1:pos + 2] == b"\n":
                pos += 1
        out.append(c)
        pos += 1
    raise SyntaxFault("unterminated string")


def hex_string(data, pos):
    end = data.find(b">", pos)
    if end < 0:
        raise SyntaxFault("unterminated hex string")
    digits = bytes(b for b in data[pos + 1:end] if b not in WHITESPACE)
    if not re.fullmatch(rb"[0-9A-Fa-f]*", digits):
        raise SyntaxFault("bad hex string")
    if len(digits) % 2:
        digits += b"0"
    return bytes.fromhex(digits.decode()), end + 1


def name_bytes(token):
    out = bytearray()
    i = 0
    while i < len(token):
        if token[i] == ord("#") and re.fullmatch(rb"[0-9A-Fa-f]{2}", token[i + 1:i + 3]):
            out.append(int(token[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(token[i])
            i += 1
    return Name(bytes(out))


def parse_object(data, pos, depth=0):
    """The object starting at or after pos (whitespace and comments skipped): (value, end)."""
    if depth > MAX_DEPTH:
        raise SyntaxFault("nesting deeper than %d" % MAX_DEPTH)
    pos = skip_space(data, pos)
    if pos >= len(data):
        raise SyntaxFault("end of data")
    c = data[pos:pos + 1]
    if data.startswith(b"<<", pos):
        entries = {}
        pos += 2
        while True:
            pos = skip_space(data, pos)
            if data.startswith(b">>", pos):
                return entries, pos + 2
            key, pos = parse_object(data, pos, depth + 1)
            if not isinstance(key, Name):
                raise SyntaxFault("dictionary key is not a name")
            entries[key], pos = parse_object(data, pos, depth + 1)
    if c == b"[":
        items = []
        pos += 1
        while True:
            pos = skip_space(data, pos)
            if data.startswith(b"]", pos):
                return items, pos + 1
            item, pos = parse_object(data, pos, depth + 1)
            items.append(item)
    if c == b"(":
        return literal_string(data, pos)
    if c == b"<":
        return hex_string(data, pos)
    if c == b"/":
        token, end = regular_token(data, pos + 1)
        return name_bytes(token), end
    token, end = regular_token(data, pos)
    if INTEGER.match(token):
        # N G R: a reference when two unsigned integers and R follow.
        m = re.match(rb"\s+([0-9]+)\s+R(?=[\x00\t\n\x0c\r ()<>\[\]{}/%]|$)", data[end:end + 40])
        if m and token[:1] not in b"+-":
            return Ref((int(token), int(m.group(1)))), end + m.end()
        return int(token), end
    if REAL.match(token):
        return float(token), end
    if token in (b"true", b"false"):
        return token == b"true", end
    if token == b"null":
        return None, end
    raise SyntaxFault("unexpected token %r" % token[:20])


def name_text(data):
    return "/" + "".join("#%02X" % b if b < 0x21 or b > 0x7E or b in NAME_ESCAPED else chr(b) for b in data)


def value_text(v):
    """SPEC.md, format pdf, "Canonical VALUE"."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return number_text(v)
    if isinstance(v, Ref):
        return "%d %d R" % v
    if isinstance(v, Name):
        return name_text(v)
    if isinstance(v, bytes):
        return quote_bytes(v)
    if isinstance(v, list):
        return "[" + " ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "<<" + " ".join(name_text(k) + " " + value_text(v[k]) for k in sorted(v) if v[k] is not None) + ">>"
    raise SyntaxFault("no canonical form for %s" % type(v).__name__)
