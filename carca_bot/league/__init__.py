"""Ratings and organised play, as pure functions: no I/O, no clock, no Discord.

`ratings` rates finished games with openskill; `event` runs a tournament or league
(sign-ups, pairings, results, rulings, deadlines) as immutable values; `standings`
ranks the players by a chain of tie-breaks and writes CSV; `divisions` moves players
between divisions at the end of a season. The service stores what these return.
"""
