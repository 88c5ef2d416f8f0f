"""A frame at its physical size on a PC monitor: the panel's pixel pitch (boards/<board>.py
PITCH_UM, announced in the simulator's hello) against the monitor's pixel size (25.4 mm / DPI).

The window view (--actual-size), headless screenshots with --actual-size and `make screenshots`'
actual-size pictures all scale by factor(); resize() picks the filter: nearest-neighbour up (whole
panel pixels stay sharp squares), area averaging down (a 0.1 mm pitch on a 0.26 mm monitor pixel
averages about seven panel pixels into one, as the eye would).
"""

DEFAULT_DPI = 96          # the CSS reference pixel, and what most desktops say whatever the monitor
MIN_DPI, MAX_DPI = 50, 1000
UM_PER_INCH = 25400


def factor(pitch_um, dpi=DEFAULT_DPI):
    """Monitor pixels per panel pixel: the panel's pitch over the monitor's (25.4 mm / dpi)."""
    if pitch_um <= 0:
        raise ValueError("no pixel pitch for this panel")
    return pitch_um * dpi / UM_PER_INCH


def size_px(width, height, pitch_um, dpi=DEFAULT_DPI):
    """The frame's size in monitor pixels at actual size (at least 1x1)."""
    f = factor(pitch_um, dpi)
    return max(1, round(width * f)), max(1, round(height * f))


def panel_mm(width, height, pitch_um):
    """The panel's display area in millimetres: (width, height)."""
    return width * pitch_um / 1000, height * pitch_um / 1000


def describe(width, height, pitch_um, dpi=DEFAULT_DPI):
    """One line for a title: the scale, the monitor's DPI it assumes and the panel's size in mm."""
    w, h = panel_mm(width, height, pitch_um)
    return "actual size: x%.2f at %g dpi, panel %.1f x %.1f mm (%.3f mm pixels)" % (
        factor(pitch_um, dpi), dpi, w, h, pitch_um / 1000)


def resize(image, pitch_um, dpi=DEFAULT_DPI):
    """A PIL image of a frame (palette or RGB) -> an RGB image at actual size."""
    from PIL import Image
    size = size_px(image.width, image.height, pitch_um, dpi)
    rgb = image.convert("RGB")
    if size == rgb.size:
        return rgb
    up = size[0] > rgb.width
    return rgb.resize(size, Image.NEAREST if up else Image.BOX)
