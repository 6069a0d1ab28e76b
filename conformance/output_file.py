"""Files the conformance scripts write (ledgers, consensus records, catalogues, reports), written
as the CLI writes its outputs (reference/include/docconform/output_file.h): to a temporary file
of an unpredictable name in the same directory, synced, then renamed over the target. A failure
or an interrupt leaves the target as it was and removes the temporary file."""
import os
import shutil
import tempfile


def _replace(path, fill):
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(descriptor, "wb") as f:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):
            shutil.copymode(path, temporary)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_text(path, text):
    """Puts text (UTF-8) at path, whole or not at all."""
    _replace(path, lambda f: f.write(text.encode("utf-8")))


def copy_file(source, target):
    """Puts a copy of source at target, whole or not at all."""
    def fill(f):
        with open(source, "rb") as s:
            shutil.copyfileobj(s, f)
    _replace(target, fill)
