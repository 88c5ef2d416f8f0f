"""A stand-in for the `mpremote` executable, for host_tests/test_deploy.py.

The tests write a small `mpremote` script first on PATH that runs this file. Behaviour comes from the
JSON file named by $FAKE_MPREMOTE_STATE:

    {"log": "<calls.jsonl>",                 every invocation's argv is appended here, one JSON list a line
     "devices": ["<connect list line>", ...],
     "mip_fail": false,
     "ports": {"/dev/ttyACM0": {
         "mode": "micropython" | "silent" | "busy",  silent: no raw REPL (other firmware); busy: port locked
         "root": "<folder playing the device's flash>",
         "name": "micropython", "version": [1, 28, 0], "machine": "Raspberry Pi Pico with RP2040",
         "mpy": 3846, "bsize": 4096, "blocks": 200,
         "unplug_after_cp": N,                   optional: the cable is pulled after N `fs cp` in one call
         "booting_calls": N}}}                   optional: the next N calls find no prompt (a Pico booting)

The probe script tools/deploy/main.py sends with `exec` is really run, by the MicroPython unix port, on the
device folder (its root path rewritten), and its `@i` line gets this device's identity and block counts;
`fs cp/mkdir/rm`, `mip install` act on the folder with mpremote's error messages; `reset`, `mount`,
`run`, `repl` and other `exec`s are only logged.
"""
import ast
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    sys.stdout.flush()
    sys.stderr.write("mpremote: %s\n" % msg)
    sys.exit(1)


def used_blocks(root, bsize):
    n = 0
    for base, dirs, files in os.walk(root):
        n += len(dirs)
        for f in files:
            n += max(1, -(-os.path.getsize(os.path.join(base, f)) // bsize))
    return n


def micropython():
    from tools.find_micropython import find
    return find()


def probe(dev, script):
    root = dev["root"]
    if "R = '/'" not in script:
        fail("fake: unexpected exec script")
    script = script.replace("R = '/'", "R = %r" % root, 1)
    r = subprocess.run([micropython(), "-c", script], capture_output=True, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        sys.exit(1)
    for line in r.stdout.splitlines():
        if line.startswith("@i "):
            info = ast.literal_eval(line[3:])
            info.update(name=dev.get("name", "micropython"), version=tuple(dev.get("version", (1, 28, 0))),
                        machine=dev.get("machine", "Raspberry Pi Pico with RP2040"),
                        mpy=dev.get("mpy", 6 | 3 << 8 | 4 << 10), bsize=dev.get("bsize", 4096),
                        blocks=dev.get("blocks", 200))
            info["bfree"] = max(0, info["blocks"] - used_blocks(root, info["bsize"]))
            line = "@i " + repr(info)
        print(line)


def remote(dev, path):
    path = path[1:] if path.startswith(":") else path
    return os.path.join(dev["root"], path.lstrip("/"))


def unplugged():
    """What mpremote prints when the port vanishes mid-command (pyserial's ioctl on a gone tty)."""
    sys.stdout.flush()
    sys.stderr.write("Traceback (most recent call last):\n"
                     "  File \"serialposix.py\", line 549, in in_waiting\n"
                     "OSError: [Errno 5] Input/output error\n")
    sys.exit(1)


def do_fs(dev, args):
    flags = [a for a in args if a.startswith("-")]
    args = [a for a in args if not a.startswith("-")]
    cmd, paths = args[0], args[1:]
    if cmd == "cp":
        if len(paths) != 2 or not paths[1].startswith(":"):
            fail("fake: only `fs cp [-f] local :remote` is supported")
        if dev.get("unplug_after_cp") is not None:
            if dev["unplug_after_cp"] <= 0:
                unplugged()
            dev["unplug_after_cp"] -= 1
        dst = remote(dev, paths[1])
        if not os.path.isdir(os.path.dirname(dst)):
            fail("cp: No such file or directory: %s." % paths[1])
        size = os.path.getsize(paths[0])
        bsize = dev.get("bsize", 4096)
        old = max(1, -(-os.path.getsize(dst) // bsize)) if os.path.exists(dst) else 0
        if used_blocks(dev["root"], bsize) - old + max(1, -(-size // bsize)) > dev.get("blocks", 200):
            fail("cp: No space left on device: [Errno 28] ENOSPC.")
        shutil.copyfile(paths[0], dst)
    elif cmd == "mkdir":
        for p in paths:
            if os.path.exists(remote(dev, p)):
                fail("mkdir: File exists: %s." % p)
            os.mkdir(remote(dev, p))
    elif cmd == "rm":
        for p in paths:
            if not os.path.isfile(remote(dev, p)):
                fail("rm: No such file or directory: %s." % p)
            os.remove(remote(dev, p))
    else:
        fail("fake: fs %s not supported (%s)" % (cmd, flags))


def main(argv):
    state = json.load(open(os.environ["FAKE_MPREMOTE_STATE"]))
    with open(state["log"], "a") as f:
        f.write(json.dumps(argv) + "\n")
    if argv[:2] == ["connect", "list"]:
        for line in state.get("devices", []):
            print(line)
        return 0
    if not argv or argv[0] != "connect" or len(argv) < 3:
        fail("fake: calls must start with `connect <port>`")
    port = argv[1]
    dev = state.get("ports", {}).get(port)
    if dev is None or dev.get("mode") == "busy":
        fail("failed to access %s (it may be in use by another program)" % port)
    if dev.get("mode") == "silent":
        fail("could not enter raw repl")
    if dev.get("booting_calls"):
        dev["booting_calls"] -= 1              # still booting: the Ctrl-C came before main.py ran
        with open(os.environ["FAKE_MPREMOTE_STATE"], "w") as f:
            json.dump(state, f)
        fail("could not enter raw repl")
    cmds = [[]]
    for a in argv[2:]:
        if a == "+":
            cmds.append([])
        else:
            cmds[-1].append(a)
    for c in cmds:
        if not c:
            continue
        if c[0] == "exec":
            if "MANIFEST =" in c[-1]:
                probe(dev, c[-1])
        elif c[0] == "fs":
            do_fs(dev, c[1:])
        elif c[:2] == ["mip", "install"]:
            if state.get("mip_fail"):
                fail("Error 404 requesting https://micropython.org/pi/v2/package/6/%s/latest.json" % c[2])
            lib = os.path.join(dev["root"], "lib")
            os.makedirs(lib, exist_ok=True)
            for pkg in c[2:]:
                with open(os.path.join(lib, pkg + ".mpy"), "wb") as f:
                    f.write(b"M\x06\x00\x1f" + pkg.encode())
        elif c[0] in ("reset", "soft-reset", "repl", "mount", "run"):
            if c[0] == "mount":
                # `mount DIR <next command...>` : mpremote then runs the next commands in the same session
                pass
        else:
            fail("fake: '%s' is not a command" % c[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
