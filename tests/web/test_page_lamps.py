"""The page has a lamp for every neon the desk can light, named as the desk names it, so a
checking stop (ODD-EVEN CHECK, TAPE CHECK, ...) shows in the browser as in the console."""

from html.parser import HTMLParser
from importlib.resources import files

from univac_ttt.desk.neons import Neons, label


class _Lamps(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "lamp" in (found.get("class") or "").split() and found.get("data-name"):
            self.names.append(found["data-name"] or "")


def test_every_desk_neon_has_its_lamp_on_the_page() -> None:
    page = _Lamps()
    page.feed(files("univac_ttt.web").joinpath("static/index.html").read_text())
    neons = [label(name) for name in Neons._fields]
    assert sorted(page.names) == sorted(neons)
    assert "ODD-EVEN CHECK" in page.names and "TAPE CHECK" in page.names
