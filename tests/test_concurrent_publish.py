"""Two builds that publish into one folder at once: both succeed, and the folder is never gone.

Each process runs the build's own last step (:func:`staging_folder` and
:func:`publish`) many times over a small site that names its process and
round; a third watches the output folder all the while.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 150

PUBLISHER = """
import sys
from pathlib import Path
from dama_diagrams.site.publish.output import publish, staging_folder
out, name = Path(sys.argv[1]), sys.argv[2]
for round in range({rounds}):
    with staging_folder(out) as staging:
        site = staging / "site"
        (site / "en").mkdir(parents=True)
        (site / "en" / "index.html").write_text(f"{{name}} {{round}}")
        publish(site, out, staging)
"""


def test_two_publishes_at_once_both_succeed_and_a_site_is_always_there(tmp_path: Path) -> None:
    out = tmp_path / "site"
    script = PUBLISHER.format(rounds=ROUNDS)
    command = [sys.executable, "-c", script, str(out)]
    publishers = [
        subprocess.Popen([*command, name], stderr=subprocess.PIPE, text=True)
        for name in ("first", "second")
    ]
    appeared = False
    looks = missing = 0
    while any(p.poll() is None for p in publishers):
        there = (out / "en" / "index.html").is_file()
        appeared |= there  # before the first publish there is nothing yet
        looks += appeared
        missing += appeared and not there
        time.sleep(0.0005)
    results = [p.communicate() for p in publishers]
    for publisher, (_, err) in zip(publishers, results, strict=True):
        assert publisher.returncode == 0, err  # before: "Directory not empty; choose another"
    assert missing == 0, f"the site was missing {missing} times out of {looks}"
    last = (out / "en" / "index.html").read_text()
    assert last in (f"first {ROUNDS - 1}", f"second {ROUNDS - 1}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging folder left
