"""Pixel helpers for the art tests."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def regions(classes: Sequence[object], width: int, skip: object) -> list[int]:
    """Label each 4-connected run of pixels of one class (row-major); `skip` pixels get 0."""
    height = len(classes) // width
    label = [0] * len(classes)
    current = 0
    for start, kind in enumerate(classes):
        if label[start] or kind == skip:
            continue
        current += 1
        label[start] = current
        queue = deque([start])
        while queue:
            i = queue.popleft()
            x, y = i % width, i // width
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                j = ny * width + nx
                if 0 <= nx < width and 0 <= ny < height and not label[j] and classes[j] == kind:
                    label[j] = current
                    queue.append(j)
    return label
