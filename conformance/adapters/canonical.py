"""The primitives every canonical dump is made of (conformance/SPEC.md, section 1), shared by the
Python adapters and checks: the quoted string form, the number form, and the rejection exit."""
import math
import sys


def unit_text(u):
    """One UTF-16 code unit (an int 0..0xFFFF) as the quoted form writes it."""
    if u in (0x22, 0x5C):
        return "\\" + chr(u)
    if 0x20 <= u < 0x7F:
        return chr(u)
    return "\\u%04X" % u


BYTE_TEXT = [unit_text(u) for u in range(256)]  # a PDF string's bytes are written unit by unit


def quote_units(units):
    """A string of UTF-16 code units (any ints 0..0xFFFF) in the quoted form."""
    return '"' + "".join(BYTE_TEXT[u] if u < 256 else unit_text(u) for u in units) + '"'


def utf16_units(text):
    """The UTF-16 code units of a Python string; lone surrogates survive."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def quote_text(text):
    return quote_units(utf16_units(text))


def quote_bytes(data):
    """Bytes as code units, one per byte (how PDF strings and names are dumped)."""
    return '"' + "".join(map(BYTE_TEXT.__getitem__, data)) + '"'


def number_text(x):
    """A double laid out like ECMAScript's Number::toString, -0 as "-0"."""
    x = float(x)
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    mantissa, _, exponent = repr(abs(x)).lower().partition("e")  # repr: the shortest round-trip digits
    whole, _, fraction = mantissa.partition(".")
    significant = (whole + fraction).lstrip("0")
    n = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(significant))  # decimal point position
    digits = significant.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e%+d" % (n - 1)
    return ("-" if x < 0 else "") + text


def reject(kind, why=None):
    """Exit as the adapter protocol says for a rejected input: status 1, "error: <class>"."""
    if why:
        sys.stderr.write("%s\n" % why)
    sys.stderr.write("error: %s\n" % kind)
    sys.exit(1)


def case_password(path):
    """The password a PDF case is opened with (conformance/SPEC.md, format pdf rule 10): the bytes
    of PATH.password beside it, or b"" (the empty user password)."""
    try:
        with open(path + ".password", "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def encrypt_line(v, r, bits, streams, strings):
    """The dump's encrypt line; streams and strings name a method as a reader reports it (RC4,
    AESv2, AES, AESv3, None, Identity...): before /V 4 there are no crypt filters and both are
    RC4."""
    def method(name):
        name = str(name).split(".")[-1].lower().lstrip("/")
        if v < 4:
            return "RC4"
        return {"rc4": "RC4", "v2": "RC4", "aes": "AESV2", "aesv2": "AESV2", "aesv3": "AESV3"}.get(name, "Identity")
    return "encrypt Standard V %d R %d bits %d streams %s strings %s" % (v, r, bits, method(streams), method(strings))
