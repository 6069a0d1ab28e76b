"""One headless LibreOffice process reached through UNO (python3-uno), shared by the LibreOffice
adapters: started on first use with a private profile (parallel runs never share one) and ended
when the adapter exits, so a batch run (batch.py) pays LibreOffice's start-up once."""
import atexit
import ctypes
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

SOFFICE = "/usr/lib/libreoffice/program/soffice.bin"
DEFAULTS = "/usr/lib/libreoffice/share/registry/main.xcd"  # the installation's configuration, with its version
START_SECONDS = 120  # LibreOffice's first start in a new profile takes several seconds on a loaded machine

_desktop = None


def _die_with_parent():
    # soffice.bin must not outlive the adapter (a timeout kills the adapter, not its children alone).
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


STOP_SECONDS = 10
PROFILE_PREFIX = "docconform-lo-"  # then the adapter's process id
RESTART = 81  # soffice.bin's exit status asking to be started again (it does so after creating a profile)
SOCKETS = "sockets"  # in the profile: the paths of LibreOffice's pipe sockets, one a line


def _socket_paths(pid):
    """The paths of the Unix sockets process pid holds open. LibreOffice makes its pipes' sockets
    in /tmp whatever TMPDIR says, and a killed process leaves them there."""
    fds = "/proc/%d/fd" % pid
    inodes = set()
    for fd in os.listdir(fds):
        try:
            m = re.fullmatch(r"socket:\[([0-9]+)\]", os.readlink(os.path.join(fds, fd)))
        except OSError:  # closed meanwhile
            continue
        if m:
            inodes.add(m.group(1))
    with open("/proc/net/unix", encoding="utf-8") as f:
        next(f)  # Num RefCount Protocol Flags Type St Inode Path
        return [fields[7] for fields in map(str.split, f)
                if len(fields) > 7 and fields[6] in inodes and fields[7].startswith("/")]


def _remove_profile(profile):
    """Removes a profile and the sockets recorded in it."""
    try:
        with open(os.path.join(profile, SOCKETS), encoding="utf-8") as f:
            for path in f.read().splitlines():
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass
    except FileNotFoundError:
        pass
    shutil.rmtree(profile, ignore_errors=True)


def _remove_orphans():
    """Removes the profiles (and sockets) of adapters that no longer run: the runner ends a batch
    process by killing it, which leaves no time to remove them."""
    scratch = tempfile.gettempdir()
    for name in os.listdir(scratch):
        m = re.fullmatch(re.escape(PROFILE_PREFIX) + r"([0-9]+)-\w+", name)
        if m and not os.path.exists("/proc/" + m.group(1)):
            _remove_profile(os.path.join(scratch, name))


def _new_profile():
    """A profile that has seen this version: LibreOffice otherwise takes it for an upgrade and runs
    its graphics render tests (about 4 s) at every start, as headless runs never record the version."""
    with open(DEFAULTS, encoding="utf-8") as f:
        version = re.search(r'<prop oor:name="ooSetupVersion">\s*<value>([0-9.]+)</value>', f.read()).group(1)
    _remove_orphans()
    profile = tempfile.mkdtemp(prefix="%s%d-" % (PROFILE_PREFIX, os.getpid()))
    os.mkdir(os.path.join(profile, "user"))
    with open(os.path.join(profile, "user", "registrymodifications.xcu"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry">\n'
                '<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse">'
                '<value>%s</value></prop></item>\n</oor:items>\n' % version)
    return profile


def _start():
    profile = _new_profile()
    pipe = "docconform-lo-%d" % os.getpid()
    command = [SOFFICE, "-env:UserInstallation=" + uno.systemPathToFileUrl(profile), "--headless", "--invisible",
               "--nologo", "--norestore", "--nodefault", "--nolockcheck", "--accept=pipe,name=%s;urp;" % pipe]
    scratch = os.path.join(profile, "tmp")  # LibreOffice's temporary files, removed with the profile
    os.mkdir(scratch)
    environment = dict(os.environ, TMPDIR=scratch)
    running = []
    desktops = []

    def launch():
        running[:] = [subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=environment, preexec_fn=_die_with_parent)]

    def stop():
        try:
            if desktops:
                desktops[0].terminate()  # a clean exit, which ends the connection too
            running[0].wait(timeout=STOP_SECONDS)
        except Exception:  # the bridge closing under the call, or no exit in time
            running[0].kill()
            running[0].wait()
        _remove_profile(profile)
    launch()
    atexit.register(stop)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            context = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except NoConnectException:
            status = running[0].poll()
            if status == RESTART:
                launch()
            elif status is not None or time.monotonic() > deadline:
                raise RuntimeError("LibreOffice did not start (exit %s)" % status)
            time.sleep(0.05)
    with open(os.path.join(profile, SOCKETS), "w", encoding="utf-8") as f:
        f.writelines(path + "\n" for path in _socket_paths(running[0].pid))
    desktops.append(context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context))
    return desktops[0]


def desktop():
    """The Desktop of this adapter's LibreOffice process."""
    global _desktop
    if _desktop is None:
        _desktop = _start()
    return _desktop


def properties(**values):
    """A tuple of PropertyValue, as UNO's media descriptors take them."""
    result = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name, p.Value = name, value
        result.append(p)
    return tuple(result)


def url(path):
    return uno.systemPathToFileUrl(os.path.abspath(path))

