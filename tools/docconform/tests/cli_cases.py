"""The case loop of the CLI test scripts: each case runs in a fresh scratch directory and
reports ok or FAIL, then the next runs."""
import os
import shutil
import tempfile


def run_cases(cases, only, prefix):
    """Runs every function in cases (all, or those named in only); 1 when any failed, else 0."""
    failed = 0
    for function in cases:
        if only and function.__name__ not in only:
            continue
        work = tempfile.mkdtemp(prefix=prefix)
        os.chmod(work, 0o755)
        try:
            function(work)
            print(f"ok   {function.__name__}")
        except Exception as error:  # noqa: BLE001 - every case reports, then the next runs
            failed += 1
            print(f"FAIL {function.__name__}: {error!r}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0
