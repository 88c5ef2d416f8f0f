"""The table layout checked from its own geometry (ui/place.py's TableView): shared by the CPython
test (host_tests/test_layout_geometry.py) and the UI driver under MicroPython (every frame of a game).

check(v, lay) returns None or what is wrong:
- every tile lies inside the table area (a tall table: inside its height, TALL screens up and down);
- no two tiles overlap, and two tiles that are not joined are at least SEP pixels apart (joined:
  the centre and the first tile of each arm, and two tiles next to each other on an arm);
- each joint is real: the near half of a tile is at most SEP from the far half of the tile before,
  closer to it than its own far half, and shows the same number;
- doubles lie across the line (their long side at right angles to the way the line arrives);
- every tile of the layout is placed once.
"""
F_HORIZ = 1


def rect(v, i):
    s = v.s
    if v.pf[i] & F_HORIZ:
        return v.px[i], v.py[i], 2 * s, s
    return v.px[i], v.py[i], s, 2 * s


def dist(a, b):
    """Pixels between two rectangles (x, y, w, h): < 0 overlapping, 0 sharing an edge."""
    return max(a[0] - (b[0] + b[2]), b[0] - (a[0] + a[2]), a[1] - (b[1] + b[3]), b[1] - (a[1] + a[3]))


def half(v, i, number):
    """The half of tile i showing `number` (a double, or a number on both halves: the whole tile)."""
    x, y, w, h = rect(v, i)
    s = v.s
    if v.pa[i] == v.pb[i]:
        return x, y, w, h
    first = v.pa[i] == number
    if w > h:
        return (x if first else x + s), y, s, s
    return x, (y if first else y + s), s, s


def other_half(v, i, number):
    x, y, w, h = rect(v, i)
    s = v.s
    if v.pa[i] == v.pb[i]:
        return x, y, w, h
    first = v.pa[i] != number
    if w > h:
        return (x if first else x + s), y, s, s
    return x, (y if first else y + s), s, s


def centre(r):
    return 2 * r[0] + r[2], 2 * r[1] + r[3]          # doubled: stays an int


def joints(v):
    """[(i, j, number)]: tile j joined to tile i (before it) at `number`."""
    out = []
    k = 1                                            # v's order: the centre, then chain by chain
    for ch in range(4):
        base = ch * 28
        prev = 0
        for j in range(v.cn[ch]):
            out.append((prev, k, v.cnear[base + j]))
            prev = k
            k += 1
    return out


def check(v, lay, sep=4, tall_ok=True, tall_screens=3):
    n = v.n
    if n != lay.size:
        return "placed %d of %d tiles" % (n, lay.size)
    if n == 0:
        return None
    seen = 0
    for i in range(n):
        b = 1 << v.pt[i]
        if seen & b:
            return "tile %d placed twice" % v.pt[i]
        seen |= b
    if seen != lay.played:
        return "placed tiles are not the layout's"
    x0, y0, x1, y1 = v.x0, v.y0, v.x0 + v.w, v.y0 + v.h
    if v.tall:
        if not tall_ok:
            return "a tall table"
        y0 -= tall_screens * v.h
        y1 += tall_screens * v.h
    rs = [rect(v, i) for i in range(n)]
    for i in range(n):
        x, y, w, h = rs[i]
        if x < x0 or y < y0 or x + w > x1 or y + h > y1:
            return "tile %d outside the table at %d,%d (s=%d)" % (v.pt[i], x, y, v.s)
    joined = {}
    for i, j, num in joints(v):
        joined[(i, j)] = num
    for i in range(n):
        for j in range(i + 1, n):
            d = dist(rs[i], rs[j])
            if d < 0:
                return "tiles %d and %d overlap" % (v.pt[i], v.pt[j])
            if (i, j) not in joined and d < sep:
                return "tiles %d and %d are %d px apart but not joined (s=%d)" % (v.pt[i], v.pt[j], d, v.s)
    for (i, j), num in joined.items():
        far = half(v, i, num)
        near = half(v, j, num)
        d = dist(far, near)
        if d < 0 or d > sep:
            return "joint %d-%d: halves %d px apart" % (v.pt[i], v.pt[j], d)
        if v.pa[j] != v.pb[j] and dist(far, other_half(v, j, num)) <= d:
            return "joint %d-%d: the far half of %d is the nearer one" % (v.pt[i], v.pt[j], v.pt[j])
        if num not in (v.pa[i], v.pb[i]) or num not in (v.pa[j], v.pb[j]):
            return "joint %d-%d does not show %d on both sides" % (v.pt[i], v.pt[j], num)
        # a double lies across the way the line arrives at it (and the centre across the line)
        for k, before in ((j, far), (i, None)):
            if v.pa[k] != v.pb[k] or before is None:
                continue
            ca = centre(before)
            cb = centre(rs[k])
            horizontal_arrival = abs(cb[0] - ca[0]) > abs(cb[1] - ca[1])
            if horizontal_arrival != (rs[k][3] > rs[k][2]):
                return "double %d lies along the line" % v.pt[k]
    return None
