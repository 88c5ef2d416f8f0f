# boards/_gs4.py's expand() in the Pico's inline Thumb assembler: the same bytes, faster than the
# viper loop on the emulated Pico (a 320-pixel row's 160 bytes, call included: ~90 us in viper,
# ~57 here), which was almost half of sending a row to the panel at 62.5 MHz. Only the colour
# panels' driver imports it (boards/_st7789.py), and only where the inline assembler exists: on
# any other port (the unix port of the tests, the browser's) importing this module is a
# SyntaxError, and the driver takes boards/_gs4.py's expand.
# ruff: noqa: F821
# pyright: reportUndefinedVariable=false, reportArgumentType=false
# (the registers, instructions and labels are the assembler's names, not Python's)
import micropython


@micropython.asm_thumb
def expand(r0, r1, r2, r3):
    # r0: the source bytes, r1: the output words, r2: the table's words, r3: the first source
    # byte's offset << 16 | the count (boards/_gs4.py's expand: the same four arguments)
    mov(r4, r3)
    lsr(r4, r4, 16)
    add(r0, r0, r4)          # the first source byte
    lsl(r3, r3, 16)
    lsr(r3, r3, 16)
    add(r3, r3, r0)          # the source byte after the last
    b(TEST)
    label(LOOP)
    ldrb(r4, [r0, 0])
    lsl(r4, r4, 2)
    add(r4, r4, r2)
    ldr(r5, [r4, 0])         # the two pixels' four RGB565 bytes, in the panel's order
    str(r5, [r1, 0])
    add(r0, 1)
    add(r1, 4)
    label(TEST)
    cmp(r0, r3)
    blt(LOOP)
