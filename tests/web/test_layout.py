"""The page's layout at the viewports visitors bring, measured in a real browser.

A user trial found the board squeezed to nothing and the keyboard drawn over it on a
1366x768 laptop. Here, at each common viewport, in a class and in a museum, in normal and
large type, the board's squares have a real size, the board, caption, paper, lamps and keys
do not overlap, each lies inside the page's scrollable area, and a square or key shows
itself (nothing drawn over it) once scrolled to. One page per mode, one browser.
"""

from __future__ import annotations

from support.web import web_server

from univac_ttt.museum.controller import KioskSettings

READY = "document.body.dataset.ready === 'yes'"
LAPTOPS = ((1024, 600), (1280, 657), (1366, 625), (1440, 760), (1536, 730), (1920, 960))
PHONES = ((360, 740),)
PARTS = {"board": "#board", "caption": "#caption", "paper": "#paper", "lamps": ".panel",
         "keyboard": ".keyboard"}

# Every rectangle in page coordinates, the page's scrollable size, and for each square and
# square-code key whether it is the element found at its own centre once scrolled into view.
MEASURE = """(parts) => {
  const rect = (element) => {
    const b = element.getBoundingClientRect();
    return {left: b.left + scrollX, top: b.top + scrollY, right: b.right + scrollX,
            bottom: b.bottom + scrollY, width: b.width, height: b.height};
  };
  const shown = (element) => {
    element.scrollIntoView({block: "center", inline: "center"});
    const b = element.getBoundingClientRect();
    const found = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return found !== null && (found === element || element.contains(found));
  };
  const rects = {};
  for (const [name, selector] of Object.entries(parts)) {
    rects[name] = rect(document.querySelector(selector));
  }
  const cells = [...document.querySelectorAll("#board .cell")];
  const keys = [...document.querySelectorAll("#square-keys .key")];
  const result = {
    rects, cells: cells.map(rect), keys: keys.map(rect),
    hidden: [...cells, ...keys].filter((e) => !shown(e)).map((e) => e.textContent),
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    width: innerWidth, height: innerHeight,
  };
  scrollTo(0, 0);
  return result;
}"""


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def layout_faults(m: dict) -> list[str]:
    """What is wrong with one measured layout (an empty list: nothing)."""
    faults = []
    for i, cell in enumerate(m["cells"], 1):
        if cell["width"] < 40 or cell["height"] < 40:
            faults.append(f"square {i} is {cell['width']:.0f}x{cell['height']:.0f} px")
    for i, key in enumerate(m["keys"], 1):
        if key["width"] < 40 or key["height"] < 40:
            faults.append(f"key {i} is {key['width']:.0f}x{key['height']:.0f} px")
    names = list(m["rects"])
    for i, first in enumerate(names):
        a = m["rects"][first]
        if a["width"] <= 0 or a["height"] <= 0:
            faults.append(f"the {first} has no size")
        if a["left"] < 0 or a["top"] < 0 or a["right"] > m["scrollWidth"] + 0.5 \
                or a["bottom"] > m["scrollHeight"] + 0.5:
            faults.append(f"the {first} lies outside the page's scrollable area")
        for second in names[i + 1:]:
            if overlap(a, m["rects"][second]):
                faults.append(f"the {first} and the {second} overlap")
    if m["hidden"]:
        faults.append(f"covered by something else: {m['hidden']}")
    if m["scrollWidth"] > m["width"]:
        faults.append(f"the page scrolls sideways ({m['scrollWidth']} > {m['width']})")
    return faults


def check_viewports(browser, running, sizes) -> dict[str, list[str]]:
    """Each viewport's faults in normal and in large type, and whether it scrolls: one page,
    a move played (so the caption shows), then resized to each viewport in turn."""
    found: dict[str, list[str]] = {}
    context = browser.new_context(bypass_csp=True, viewport={"width": 1366, "height": 625})
    try:
        page = context.new_page()
        page.goto(running.url)
        page.wait_for_function(READY)
        page.get_by_role("button", name="5", exact=True).click()
        page.get_by_role("button", name="WORD RELEASE").click()
        page.wait_for_function("document.querySelectorAll('#paper .keyed').length > 0 && "
                               "document.getElementById('caption').textContent !== '' && "
                               + READY)
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            normal = page.evaluate(MEASURE, PARTS)
            found[f"{width}x{height}"] = layout_faults(normal)
            found[f"{width}x{height} scrolls"] = (
                [f"{normal['scrollHeight']} > {height}"]
                if normal["scrollHeight"] > height else [])
            page.get_by_role("button", name="LARGE TYPE").click()
            page.wait_for_function("document.documentElement.classList.contains('large')")
            found[f"{width}x{height} large"] = layout_faults(page.evaluate(MEASURE, PARTS))
            page.get_by_role("button", name="LARGE TYPE").click()
            page.wait_for_function("!document.documentElement.classList.contains('large')")
    finally:
        context.close()
    return found


def assert_fits(found: dict[str, list[str]]) -> None:
    laptops = {f"{w}x{h} scrolls" for w, h in LAPTOPS}
    # A phone's page scrolls by design, and large type may need to; in normal type the
    # whole desk is on one laptop screen.
    faults = {name: f for name, f in found.items()
              if f and (not name.endswith(" scrolls") or name in laptops)}
    assert faults == {}, "\n".join(f"{name}: {'; '.join(f)}" for name, f in faults.items())


def test_the_class_page_fits_each_common_viewport(browser):
    with web_server() as running:
        assert_fits(check_viewports(browser, running, LAPTOPS + PHONES))


def test_the_museum_page_fits_each_common_viewport(browser, tmp_path):
    settings = KioskSettings(pin="2468", printouts=tmp_path / "printouts",
                             stats=tmp_path / "tally.json", idle_seconds=600, authentic=False)
    with web_server(museum=settings) as running:
        assert_fits(check_viewports(browser, running, LAPTOPS + PHONES))
