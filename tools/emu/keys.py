"""Key words -> a plan of button actions paced by the display, played on the emulated Pico (GPIOs, in
device time) or on the PC simulator (its key link, in its virtual time), so both can be compared.

Words are the simulator's (tools/sim/link.py): up down left right a b x y press, a chord b+x, a
repeat down*3. A key a board has no button for is played the way its owner would: on a four-button
board LEFT is B held + X (the board's SHIFT_MAP). Each word waits until the display has been still for
`idle_ms` (the app has finished answering the last one), keeps a picture ("shot") and then presses.
Stillness alone is not an answer where a screen loads for longer than `idle_ms` before it draws (on
the device, New game's Start loads the table's modules and saves the game: 0.4 s without a byte to
the panel, the old screen still showing); with `answer_ms` each wait after a key also wants the
picture changed from the one the key was pressed on, for at most that long (a key that changes
nothing then costs `answer_ms`). A key pressed before the app answers would be lost, as a person's
would: a new screen and the start of a human's turn drop the presses made before it shows.
"""
from tools.emu import wiring
from tools.sim import link as sim_link

TAP_MS = sim_link.TAP_MS
CHORD_MS = sim_link.CHORD_MS


class PlanError(ValueError):
    pass


def buttons_for(board, bit):
    """[(gpio, bit)] to hold, in order, for logical key `bit` on `board`."""
    pins = wiring.buttons(board)
    for g, b in pins:
        if b == bit:
            return [(g, b)]
    mod = wiring.module(board)
    shift = getattr(mod, "SHIFT", 0)
    smap = getattr(mod, "SHIFT_MAP", ())
    for i in range(0, len(smap), 2):
        if smap[i + 1] == bit and shift:
            return buttons_for(board, shift) + buttons_for(board, smap[i])
    raise PlanError("%s has no button for key 0x%x" % (board, bit))


def plan(board, words, idle_ms=600, max_ms=20000, shots=True, boot_idle_ms=1500, answer_ms=0):
    """Steps: {"idle"}, {"shot"}, {"down": [(gpio, bit)]}, {"up": [...]}, {"wait"}. The first
    word waits for `boot_idle_ms` of stillness: at power-on the board clears the panel, and the app
    then loads for a while before its first frame. `answer_ms`: the waits after a key also want the
    picture changed (see above)."""
    steps = []

    def idle():
        if not steps:
            return {"idle": boot_idle_ms, "max": max_ms}
        s = {"idle": idle_ms, "max": max_ms}
        if answer_ms:
            s["answer"] = answer_ms
        return s

    for n, word in enumerate(words.replace(",", " ").split()):
        times = 1
        if "*" in word:
            word, rep = word.split("*", 1)
            times = int(rep)
        held = []
        for k in word.split("+"):
            k = k.strip().lower()
            if k == "enter":
                k = "press"
            if k not in sim_link.KEY_BITS:
                raise PlanError("unknown key %r" % k)
            for btn in buttons_for(board, sim_link.KEY_BITS[k]):
                if btn not in held:
                    held.append(btn)
        for _ in range(times):
            steps.append(idle())
            if shots:
                steps.append({"shot": "%d %s" % (n, word)})
            for i, btn in enumerate(held):
                if i:
                    steps.append({"wait": CHORD_MS})
                steps.append({"down": [btn]})
            steps.append({"wait": TAP_MS})
            for i, btn in enumerate(reversed(held)):
                if i:
                    steps.append({"wait": CHORD_MS})
                steps.append({"up": [btn]})
    steps.append(idle())
    if shots:
        steps.append({"shot": "end"})
    return steps


def device_plan(steps):
    """The plan as run.mjs takes it: buttons as GPIO numbers."""
    out = []
    for s in steps:
        s = dict(s)
        for k in ("down", "up"):
            if k in s:
                s[k] = [g for g, _ in s[k]]
        out.append(s)
    return out


def sim_play(board, steps, data_dir, micropython=None, timeout=120.0, env=None):
    """Play the plan on the PC simulator (the board's profile, virtual clock, .mpy as deployed; env:
    more variables, e.g. PICO_SIM_LANG=ask for a first boot as a device's). Returns ([(label,
    virtual ms, GS4 or MONO_VLSB frame bytes)], the Sim's hello, its stdout)."""
    import threading
    sim = sim_link.Sim(board, virtual=True, micropython=micropython, data_dir=data_dir, env=env)
    timer = threading.Timer(timeout, sim.proc.kill)
    timer.daemon = True
    timer.start()
    shots = []
    now = 0
    last_frame = 0
    keys = 0
    i = 0
    due = None           # a wait step's end
    idle_from = None     # an idle step's start
    before = None        # the picture when the current key went down (idle steps' "answer")
    try:
        while i < len(steps):
            msg = sim.read_msg()
            if msg is None:
                raise RuntimeError("the simulator ended at step %d: %s" % (i, sim.crash_text()[-800:]))
            kind, payload = msg
            if kind in (sim_link.MSG_FRAME, sim_link.MSG_BAND):
                last_frame = now
                continue
            if kind != sim_link.MSG_SLEEP:
                continue
            # the app sleeps: act on every step that is due now, then let the sleep pass
            while i < len(steps):
                s = steps[i]
                if "wait" in s:
                    if due is None:
                        due = now + s["wait"]
                    if now < due:
                        break
                    due = None
                elif "idle" in s:
                    if idle_from is None:
                        idle_from = now
                    if now - max(last_frame, idle_from) < s["idle"]:
                        if now - idle_from > s.get("max", 20000):
                            raise RuntimeError("step %d: the simulator's display was never idle" % i)
                        break
                    if before is not None and sim.frame == before and now - idle_from < s.get("answer", 0):
                        break                       # still the picture the key was pressed on
                    idle_from = None
                    before = None
                elif "shot" in s:
                    shots.append((s["shot"], now, sim.frame))
                elif "down" in s or "up" in s:
                    if "down" in s and before is None:
                        before = sim.frame          # the picture the key's answer changes
                    for _, bit in s.get("down", ()):
                        keys |= bit
                    for _, bit in s.get("up", ()):
                        keys &= ~bit
                    sim.send_keys(keys)
                i += 1
                if i < len(steps) and "wait" in steps[i]:
                    due = None
            now += int.from_bytes(payload[:4], "little")
            sim.send_time(now, keys)
    finally:
        timer.cancel()
        hello = sim.hello
        sim.stop()
    return shots, hello, list(sim.stdout)
