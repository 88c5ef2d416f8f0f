"""Window view of the simulator (pygame-ce): the framebuffer scaled x2/x3 with nearest-neighbour
(pixel-exact), or at the panel's physical size (--actual-size, tools/sim/actual.py), real key
down/up events, the key map under the picture."""
import os
import signal

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from tools.sim import actual
from tools.sim.link import (K_A, K_B, K_DOWN, K_LEFT, K_PRESS, K_RIGHT, K_UP, K_X, K_Y, Reader, Sim,
                      frame_image, report)

KEYMAP_TEXT = "arrows=joystick  Enter/space=press  a b x y=buttons  q/Esc=quit"


def picture(hello, frame, args):
    """The frame as the window shows it, RGB: at actual size, else at a whole zoom."""
    if args.actual_size:
        return actual.resize(frame_image(hello, frame), hello.pitch_um, args.dpi)
    scale = args.scale or (3 if hello.width <= 128 else 2)
    return frame_image(hello, frame, scale).convert("RGB")


def run(args):
    try:
        import pygame
    except ImportError:
        print("sim: the window view needs pygame-ce (make venv), or use --view term")
        return 2
    sim = Sim(args.board, args.size, args.app, virtual=False, heap=args.heap,
              micropython=args.micropython, data_dir=args.data,
              source=args.source)
    reader = Reader(sim)
    reader.start()
    keymap = {pygame.K_UP: K_UP, pygame.K_DOWN: K_DOWN, pygame.K_LEFT: K_LEFT,
              pygame.K_RIGHT: K_RIGHT, pygame.K_RETURN: K_PRESS, pygame.K_SPACE: K_PRESS,
              pygame.K_KP_ENTER: K_PRESS, pygame.K_a: K_A, pygame.K_b: K_B, pygame.K_x: K_X,
              pygame.K_y: K_Y}
    stop = []
    old = signal.signal(signal.SIGTERM, lambda *a: stop.append("terminated"))
    reason = None
    try:
        pygame.display.init()
        pygame.font.init()
        font = pygame.font.Font(None, 18)
        screen = None
        clock = pygame.time.Clock()
        held = 0
        drawn = -1
        while not stop:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    reason = "closed"
                elif ev.type == pygame.KEYDOWN:
                    if ev.key in (pygame.K_q, pygame.K_ESCAPE):
                        reason = "quit"
                    elif ev.key == pygame.K_c and ev.mod & pygame.KMOD_CTRL:
                        reason = "interrupted"
                    elif ev.key in keymap:
                        held |= keymap[ev.key]
                        sim.send_keys(held)
                elif ev.type == pygame.KEYUP and ev.key in keymap:
                    held &= ~keymap[ev.key]
                    sim.send_keys(held)
            if reason:
                break
            if reader.ended:
                reason = "ended"
                break
            h = sim.hello
            if h is not None and sim.frame is not None and drawn != sim.frame_no:
                drawn = sim.frame_no
                im = picture(h, sim.frame, args)
                if screen is None:
                    screen = pygame.display.set_mode((max(im.width, 480), im.height + 40))
                    pygame.display.set_caption("pico-domino sim: %s %dx%d  (%s)" % (
                        h.profile, h.width, h.height,
                        actual.describe(h.width, h.height, h.pitch_um, args.dpi)
                        if args.actual_size else KEYMAP_TEXT))
                surf = pygame.image.frombuffer(im.tobytes(), im.size, "RGB")
                screen.fill((30, 30, 30))
                screen.blit(surf, ((screen.get_width() - im.width) // 2, 0))
                y = im.height + 4
                for text in (KEYMAP_TEXT, h.key_help + ("   " + sim.events[-1]
                                                        if sim.events else "")):
                    screen.blit(font.render(text, True, (200, 200, 200)), (6, y))
                    y += 18
                pygame.display.flip()
            clock.tick(60)
        if stop:
            reason = stop[0]
    except KeyboardInterrupt:
        reason = "interrupted"
    finally:
        signal.signal(signal.SIGTERM, old)
        sim.close_input()
        try:
            pygame.quit()
        except Exception:
            pass
        rc = sim.stop()
    return report(sim, reason, rc)

