"""AI players: levels from random to strong for every decision of every expansion.

Only the engine is imported here. `players.choose` / `players.plan_turn` answer one
decision; `pool` is what crosses to a worker process and back, and
`carca_bot.workers.Thinker` runs the decisions on the one worker pool (pictures and the
AI alike), so an event loop never waits.
"""
