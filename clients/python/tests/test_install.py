"""`pip install ./clients/python` without the package index (README, Install)."""
import os
import subprocess
import sys
import tarfile

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def offline_env():
    """No PIP_* settings of this machine (a find-links folder, say), no index: what pip may
    not find on the machine, it fails on, as it would offline. No PYTHONPATH either (the
    tests' own points at src/): the installed copy is the one imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def test_pip_install_needs_no_index(tmp_path):
    try:
        import pip  # noqa: F401  (Debian: python3-pip)
        import websockets  # noqa: F401
    except ImportError as e:
        pytest.skip(f"no venv with pip here: {e}")
    # The README's venv, less its own copy of pip (seconds to make): the system's pip, of
    # the same version on Debian (python3-pip, python3-pip-whl), installs into it all the same.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True, timeout=120)
    python = str(venv / "bin" / "python")

    def pip_install(*args):
        r = subprocess.run([python, "-m", "pip", "install", *args], cwd=str(tmp_path), env=offline_env(),
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr

    def imported():
        r = subprocess.run([python, "-c", "import sparts_client; print(sparts_client.__file__)"],
                           cwd=str(tmp_path), env=offline_env(), capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    pip_install(ROOT)
    assert imported().startswith(str(venv))
    pip_install("-e", ROOT)
    assert imported() == os.path.join(ROOT, "src", "sparts_client", "__init__.py")

    # The source archive has what it takes to build again (the backend too).
    sys.path.insert(0, ROOT)
    try:
        import pep517_backend
        name = pep517_backend.build_sdist(str(tmp_path))
    finally:
        sys.path.remove(ROOT)
    with tarfile.open(str(tmp_path / name)) as tar:
        names = tar.getnames()
    assert {"sparts_client-0.1.0/pep517_backend.py", "sparts_client-0.1.0/pyproject.toml",
            "sparts_client-0.1.0/PKG-INFO", "sparts_client-0.1.0/src/sparts_client/client.py"} <= set(names)
    assert not [n for n in names if "__pycache__" in n or ".sparts-token" in n]
    pip_install("--force-reinstall", "--no-deps", str(tmp_path / name))
    assert imported().startswith(str(venv))


def test_the_backend_reads_pyproject_without_tomllib():
    """Before Python 3.11 (no tomllib) the backend reads pyproject.toml itself."""
    sys.path.insert(0, ROOT)
    try:
        import pep517_backend
    finally:
        sys.path.remove(ROOT)
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        ours = pep517_backend._read_project(f.read())
    assert ours == pep517_backend._project()
    assert ours["name"] == "sparts_client" and ours["dependencies"] == ["websockets>=10"]
