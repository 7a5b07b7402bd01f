"""Fitting user text into the picture: bounded work whatever the input, one clean line."""

from __future__ import annotations

import io
import math
import time
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from carca_bot.render import text
from carca_bot.render.board import BoardRenderer

HOSTILE = (
    "W" * 2_500,
    "W" * 100_000,
    "😀" * 3_000,
    "\u202eevil\u202c name",  # right-to-left override
    "zero\u200bwidth\u200djoin",
    "line\nbreak\r\nand\ttab",
    "\x00\x07\x1b[31mred",
    "x\ud800y",  # a lone surrogate
    "e\u0301" * 5_000,  # combining accents: zero-width marks
    "شطرنج עברית",
    "",
)


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the length of every string `fit` measures."""
    calls: list[int] = []
    real = text.width

    def width(s: str, size: int, bold: bool = False) -> int:
        calls.append(len(s))
        return real(s, size, bold)

    monkeypatch.setattr(text, "width", width)
    return calls


@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_fit_measures_a_bounded_string_a_logarithmic_number_of_times(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted(monkeypatch)
    max_width = 240
    out = text.fit(name, 20, max_width)
    assert len(calls) <= 2 + math.ceil(math.log2(max_width + 1))
    assert max(calls, default=0) <= max_width + 1  # "+ 1": the ellipsis
    assert text.width(out, 20) <= max_width
    assert not any(ch in out for ch in "\n\r\t\x00\x07\x1b\u202e\u200b\ud800")


def test_fit_keeps_what_fits_and_cuts_what_does_not() -> None:
    assert text.fit("Ana", 20, 200) == "Ana"
    cut = text.fit("Cyrille" * 20, 20, 200)
    assert cut.endswith("…") and text.width(cut, 20) <= 200
    # The longest cut: one more character would not fit.
    longer = ("Cyrille" * 20)[:len(cut)] + "…"
    assert text.width(longer, 20) > 200
    assert text.fit("line\nbreak", 20, 400) == "line break"
    assert text.fit("\u202eabc", 20, 400) == "abc"


def test_text_clipped_by_characters_still_gets_its_ellipsis() -> None:
    """Zero-width marks fit any width, but a name cut short must still say so."""
    out = text.fit("e\u0301" * 5_000, 20, 240)
    assert out.endswith("…")


@pytest.mark.parametrize("n", [2_500, 100_000])
def test_a_huge_name_renders_in_well_under_a_second(n: int) -> None:
    """Before the fix a 2,500-character name took over ten seconds per panel."""
    names = ("W" * n, "😀\u202e" * (n // 2), "Ben")
    game = Game(Setup(names, frozenset(EXPANSIONS), seed=1))
    renderer = BoardRenderer()
    start = time.perf_counter()
    data = renderer.render(game)
    data_yours = renderer.your_tile(game, game.draw())
    assert time.perf_counter() - start < 2.0
    for png in (data, data_yours):
        img = Image.open(io.BytesIO(png))
        assert img.width <= 2400 and img.height <= 2400


def test_hostile_names_render_without_error() -> None:
    names = tuple(f"{i}{name}" for i, name in enumerate(HOSTILE[2:8]))
    game = Game(Setup(names, frozenset(EXPANSIONS), seed=2))
    assert BoardRenderer().render(game)[:8] == b"\x89PNG\r\n\x1a\n"


ROOT = Path(__file__).resolve().parents[2]
FONT_DISTRIBUTION = "font-source-sans-pro"


def test_the_font_is_an_installed_dependency_under_the_open_font_license() -> None:
    """The font comes with `pip install .` (declared and pinned), not as a file in this
    repository, and its package carries the licence that lets it be redistributed."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        declared = tomllib.load(f)["project"]["dependencies"]
    assert any(d.startswith(FONT_DISTRIBUTION) for d in declared)
    pins = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    assert f"{FONT_DISTRIBUTION}=={metadata.version(FONT_DISTRIBUTION)}" in pins
    assert FONT_DISTRIBUTION in metadata.packages_distributions()[text.FONT_PACKAGE]
    for bold, style in ((False, "Regular"), (True, "Bold")):
        face = text.font(20, bold)
        assert face.getname() == ("Source Sans Pro", style)
        # Installed (the test venv may itself live inside the checkout, as in CI).
        assert isinstance(face.path, str) and "site-packages" in Path(face.path).parts
    licence = resources.files(text.FONT_PACKAGE).joinpath("files", "LICENSE.txt")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence.read_text(encoding="utf-8")


def test_bold_is_measured_in_the_bold_face() -> None:
    """A bold name is fitted in the face it is drawn in, so it cannot run into the score."""
    name = "Bartholomew" * 3
    assert text.width(name, 20, bold=True) > text.width(name, 20)
    cut = text.fit(name, 20, 200, bold=True)
    longer = name[:len(cut)] + "…"  # one more letter than the cut kept
    assert cut.endswith("…") and text.width(cut, 20, bold=True) <= 200
    assert text.width(longer, 20, bold=True) > 200 >= text.width(longer, 20)


def _drawn(name: str) -> bytes:
    img = Image.new("RGB", (200, 40), (255, 255, 255))
    text.draw(ImageDraw.Draw(img), (4, 20), name, 24, fill=(0, 0, 0))
    return img.tobytes()


def test_a_name_typed_with_combining_accents_draws_like_the_composed_one() -> None:
    """"José" may arrive as "Jose" + U+0301: the accent goes over the e, not after it."""
    for decomposed, composed in (("Jose\u0301", "José"), ("Begon\u0303a", "Begoña")):
        assert _drawn(decomposed) == _drawn(composed)
        assert text.fit(decomposed, 20, 400) == composed
        assert text.width(decomposed, 20) == text.width(composed, 20)
