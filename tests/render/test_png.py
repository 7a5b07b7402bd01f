"""Our PNG writer: valid files, the same bytes for the same pixels on every machine."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from carca_bot.render import png


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(3)
    for _ in range(50):
        a = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        got = png.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b))
        assert got == zlib.adler32(a + b)


@pytest.mark.parametrize("size", [(1, 1), (2, 3), (17, 5), (301, 9), (64, 64)])
def test_round_trip(size: tuple[int, int]) -> None:
    rng = random.Random(size[0] * 1000 + size[1])
    w, h = size
    img = Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(w * h * 3)))
    data = png.encode_rgb(img)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "RGB" and back.size == size
    assert back.tobytes() == img.tobytes()
    assert png.encode_rgb(img) == data


def test_bytes_do_not_depend_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    img = Image.radial_gradient("L").convert("RGB").resize((300, 200))
    threaded = png.encode_rgb(img)
    monkeypatch.setattr(png, "_pool", lambda: None)
    assert png.encode_rgb(img) == threaded
