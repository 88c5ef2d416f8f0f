"""A pretend Pico on a pseudo-terminal, for running the REAL mpremote in tests.

    python host_tests/pty_device.py <device folder> <micropython binary>

prints the pty's path, then answers MicroPython's raw REPL protocol on it (Ctrl-A raw mode, Ctrl-D
exec or soft reset, Ctrl-B friendly mode; raw-paste refused, so mpremote falls back to plain raw mode)
by handing each code block to one persistent `micropython` process whose working directory is the
device folder, so mpremote's own fs code (open/write/os.stat/os.mkdir) acts on it. The probe script
of tools/deploy/main.py walks `R = '/'`; that one assignment is rewritten to the device folder. Exits when
killed, or after 60 s without input.
"""
import os
import pty
import select
import subprocess
import sys
import tty

SERVER = r"""
import sys, os, io
os.chdir(sys.argv[1])
g = {'__name__': '__main__'}
rd = sys.stdin.buffer
while True:
    ln = rd.readline()
    if not ln:
        break
    n = int(ln)
    if n < 0:
        g = {'__name__': '__main__'}
        continue
    code = b''
    while len(code) < n:
        code += rd.read(n - len(code))
    err = ''
    try:
        exec(code, g)
    except BaseException as e:
        b = io.StringIO()
        sys.print_exception(e, b)
        err = b.getvalue()
    sys.stdout.write('\x04' + err + '\x04')
"""
BANNER = b"\r\nraw REPL; CTRL-B to exit\r\n>"


def main(root, micropython):
    master, slave = pty.openpty()
    tty.setraw(slave)
    srv = subprocess.Popen([micropython, "-c", SERVER, root], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    print(os.ttyname(slave), flush=True)

    def run(code):
        code = code.replace(b"R = '/'", b"R = " + repr(root).encode(), 1)
        srv.stdin.write(b"%d\n" % len(code) + code)
        srv.stdin.flush()
        eofs = 0
        while eofs < 2:               # output \x04 error text \x04, as the raw REPL sends it
            c = srv.stdout.read(1)
            if not c:
                break
            eofs += c == b"\x04"
            os.write(master, c)

    raw = False
    buf = b""
    try:
        while select.select([master], [], [], 60)[0]:
            for ch in os.read(master, 4096):
                c = bytes([ch])
                if c == b"\x01":
                    raw, buf = True, b""
                    os.write(master, BANNER)
                elif not raw or c == b"\x03":
                    continue
                elif c == b"\x02":
                    raw = False
                    os.write(master, b"\r\nMicroPython (pty device)\r\n>>> ")
                elif c == b"\x04":
                    code, buf = buf, b""
                    if not code.strip(b"\r\n"):
                        srv.stdin.write(b"-1\n")
                        srv.stdin.flush()
                        os.write(master, b"OK\r\nMPY: soft reboot" + BANNER)
                    else:
                        os.write(master, b"OK")
                        run(code)
                        os.write(master, b">")
                else:
                    buf += c
                    if buf == b"\x05A\x01":     # raw-paste request: not supported here
                        buf = b""
                        os.write(master, b"R\x00")
    finally:
        srv.kill()
        srv.wait()


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), sys.argv[2])
