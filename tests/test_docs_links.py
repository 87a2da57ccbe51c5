"""Every relative link in the README, the changelog and docs/ leads somewhere: to a file that exists and, when it
names a `#anchor` in a Markdown file, to a heading there (GitHub's anchors), so moving a page or renaming a heading
cannot break a reference silently."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from tests.conftest import ROOT

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# An inline link or image, `[text](target "title")`, and a reference definition, `[label]: target`.
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.MULTILINE)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def documents(root: Path) -> list[Path]:
    found = [root / name for name in ("README.md", "CHANGELOG.md") if (root / name).exists()]
    return found + sorted((root / "docs").rglob("*.md"))


def prose(text: str) -> str:
    """The text without its code blocks and code spans, where brackets and parentheses are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    body = prose(text)
    return INLINE.findall(body) + DEFINITION.findall(body)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page offers: its headings' (a repeated one gets -1, -2 …) and explicit HTML ones."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found | set(HTML_ANCHOR.findall(text))


def broken_links(page: Path, root: Path) -> list[str]:
    """Each relative link of `page` that leads nowhere, with why."""
    broken = []
    for target in links(page.read_text()):
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue  # an address on the web or a mail address is not a file of the repository
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / unquote(path_part)).resolve() if path_part else page
        if path_part and path_part.startswith("/"):
            destination = (root / unquote(path_part).lstrip("/")).resolve()
        if not destination.exists():
            broken.append(f"{target}: no such file")
            continue
        headed = destination.is_file() and destination.suffix == ".md"
        if anchor and headed and unquote(anchor).lower() not in anchors(destination.read_text()):
            broken.append(f"{target}: no heading with the anchor #{anchor}")
    return broken


def test_every_relative_link_in_the_docs_resolves() -> None:
    pages = documents(ROOT)
    assert ROOT / "docs" / "api" / "live-play.md" in pages, "docs/ is not searched recursively"
    broken = {
        str(page.relative_to(ROOT)): found for page in pages if (found := broken_links(page, ROOT))
    }
    assert broken == {}


def test_links_are_found_outside_code_only() -> None:
    text = (
        "See [a](a.md), ![b](img/b.png \"B\") and [c](<c.md>).\n"
        "`[not](code.md)` and\n```\n[not](fenced.md)\n```\n"
        "[ref]: ref.md \"Ref\"\n[web](https://example.com/x.md)\n"
    )
    assert links(text) == ["a.md", "img/b.png", "c.md", "https://example.com/x.md", "ref.md"]


def test_anchors_follow_githubs_rules() -> None:
    text = "# HTTP and websocket API\n## Live play: `WS /ws/tables/{id}?invite=…`\n## Notes\n## Notes\n<a id=\"here\"></a>\n"
    assert anchors(text) == {"http-and-websocket-api", "live-play-ws-wstablesidinvite", "notes", "notes-1", "here"}


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    (tmp_path / "docs" / "api").mkdir(parents=True)
    (tmp_path / "docs" / "api" / "lobby.md").write_text("# Lobby\n\n## Tables\n")
    page = tmp_path / "docs" / "api.md"
    page.write_text(
        "# API\n\n## Errors\n\n[ok](api/lobby.md) [ok](api/lobby.md#tables) [ok](#errors) [ok](http://x.org/y.md)\n"
        "[gone](api/players.md) [gone](api/lobby.md#chat) [gone](#limits)\n"
    )
    assert broken_links(page, tmp_path) == [
        "api/players.md: no such file",
        "api/lobby.md#chat: no heading with the anchor #chat",
        "#limits: no heading with the anchor #limits",
    ]
