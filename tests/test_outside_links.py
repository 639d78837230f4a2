"""Diagram files reached through symbolic links stay inside the project, as game files do.

A link that leads outside is refused before the file is read: its content is
never verified, published, or quoted in a message (a first line of
``/etc/shadow`` once showed up as "unknown key").
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from dama_diagrams._files import (
    cache_key_warning,
    machine_key,
    read_cache_entry,
    read_project_file,
    write_cache_entry,
)
from dama_diagrams.errors import DamaError

from .conftest import CARDS, copy_project, run_cli

SECRET = "password: hunter2-the-secret\n"
DIAGRAM = 'position: "W:W22:B4"\nclaim: move\nmoves: [22-18, 22-19]\ntitle: "Outside title"\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def test_a_diagram_linked_from_outside_the_project_is_refused_unread(
    project: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.yaml").write_text(SECRET)
    (project / "diagrams" / "zz-secret.yaml").symlink_to(tmp_path / "secret.yaml")
    result = run_cli("verify", cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert (
        "diagrams/zz-secret.yaml: is a symbolic link to a file outside the project; keep "
        "diagram files inside the project (copy the file in)"
    ) in output
    assert "hunter2" not in output and "password" not in output


def test_a_linked_diagram_from_outside_is_never_published(project: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(DIAGRAM)
    (project / "diagrams" / "zz-outside.yaml").symlink_to(tmp_path / "outside.yaml")
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 1
    assert "diagrams/zz-outside.yaml: is a symbolic link to a file outside the project" in (
        result.stderr
    )
    assert not (project / "site").exists()


def test_a_link_that_stays_inside_the_project_is_read(project: Path) -> None:
    (project / "shared").mkdir()
    (project / "shared" / "inside.yaml").write_text(DIAGRAM)
    (project / "diagrams" / "zz-inside.yaml").symlink_to(Path("..") / "shared" / "inside.yaml")
    result = run_cli("verify", "diagrams/zz-inside.yaml", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "holds" in result.stdout


def test_outside_a_project_a_linked_diagram_stays_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.yaml").write_text(DIAGRAM)
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "good.yaml").write_text(DIAGRAM)
    (loose / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = run_cli("verify", "loose", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "loose/linked.yaml: is a symbolic link to a file outside its folder; keep diagram "
        "files inside its folder (copy the file in)"
    ) in result.stdout + result.stderr
    assert "1 hold, 1 failed" in result.stdout


def linked_diagrams(project: Path, tmp_path: Path) -> Path:
    """Make ``diagrams/`` a link to a folder outside ``project``: a secret and a diagram."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret-one.yaml").write_text(SECRET)
    (outside / "outside.yaml").write_text(DIAGRAM)
    shutil.rmtree(project / "diagrams")
    (project / "diagrams").symlink_to(outside)
    return outside


FOLDER_REFUSED = (
    "diagrams: is a symbolic link to a folder outside the project; keep the diagram files "
    "inside the project (copy them in)"
)


def test_verify_refuses_a_diagrams_folder_that_leads_outside_in_one_line(
    project: Path, tmp_path: Path
) -> None:
    linked_diagrams(project, tmp_path)
    result = run_cli("verify", cwd=project)
    assert result.returncode == 1
    assert (result.stdout + result.stderr).splitlines() == [FOLDER_REFUSED]
    result = run_cli("verify", "--format", "github", cwd=project)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"::error file=diagrams,title=dama-diagrams::{FOLDER_REFUSED.partition(': ')[2]}"
    ]
    result = run_cli("render", "--out", "pictures", cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [FOLDER_REFUSED] and not (project / "pictures").exists()


@pytest.mark.parametrize("named", ["diagrams", "."])
def test_a_linked_folder_named_or_found_is_refused_unread(
    project: Path, tmp_path: Path, named: str
) -> None:
    linked_diagrams(project, tmp_path)
    result = run_cli("verify", named, cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert FOLDER_REFUSED in output.splitlines()
    for read in ("hunter2", "password", "secret-one", "outside", "Outside title"):
        assert read not in output.replace("outside the project", "")


@pytest.mark.parametrize("named", ["diagrams/secret-one.yaml", "diagrams/sub", "diagrams/sub/x.md"])
def test_a_path_named_through_a_linked_folder_is_refused_unread(
    project: Path, tmp_path: Path, named: str
) -> None:
    outside = linked_diagrams(project, tmp_path)
    (outside / "sub").mkdir()
    (outside / "sub" / "secret-two.yaml").write_text(SECRET)
    (outside / "sub" / "x.md").write_text(f"# Page\n\n```dama\n{SECRET}```\n")
    result = run_cli("verify", named, cwd=project)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "outside the project" in output
    for read in ("hunter2", "password", "secret-two"):
        assert read not in output.replace("outside the project", "")


# ------------------------------------------------------------------------------
# Every project file comes in through one door, and a cache publishes only what it made.
#
# One test per probe of the third hostile review (X01-X03, B14-B15, L02): links
# that lead out of the project, FIFOs, /dev/zero, and cache entries replaced by
# links.  Each runs the command as a user does, with a timeout so that a hang
# fails the test: one ``path: message`` line, exit 1, no traceback, and no byte
# of the outside file printed or published.


IT = "docs/locales/it/LC_MESSAGES/messages.po"
NAV = "docs/pages/nav.yml"
TEMPLATE = "docs/pages/about.md.j2"
OUTSIDE_TEXT = "TOPSECRET from outside the project"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the project, whose bytes must never be printed or published."""
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(f"{OUTSIDE_TEXT}\nsecond line\n", encoding="utf-8")
    return path


def _run(project: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """The command's exit code and output; a hang (a FIFO waited on) fails the test."""
    try:
        result = run_cli(*args, cwd=project, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(args)} hung")
    return result.returncode, result.stdout + result.stderr


def _refused(project: Path, shown: str, reason: str, *commands: tuple[str, ...]) -> None:
    for command in commands:
        code, output = _run(project, *command)
        assert code == 1, (command, output)
        assert "Traceback" not in output and "MemoryError" not in output, output
        lines = [line for line in output.splitlines() if line.startswith(shown)]
        assert lines, (command, output)
        assert reason in lines[0], lines[0]
        assert OUTSIDE_TEXT not in output


def _published(folder: Path) -> bytes:
    """Every byte under ``folder``, to look for the outside file's."""
    if not folder.exists():
        return b""
    return b"".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


# --- X01: links that lead out of the project ----------------------------------------------


@pytest.mark.slow
def test_a_catalog_linked_outside_is_refused_and_never_quoted(project: Path, secret: Path) -> None:
    """It printed the first line of /etc/passwd as 'unexpected text'."""
    (project / IT).unlink()
    (project / IT).symlink_to(secret)
    _refused(
        project,
        IT,
        "is a symbolic link to a file outside the project",
        ("status", "--lang", "it"),
        ("build", "--lang", "it"),
    )
    assert not (project / "site").exists()


@pytest.mark.slow
def test_a_valid_catalog_outside_is_not_published(project: Path, tmp_path: Path) -> None:
    """L02: a real PO file outside the project was published as the translation."""
    outside = tmp_path / "outside.po"
    outside.write_bytes((project / IT).read_bytes())
    (project / IT).unlink()
    (project / IT).symlink_to(outside)
    _refused(project, IT, "outside the project", ("build", "--lang", "it"))


@pytest.mark.slow
def test_a_template_linked_outside_is_refused_and_not_published(
    project: Path, secret: Path
) -> None:
    (project / TEMPLATE).unlink()
    (project / TEMPLATE).symlink_to(secret)
    _refused(project, TEMPLATE, "outside the project", ("build", "--lang", "en"))
    assert OUTSIDE_TEXT.encode() not in _published(project / "site")


@pytest.mark.slow
def test_a_template_linked_inside_the_project_is_read(project: Path) -> None:
    shared = project / "shared"
    shared.mkdir()
    (project / TEMPLATE).rename(shared / "about.md.j2")
    (project / TEMPLATE).symlink_to(Path("..") / ".." / "shared" / "about.md.j2")
    code, output = _run(project, "build", "--lang", "en")
    assert code == 0, output


# --- X02: FIFOs ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_fifo_catalog_is_refused_without_waiting(project: Path) -> None:
    (project / IT).unlink()
    os.mkfifo(project / IT)
    _refused(project, IT, "is a FIFO", ("status", "--lang", "it"), ("build", "--lang", "it"))


@pytest.mark.slow
def test_a_fifo_game_file_is_named_a_fifo_not_an_empty_file(project: Path) -> None:
    os.mkfifo(project / "games" / "fifo.pdn")
    _refused(project, "games/fifo.pdn", "is a FIFO", ("game", "games/fifo.pdn"))


@pytest.mark.slow
def test_a_fifo_page_list_is_refused_without_waiting(project: Path) -> None:
    (project / NAV).unlink()
    os.mkfifo(project / NAV)
    _refused(project, NAV, "is a FIFO", ("build", "--lang", "en"))


@pytest.mark.slow
def test_a_fifo_template_is_refused_without_waiting(project: Path) -> None:
    (project / TEMPLATE).unlink()
    os.mkfifo(project / TEMPLATE)
    _refused(project, TEMPLATE, "is a FIFO", ("build", "--lang", "en"))


# --- X03: /dev/zero ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shown", "command"),
    [(IT, ("status", "--lang", "it")), (IT, ("build", "--lang", "it")), (NAV, ("build",))],
)
def test_a_link_to_dev_zero_is_one_line(
    project: Path, shown: str, command: tuple[str, ...]
) -> None:
    """It ran into a MemoryError at 1.9 GB."""
    (project / shown).unlink()
    (project / shown).symlink_to("/dev/zero")
    _refused(project, shown, "outside the project", command)


@pytest.mark.slow
def test_a_device_is_refused_before_a_byte_is_read(tmp_path: Path) -> None:
    """Inside the folder it must stay in, /dev/zero is still no file: found on the opened fd."""
    with pytest.raises(DamaError, match=r"^shown: is a device, not a regular file"):
        read_project_file(Path("/dev/zero"), "shown", DamaError, inside=Path("/"))


@pytest.mark.slow
def test_the_bound_is_on_what_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(DamaError, match="larger than 1,000 bytes"):
        read_project_file(path, "big.txt", DamaError, inside=tmp_path, limit=1000)
    assert read_project_file(path, "big.txt", DamaError, inside=tmp_path, limit=1001) == (
        b"x" * 1001
    )


@pytest.mark.slow
def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "nav.yml").mkdir()
    with pytest.raises(DamaError, match="is a folder, not a regular file"):
        read_project_file(tmp_path / "nav.yml", "nav.yml", DamaError, inside=tmp_path)


# --- B14, B15: caches ----------------------------------------------------------------------


def _replace_by_links(entries: list[Path], fake: Path) -> list[Path]:
    """Each entry becomes a link to ``fake``; beside it, a link whose name promises fake's hash."""
    promising = []
    for entry in entries:
        entry.unlink()
        entry.symlink_to(fake)
        key, suffix = entry.name.split("-")[0], entry.suffix
        other = entry.with_name(f"{key}-{hashlib.sha256(fake.read_bytes()).hexdigest()}{suffix}")
        other.symlink_to(fake)
        promising.append(other)
    return promising


@pytest.mark.slow
def test_a_book_cache_entry_linked_outside_is_laid_out_again(project: Path, tmp_path: Path) -> None:
    """A link committed under .cache/ published the outside file as rules-en.pdf."""
    books = {"DAMA_DIAGRAMS_BOOKS": "1"}
    result = run_cli("build", "--lang", "en", cwd=project, env=books)
    assert result.returncode == 0, result.stderr
    cache = project / ".cache" / "dama-diagrams" / "books"
    entries = sorted(cache.glob("*.pdf"))
    assert entries
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(
        b"%PDF-1.7\n" + OUTSIDE_TEXT.encode() + b"\n%%EOF\n"
    )  # passes a signature check
    promising = _replace_by_links(entries, fake)

    result = run_cli("build", "--lang", "en", cwd=project, env=books)
    assert result.returncode == 0, result.stderr
    published = project / "site" / "en" / "rules-en.pdf"
    assert published.read_bytes().startswith(b"%PDF-")
    assert OUTSIDE_TEXT.encode() not in _published(project / "site")
    assert all(entry.is_file() and not entry.is_symlink() for entry in entries)  # laid out again
    assert not any(os.path.lexists(link) for link in promising)  # the bad entries are gone
    assert fake.read_bytes().startswith(b"%PDF-1.7\n" + OUTSIDE_TEXT.encode())  # their target stays


@pytest.mark.slow
def test_a_card_cache_entry_linked_outside_is_drawn_again(project: Path, tmp_path: Path) -> None:
    """Links in place of cached cards put the outside file in 15 social cards."""
    shutil.rmtree(project / ".cache", ignore_errors=True)  # only the cards this build draws
    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 0, result.stderr
    cache = project / ".cache" / "dama-diagrams" / "cards"
    entries = sorted(cache.glob("*.png"))
    assert entries
    fake = tmp_path / "fake.png"
    fake.write_bytes(b"\x89PNG\r\n\x1a\n" + OUTSIDE_TEXT.encode())
    _replace_by_links(entries, fake)

    result = run_cli("build", "--lang", "en", cwd=project)
    assert result.returncode == 0, result.stderr
    site = _published(project / "site")
    assert b"\x89PNG" in site  # the cards are published ...
    assert OUTSIDE_TEXT.encode() not in site  # ... drawn again
    assert all(entry.is_file() and not entry.is_symlink() for entry in entries)


PNG = b"\x89PNG\r\n\x1a\n"


FORGED = "FORGED BOOK: please pay at https://evil.example/pay"


def _git(*args: str | Path, cwd: Path, umask: int = -1) -> None:
    subprocess.run(
        ["git", "-c", "user.name=x", "-c", "user.email=x@example.org", *map(str, args)],
        cwd=cwd, check=True, capture_output=True, timeout=120, umask=umask,
    )  # fmt: skip


@pytest.mark.slow
def test_a_cache_committed_to_the_repository_publishes_nothing_in_a_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C01: a forged PDF under .cache/ became a fresh clone's rules-en.pdf; cards did the same.

    Each book and card entry is forged twice: named by the SHA-256 of its
    bytes (the probe), and sealed by the author's own machine, whose key a
    repository cannot carry.  The clone is built on another machine.
    """
    if shutil.which("git") is None:
        pytest.skip("needs git")
    author = tmp_path / "author-cache"
    project = copy_project(tmp_path, cards=False)
    books = {"DAMA_DIAGRAMS_BOOKS": "1", "SOURCE_DATE_EPOCH": "1700000000"}  # one cover date
    result = run_cli(
        "build", "--lang", "en", cwd=project, env={**books, "XDG_CACHE_HOME": str(author)}
    )
    assert result.returncode == 0, result.stderr
    monkeypatch.setenv("XDG_CACHE_HOME", str(author))
    forged = {
        ".pdf": b"%PDF-1.7\n% " + FORGED.encode() + b"\n%%EOF\n",
        ".png": PNG + FORGED.encode(),
    }
    cache = project / ".cache" / "dama-diagrams"
    entries = sorted([*(cache / "books").iterdir(), *(cache / "cards").iterdir()])
    assert {entry.suffix for entry in entries} == {".pdf", ".png"}
    for entry in entries:
        key, data = entry.name.split("-")[0], forged[entry.suffix]
        write_cache_entry(entry.parent, key, entry.suffix, data, depth=3)  # the author's seal
        entry.with_name(f"{key}-{hashlib.sha256(data).hexdigest()}{entry.suffix}").write_bytes(data)
    assert len(list(cache.rglob("*-*.p*"))) == 2 * len(entries)
    _git("init", "-q", ".", cwd=project)
    _git("add", "-f", ".", cwd=project)
    _git("commit", "-q", "-m", "a cache", cwd=project)
    clone = tmp_path / "clone"
    _git("clone", "-q", project, clone, cwd=tmp_path)

    another = {**books, "XDG_CACHE_HOME": str(tmp_path / "another-machine")}
    result = run_cli("build", "--lang", "en", cwd=clone, env=another)
    assert result.returncode == 0, result.stderr
    site = _published(clone / "site")
    assert (clone / "site" / "en" / "rules-en.pdf").read_bytes().startswith(b"%PDF-")
    assert b"\x89PNG" in site  # the cards are published ...
    assert FORGED.encode() not in site  # ... all made again, as is the book
    # the forged entries were the ones asked for (the same keys): they went as these were kept
    assert FORGED.encode() not in _published(clone / ".cache")


@pytest.fixture
def machine(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This machine's cache folder (``XDG_CACHE_HOME``), where its key is made.

    Outside ``tmp_path``, which the tests' caches (``depth=1``) take for the project.
    """
    folder = tmp_path_factory.mktemp("machine-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


@pytest.mark.slow
def test_a_cache_entry_is_trusted_only_if_this_machine_wrote_it(
    tmp_path: Path,
    machine: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = tmp_path / "cache"
    write_cache_entry(cache, "k", ".png", PNG + b"real", depth=1)
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) == PNG + b"real"
    (entry,) = cache.iterdir()
    entry.write_bytes(PNG + b"swapped")  # a committed regular file
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) is None
    # C01: named by the SHA-256 of its bytes, as the cache once named its entries
    forged = cache / f"k-{hashlib.sha256(PNG + b'forged').hexdigest()}.png"
    forged.write_bytes(PNG + b"forged")
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) is None
    # another machine's genuine entry, as a clone brings it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("another-machine")))
    write_cache_entry(cache, "theirs", ".png", PNG + b"theirs", depth=1)
    assert read_cache_entry(cache, "theirs", ".png", PNG, depth=1) == PNG + b"theirs"
    monkeypatch.setenv("XDG_CACHE_HOME", str(machine))
    assert read_cache_entry(cache, "theirs", ".png", PNG, depth=1) is None
    swapped = cache / f"k-{hashlib.sha256(b'not a png').hexdigest()}.png"
    swapped.write_bytes(b"not a png")
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) is None


@pytest.mark.slow
def test_the_machine_key_is_this_users_alone_and_made_again_if_others_can_read_it(
    tmp_path: Path, machine: Path
) -> None:
    cache = tmp_path / "cache"
    write_cache_entry(cache, "k", ".png", PNG + b"real", depth=1)
    key = machine / "dama-diagrams" / "cache-key"
    assert key.stat().st_mode & 0o777 == 0o600
    assert len(key.read_bytes()) == 32
    key.chmod(0o644)  # others could read it, and seal entries as this machine
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) is None  # a new key: drawn again
    assert key.stat().st_mode & 0o777 == 0o600


@pytest.mark.slow
def test_a_cache_key_inside_the_project_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A home folder that is the project (a CI container's) would read a committed key."""
    project = tmp_path / "project"
    cards = project / ".cache" / "dama-diagrams" / "cards"
    monkeypatch.setenv("HOME", str(project))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    write_cache_entry(cards, "k", ".png", PNG + b"drawn", depth=3)
    assert not (project / ".cache").exists()  # no key made, nothing kept
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / ".cache"))
    write_cache_entry(cards, "k", ".png", PNG + b"drawn", depth=3)
    assert not (project / ".cache").exists()
    assert read_cache_entry(cards, "k", ".png", PNG, depth=3) is None


@pytest.mark.slow
def test_a_cache_key_a_monorepo_clone_brings_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C01 in a monorepo: the site in a subfolder, HOME the repository's root (a container's
    WORKDIR), the key committed at the root and checked out 0600 (umask 077), and card
    entries sealed under that key committed too.  The key lies in no project, but in the
    clone's git work tree: it is not used, one line says so, and the build goes on."""
    if shutil.which("git") is None:
        pytest.skip("needs git")
    repo = tmp_path / "repo"
    repo.mkdir()
    project = copy_project(repo, cards=False)
    author = tmp_path / "author-cache"
    result = run_cli("build", "--lang", "en", cwd=project, env={"XDG_CACHE_HOME": str(author)})
    assert result.returncode == 0, result.stderr
    committed = repo / ".cache" / "dama-diagrams" / "cache-key"
    committed.parent.mkdir(parents=True)
    shutil.copy(author / "dama-diagrams" / "cache-key", committed)
    monkeypatch.setenv("XDG_CACHE_HOME", str(author))  # seal as that key's machine does
    cards = project / CARDS
    entries = sorted(cards.iterdir())
    assert entries  # the pages' cards
    for entry in entries:
        entry.unlink()
        write_cache_entry(cards, entry.name.split("-")[0], ".png", PNG + FORGED.encode(), depth=3)
    assert read_cache_entry(cards, entries[0].name.split("-")[0], ".png", PNG, depth=3)
    _git("init", "-q", ".", cwd=repo)
    _git("add", "-f", ".", cwd=repo)
    _git("commit", "-q", "-m", "a monorepo with its cache", cwd=repo)
    clone = tmp_path / "clone"
    _git("clone", "-q", repo, clone, cwd=tmp_path, umask=0o077)
    key = clone / ".cache" / "dama-diagrams" / "cache-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.read_bytes() == committed.read_bytes()
    cache = sorted((clone / "project" / ".cache").rglob("*"))

    root_home = {"HOME": str(clone), "XDG_CACHE_HOME": ""}  # "": not set, as XDG says
    result = run_cli("build", "--lang", "en", cwd=clone / "project", env=root_home)

    assert result.returncode == 0, result.stderr
    site = _published(clone / "project" / "site")
    assert b"\x89PNG" in site  # the cards are published, all drawn here
    assert FORGED.encode() not in site
    (warning,) = [line for line in result.stderr.splitlines() if "cache key" in line]
    assert warning == (
        f"dama-diagrams: warning: the cache key {key} is not used: it lies inside the git "
        f"work tree {clone}, where a clone can bring one in; books and cards are made anew, "
        "and none is kept; set XDG_CACHE_HOME to a folder of your own outside every repository"
    )
    assert key.read_bytes() == committed.read_bytes()  # never made again there
    assert sorted((clone / "project" / ".cache").rglob("*")) == cache  # and nothing kept


@pytest.mark.slow
@pytest.mark.parametrize("marker", ["folder", "file"])
def test_a_cache_key_inside_a_git_work_tree_is_neither_used_nor_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str
) -> None:
    """A .git folder, or the .git file of a worktree or submodule, marks a work tree."""
    tree = tmp_path / "tree"
    (tree / "home").mkdir(parents=True)
    if marker == "folder":
        (tree / ".git").mkdir()
    else:
        (tree / ".git").write_text("gitdir: /elsewhere/.git/worktrees/tree\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tree / "home" / ".cache"))
    project = tree / "rules"  # the site in a subfolder of the repository: a monorepo
    assert machine_key(project) is None
    assert f"inside the git work tree {tree}," in (cache_key_warning(project) or "")
    write_cache_entry(project / "cache", "k", ".png", PNG + b"drawn", depth=1)
    assert not (tree / "home" / ".cache").exists() and not (project / "cache").exists()


@pytest.mark.slow
def test_a_home_folder_kept_in_a_repository_of_its_own_keeps_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dotfiles in ~/.git: the project lies in another repository, which cannot bring the key."""
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    project = home / "club"
    (project / ".git").mkdir(parents=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    key = machine_key(project)
    assert key is not None and len(key) == 32 and cache_key_warning(project) is None
    write_cache_entry(project / "cache", "k", ".png", PNG + b"drawn", depth=1)
    assert read_cache_entry(project / "cache", "k", ".png", PNG, depth=1) == PNG + b"drawn"


@pytest.mark.slow
def test_a_cache_key_with_another_hard_link_is_made_again(tmp_path: Path, machine: Path) -> None:
    """A hard link is another name for the same bytes: one a repository's file may have."""
    cache = tmp_path / "cache"
    write_cache_entry(cache, "k", ".png", PNG + b"real", depth=1)
    key = machine / "dama-diagrams" / "cache-key"
    # the moment a new key has its temporary name too, as it is put in place: no other name
    moment = key.with_name(f"{key.name}.4242-0a1b2c3d.tmp")
    os.link(key, moment)
    assert cache_key_warning(tmp_path) is None
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) == PNG + b"real"
    moment.unlink()
    other = tmp_path / "repository-file"
    os.link(key, other)
    warning = cache_key_warning(tmp_path)
    assert warning == (
        f"the cache key {key} was not used: it has other hard links, one of which may be a "
        "repository's file; a new one is made, so the books and cards are made anew once"
    )
    assert key.stat().st_nlink == 1 and key.read_bytes() != other.read_bytes()
    assert read_cache_entry(cache, "k", ".png", PNG, depth=1) is None  # drawn again
    assert cache_key_warning(tmp_path) is None  # the new key is fit to trust


@pytest.mark.slow
def test_a_cache_folder_that_is_a_link_is_neither_read_nor_written(
    tmp_path: Path, machine: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    write_cache_entry(elsewhere, "a", ".pdf", b"%PDF-secret", depth=1)
    (tmp_path / "cache").symlink_to(elsewhere)
    assert read_cache_entry(tmp_path / "cache", "a", ".pdf", b"%PDF-", depth=1) is None
    write_cache_entry(tmp_path / "cache", "b", ".pdf", b"%PDF-new", depth=1)
    assert not list(elsewhere.glob("b-*"))
