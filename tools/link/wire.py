"""The virtual cable between two simulator processes: four named pipes and a relay thread for each
direction, so the cable can be pulled (`cut`), and bytes dropped or damaged at a seeded rate.

Each simulator gets `PICO_SIM_LINK_IN` / `PICO_SIM_LINK_OUT` (boards/_linkpipe.py opens them);
the relay opens its end of all four at once (a FIFO's open waits for its other end), so the two
processes may start in any order.
"""
import os
import random
import shutil
import tempfile
import threading


class Wire:
    def __init__(self, rate=0.0, seed=0):
        """rate: the chance that a byte is lost or has a bit flipped (half each)."""
        self.dir = tempfile.mkdtemp(prefix="pico-link-")
        self.rate = rate
        self.rnd = random.Random(seed)
        self.pulled = False
        self.closed = False
        self.carried = 0
        self.damaged = 0
        self._lock = threading.Lock()
        paths = {}
        for name in ("a_in", "a_out", "b_in", "b_out"):
            paths[name] = os.path.join(self.dir, name)
            os.mkfifo(paths[name])
        self.paths = paths
        self.threads = [threading.Thread(target=self._relay, args=(paths["a_out"], paths["b_in"]),
                                         daemon=True),
                        threading.Thread(target=self._relay, args=(paths["b_out"], paths["a_in"]),
                                         daemon=True)]
        for t in self.threads:
            t.start()

    def env(self, side):
        """The environment variables for simulator `side` ("a" or "b")."""
        return {"PICO_SIM_LINK_IN": self.paths[side + "_in"],
                "PICO_SIM_LINK_OUT": self.paths[side + "_out"]}

    def cut(self, pulled=True):
        self.pulled = pulled

    def _relay(self, src, dst):
        """Copy src to dst for ever: a simulator that quits or restarts opens its pipes again, and
        the relay opens its ends again, so the other one never sees its cable go."""
        holder = {"f": None}

        def open_dst():
            try:
                holder["f"] = open(dst, "wb", buffering=0)
            except OSError:
                pass
        threading.Thread(target=open_dst, daemon=True).start()
        while not self.closed:
            try:
                f = open(src, "rb", buffering=0)
            except OSError:
                return
            with f:
                while True:
                    data = f.read(256)
                    if not data:
                        break             # the writer ended: open again for its next life
                    out = holder["f"]
                    if self.pulled or out is None:
                        continue
                    if self.rate:
                        data = self._damage(data)
                    self.carried += len(data)
                    try:
                        out.write(data)
                    except OSError:       # the reader ended: wait for it to open again
                        holder["f"] = None
                        threading.Thread(target=open_dst, daemon=True).start()

    def _damage(self, data):
        out = bytearray()
        with self._lock:
            for b in data:
                if self.rnd.random() < self.rate:
                    self.damaged += 1
                    if self.rnd.random() < 0.5:
                        continue
                    b ^= 1 << self.rnd.randrange(8)
                out.append(b)
        return bytes(out)

    def close(self):
        self.closed = True
        shutil.rmtree(self.dir, ignore_errors=True)
