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


def test_menus_match_cut_kill(micropython):
    """The real firmware in two simulators: Link game > Host (Blitz, 4 seats: each device's person and
    two AI played by the host) and > Join, through the menus by keys; the cable pulled for 2 s, bytes
    damaged, the guest killed mid-round and started again (back into the game from its own save):
    both print the same closing line."""
    from tools.link.menu_match import play
    host, guest, fig = play(form="left", seed=3, rate=0.001, cut_at=2.0, cut_for=2.0, kill_at=5.0,
                            timeout=150.0)
    assert host and host.startswith("link: over moves=") and guest == host, (host, guest, fig)
    assert fig["kills"] == 1 and fig["cuts"] == 1 and fig["carried"] > 500
    assert fig["resumed"], fig                        # the guest's second life went back in
