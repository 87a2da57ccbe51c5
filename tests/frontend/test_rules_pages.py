"""The "How to play" pages (`frontend/rules/`, `docs/rules-pages.md`): one per game and language, alike in shape."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.games import GAMES
from app.services.tables import game_json

RULES = Path(__file__).resolve().parents[2] / "frontend" / "rules"
REQUIRED = ["goal", "setup", "end", "options", "on-this-site"]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Page(HTMLParser):
    """What the tests need of a page: its language, ids, sections, links and the text of each section."""

    lang: str | None = None
    title: str = ""
    ids: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)  # the ids of <main>'s sections, in order
    toc: list[str] = field(default_factory=list)  # the anchors the contents nav lists
    anchors: list[str] = field(default_factory=list)
    alternates: dict[str, str] = field(default_factory=dict)
    scripts: int = 0
    text: dict[str, str] = field(default_factory=dict)  # section id -> its text
    open_tags: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag not in VOID:
            self.open_tags.append(tag)
        if tag == "html":
            self.lang = a.get("lang")
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "section" and self.open_tags.count("section") == 1 and "main" in self.open_tags:
            self.sections.append(str(a.get("id")))
        href = a.get("href") or ""
        if tag == "a" and href.startswith("#"):
            self.anchors.append(href[1:])
            if "nav" in self.open_tags:
                self.toc.append(href[1:])
        if tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates[str(a["hreflang"])] = href
        if tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.open_tags or self.open_tags[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.open_tags[-1] if self.open_tags else None}>")
            if tag in self.open_tags:
                while self.open_tags.pop() != tag:
                    pass
            return
        self.open_tags.pop()

    def handle_data(self, data: str) -> None:
        if "title" in self.open_tags:
            self.title += data
        if "section" in self.open_tags and self.sections:
            self.text[self.sections[-1]] = self.text.get(self.sections[-1], "") + data


def page(name: str) -> Page:
    path = RULES / name
    assert path.exists(), f"missing {path}"
    parsed = Page()
    parsed.feed(path.read_text(encoding="utf-8"))
    parsed.close()
    return parsed


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_game_has_a_well_formed_page_in_each_language(game_id: str, lang: str) -> None:
    p = page(f"{game_id}{'' if lang == 'en' else '.es'}.html")
    assert p.problems == [] and p.open_tags == []
    assert p.lang == lang and GAMES[game_id].title in p.title
    assert p.scripts == 0
    assert len(p.ids) == len(set(p.ids)), "an id is used twice"
    assert [s for s in REQUIRED if s not in p.sections] == []
    assert p.sections[0] == "goal" and p.sections[-1] == "on-this-site"
    assert p.toc == p.sections, "the contents list every section, in order"
    assert [a for a in p.anchors if a not in p.ids] == [], "a link to an anchor that is not there"
    other = "es" if lang == "en" else "en"
    assert p.alternates.get(other) == f"/rules/{game_id}{'.es' if other == 'es' else ''}.html"
    assert all(len(flat(p.text.get(s, ""))) > 80 for s in p.sections), "a section with next to nothing in it"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_both_languages_have_the_same_sections(game_id: str) -> None:
    assert page(f"{game_id}.html").sections == page(f"{game_id}.es.html").sections


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_options_are_named_as_the_lobby_names_them(game_id: str) -> None:
    """Each option by the lobby's words in the options section, and each of its choices on the page; a seat
    number ("Seat 3") need not be listed, and a pair ("A + B") may be named by its parts."""
    j = game_json(GAMES[game_id])
    es = j["i18n"]["es"]
    labels = [o["label"] for o in j["options"]]
    choices = [label for o in j["options"] for value, label in (o.get("choice_labels") or {}).items()
               if not (o.get("seat") and value.isdigit())]
    for lang in ("en", "es"):
        p = page(f"{game_id}{'' if lang == 'en' else '.es'}.html")
        words = (lambda text: text) if lang == "en" else es.__getitem__
        section, whole = flat(p.text["options"]).casefold(), flat(" ".join(p.text.values())).casefold()
        assert [n for n in map(words, labels) if flat(n).casefold() not in section] == [], lang
        missing = [n for n in map(words, choices) if not all(flat(part).casefold() in whole for part in n.split(" + "))]
        assert missing == [], lang


@pytest.mark.parametrize(
    ("name", "says"),
    [("food-truck.html", "whoever sits in that seat of the table"), ("food-truck.es.html", "quien ocupe ese asiento de la mesa")],
)
def test_a_first_player_by_seat_is_the_one_in_that_seat_of_the_table(name: str, says: str) -> None:
    """"Seat N" names the table's seat N, whose person it follows when the start closes up empty seats (as the server
    plays it), not the Nth of the players seated."""
    options = flat(page(name).text["options"])
    assert says in options
    assert "counting occupied seats" not in options and "contando por orden" not in options
