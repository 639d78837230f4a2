"""Every file the toolkit writes is whole: a full disk, Ctrl-C or SIGTERM keeps the one before.

The disks here are real: a small tmpfs mounted in a private mount namespace
(``unshare``), filled up, so that the write fails as it would on a full disk.
The interruptions are real signals sent to a real ``find --yaml`` process
while it replaces a folder of files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from .conftest import copy_project, run_cli

FIND = ("find", "--claim", "capture", "--count", "60")
"""60 capture positions: enough files that a signal lands while they are written."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def _on_a_full_disk(project: Path, folder: str, *commands: str) -> subprocess.CompletedProcess[str]:
    """Run shell ``commands`` with ``folder`` on a 2 MB tmpfs that the first command fills."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare (util-linux)")
    script = "; ".join(
        (
            f"mkdir -p {folder} && mount -t tmpfs -o size=2m tmpfs {folder} || exit 99",
            *commands,
        )
    )
    result = subprocess.run(
        [unshare, "--map-root-user", "--mount", "sh", "-c", script],
        cwd=project, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    if "exit 99" in result.stderr or result.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr}")
    return result


def _fill(folder: str) -> str:
    return f"dd if=/dev/zero of={folder}/fill bs=1k 2>/dev/null; true"


def _sums(folder: str) -> str:
    """Print every file's name, size and md5 in ``folder`` (the tmpfs goes with the namespace)."""
    return f'for f in {folder}/* {folder}/.*; do [ -f "$f" ] && md5sum "$f"; done; echo "---"'


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def test_render_on_a_full_disk_keeps_every_earlier_picture(project: Path) -> None:
    diagram = project / "diagrams" / "board-numbers.yaml"
    first = run_cli("render", diagram, "--out", "good", "--format", "png", cwd=project)
    assert first.returncode == 0, first.stderr
    good = project / "good" / "board-numbers.png"
    result = _on_a_full_disk(
        project,
        "out",
        "cp good/board-numbers.png out/",
        _fill("out"),
        f"{sys.executable} -m dama_diagrams render {diagram} --out out --format png --scale 3 "
        '; echo "exit=$?" >&2',
        _sums("out"),
    )
    assert "exit=1" in result.stderr, result.stderr
    # one line that names the file, as the user typed the folder; no traceback
    assert result.stderr.splitlines()[0] == (
        "out/board-numbers.png: cannot write (No space left on device)"
    )
    assert "Traceback" not in result.stderr
    listing = result.stdout.split("---")[0]
    assert f"{_md5(good)}  out/board-numbers.png" in listing  # the earlier picture, unchanged
    assert ".tmp" not in listing


def test_find_yaml_on_a_full_disk_names_the_file_and_keeps_the_earlier_one(
    project: Path,
) -> None:
    earlier = "# an earlier diagram, kept\n"
    (project / "earlier").mkdir()
    (project / "earlier" / "capture-1.yaml").write_text(earlier)
    result = _on_a_full_disk(
        project,
        "new",
        "cp earlier/capture-1.yaml new/",
        _fill("new"),
        f"{sys.executable} -m dama_diagrams find --claim capture --count 5 --yaml new --force"
        ' > /dev/null; echo "exit=$?" >&2',
        "cat new/capture-1.yaml",
        _sums("new"),
    )
    assert "exit=1" in result.stderr, result.stderr
    assert result.stderr.splitlines()[0] == (
        "new/capture-1.yaml: cannot write (No space left on device)"
    )
    assert result.stdout.startswith(earlier)
    assert ".tmp" not in result.stdout


def _files_of_an_earlier_run(project: Path) -> dict[str, bytes]:
    first = run_cli(*FIND, "--seed", "1", "--yaml", "found", cwd=project)
    assert first.returncode == 0, first.stderr
    return {path.name: path.read_bytes() for path in (project / "found").iterdir()}


def _changed(folder: Path, before: dict[str, int]) -> bool:
    """A file of ``folder`` is new, replaced or emptied since ``before`` (name: inode)."""
    try:
        with os.scandir(folder) as entries:
            return any(
                entry.name not in before or entry.inode() != before[entry.name]
                or entry.stat().st_size == 0
                for entry in entries
            )  # fmt: skip
    except FileNotFoundError:  # a temporary file, gone before its size was read
        return True


def _interrupted_while_writing(project: Path, number: signal.Signals) -> int:
    """Replace ``found/`` with --force; send ``number`` while the first file is being replaced.

    strace holds every rename() for a second before it returns: the signal lands
    while the first file is written or renamed.
    """
    find = (*FIND, "--seed", "2", "--yaml", "found", "--force")
    return _signalled_while_writing(project, "found", find, "rename,renameat,renameat2", number)


def _signalled_while_writing(
    project: Path, folder_name: str, command: tuple[str, ...], slow: str, number: signal.Signals
) -> int:
    """Run ``command`` with the ``slow`` system calls held a second (strace); send ``number``
    as soon as a file in ``folder_name`` changes, and return the exit status."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("needs strace (apt-get install strace)")
    folder = project / folder_name
    before = {path.name: path.stat().st_ino for path in folder.iterdir()}
    delay = "100000" if "write" in slow.split(",") else "1000000"
    process = subprocess.Popen(
        [strace, "-f", "-o", os.devnull, "-e", f"trace={slow}",
         "-e", f"inject={slow}:delay_exit={delay}",
         sys.executable, "-m", "dama_diagrams", *command],
        cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},  # no other rename() than ours
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not _changed(folder, before):
        assert process.poll() is None and time.monotonic() < deadline, "nothing was written"
        time.sleep(0.005)
    os.kill(_python_under(process.pid), number)
    _, err = process.communicate(timeout=60)
    assert "Traceback" not in err, err
    return process.returncode


def _python_under(tracer: int) -> int:
    """The PID of the command that strace runs."""
    children = Path(f"/proc/{tracer}/task/{tracer}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_signal_while_find_writes_leaves_only_whole_files(
    project: Path, number: signal.Signals
) -> None:
    earlier = _files_of_an_earlier_run(project)
    assert len(earlier) == 60
    code = _interrupted_while_writing(project, number)
    # 128 + the signal, as shells report a process it stopped, after the cleanup
    assert code == 128 + number
    files = sorted((project / "found").iterdir())
    assert [path.name for path in files if not path.name.endswith(".yaml")] == []  # no temp
    assert len(files) == 60
    for path in files:
        data = path.read_bytes()
        assert data, f"{path.name} is empty"
        assert yaml.safe_load(data)["claim"] == "capture", path.name  # whole YAML
        if path.name != "capture-1.yaml":
            assert data == earlier[path.name], path.name  # stopped at the first: the rest kept
    check = run_cli("verify", "found", cwd=project)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_signal_while_an_animation_streams_keeps_the_earlier_one(
    project: Path, number: signal.Signals
) -> None:
    """A GIF goes to its file frame by frame: a signal then removes the temporary file."""
    folder = project / "out"
    folder.mkdir()
    command = ("render-game", "games/example.pdn", "--out", "out/game.gif")
    assert run_cli(*command, cwd=project).returncode == 0
    earlier = (folder / "game.gif").read_bytes()
    code = _signalled_while_writing(project, "out", command, "write", number)
    assert code == 128 + number
    assert [path.name for path in folder.iterdir()] == ["game.gif"]  # no temporary file
    assert (folder / "game.gif").read_bytes() == earlier  # each write() takes 0.1 s: mid-stream


def test_find_yaml_never_follows_a_symlink(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = project / "found"
    folder.mkdir()
    (folder / "capture-1.yaml").symlink_to(outside / "evil")  # dangling
    refused = run_cli("find", "--claim", "capture", "--yaml", "found", cwd=project)
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "dama-diagrams: found/capture-1.yaml is a symbolic link; choose another folder, or use "
        "--force to replace it (the link, not the file it points to)"
    )
    assert not (outside / "evil").exists()

    (outside / "shared.yaml").write_text("someone else's file\n")
    (folder / "capture-1.yaml").unlink()
    (folder / "capture-1.yaml").symlink_to(outside / "shared.yaml")
    forced = run_cli("find", "--claim", "capture", "--yaml", "found", "--force", cwd=project)
    assert forced.returncode == 0, forced.stderr
    assert (outside / "shared.yaml").read_text() == "someone else's file\n"
    written = folder / "capture-1.yaml"
    assert not written.is_symlink()
    assert yaml.safe_load(written.read_text())["claim"] == "capture"
    assert sorted(os.listdir(outside)) == ["shared.yaml"]


def test_a_replaced_file_keeps_its_permissions(project: Path) -> None:
    diagram = project / "diagrams" / "board-numbers.yaml"
    target = project / "out" / "board-numbers.svg"
    target.parent.mkdir()
    target.write_text("old")
    target.chmod(0o640)
    result = run_cli("render", diagram, "--out", "out", cwd=project)
    assert result.returncode == 0, result.stderr
    assert target.read_text().startswith("<svg")
    assert target.stat().st_mode & 0o777 == 0o640
    os.umask(umask := os.umask(0o022))
    new = run_cli("render", project / "diagrams" / "man-move.yaml", "--out", "out", cwd=project)
    assert new.returncode == 0, new.stderr
    assert (project / "out" / "man-move.svg").stat().st_mode & 0o777 == 0o666 & ~umask


# --- Only a regular file is ever replaced -------------------------------------------------

OUTPUTS = {
    # each command with an output path, and the file it writes under out/
    "terms": (("terms", "--out", "out/terms.tbx"), "terms.tbx"),
    "render": (("render", "diagrams/board-numbers.yaml", "--out", "out"), "board-numbers.svg"),
    "render-game": (("render-game", "games/example.pdn", "--out", "out/game.gif"), "game.gif"),
    "booklet": (("booklet", "--lang", "en", "--out", "out"), "en.pdf"),
    "find --force": (("find", "--claim", "capture", "--yaml", "out", "--force"), "capture-1.yaml"),
}


def _put_in_the_way(target: Path, kind: str, elsewhere: Path) -> Callable[[], bool]:
    """Something that is not a regular file at ``target``; a check that it is still as it was."""
    if kind == "fifo":
        os.mkfifo(target)
        return lambda: stat.S_ISFIFO(target.lstat().st_mode)
    if kind == "folder":
        target.mkdir()
        return lambda: target.is_dir() and not any(target.iterdir())
    stdout = Path("/proc/self/fd/1")
    linked = elsewhere / "someone-elses.txt" if kind == "link-to-a-file" else stdout
    if kind == "link-to-a-file":
        linked.write_text("someone else's file\n")
    target.symlink_to(linked)
    return lambda: (
        os.readlink(target) == str(linked)
        and (kind != "link-to-a-file" or linked.read_text() == "someone else's file\n")
    )


_KIND_SAID = {
    "fifo": "a FIFO (named pipe)",
    "folder": "a folder",
    "link-to-a-file": "a symbolic link",
    "link-to-stdout": "a symbolic link",
}


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        (command, kind)
        for command in OUTPUTS
        for kind in _KIND_SAID
        # find --force is asked to replace what is there: a link itself, never its target
        if not (command == "find --force" and kind.startswith("link"))
    ],
)
def test_an_output_path_that_is_not_a_regular_file_is_refused_and_left_as_it_is(
    project: Path, tmp_path: Path, command: str, kind: str
) -> None:
    """terms --out replaced a FIFO, a link to a file and a link to /proc/self/fd/1 by a file."""
    arguments, name = OUTPUTS[command]
    written = f"out/{name}"
    target = project / written
    target.parent.mkdir(exist_ok=True)
    as_it_was = _put_in_the_way(target, kind, tmp_path)
    result = run_cli(*arguments, cwd=project)
    assert result.returncode == 1
    fix = (
        "name the file it points to, or put a regular file in its place"
        if kind.startswith("link")
        else "name a regular file, or a new one"
    )
    assert result.stderr.splitlines() == [
        f"{written}: is {_KIND_SAID[kind]}, not a regular file, and is left as it is; {fix}"
    ]
    assert as_it_was()
    assert [path.name for path in target.parent.iterdir()] == [target.name]  # no temporary file


def test_find_force_replaces_a_link_itself_never_its_target(project: Path, tmp_path: Path) -> None:
    arguments, name = OUTPUTS["find --force"]
    target = project / "out" / name
    target.parent.mkdir()
    _put_in_the_way(target, "link-to-a-file", tmp_path)
    result = run_cli(*arguments, cwd=project)
    assert result.returncode == 0, result.stderr
    assert not target.is_symlink() and "\nposition: " in target.read_text(encoding="utf-8")
    assert (tmp_path / "someone-elses.txt").read_text() == "someone else's file\n"  # untouched


@pytest.mark.parametrize("command", ["terms", "render", "render-game", "find --force"])
def test_an_output_folder_that_is_a_fifo_is_refused_in_one_line(
    project: Path, command: str
) -> None:
    os.mkfifo(project / "out")
    result = run_cli(*OUTPUTS[command][0], cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "out: is a FIFO (named pipe), not a folder; name a folder, or a new one"
    ]
    assert stat.S_ISFIFO((project / "out").lstat().st_mode)


def test_out_dev_null_is_refused_and_stays_a_device(project: Path) -> None:
    """As root, --out /dev/null made the system's /dev/null a 56 KB regular file."""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    result = run_cli("terms", "--out", "/dev/null", cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "/dev/null: is a character device, not a regular file, and is left as it is; "
        "name a regular file, or a new one"
    ]
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    printed = run_cli("terms", cwd=project)  # standard output is the way to a device
    assert printed.returncode == 0 and printed.stdout.startswith("<?xml")
