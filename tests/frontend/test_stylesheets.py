"""Rules every stylesheet of the site keeps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
SHEETS = sorted(FRONTEND.rglob("*.css"))

# An innermost rule: its selector and its declarations (an @media block's own braces hold rules, not declarations).
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
# Properties that move or resize an element's box. Changed on hover, they can take the box out from under a pointer
# resting on its edge; the hover ends, the box comes back, and it flickers with every frame (no click lands).
GEOMETRY = re.compile(
    r"(?:^|;)\s*(transform|translate|scale|rotate|inset|top|bottom|left|right|margin[\w-]*|padding[\w-]*"
    r"|width|height|min-[\w-]+|max-[\w-]+|border(?:-[\w-]*)?-width|border|font-size)\s*:",
)


def hover_rules(sheet: Path) -> list[tuple[str, str]]:
    text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.DOTALL)
    return [(selector.strip(), body) for selector, body in RULE.findall(text) if ":hover" in selector]


def test_there_are_stylesheets_with_hover_rules() -> None:
    assert SHEETS and any(hover_rules(sheet) for sheet in SHEETS)


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda sheet: str(sheet.relative_to(FRONTEND)))
def test_hovering_never_moves_or_resizes_an_element(sheet: Path) -> None:
    moving = [
        f"{selector} {{{body.strip()}}}"
        for selector, body in hover_rules(sheet)
        if GEOMETRY.search(";" + body)
    ]
    assert not moving, moving
