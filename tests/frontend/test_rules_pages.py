"""The "How to play" pages (`frontend/rules/`, `docs/rules-pages.md`): one per game and language, alike in shape."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.games import GAMES
from app.services.options import game_json

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
    notes: dict[str, str] = field(default_factory=dict)  # section id -> the text of its ruling boxes (.rules-note)
    plain: dict[str, str] = field(default_factory=dict)  # section id -> its text outside the ruling boxes
    note_depth: int | None = None  # len(open_tags) inside the open ruling box
    open_tags: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag not in VOID:
            self.open_tags.append(tag)
            if self.note_depth is None and "rules-note" in (a.get("class") or "").split():
                self.note_depth = len(self.open_tags)
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
        else:
            self.open_tags.pop()
        if self.note_depth is not None and len(self.open_tags) < self.note_depth:
            self.note_depth = None

    def handle_data(self, data: str) -> None:
        if "title" in self.open_tags:
            self.title += data
        if "section" in self.open_tags and self.sections:
            self.text[self.sections[-1]] = self.text.get(self.sections[-1], "") + data
            part = self.notes if self.note_depth is not None else self.plain
            part[self.sections[-1]] = part.get(self.sections[-1], "") + data


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


# Issue 41: corrections to the pages, in both languages. Each row: page, section, where the corrected sentence
# must be ("text" anywhere in the section, "note" in a ruling box, "plain" outside the ruling boxes), the sentence,
# and what it replaced (gone from the whole section; None when nothing was replaced).
CORRECTIONS: list[tuple[str, str, str, str, str | None]] = [
    # 1. Dinnertime: the bank is paid only when a sale's total income is negative.
    ("food-chain-magnate.html", "dinnertime", "note",
     "The chain pays the bank only when a sale’s total income (items × unit price × 2 with a garden, plus the"
     " marketed bonuses) is negative; a total of exactly $0 is neither paid nor charged, and a negative price with"
     " the +$5 marketed bonus can still earn money.", "at $0 or less the chain pays the bank"),
    ("food-chain-magnate.es.html", "dinnertime", "note",
     "La cadena solo paga al banco cuando el ingreso total de una venta (productos × precio × 2 con jardín, más las"
     " primas de anunciada) es negativo; un total de exactamente $0 ni se cobra ni se paga, y un precio negativo con"
     " la prima de +$5 de anunciada aún puede dar dinero.", "a $0 o menos, la cadena paga al banco"),
    # 2. The setup table's last column lists billboards (the Spanish page already said "Campañas fuera").
    ("food-chain-magnate.html", "setup", "text", "Billboards left out", "Tiles left out"),
    # 3. There is a 1 x 1 billboard only with 4 or 5 players.
    ("food-chain-magnate.html", "map", "text",
     "With 4 or 5 players (the 1 × 1 billboards #15 and #16 are left out with 2 or 3), a Marketing Trainee (range 2)"
     " may put the 1 × 1 billboard #15 on b", "A Marketing Trainee (range 2) may put a 1 × 1 billboard on b"),
    ("food-chain-magnate.es.html", "map", "text",
     "Con 4 o 5 jugadores (con 2 o 3 quedan fuera las vallas de 1 × 1, #15 y #16), un aprendiz de marketing"
     " (alcance 2) puede poner la valla #15, de 1 × 1, en b", "Un aprendiz de marketing (alcance 2) puede poner una valla"),
    # 4. The order of the last two Working 9-5 steps is a ruling.
    ("food-chain-magnate.html", "working", "note",
     "Ruling: the order of the last two steps, Houses & gardens before Restaurants, is that of the 3rd-printing and"
     " Deluxe rulebooks; the game overview this site started from lists them the other way round.", None),
    ("food-chain-magnate.es.html", "working", "note",
     "Decisión: el orden de los dos últimos pasos, Casas y jardines antes que Restaurantes, es el de los reglamentos"
     " de la 3.ª impresión y de la edición Deluxe; el resumen del juego del que partió esta web los pone al revés.", None),
    # 5. A phantom hire counts as a hire.
    ("food-chain-magnate.html", "working", "plain",
     "A phantom hire counts as a hire: towards First to hire 3 people in 1 turn, and in working out which recruiting"
     " actions were left unused for the Payday discounts.", None),
    ("food-chain-magnate.es.html", "working", "plain",
     "Una contratación fantasma cuenta como contratación: para Primero en contratar 3 personas en 1 turno y al"
     " calcular qué contrataciones de los jefes de selección quedaron sin usar para los descuentos del día de paga.",
     None),
    # 6. Marketing range: the +1 compares the campaign square with the road square it touches.
    ("food-chain-magnate.html", "map", "text",
     "+1 if the campaign square is on a different tile from the road square it touches.",
     "+1 if the campaign square is on another tile."),
    ("food-chain-magnate.es.html", "map", "text",
     "+1 si la casilla de la campaña está en otra loseta que la casilla de carretera que toca.",
     "+1 si la casilla de la campaña está en otra loseta."),
    # 7. The printed milestone names, and the names the screen shortens.
    ("food-chain-magnate.html", "milestones", "plain",
     "The names are the printed ones; the game screen shortens a few: Hire 3 in a turn, First errand boy, First"
     " waitress, First cart operator, Paid $20 salaries.", None),
    ("food-chain-magnate.es.html", "milestones", "plain",
     "Los nombres traducen los impresos en las cartas; la pantalla del juego acorta algunos: Contratar 3 en un turno,"
     " Primer recadero, Primera hamburguesa, Primera pizza, Primera camarera, Primer carrito, Pagó $20 de sueldos.",
     None),
    ("food-chain-magnate.es.html", "setup", "plain", "El Suministro de empleados tiene todos los tipos de empleado",
     "Reserva de empleados"),
    ("food-chain-magnate.es.html", "components", "plain", "En el Suministro de empleados la cifra indica",
     "Reserva de empleados"),
    # 8. The Starting Order fills one of the two Plating places.
    ("food-truck-champion.html", "setup", "plain",
     "in the Plating Area, where it fills one of the two places (so your first Cashier finds one free place)", None),
    ("food-truck-champion.es.html", "setup", "plain",
     "en el Emplatado, donde ocupa uno de los dos sitios (así tu primer Cajero encuentra un sitio libre)", None),
    # 9. Market Research and Take Charge chosen in someone else's round end no turn.
    ("food-truck-champion.html", "round", "plain",
     "Market Research and Take Charge end your turn only when you choose them as your turn. Chosen during someone"
     " else’s action round, they end no turn: the Active Player token, which marks whose turn it is, does not move,"
     " and the round goes on.", None),
    ("food-truck-champion.es.html", "round", "plain",
     "Investigar y tomar el mando solo acaban tu turno cuando los eliges como tu turno. Si los eliges en la ronda de"
     " acción de otro, no acaban ningún turno: la ficha de jugador activo, que marca de quién es el turno, no se"
     " mueve y la ronda sigue.", None),
    # 10. A replaced Starting Order leaves the game; its ingredients are discarded.
    ("food-truck-champion.html", "staff", "plain",
     "a replaced Starting Order leaves the game while its ingredients are discarded.", None),
    ("food-truck-champion.es.html", "staff", "plain",
     "un pedido inicial reemplazado sale de la partida, aunque sus ingredientes van a los descartes.", None),
    # 11. Food Truck: the site's rulings in boxes; its own names and the derived counts said so.
    ("food-truck.html", "components", "note",
     "the truck names and the effect names (Rearrange, Send Back, Swap, Skip, Share) are this site’s own. The rulebook"
     " gives only the totals (65 Meal cards, 25 Truck cards); the counts of the blue cards (10 Burgers, 5 of each"
     " other starting meal) and one card of each effect per truck are worked out from them.", None),
    ("food-truck.es.html", "components", "note",
     "los nombres de los camiones y los de los efectos (Reordenar, Devolver, Cambiar, Saltar, Compartir) son cosa de"
     " este sitio. El reglamento solo da los totales (65 cartas de comida, 25 cartas de camión); las cantidades de las"
     " cartas azules (10 Hamburguesas y 5 de cada otra comida inicial) y una carta de cada efecto por camión se"
     " deducen de ellos.", None),
    ("food-truck.html", "setup", "note",
     "2 to 5 players: the rulebook gives no player count, only the five-player exception to the VP target, and the"
     " box holds five starting hands.", None),
    ("food-truck.es.html", "setup", "note",
     "De 2 a 5 jugadores: el reglamento no da un número de jugadores, solo la excepción de 5 jugadores para los PV,"
     " y la caja trae cinco manos iniciales.", None),
    ("food-truck.html", "service", "note",
     "Rulings: the blocked card goes face down to the bottom of your draw pile: still yours, but not served. The"
     " Supply card you choose goes to the bottom of your pile too. The first player out takes the marker even if they"
     " already had it;", None),
    ("food-truck.es.html", "service", "note",
     "Decisiones del sitio: la carta bloqueada va boca abajo al fondo de tu mazo: sigue siendo tuya, pero no está"
     " servida. La carta que eliges de la Reserva también va al fondo de tu mazo. El primer eliminado se queda el"
     " marcador aunque ya lo tuviera;", None),
    ("food-truck.html", "trucks", "note",
     "Rulings on the effects: Rearrange takes all your cards if you have fewer than 5, Desserts count among them, and"
     " a card you already revealed goes back on top first and counts among them. Send Back may pick anyone’s single,"
     " a knocked-out player’s or your own, but never a Dessert. With Swap the card you take is yours from then on,"
     " and the one you gave up no longer is. With Skip, if the revealed card was your only card, the same card comes"
     " back.", None),
    ("food-truck.es.html", "trucks", "note",
     "Decisiones del sitio sobre los efectos: Reordenar coge todas tus cartas si tienes menos de 5, los postres"
     " cuentan entre ellas, y si ya habías revelado una carta, primero vuelve arriba y cuenta entre ellas. Devolver"
     " puede elegir la comida suelta de cualquiera, incluso de un eliminado o tuya, pero nunca un postre. Con"
     " Cambiar, la carta que coges es tuya desde ese momento y la que entregaste ya no. Con Saltar, si la carta"
     " revelada era tu única carta, vuelve a salir la misma.", None),
    # 12. Foodies: the site's own chef reward and names, and the unlimited supply, are rulings; the end is not.
    ("foodies.html", "chefs", "note",
     "The chef for hire's +1 popularity and the five special chefs' names are this site's own: the rulebook's reward"
     " icon and the chefs' names are missing from the text we have.", None),
    ("foodies.es.html", "chefs", "note",
     "El +1 de popularidad del chef de alquiler y los nombres de los cinco chefs especiales son cosa de este sitio: al"
     " texto que tenemos le faltan el icono de esa recompensa y los nombres de los chefs.", None),
    ("foodies.html", "setup", "note", "Ruling: coins, tokens and flyers never run out.", None),
    ("foodies.es.html", "setup", "note", "Aclaración: las monedas, las fichas y los volantes no se agotan nunca.", None),
    ("foodies.html", "end", "plain",
     "The current turn is finished, then everyone up to the last seat plays a full turn; the game ends when the last"
     " seat clicks End turn, so all have had the same number of turns.", "Ruling: the current turn is finished"),
    ("foodies.es.html", "end", "plain",
     "Se acaba el turno en curso y después juegan un turno completo todos los que faltan hasta el último jugador; la"
     " partida termina cuando este pulsa Terminar turno, así que todos han jugado los mismos turnos.",
     "Aclaración: se acaba el turno en curso"),
    ("foodies.html", "screen", "text", "Popularity (game ends at 20, or 30 with 4–5 players)", None),
    ("foodies.es.html", "screen", "text", "Popularidad (la partida acaba en 20, o en 30 con 4–5 jugadores)", None),
    # 13. Foodies in Spanish: the rulebook's words.
    ("foodies.es.html", "cultures", "text",
     "Pon una ficha de moneda en cada espacio adyacente sin puesto y sin ficha de moneda.", None),
    ("foodies.es.html", "screen", "text",
     "y cinco espacios. El precio de cada espacio está debajo: 7, 6, 5, 4 y 3 monedas de izquierda a derecha.", None),
    ("foodies.es.html", "setup", "text", "Se sortea el primer jugador", None),
]


@pytest.mark.parametrize(("name", "section", "where", "says", "replaced"), CORRECTIONS)
def test_the_corrected_sentence_is_on_the_page(name: str, section: str, where: str, says: str,
                                               replaced: str | None) -> None:
    p = page(name)
    text = {"text": p.text, "note": p.notes, "plain": p.plain}[where]
    assert says in flat(text.get(section, ""))
    if replaced is not None:
        assert replaced not in flat(p.text[section])


def test_a_ruling_stated_in_a_box_is_not_also_stated_as_a_rule() -> None:
    """Issue 41, 11: Food Truck's rulings are only in the boxes, never stated as published rules."""
    for name, rulings in {
        "food-truck.html": {"service": ["bottom of your draw pile: still yours", "even if they already had it",
                                        "reveal with an empty draw pile"],
                            "trucks": ["if you have fewer than 5", "Desserts count", "the same card comes back",
                                       "no longer is", "or your own"]},
        "food-truck.es.html": {"service": ["fondo de tu mazo: sigue siendo tuya", "aunque ya lo tuviera",
                                           "revelar con el mazo vacío"],
                               "trucks": ["si tienes menos de 5", "los postres cuentan", "vuelve a salir la misma",
                                          "la que entregaste ya no", "o tuya"]},
        "foodies.html": {"setup": ["never run out"]},
        "foodies.es.html": {"setup": ["no se agotan nunca"]},
    }.items():
        p = page(name)
        for section, phrases in rulings.items():
            plain, notes = flat(p.plain[section]), flat(p.notes[section])
            assert [s for s in phrases if s in plain or s not in notes] == [], (name, section)


@pytest.mark.parametrize(("name", "old"), [
    # Issue 41, 7: the printed milestone names everywhere but in the sentence naming what the screen shows.
    ("food-chain-magnate.html", r"Hire 3 in a turn|Paid \$20 salaries|First (errand boy|waitress|cart operator)(?! played)"),
    ("food-chain-magnate.es.html",
     r"Contratar 3 en un turno|Pagó \$20 de sueldos|Primer (recadero|carrito)(?! jugado)|Primera camarera(?! jugada)"
     r"|Primera (hamburguesa|pizza)(?! (anunciada|producida|/))"),
    # ... and the employee supply is not a "reserva" (that word is left to the bank's reserve cards).
    ("food-chain-magnate.es.html", r"[Rr]eserva de empleados|(de|a|en) la reserva"),
    # Issue 41, 13: Foodies in Spanish says "espacio" and "primer jugador", as the rulebook does.
    ("foodies.es.html", r"huecos?\b|jugador(a)? inicial"),
])
def test_the_replaced_words_are_gone(name: str, old: str) -> None:
    p = page(name)
    shortened = {"food-chain-magnate.html": "The names are the printed ones",
                 "food-chain-magnate.es.html": "Los nombres traducen los impresos"}.get(name)
    found = []
    for section, text in p.text.items():
        for sentence in flat(text).split(". "):
            if re.search(old, sentence) and not (shortened and shortened in sentence):
                found.append((section, sentence))
    assert found == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize(("lang", "says"), [
    ("en", ["Glicko-2", "3 days old or has played 3 games", "count less each time", "provisional"]),
    ("es", ["Glicko-2", "3 días o 3 partidas", "cuentan menos cada vez", "provisional"]),
])
def test_on_this_site_states_the_rating_rule(game_id: str, lang: str, says: list[str]) -> None:
    """Who is rated, which accounts count, how repeats weigh, and what a provisional rating is (services/ratings.py)."""
    text = flat(page(f"{game_id}{'' if lang == 'en' else '.es'}.html").text["on-this-site"])
    assert [s for s in says if s not in text] == []
