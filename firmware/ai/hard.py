"""Hard AI (placeholder until the Monte Carlo search lands: plays medium)."""
from .policy import pick_medium


def choose(ctx, match, seat, rng, buf, n, budget_ms, clock, on_tick):
    return pick_medium(ctx, match, seat, rng, buf, n)
