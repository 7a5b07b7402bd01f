"""The HTML replay: its data, its safety with hostile names, and a real headless Chromium
that loads it offline, steps back and forth and ends on the game's final table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from carca_bot.engine.game import Game
from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.replay_html import build_replay_html, replay_data
from carca_bot.replay_html.build import action_lines, event_lines
from carca_bot.service.history import public_history
from tests.engine.expansion_helpers import game_of, t
from tests.history.browser import Browser, chromium
from tests.history.games import KINDS, NAMES, finished, reseeded, running, with_unconfirmed_turn


def data_of(page: bytes) -> dict[str, Any]:
    text = page.decode("utf-8")
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>',
                      text, re.S)
    assert found is not None
    value: dict[str, Any] = json.loads(found.group(1))
    return value


def final_table(game: Game) -> dict[str, Any]:
    """The table after the last committed action, in the page's terms."""
    state = public_history(game).final
    return {
        "tiles": sorted([p[0], p[1], t, r] for p, t, r in state.tiles),
        "figures": sorted([f"{f.kind}-{f.player}", f.pos[0], f.pos[1]] for f in state.figures),
        "scores": list(state.scores),
    }


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("state", ["finished", "running"])
def test_page_holds_the_public_history(kind: str, state: str) -> None:
    game = (finished if state == "finished" else running)(kind)
    data = data_of(build_replay_html(game))
    assert len(data["steps"]) == len(game.history)
    assert data["finished"] == game.finished
    tiles = [*data["start"]["tiles"], *(t for s in data["steps"] for t in s["tiles"])]
    assert sorted(tiles) == final_table(game)["tiles"]
    assert data["steps"][-1]["scores"] == list(game.scores)
    assert all(t[2] in data["sprites"]["tiles"]["index"] for t in tiles)


def test_page_needs_no_network_and_holds_no_seed() -> None:
    game = finished("all6")
    page = build_replay_html(game).decode("utf-8")
    without_art = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page)
    assert not re.search(r"(?:https?|wss?|ftp):|\burl\(|\bsrc=", without_art, re.I)
    assert "default-src 'none'" in page
    assert "seed" not in page


@pytest.mark.parametrize("kind", KINDS)
def test_page_is_the_same_whatever_the_seed_or_the_unconfirmed_turn(kind: str) -> None:
    game = running(kind)
    pending, _tile = with_unconfirmed_turn(game)
    page = build_replay_html(game)
    assert build_replay_html(reseeded(game, 31337)) == page
    assert build_replay_html(pending) == page


def test_hostile_names_stay_inside_the_data() -> None:
    import dataclasses

    game = finished("base2")
    names = ("</script><script>alert(1)</script>", "<!-- & \u2028")
    hostile = Game.replay(dataclasses.replace(game.setup, players=names),
                          [{**a, "by": names[NAMES.index(a["by"])]} if "by" in a else a
                           for a in game.history])
    page = build_replay_html(hostile).decode("utf-8")
    assert page.count("</script>") == 2  # the data's and the program's, nothing from names
    assert "<script>alert" not in page and "<!--" not in page
    assert [p["name"] for p in data_of(page.encode())["players"]] == list(names)


def test_a_name_like_a_placeholder_is_only_a_name() -> None:
    """Issue 26: a player named `{{DATA}}` copied the whole replay JSON into the title
    (the template was filled by one replace after another). Filled in one pass, the
    title holds the names as they are, at its normal length."""
    import dataclasses

    game = finished("base2")
    names = ("{{DATA}}", "{{TITLE}}")
    tricky = Game.replay(dataclasses.replace(game.setup, players=names),
                         [{**a, "by": names[NAMES.index(a["by"])]} if "by" in a else a
                          for a in game.history])
    page = build_replay_html(tricky).decode("utf-8")
    (title,) = re.findall(r"<title>(.*?)</title>", page, re.S)
    assert title == "Carcassonne replay: {{DATA}}, {{TITLE}}"
    assert page.count('<script id="replay-data"') == 1 and "{{LANG}}" not in page
    assert [p["name"] for p in data_of(page.encode())["players"]] == list(names)


def test_every_word_of_the_page_is_translated() -> None:
    game = finished("all6")
    with speaking("qps"):
        data = replay_data(public_history(game), True, game.setup.pairs)
    allowed = frozenset(NAMES) | set(game.catalogue.tiles) | {"ABBEY"}
    texts = [*data["words"].values(),
             *(line for s in data["steps"] for line in [*s["text"], *s["scored"]])]
    for text in texts:
        assert untranslated(text, allowed) == [], text
    es = data_of(build_replay_html(game, "es"))
    assert es["words"]["title"] == "Repetición de Carcassonne"


# -- in a real browser -------------------------------------------------------------------

BROWSER = chromium()
needs_browser = pytest.mark.skipif(
    BROWSER is None, reason="Chromium is not installed (Debian: apt-get install chromium)")


@needs_browser
@pytest.mark.parametrize("kind", ["all6", "base2"])
async def test_page_in_headless_chromium(kind: str, tmp_path: Path) -> None:
    game = finished(kind)
    file = tmp_path / "replay.html"
    file.write_bytes(build_replay_html(game))
    assert BROWSER is not None
    async with Browser(BROWSER) as browser:
        page = await browser.open(file.as_uri())
        await page.wait_for("window.carcaReplay && window.carcaReplay.ready()")
        total = len(game.history)
        assert await page.evaluate("carcaReplay.total") == total
        assert await page.evaluate("carcaReplay.move()") == total  # opens on the end

        async def click(button: str) -> int:
            await page.evaluate(f"document.getElementById('{button}').click()")
            value: int = await page.evaluate("carcaReplay.move()")
            return value

        assert await click("first") == 0
        assert await click("forward") == 1
        assert await click("forward") == 2
        assert await click("back") == 1
        history = public_history(game)
        shown = await page.evaluate("carcaReplay.state()")
        assert shown["scores"] == list(history.state(1).scores)
        assert len(shown["tiles"]) == len(history.state(1).tiles)
        assert await click("last") == total
        shown = await page.evaluate("carcaReplay.state()")
        table = final_table(game)
        assert sorted(shown["tiles"]) == table["tiles"]
        assert sorted(f[:3] for f in shown["figures"]) == table["figures"]
        assert shown["scores"] == table["scores"]
        # The page shows the scores it holds, and the board was drawn from the art.
        cells = await page.evaluate(
            "[...document.querySelectorAll('#scores td.score')].map(td => +td.textContent)")
        assert sorted(cells) == sorted(game.scores)
        drawn = await page.evaluate("""(() => {
            const c = document.getElementById('board');
            const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const colours = new Set();
            for (let i = 0; i < px.length; i += 4 * 97)
                colours.add(px[i] << 16 | px[i+1] << 8 | px[i+2]);
            return colours.size; })()""")
        assert drawn > 50  # tiles, not an empty board
        await page.evaluate(
            "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))")
        assert await page.evaluate("carcaReplay.move()") == total - 1
        await page.screenshot(tmp_path / "replay.png")
        assert (tmp_path / "replay.png").stat().st_size > 10_000
        # Offline: the page asked for nothing but itself and its embedded pictures.
        assert all(url.startswith(("file:", "data:")) for url in page.requests), page.requests
        assert page.errors == []


def test_the_new_figures_goods_and_a_second_part_are_told() -> None:
    """Each figure by its record's name in one sentence, goods taken and a builder's second
    part: Ana's large follower in a grain city Ben completes; Ana's builder, then a tile
    on its road."""
    actions = [t("Ana", "TB1", (0, -1), 180, fig="large", on="S"), t("Ben", "E", (1, -1), 270),
               t("Ana", "U", (1, 0), fig="follower", on="W"), t("Ben", "B", (0, 1)),
               t("Ana", "U", (2, 0), fig="builder", on="W"), t("Ben", "B", (-1, 1)),
               t("Ana", "U", (3, 0))]
    history = public_history(game_of(actions, expansions=("inns_cathedrals",
                                                          "traders_builders")))
    names = ("Ana", "Ben")
    said = [action_lines(s, names) + event_lines(s.events, names) for s in history.steps]
    assert said[0][1] == "Put a large follower on it."
    assert "Ben took 1 grain token." in said[1]
    assert said[4][1] == "Put a builder on it."
    assert "Ana plays a second part of the turn: their builder's road or city grew." in said[6]
    with speaking("es"):
        assert action_lines(history.steps[4], names)[1] == "Colocó un constructor en ella."
