"""The package's build backend (PEP 517, PEP 660), on the standard library alone.

pip builds a package in an isolated environment holding only what ``build-system.requires``
names, fetched from the package index. With setuptools named there, ``pip install
./clients/python`` needed the network even where setuptools was installed (Debian's
python3-setuptools); with this backend ``requires`` is empty, so nothing is fetched. It
builds what this package needs: a pure-Python wheel of ``src/sparts_client``, an editable
wheel (``pip install -e``), and a source archive, from ``pyproject.toml``'s [project].
"""
import ast
import base64
import hashlib
import io
import os
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "sparts_client"
SKIP = {"__pycache__", ".pytest_cache", "build", "dist", ".sparts-token"}


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    try:
        import tomllib
    except ImportError:                 # before Python 3.11
        return _read_project(text)
    project = tomllib.loads(text)["project"]
    project.setdefault("optional-dependencies", {})
    return project


def _read_project(text):
    """[project] and [project.optional-dependencies] of our pyproject.toml, whose values
    are one-line strings and lists of strings: written alike in TOML and Python."""
    tables, table = {}, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            name = line.strip("[]")
            table = tables.setdefault(name, {}) if name.startswith("project") else None
        elif table is not None and "=" in line and not line.startswith("#"):
            key, value = (part.strip() for part in line.split("=", 1))
            table[key.strip('"')] = ast.literal_eval(value)
    project = tables["project"]
    project["optional-dependencies"] = tables.get("project.optional-dependencies", {})
    return project


def _names():
    project = _project()
    return project, f"{PACKAGE}-{project['version']}"


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project.get('description', '')}"]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project["optional-dependencies"].items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, readme), encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def _dist_info(project, dist):
    wheel = "Wheel-Version: 1.0\nGenerator: pep517_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {f"{dist}.dist-info/METADATA": _metadata(project).encode("utf-8"),
            f"{dist}.dist-info/WHEEL": wheel.encode(),
            f"{dist}.dist-info/top_level.txt": f"{PACKAGE}\n".encode()}


def _files(root):
    """Every file under root (sorted, caches left out), as paths relative to root."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.endswith(".egg-info"))
        found += [os.path.relpath(os.path.join(folder, f), root) for f in sorted(files)
                  if f not in SKIP and not f.endswith((".pyc", ".whl", ".tar.gz"))]
    return found


def _write_wheel(directory, dist, contents):
    name = f"{dist}-py3-none-any.whl"
    record_path = f"{dist}.dist-info/RECORD"
    record = []
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in contents.items():
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
            whl.writestr(zipfile.ZipInfo(path, (1980, 1, 1, 0, 0, 0)), data)
        record.append(f"{record_path},,")
        whl.writestr(zipfile.ZipInfo(record_path, (1980, 1, 1, 0, 0, 0)), "\n".join(record) + "\n")
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project, dist = _names()
    src = os.path.join(HERE, "src")
    contents = {}
    for path in _files(os.path.join(src, PACKAGE)):
        with open(os.path.join(src, PACKAGE, path), "rb") as f:
            contents[f"{PACKAGE}/{path.replace(os.sep, '/')}"] = f.read()
    contents.update(_dist_info(project, dist))
    return _write_wheel(wheel_directory, dist, contents)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # The source folder on sys.path: edits show without installing again.
    project, dist = _names()
    contents = {f"{PACKAGE}.pth": (os.path.join(HERE, "src") + "\n").encode()}
    contents.update(_dist_info(project, dist))
    return _write_wheel(wheel_directory, dist, contents)


def build_sdist(sdist_directory, config_settings=None):
    project, dist = _names()
    name = f"{dist}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo(f"{dist}/PKG-INFO")
        data = _metadata(project).encode("utf-8")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for path in _files(HERE):
            tar.add(os.path.join(HERE, path), f"{dist}/{path}", recursive=False)
    return name
