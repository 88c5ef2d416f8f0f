"""uimatch.py's per-kind heap breakdown as tools/bench/pico.py reads it and writes it into the doc."""
from tools.bench import pico as bench_pico

OUT = """result over
lowest 121936
kind tick 121936 377 ai,ui.table,ui.words
kind idle_RoundEnd 122624 13 ai,savegame,store,ui.sheet
kind save 124032 94 ai,savegame
holder store 6160
holder ui.sheet 4928
"""


def test_probe_kinds_reads_each_kind_and_holder():
    got = bench_pico.probe_kinds(OUT)
    assert got["kinds"]["tick"] == {"lowest": 121936, "n": 377, "modules": ["ai", "ui.table", "ui.words"]}
    assert got["kinds"]["idle RoundEnd"]["lowest"] == 122624
    assert got["kinds"]["save"]["modules"] == ["ai", "savegame"]
    assert got["holders"] == {"store": 6160, "ui.sheet": 4928}
    assert bench_pico.probe_kinds("result over\nlowest 5\n") == {}


def test_kinds_table_has_a_column_per_kind_and_the_holders():
    u = {"board": "pimoroni_pack", "match": "fives 2p vs Hard"}
    u.update(bench_pico.probe_kinds(OUT))
    lines = []
    bench_pico.ui_kinds([u, {"board": "x", "match": "y"}], lines.append)
    head = [ln for ln in lines if ln.startswith("| board")][0]
    assert head == "| board | match | tick | save | idle RoundEnd | worst: loaded on top of the menu |"
    rows = [ln for ln in lines if ln.startswith("| pimoroni_pack")]
    assert rows == ["| pimoroni_pack | fives 2p vs Hard | 121936 | 124032 | 122624 "
                    "| store 6160, ui.sheet 4928 |"]
    assert not any(ln.startswith("| x ") for ln in lines)        # a run without the breakdown: no row
