"""Where each tile of the layout goes: the pinwheel placement of ui/gfx.py's TableView, loaded only
when the layout changed (the table unloads it while the AI searches)."""
from micropython import const
from domino.tiles import LO, HI

_NONE = const(255)    # = domino.tiles.NONE
_F_HORIZ = const(1)   # = ui.gfx.F_HORIZ
_F_CLOSED = const(2)  # = ui.gfx.F_CLOSED
_F_DOUBLE = const(4)  # = ui.gfx.F_DOUBLE
_CHAIN_OF_ARM = const((1, 0, 2, 3))  # = ui.gfx.CHAIN_OF_ARM

SIZES = (16, 14, 12, 11, 10, 9, 8, 7, 6, 5)   # half-tile sizes tried, largest first
_MIN_S = const(5)
_GAP = const(2)

# chain directions E, W, N, S (the arms R, L, U, D): along (dx, dy) and turn (tx, ty)
_DX = const((1, -1, 0, 0))
_DY = const((0, 0, -1, 1))
_TX = const((0, 0, 1, -1))
_TY = const((1, -1, 0, 0))


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
    v.centre = _NONE
    if lay.lead == _NONE:
        return
    lead = lay.lead
    spin = lay.spin
    # arm end values while walking the play order
    cur = v._cur
    cur[0] = LO[lead]
    cur[1] = HI[lead]
    if spin != _NONE:
        cur[2] = cur[3] = LO[spin]
    arm_of_spin = lay.spin_arm if spin != _NONE else 4
    v.wheel = spin != _NONE and (lay.n[2] > 0 or lay.n[3] > 0 or lay.st[2] != 0)
    # temporary: tiles of the spinner's arm before the spinner, kept in chain slot of the
    # opposite direction after the fact
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
    # centre is a spinner out on arm A: the opposite chain runs back through the lead
    a = arm_of_spin
    back = 1 - a                     # the other line arm
    ch_back = _CHAIN_OF_ARM[back]
    # move the existing tiles of the other arm aside: they come after the inner part + lead
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
    lead_here = LO[lead] if a == 0 else HI[lead]
    lead_there = HI[lead] if a == 0 else LO[lead]
    _push(v, ch_back, lead, lead_here, lead_there, 0)
    for j in range(n_other):
        _push(v, ch_back, other[j], onear[j], ofar[j], ocl[j])
    v.centre = spin


def place(v, lay):
    """Compute the position of every tile of layout `lay` into view v."""
    v.key = lay.played
    v.size = lay.size
    build(v, lay)
    v.tall = False
    v.scroll = 0
    if v.centre == _NONE:
        v.n = 0
        return
    for s in SIZES:
        if 2 * s * 5 > v.h + 20 and s > _MIN_S:
            continue
        for shift in (0, -1, 1):     # a lopsided layout may fit larger with its centre moved
            if _try(v, s, v.y0, v.h, shift * (v.h // 4)):
                _centre(v)
                return
    # nothing fits: a table three screens tall that scrolls
    v.tall = True
    _try(v, _MIN_S, v.y0 - v.h, 3 * v.h)
    top = 32767
    bot = -32767
    for i in range(v.n):
        y = v.py[i]
        if y < top:
            top = y
        hh = v.s if v.pf[i] & _F_HORIZ else 2 * v.s
        if y + hh > bot:
            bot = y + hh
    v.top = top
    v.bottom = bot


def _centre(v):
    """Move the placed tiles (and the open-end markers) to the middle of the table area."""
    s = v.s
    left = top = 32767
    right = bot = -32767
    for i in range(v.n):
        horiz = v.pf[i] & _F_HORIZ
        x = v.px[i]
        y = v.py[i]
        left = min(left, x)
        top = min(top, y)
        right = max(right, x + (2 * s if horiz else s))
        bot = max(bot, y + (s if horiz else 2 * s))
    dx = (v.x0 + v.w - right - (left - v.x0)) // 2
    dy = (v.y0 + v.h - bot - (top - v.y0)) // 2
    for i in range(v.n):
        v.px[i] += dx
        v.py[i] += dy
    for ch in range(4):
        v.mx[ch] += dx
        v.my[ch] += dy


def _try(v, s, y0, h, shift=0):
    v.s = s
    v.n = 0
    x0 = v.x0
    w = v.w
    cx = x0 + w // 2
    cy = y0 + h // 2 + shift
    c = v.centre
    dbl = LO[c] == HI[c]
    # the centre: a double stands across the line
    if dbl:
        _put(v, c, cx - s // 2, cy - s, LO[c], HI[c], 0, _F_DOUBLE)
    else:
        _put(v, c, cx - s, cy - s // 2, LO[c], HI[c], _F_HORIZ, 0)
    for ch in range(4):
        if not _chain(v, ch, s, cx, cy, x0, y0, w, h, dbl):
            return False
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


def _chain(v, ch, s, cx, cy, x0, y0, w, h, cdbl):
    dx = _DX[ch]
    dy = _DY[ch]
    tx = _TX[ch]
    ty = _TY[ch]
    # room along the chain's direction and across (its turn direction), from the centre
    if ch == 0:
        umax, vmax, uback = x0 + w - cx, y0 + h - cy, cx - x0
    elif ch == 1:
        umax, vmax, uback = cx - x0, cy - y0, x0 + w - cx
    elif ch == 2:
        umax, vmax, uback = cy - y0, x0 + w - cx, y0 + h - cy
    else:
        umax, vmax, uback = y0 + h - cy, cx - x0, cy - y0
    umin = s + _GAP if v.wheel else -uback + 1
    pitch = 2 * s + _GAP
    if ch < 2:
        hc = s // 2 if cdbl else s
    else:
        hc = s
    u = hc + _GAP
    sign = 1
    row = 0
    base = ch * 28
    n = v.cn[ch]
    for j in range(n):
        t = v.ct[base + j]
        dbl = LO[t] == HI[t]
        ln = s if dbl else 2 * s
        if sign > 0 and u + ln > umax:
            row += 1
            sign = -1
            u -= _GAP
        elif sign < 0 and u - ln < umin:
            row += 1
            sign = 1
            u += _GAP
        vr = row * pitch
        if vr + s > vmax:
            return False
        if sign > 0:
            a0 = u
            u += ln + _GAP
            if a0 + ln > umax:
                return False
        else:
            a0 = u - ln
            u = a0 - _GAP
            if a0 < umin:
                return False
        across = 2 * s if dbl else s
        b0 = vr - across // 2
        # local (along a0..a0+ln, across b0..b0+across) -> screen rectangle
        if dx:
            x = cx + a0 if dx > 0 else cx - a0 - ln
            y = cy + b0 if ty > 0 else cy - b0 - across
        else:
            y = cy + a0 if dy > 0 else cy - a0 - ln
            x = cx + b0 if tx > 0 else cx - b0 - across
        horiz = (dx != 0) != dbl
        near = v.cnear[base + j]
        far = v.cfar[base + j]
        fwd = (dx + dy) * sign > 0   # travelling right/down on screen
        flags = (_F_DOUBLE if dbl else 0) | (_F_CLOSED if v.cclosed[base + j] else 0)
        if fwd:
            _put(v, t, x, y, near, far, horiz, flags)
        else:
            _put(v, t, x, y, far, near, horiz, flags)
    # marker of the open end: the far half of the last tile, or a box beside the centre
    if n:
        i = v.n - 1
        x = v.px[i]
        y = v.py[i]
        f = v.pf[i]
        if f & _F_DOUBLE:
            mw = s if not f & _F_HORIZ else 2 * s
            mh = 2 * s if not f & _F_HORIZ else s
        else:
            mw = s
            mh = s
            fwd = (dx + dy) * sign > 0
            if fwd:
                if f & _F_HORIZ:
                    x += s
                else:
                    y += s
    else:
        mw = mh = s
        a0 = hc + _GAP
        if dx:
            x = cx + a0 if dx > 0 else cx - a0 - s
            y = cy - s // 2
        else:
            y = cy + a0 if dy > 0 else cy - a0 - s
            x = cx - s // 2
    v.mx[ch] = x
    v.my[ch] = y
    v.mw[ch] = mw
    v.mh[ch] = mh
    return True
