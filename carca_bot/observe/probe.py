"""A container's health check: `python -m carca_bot.observe.probe [URL]`.

Asks the bot's `/healthz` (by default on 127.0.0.1 at CARCA_METRICS_PORT) and exits 0
when it answers 200, 1 when it answers that something is unhealthy (the checks are
printed), 2 when it does not answer within the time-out (the process is gone, or its
event loop is stuck).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence

TIMEOUT = 10.0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        url = args[0]
    else:
        port = os.environ.get("CARCA_METRICS_PORT", "").strip()
        if not port:
            print("carca-bot health: set CARCA_METRICS_PORT (or give the URL of /healthz)",
                  file=sys.stderr)
            return 2
        url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            body, status = answer.read(), answer.status
    except urllib.error.HTTPError as exc:
        body, status = exc.read(), exc.code
    except (urllib.error.URLError, OSError) as exc:
        print(f"carca-bot health: no answer from {url}: {exc}", file=sys.stderr)
        return 2
    try:
        for check in json.loads(body)["checks"]:
            print(f"{check['check']}: {'ok' if check['ok'] else 'FAILING'} ({check['detail']})")
    except (ValueError, KeyError, TypeError):
        print(body.decode(errors="replace")[:2000])
    return 0 if status == 200 else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
