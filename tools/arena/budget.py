"""The Hard AI's device-equivalent budget: rollouts per move on the emulated Pico at the default 0.5 s
think time, so an arena or a strength test gives the same result on any machine (docs/AI.md,
"Device budgets"; measured by tools/bench/ai_budget.py)."""

# Hard's rollouts per move on the emulated Pico at the default 0.5 s think time (median over the Monte
# Carlo moves of a seeded all-Hard match: tools/bench/ai_budget.py, docs/AI.md "Device budgets").
# Key: variant, players, teams.
DEVICE_ROLLOUTS = {
    ("draw", 2, False): 399, ("draw", 4, False): 338, ("block", 2, False): 456, ("block", 4, True): 318,
    ("fives", 2, False): 387, ("fives", 4, True): 264, ("goat", 4, True): 282, ("goat", 2, False): 352,
}


def device_rollouts(rules):
    """The device-equivalent budget of `rules`: the measured case, else the nearest measured player count
    of the variant, else the smallest figure measured (never more work than the device does)."""
    key = (rules.vid, rules.players, rules.teams)
    if key in DEVICE_ROLLOUTS:
        return DEVICE_ROLLOUTS[key]
    best = None
    for (vid, players, teams), n in DEVICE_ROLLOUTS.items():
        if vid == rules.vid and (best is None or abs(players - rules.players) < best[0]):
            best = (abs(players - rules.players), n)
    return best[1] if best else min(DEVICE_ROLLOUTS.values())
