"""Two MicroPython processes (the simulator's runtime) joined by the virtual cable of named pipes
(tools/link/wire.py, boards/_linkpipe.py): a linked match through a pulled cable, damaged bytes and
the guest killed and started again from its save ends alike on both."""
from tools.link.sim_pair import headless


def test_two_processes_cut_kill_damage(micropython):
    host, guest, fig = headless("goat 4 1 HGmh", seed=3, rate=0.002, think=40, cut_at=0.8, cut_for=1.0,
                                kill_at=2.0, micropython=micropython)
    last = host.split("\n")[-1]
    assert last.startswith("link: over moves=") and guest.split("\n")[-1] == last, (host, guest)
    assert "link: resumed at move " in guest        # the guest's second life resumed its save
    assert fig["carried"] > 1000 and fig["damaged"] > 0
