"""`python -m carca_bot` runs the same command line as `carca-bot`."""

from carca_bot.cli import main

raise SystemExit(main())
