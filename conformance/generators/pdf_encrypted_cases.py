#!/usr/bin/python3
"""Writes the encrypted PDF conformance cases (conformance/SPEC.md, format pdf rule 10) into
conformance/cases/pdf/ (which conformance/cases/pdf3 links to).

The files are encrypted by writers independent of the reference: the qpdf command-line tool
(`qpdf --encrypt` at every revision), pikepdf (libqpdf reached through its own writer API) and
pypdf (pure Python, RC4). Their plain input is an existing synthetic case. A case that needs a
password has it in `<case>.password` beside it. AES writers draw random IVs and qpdf a random
/ID (qpdf cannot make a deterministic /ID for an encrypted file), so a new run writes other bytes with the same dumps' meaning: regenerate the golden digests
(`docconform golden update`) with the files.
Usage: pdf_encrypted_cases.py ROOT   (the repository's root)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pikepdf
import pypdf

# Strings of every kind in dictionaries, arrays, a stream dictionary and the trailer.
STRINGS_INPUT = "y_text_strings_as_bytes.pdf"
# Eleven pages, each with a content stream.
PAGES_INPUT = "y_real_qpdf_11_pages.pdf"

QPDF_CASES = [
    # (case, input, qpdf --encrypt arguments, extra qpdf options, password the case is read with)
    ("y_encrypt_qpdf_r2_rc4_40.pdf", STRINGS_INPUT, ["", "owner", "40"], ["--allow-weak-crypto"], None),
    ("y_encrypt_qpdf_r3_rc4_128.pdf", STRINGS_INPUT, ["", "owner", "128", "--use-aes=n"], ["--allow-weak-crypto"], None),
    ("y_encrypt_qpdf_r4_aes128.pdf", STRINGS_INPUT, ["", "owner", "128", "--use-aes=y"], [], None),
    ("y_encrypt_qpdf_r4_rc4_crypt_filter.pdf", STRINGS_INPUT, ["", "owner", "128", "--use-aes=n", "--force-V4"],
     ["--allow-weak-crypto"], None),
    ("y_encrypt_qpdf_r5_aes256.pdf", STRINGS_INPUT, ["", "owner", "256", "--force-R5"], ["--allow-weak-crypto"], None),
    ("y_encrypt_qpdf_r6_aes256.pdf", STRINGS_INPUT, ["", "owner", "256"], [], None),
    ("y_encrypt_qpdf_r4_objstm.pdf", PAGES_INPUT, ["", "owner", "128", "--use-aes=y"], ["--object-streams=generate"], None),
    ("y_encrypt_qpdf_r6_objstm.pdf", PAGES_INPUT, ["", "owner", "256"], ["--object-streams=generate"], None),
    ("y_encrypt_qpdf_r3_objstm_user_password.pdf", PAGES_INPUT, ["user", "owner", "128", "--use-aes=n"],
     ["--allow-weak-crypto", "--object-streams=generate"], "user"),
    ("y_encrypt_qpdf_r4_objstm_owner_password.pdf", PAGES_INPUT, ["user", "owner", "128", "--use-aes=y"],
     ["--object-streams=generate"], "owner"),
    ("y_encrypt_qpdf_r6_objstm_user_password.pdf", PAGES_INPUT, ["user", "owner", "256"], ["--object-streams=generate"], "user"),
    ("y_encrypt_qpdf_r6_objstm_owner_password.pdf", PAGES_INPUT, ["user", "owner", "256"], ["--object-streams=generate"],
     "owner"),
    ("y_encrypt_qpdf_r4_cleartext_metadata.pdf", "metadata", ["", "owner", "128", "--use-aes=y", "--cleartext-metadata"],
     [], None),
    # Rejections: no password given for a file that needs one, and a wrong one.
    ("n_encrypt_qpdf_r4_needs_password.pdf", PAGES_INPUT, ["user", "owner", "128", "--use-aes=y"], [], None),
    ("n_encrypt_qpdf_r6_wrong_password.pdf", PAGES_INPUT, ["user", "owner", "256"], ["--object-streams=generate"], "wrong"),
]


def qpdf(*args):
    run = subprocess.run(["qpdf"] + list(args), capture_output=True)
    if run.returncode not in (0, 3):
        sys.exit("qpdf %s: %s" % (" ".join(args), run.stderr.decode(errors="replace")))


def with_metadata(source, out):
    """The strings case with an XMP metadata stream in its catalogue (written by pikepdf)."""
    with pikepdf.open(source) as pdf:
        xmp = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
               b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta><?xpacket end="w"?>')
        pdf.Root.Metadata = pdf.make_stream(xmp, Type=pikepdf.Name.Metadata, Subtype=pikepdf.Name.XML)
        pdf.save(out)


def tampered_u(path):
    """The file with one byte of /U changed (its length kept), as hex or literal string."""
    data = bytearray(open(path, "rb").read())
    found = re.search(rb"/U\s*<([0-9a-fA-F]{2})", data)
    if not found:
        sys.exit("no hex /U in " + path)
    at = found.start(1)
    data[at:at + 2] = b"%02x" % (int(data[at:at + 2], 16) ^ 0x01)
    open(path, "wb").write(bytes(data))


def main():
    root = sys.argv[1]
    cases = os.path.join(root, "conformance", "cases")
    plain = os.path.join(cases, "pdf")
    written = []  # (case, password)
    with tempfile.TemporaryDirectory() as work:
        metadata_input = os.path.join(work, "metadata.pdf")
        with_metadata(os.path.join(plain, STRINGS_INPUT), metadata_input)

        def source(name):
            return metadata_input if name == "metadata" else os.path.join(plain, name)

        for case, name, encrypt, options, password in QPDF_CASES:
            qpdf(*options, source(name), "--encrypt", *encrypt, "--", os.path.join(work, case))
            written.append((case, password))

        # pikepdf: R6, R4 AES and R3 RC4 with the empty user password; R6 with the metadata
        # left in clear text.
        for case, encryption, name in [
            ("y_encrypt_pikepdf_r6.pdf", pikepdf.Encryption(owner="owner", user="", R=6), STRINGS_INPUT),
            ("y_encrypt_pikepdf_r4_aes.pdf", pikepdf.Encryption(owner="owner", user="", R=4, aes=True), STRINGS_INPUT),
            ("y_encrypt_pikepdf_r3_rc4.pdf", pikepdf.Encryption(owner="owner", user="", R=3, aes=False, metadata=False), PAGES_INPUT),
            ("y_encrypt_pikepdf_r6_cleartext_metadata.pdf", pikepdf.Encryption(owner="owner", user="", R=6, metadata=False),
             "metadata"),
        ]:
            with pikepdf.open(source(name)) as pdf:
                pdf.save(os.path.join(work, case), encryption=encryption)
            written.append((case, None))

        # pypdf: its own RC4 writer, R2 (40-bit) and R3 (128-bit), the second with a user password.
        for case, user, wide, password in [("y_encrypt_pypdf_r2_rc4_40.pdf", "", False, None),
                                           ("y_encrypt_pypdf_r3_rc4_128_user_password.pdf", "user", True, "user")]:
            reader = pypdf.PdfReader(os.path.join(plain, PAGES_INPUT))
            writer = pypdf.PdfWriter()
            for page in reader.pages:
                writer.add_page(page)
            writer.encrypt(user_password=user, owner_password="owner", use_128bit=wide)
            with open(os.path.join(work, case), "wb") as f:
                writer.write(f)
            written.append((case, password))

        # /U damaged: the owner password opens /O, and the user password it yields fails /U.
        tampered = "n_encrypt_tampered_u.pdf"
        qpdf(os.path.join(plain, STRINGS_INPUT), "--encrypt", "", "owner", "128", "--use-aes=y", "--",
             os.path.join(work, tampered))
        tampered_u(os.path.join(work, tampered))
        written.append((tampered, "owner"))

        for case, password in written:
            target = os.path.join(plain, case)
            shutil.copyfile(os.path.join(work, case), target)
            if password is not None:
                with open(target + ".password", "wb") as f:
                    f.write(password.encode("latin-1"))
            elif os.path.exists(target + ".password"):
                os.remove(target + ".password")
    return 0


if __name__ == "__main__":
    sys.exit(main())
