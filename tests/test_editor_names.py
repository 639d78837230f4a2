"""The names the board editor writes diagrams under: portable file names, and a way forward.

Windows reserves CON, PRN, AUX, NUL, COM1-9 and LPT1-9 as device names, with
any extension (Microsoft's "Naming Files, Paths, and Namespaces"): a project
holding ``diagrams/con.yaml`` cannot be checked out there.  A name that is no
diagram id comes back with the id the editor would make of it.
"""

from __future__ import annotations

import pytest

from dama_diagrams.site.editor.checks import EditorError, check_name, suggested_name


@pytest.mark.parametrize("name", ["con", "nul", "aux", "prn", "com1", "lpt9"])
def test_a_name_windows_reserves_is_refused_with_one_to_use(name: str) -> None:
    with pytest.raises(EditorError) as refused:
        check_name(name)
    assert refused.value.status == 400
    assert "Windows reserves it" in refused.value.message
    assert f"try '{name}-diagram'" in refused.value.message
    assert check_name(f"{name}-diagram") == f"{name}-diagram"


@pytest.mark.parametrize("name", ["console", "nullity", "com10", "com", "auxiliary-rule"])
def test_a_name_that_only_looks_like_a_device_is_accepted(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("regola-2-è", "regola-2-e"),
        ("Rule 4: King met first", "rule-4-king-met-first"),
        ("  Prise / majoritaire  ", "prise-majoritaire"),
        ("Ñandú", "nandu"),
    ],
)
def test_a_name_that_is_no_id_comes_back_with_the_id_to_use(typed: str, suggested: str) -> None:
    assert suggested_name(typed) == suggested
    with pytest.raises(EditorError) as refused:
        check_name(typed)
    assert f"try {suggested!r}" in refused.value.message


def test_no_suggestion_is_made_of_a_name_without_a_letter_or_digit() -> None:
    with pytest.raises(EditorError) as refused:
        check_name("!!!")
    assert "try" not in refused.value.message
