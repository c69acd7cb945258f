#!/usr/bin/env python3
"""The Debian package of the server, built by CPack from this build folder and
checked as a host would meet it: its files, its maintainer scripts, its
dependencies resolvable on Debian bookworm, and the packaged server started
from an extracted copy against the packaged settings file.

    check_debian_package.py BUILD_DIR
"""
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.request

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def main():
    build = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="sparts-deb-")
    run("cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B", work)
    debs = glob.glob(os.path.join(work, "*.deb"))
    if not check(len(debs) == 1, f"cpack made one .deb ({debs})"):
        return
    deb = debs[0]
    print("package:", os.path.basename(deb), os.path.getsize(deb), "bytes")

    fields = {f: run("dpkg-deb", "-f", deb, f).strip() for f in ("Package", "Version", "Architecture", "Depends")}
    check(fields["Package"] == "sparts", f"Package: {fields['Package']}")
    check(re.fullmatch(r"\d+\.\d+\.\d+", fields["Version"]) is not None, f"Version: {fields['Version']}")
    depends = [d.strip() for d in fields["Depends"].split(",") if d.strip()]
    print("Depends:", ", ".join(depends))
    # Read off the binaries by dpkg-shlibdeps: the libraries the server links, not a list kept by hand.
    for lib in ("libc6", "libsqlite3-0", "libssl3", "libjwt0", "libpq5", "adduser"):
        check(any(d.split()[0] == lib for d in depends), f"Depends names {lib}")

    files = {line.split()[-1].lstrip(".") for line in run("dpkg-deb", "-c", deb).splitlines()}
    for path in ("/usr/bin/sparts-server", "/usr/bin/sparts", "/usr/bin/sparts-bot",
                 "/lib/systemd/system/sparts.service", "/etc/sparts/sparts.conf",
                 "/usr/share/doc/sparts/OPERATING.md"):
        check(path in files, f"the package holds {path}")

    control = os.path.join(work, "control")
    run("dpkg-deb", "-e", deb, control)
    conffiles = open(os.path.join(control, "conffiles")).read().split() if os.path.exists(
        os.path.join(control, "conffiles")) else []
    check(conffiles == ["/etc/sparts/sparts.conf"], f"the settings file is a conffile ({conffiles})")
    postinst = open(os.path.join(control, "postinst")).read()
    check(re.search(r"adduser --system --group [^\n]*\bsparts\n", postinst) is not None,
          "postinst makes the sparts system user")
    check(os.access(os.path.join(control, "postinst"), os.X_OK), "postinst is executable")
    for script in ("postinst", "prerm", "postrm"):
        path = os.path.join(control, script)
        check(subprocess.run(["sh", "-n", path]).returncode == 0, f"{script} is valid sh")

    root = os.path.join(work, "root")
    run("dpkg-deb", "-x", deb, root)
    unit = open(os.path.join(root, "lib/systemd/system/sparts.service")).read()
    exec_start = re.search(r"^ExecStart=(\S+)(.*)$", unit, re.M)
    check(exec_start is not None and exec_start.group(1) in files,
          f"the unit starts a packaged binary ({exec_start and exec_start.group(1)})")
    config = re.search(r"--config (\S+)", exec_start.group(2) if exec_start else "")
    check(config is not None and config.group(1) in files, "the unit's --config names the packaged settings file")
    check(re.search(r"^User=sparts$", unit, re.M) is not None, "the unit runs as the sparts user")
    check(re.search(r"^StateDirectory=sparts$", unit, re.M) is not None,
          "the unit's state directory holds the database the settings file names")
    settings = open(os.path.join(root, "etc/sparts/sparts.conf")).read()
    check(re.search(r"^database = /var/lib/sparts/", settings, re.M) is not None,
          "the settings file's database is in the state directory")
    # (ProtectSystem=strict: the state directory is the one place the service may write)
    check(re.search(r"^backup-dir = /var/lib/sparts/", settings, re.M) is not None,
          "the settings file's backups go to the state directory")

    # Resolvable on bookworm: apt simulates installing the file with its dependencies.
    apt = subprocess.run(["apt-get", "-s", "-o", "Debug::NoLocking=1", "install", deb],
                         capture_output=True, text=True)
    check(apt.returncode == 0 and re.search(r"^Inst sparts ", apt.stdout, re.M) is not None,
          "apt-get can install the package with its dependencies from bookworm")
    if apt.returncode != 0:
        print(apt.stdout[-3000:], apt.stderr[-3000:])

    # The packaged server, from the extracted copy, with the packaged settings; flags win over
    # the file for what must differ here (a free port, a database in the temporary folder).
    server = subprocess.Popen([os.path.join(root, "usr/bin/sparts-server"),
                               "--config", os.path.join(root, "etc/sparts/sparts.conf"),
                               "--port", "0", "--database", os.path.join(work, "sparts.db"),
                               "--backup-dir", os.path.join(work, "backups")],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log = []
    port = None
    for line in server.stdout:
        log.append(line)
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", line.strip())
        if m:
            port = int(m.group(1))
            break
    if check(port is not None, "the packaged server starts and listens on the settings file's address"):
        text = "".join(log)
        check("trusted-proxies = 127.0.0.1" in text, "it read the packaged settings file (trusted-proxies)")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            check(r.status == 200, "GET /healthz answers 200")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
            page = r.read().decode()
            check(r.status == 200 and "<html" in page.lower(), "GET / serves the web client from inside the binary")
    server.send_signal(signal.SIGTERM)
    rest, _ = server.communicate(timeout=30)
    check(server.returncode == 0, f"SIGTERM stops it with status 0 ({server.returncode})")
    if failures:
        print("".join(log) + rest)
    subprocess.run(["rm", "-rf", work])


main()
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("the Debian package is complete")
