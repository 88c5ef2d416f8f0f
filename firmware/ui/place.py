"""Where each tile of the layout goes (docs/UI.md, "The layout"), into ui/gfx.py's TableView; loaded
only when the layout changed (the table unloads it while the AI searches).

The centre tile (the spinner, else the lead) sits in the middle of the table. Each arm is a chain of
tiles running outwards in rows: the right arm runs right, the left arm left, the spinner's up and
down arms up and down. A row that reaches the edge of the table (or of its quarter) turns a corner
as on a real table: the next tile is laid across, under the far half of the last one, and the line
runs back the other way one row further out; a double there is laid across the turn first. Doubles
always lie across the line. The right arm turns downwards, the left arm upwards, the up arm to the
right and the down arm to the left, so the four arms of a spinner fill a quarter of the table each
(a pinwheel) and never meet; a line without a spinner uses the whole lower and upper halves.
Tiles that are not joined stay at least SEP pixels apart; joined tiles GAP.

Tiles keep their places: the size and the centre are chosen once (a fit) and kept while every
tile still fits; only when a tile would leave the table (or a spinner becomes the centre) is the
table fitted again, at the largest size that leaves every open arm room for ROOM more tiles.
When nothing fits (the 128x64 OLED), the table grows TALL screens up and down and scrolls.
"""
from micropython import const
from domino.tiles import LO, HI

_NONE = const(255)    # = domino.tiles.NONE
_F_HORIZ = const(1)   # = ui.gfx.F_HORIZ
_F_CLOSED = const(2)  # = ui.gfx._F_CLOSED
_F_DOUBLE = const(4)  # = ui.gfx._F_DOUBLE
_CHAIN_OF_ARM = const((1, 0, 2, 3))  # = ui.gfx.CHAIN_OF_ARM

SIZES = (20, 18, 16, 14, 12, 11, 10, 9, 8, 7, 6, 5)   # half-tile sizes tried, largest first
_GAP = const(2)       # between joined tiles
_SEP = const(4)       # at least this between tiles that are not joined
_ROOM = const(5)      # a fit leaves every open arm room for this many more tiles (when it can)
_TALL = const(3)      # a tall table reaches this many screens above and below the visible one
_MIN_S = const(5)
_MIN_MONO = const(7)  # 1-bit pips need 7-pixel halves (ui/gfx.py)

# chain directions E, W, N, S (the arms R, L, U, D): along (dx, dy), turn (tx, ty)
_DX = const((1, -1, 0, 0))
_DY = const((0, 0, -1, 1))
_TX = const((0, 0, 1, -1))
_TY = const((1, -1, 0, 0))

# how a tile lies in its chain
_IN_ROW = const(0)        # along the row
_CORNER = const(1)        # across the row's end: the next row runs back the other way
_ACROSS_TURN = const(2)   # a double at a turn, across it (the corner comes after it)

# A chain's walk (local coordinates, see _chain), kept in v.cst[ch * _WALK:] after its last real
# tile so that _added goes on from there:
_W_U = const(0)           # along: where the row's next tile starts
_W_WT = const(1)          # across: the row's edge nearer the centre
_W_SIGN = const(2)        # 1: the row runs outwards, -1: back
_W_FAR0 = const(3)        # along: where the far half of the tile before starts (a corner goes there)
_W_BOT = const(4)         # across: the far edge of the tile before, on the turn's side
_W_GAP = const(5)         # the gap a corner leaves under the tile before (_GAP joined, else _SEP)
_W_TURNED = const(6)      # 1: a double lies across the turn, the next tile is the corner
_W_SLACK = const(7)       # after a double in a row: the room a double across the next turn needs
_W_ROW = const(8)         # rows turned so far
_WALK = const(9)


def _push(v, ch, t, near, far, closed):
    i = ch * 28 + v.cn[ch]
    v.ct[i] = t
    v.cnear[i] = near
    v.cfar[i] = far
    v.cclosed[i] = closed
    v.cn[ch] += 1


def build(v, lay):
    """Turn the layout's play sequence into four chains running outwards from the centre tile."""
    for k in range(4):
        v.cn[k] = 0
        v.copen[k] = 1 if lay.is_open(_CHAIN_OF_ARM[k]) else 0
    v.centre = _NONE
    if lay.lead == _NONE:
        return
    lead = lay.lead
    spin = lay.spin
    cur = v._cur                     # each arm's end number while walking the play order
    cur[0] = LO[lead]
    cur[1] = HI[lead]
    if spin != _NONE:
        cur[2] = cur[3] = LO[spin]
    arm_of_spin = lay.spin_arm if spin != _NONE else 4
    v.wheel = spin != _NONE
    seq = lay.seq
    sa = lay.seq_arm
    pos = [0, 0, 0, 0]
    inner = []                       # (t, near, far, closed) of the spinner's arm before it
    for i in range(lay.size):
        code = sa[i]
        a = code & 7
        if a == 4:
            continue
        t = seq[i]
        near = cur[a]
        far = HI[t] if LO[t] == near else LO[t]
        cur[a] = far
        closed = 1 if code & 8 else 0
        pos[a] += 1
        if a == arm_of_spin:
            if pos[a] < lay.spin_n:
                inner.append((t, near, far, closed))
                continue
            if pos[a] == lay.spin_n:
                continue             # the spinner itself is the centre
        _push(v, _CHAIN_OF_ARM[a], t, near, far, closed)
    if arm_of_spin >= 2:             # the centre is the lead, or a spinner that was the lead
        v.centre = spin if spin != _NONE else lead
        return
    # the centre is a spinner out on arm A: the opposite chain runs back through the lead
    a = arm_of_spin
    ch_back = _CHAIN_OF_ARM[1 - a]
    k = ch_back * 28
    n_other = v.cn[ch_back]
    other = bytes(v.ct[k:k + n_other])
    onear = bytes(v.cnear[k:k + n_other])
    ofar = bytes(v.cfar[k:k + n_other])
    ocl = bytes(v.cclosed[k:k + n_other])
    v.cn[ch_back] = 0
    for j in range(len(inner) - 1, -1, -1):
        t, near, far, closed = inner[j]
        _push(v, ch_back, t, far, near, closed)
    _push(v, ch_back, lead, LO[lead] if a == 0 else HI[lead], HI[lead] if a == 0 else LO[lead], 0)
    for j in range(n_other):
        _push(v, ch_back, other[j], onear[j], ofar[j], ocl[j])
    v.centre = spin


def place(v, lay, whole=False):
    """Compute the position of every tile of layout `lay` into view v, keeping the places of the
    tiles already there when they still fit (see the module's docstring): only the tiles added at
    the chains' ends are laid when nothing else changed (whole: every tile laid again, as tests
    compare)."""
    v.key = lay.played
    v.size = lay.size
    old = bytes(v.cn)                # each chain's tiles as last placed
    build(v, lay)
    if v.centre == _NONE:
        v.n = 0
        v.s = 0
        v.tall = False
        v.scroll = 0
        return
    if v.s and v.fitted == v.centre | v.wheel << 8:
        if not whole and _added(v, old):
            return
        if _try(v, v.s, v.cx, v.cy, 0):
            return
    fit(v)
    if not v.tall:                   # (a fit leaves room for more tiles: laid again without them,
        _try(v, v.s, v.cx, v.cy, 0)  # each chain keeps its state at its last tile, for _added)


def at_size(v, lay, s):
    """Lay every tile of `lay` at half-tile size s around the middle of v, the rows turning at v's
    edges, with no fit (the line view, ui/lineview.py: a size chosen for the pips). False when the
    line does not fit v."""
    v.key = lay.played
    v.size = lay.size
    v.tall = False
    v.scroll = 0
    build(v, lay)
    if v.centre == _NONE:
        v.n = 0
        v.s = 0
        return True
    v.fitted = -1
    return _try(v, s, v.x0 + v.w // 2, v.y0 + v.h // 2, 0)


def _added(v, old):
    """Lay only the tiles added at the chains' ends since the placement of `old` (chain lengths),
    each chain going on from where its last tile left it (v.cst): the same places a whole _try at
    this fit gives, as a chain's tiles depend only on those before them. False when more changed
    (a chain not a prefix of the new one, a tall table) or a new tile falls outside."""
    if v.tall or v.n != 1 + sum(old):
        return False
    i = 1                            # (the centre is the fit's: v.fitted; a tile's near and far
    for ch in range(4):              # ends and closed flag are fixed when it is played)
        b = ch * 28
        if v.cn[ch] < old[ch]:
            return False
        for j in range(old[ch]):
            if v.pt[i] != v.ct[b + j]:
                return False
            i += 1
    c = v.centre
    at = 1
    arrs = (v.px, v.py, v.pa, v.pb, v.pt, v.pf)
    for ch in range(4):
        at += old[ch]
        d = v.cn[ch] - old[ch]
        if d:
            n = v.n
            for i in range(n - 1, at - 1, -1):     # the later chains' tiles move up d places
                for a in arrs:
                    a[i + d] = a[i]
            v.n = at
            if not _chain(v, ch, v.s, v.cx, v.cy, LO[c] == HI[c], 0, old[ch]):
                return False
            v.n = n + d
            at += d
    return True


def fit(v):
    """Choose the size and the centre again: the largest size at which every open arm has room for
    ROOM more tiles, else the largest at which the tiles there fit, else a tall table."""
    v.fitted = v.centre | v.wheel << 8
    v.tall = False
    v.scroll = 0
    lo = v.lo or (_MIN_MONO if v.mono else _MIN_S)
    top = min(v.h // 6, v.w // 14)
    x0 = v.x0
    y0 = v.y0
    for more in (_ROOM, 0):
        for s in SIZES:
            if s < lo or (s > top and s > lo):
                continue
            for sy in (0, -1, 1):
                for sx in (0, -1, 1):
                    cx = x0 + v.w // 2 + sx * (v.w // 5)
                    cy = y0 + v.h // 2 + sy * (v.h // 4)
                    if _try(v, s, cx, cy, more):
                        return
        # nothing fits at the smallest size: a tall table that scrolls (the centre mid-screen)
        v.tall = True
        if _try(v, lo, x0 + v.w // 2, y0 + v.h // 2, more):
            return
        v.tall = False


def _try(v, s, cx, cy, more):
    """Place every tile at size s around the centre point (cx, cy) (with `more` imaginary tiles on
    each open arm); False when one falls outside the table. On success v keeps the size and centre."""
    v.n = 0
    c = v.centre
    dbl = LO[c] == HI[c]
    if dbl:                          # a double stands across the line
        _put(v, c, cx - s // 2, cy - s, LO[c], HI[c], 0, _F_DOUBLE)
    else:
        _put(v, c, cx - s, cy - s // 2, LO[c], HI[c], _F_HORIZ, 0)
    for ch in range(4):
        if not _chain(v, ch, s, cx, cy, dbl, (more if ch < 2 else more // 2) if v.copen[ch] else 0):
            return False
    v.s = s
    v.cx = cx
    v.cy = cy
    if v.tall:
        top = 32767
        bot = -32767
        for i in range(v.n):
            y = v.py[i]
            if y < top:
                top = y
            hh = s if v.pf[i] & _F_HORIZ else 2 * s
            if y + hh > bot:
                bot = y + hh
        v.top = top
        v.bottom = bot
    return True


def _put(v, t, x, y, a, b, horiz, flags):
    i = v.n
    v.px[i] = x
    v.py[i] = y
    v.pa[i] = a
    v.pb[i] = b
    v.pt[i] = t
    v.pf[i] = flags | (_F_HORIZ if horiz else 0)
    v.n = i + 1


def _chain(v, ch, s, cx, cy, cdbl, more, j0=0):
    """Lay chain ch out from the centre in rows that turn corners; False when a tile falls outside.
    Local coordinates: u along the chain's first row (from the centre point), w across it, growing
    in the turn direction; a row is the band of w values [wt, wt + s). `more`: imaginary tiles after
    the real ones, that must find room too. j0: its first j0 tiles are placed already (_added): go
    on from the walk they left (v.cst, kept after the chain's last real tile).

    The steps: the room the chain has on each side of the centre point; where its first tile goes
    (or where the walk stopped); each tile in the row, across a turn (a double) or at a corner; its
    place on the screen; then the walk kept and the open end's marker."""
    dx = _DX[ch]
    dy = _DY[ch]
    tx = _TX[ch]
    ty = _TY[ch]
    # the room: ahead along the first row (umax), on the turn's side (wmax), behind the centre
    # (uback) and on the other side (wback)
    x0 = v.x0
    x1 = x0 + v.w
    y0 = v.y0
    y1 = y0 + v.h
    if v.tall:
        y0 -= _TALL * v.h
        y1 += _TALL * v.h
    if ch == 0:                      # right, turning down
        umax, wmax, uback, wback = x1 - cx, y1 - cy, cx - x0, cy - y0
    elif ch == 1:                    # left, turning up
        umax, wmax, uback, wback = cx - x0, cy - y0, x1 - cx, y1 - cy
    elif ch == 2:                    # up, turning right
        umax, wmax, uback, wback = cy - y0, x1 - cx, y1 - cy, cx - x0
    else:                            # down, turning left
        umax, wmax, uback, wback = y1 - cy, cx - x0, cy - y0, x1 - cx
    # rows after the first turn reach back to the spinner's column/row (its other arms own the
    # rest), or all the way across when the line has no spinner
    umin = s + _SEP if v.wheel else -uback
    pos = tx + ty > 0                # the turn goes to +x / +y on the screen
    # the walk: the first row starts beside the centre tile, level with it
    if ch < 2 and cdbl:
        u = (s - s // 2 if dx > 0 else s // 2) + _GAP
    else:
        u = s + _GAP
    u0 = u
    wt = -(s // 2) if pos else s // 2 - s
    sign = 1
    far0 = 0
    bot = 0
    gap = _SEP
    turned = 0
    slack = 0
    row = 0
    st = v.cst
    k = ch * _WALK
    if j0:                           # ... or goes on where it stopped
        u = st[k + _W_U]
        wt = st[k + _W_WT]
        sign = st[k + _W_SIGN]
        far0 = st[k + _W_FAR0]
        bot = st[k + _W_BOT]
        gap = st[k + _W_GAP]
        turned = st[k + _W_TURNED]
        slack = st[k + _W_SLACK]
        row = st[k + _W_ROW]
    base = ch * 28
    n = v.cn[ch]
    t = 0
    for j in range(j0, n + more):
        dbl = False
        if j < n:
            t = v.ct[base + j]
            dbl = LO[t] == HI[t]
        ln = s if dbl else 2 * s     # a double lies across the line
        room = slack if not dbl else 0
        # the tile's rectangle: a0..a1 along, b0..b1 across
        if not turned and (u + ln + room <= umax if sign > 0 else u - ln - room >= umin):
            kind = _IN_ROW
            if sign > 0:
                a0 = u
                u += ln + _GAP
            else:
                a0 = u - ln
                u = a0 - _GAP
            a1 = a0 + ln
            b0 = wt - s // 2 if dbl else wt
            b1 = b0 + (2 * s if dbl else s)
            far0 = a1 - s if sign > 0 else a0
            gap = _GAP if dbl else _SEP
            slack = _SEP - _GAP if dbl else 0
        elif j == 0:
            return False             # not even the first tile fits beside the centre
        elif dbl:                    # a double at a turn: across it, under the far end before
            kind = _ACROSS_TURN
            a0 = far0 + s // 2 - s
            if a0 + 2 * s > umax:
                a0 = umax - 2 * s
            if a0 < umin and row:
                a0 = umin
            a1 = a0 + 2 * s
            b0 = bot + gap
            b1 = b0 + s
            far0 = a0 + s - s // 2   # the corner goes under its middle
            gap = _GAP
            turned = 1
        else:                        # the corner: across the row, under the far end before
            kind = _CORNER
            a0 = far0
            a1 = a0 + s
            b0 = bot + gap
            b1 = b0 + 2 * s
            wt = b0 + s              # the next row runs level with its far half
            slack = 0
            sign = -sign
            u = a0 - _GAP if sign < 0 else a1 + _GAP
            gap = _GAP
            turned = 0
            row += 1
        bot = b1
        if a1 > umax or b1 > wmax or b0 < -wback or (row and a0 < umin):
            return False
        if j >= n:
            continue                 # an imaginary tile: room found, nothing placed
        # on the screen
        if dx:
            x = cx + a0 if dx > 0 else cx - a1
            y = cy + b0 if ty > 0 else cy - b1
        else:
            y = cy + a0 if dy > 0 else cy - a1
            x = cx + b0 if tx > 0 else cx - b1
        across = kind == _CORNER or (kind == _IN_ROW and dbl)
        # the near half first when the tile runs towards +x / +y on the screen
        fwd = pos if kind == _CORNER else (dx + dy) * sign > 0
        near = v.cnear[base + j]
        far = v.cfar[base + j]
        flags = (_F_DOUBLE if dbl else 0) | (_F_CLOSED if v.cclosed[base + j] else 0)
        _put(v, t, x, y, near if fwd else far, far if fwd else near, (dx != 0) != across, flags)
    if not more:                     # (the walk after the last real tile: place() lays a fit
        _keep(st, k, u, wt, sign, far0, bot, gap, turned, slack, row)   # again with more = 0)
    if n > j0:
        _end_marker(v, ch, s, v.cnear[base + n - 1])
    elif n == 0:
        _box_marker(v, ch, s, cx, cy, u0, pos)
    return True


def _keep(st, k, u, wt, sign, far0, bot, gap, turned, slack, row):
    """Keep a chain's walk (at v.cst[k:]) for _added to go on from."""
    st[k + _W_U] = u
    st[k + _W_WT] = wt
    st[k + _W_SIGN] = sign
    st[k + _W_FAR0] = far0
    st[k + _W_BOT] = bot
    st[k + _W_GAP] = gap
    st[k + _W_TURNED] = turned
    st[k + _W_SLACK] = slack
    st[k + _W_ROW] = row


def _end_marker(v, ch, s, near):
    """Chain ch's open end, outlined when a move may go there: the far half of its last tile (the
    tile _put last; `near` its number at the chain's inner end), all of it for a double."""
    i = v.n - 1
    x = v.px[i]
    y = v.py[i]
    horiz = v.pf[i] & _F_HORIZ
    w = h = s
    if v.pf[i] & _F_DOUBLE:
        if horiz:
            w = 2 * s
        else:
            h = 2 * s
    elif v.pa[i] == near:            # the far half is the second one (right / bottom)
        if horiz:
            x += s
        else:
            y += s
    v.mx[ch] = x
    v.my[ch] = y
    v.mw[ch] = w
    v.mh[ch] = h


def _box_marker(v, ch, s, cx, cy, u0, pos):
    """A chain with no tile yet: its open end is a box beside the centre, where the first tile goes."""
    b0 = -(s // 2) if pos else s // 2 - s
    if _DX[ch]:
        x = cx + u0 if _DX[ch] > 0 else cx - u0 - s
        y = cy + b0 if _TY[ch] > 0 else cy - b0 - s
    else:
        y = cy + u0 if _DY[ch] > 0 else cy - u0 - s
        x = cx + b0 if _TX[ch] > 0 else cx - b0 - s
    v.mx[ch] = x
    v.my[ch] = y
    v.mw[ch] = s
    v.mh[ch] = s
