"""AI players: levels from random to strong for every decision of every expansion.

Only the engine is imported here. `players.choose` / `players.plan_turn` answer one
decision; `pool.think` runs them in a process pool so an event loop never waits.
"""
