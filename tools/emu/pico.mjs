// The emulated Pico: stock MicroPython (a .uf2) in rp2040js, with the fixes a real program needs.
// One piece of the harness (tools/emu/README in docs/PICO_EMU.md): no USB host, no display,
// no script runner here; those attach to `pico.mcu` (repl.mjs, st7789.mjs, ssd1306.mjs, buttons.mjs).
//
//   const pico = new Pico({ firmware, fs, flash });   // fs: the filesystem's place (parseFs);
//                                                    // flash: a littlefs image (Uint8Array) or null
//   pico.at(ns, fn)     run fn at device time ns (nanoseconds since reset)
//   pico.every(ns, fn)  run fn every ns of device time (fn returns false to stop)
//   pico.start()        boot: from boot2 in flash, like rp2040js's MicroPython demo
//   pico.fsImage()      the filesystem region of the flash now (to keep it across runs)
//   parseFs('0xa0000:1441792')  -> { offset, bytes }: where the image's filesystem lives (the harness's
//                       --fs option; emu.py reads it from the .uf2's binary info, uf2info.py)
import fs from 'fs';
import { ConsoleLogger, LogLevel, Simulator } from 'rp2040js';
import { decodeBlock } from 'uf2';
import { bootromB1 } from './bootrom.mjs';

export const FLASH_START = 0x10000000;
export const FLASH_BYTES = 2 * 1024 * 1024;

// "OFFSET:BYTES" (the offset from the start of flash, decimal or 0x hex) -> { offset, bytes }, or null
// when it does not fit the 2 MiB flash. RPI_PICO's: 0xa0000:1441792; RPI_PICO_W's: 0x12c000:868352.
export function parseFs(text) {
  const m = /^(0x[0-9a-f]+|\d+):(0x[0-9a-f]+|\d+)$/i.exec(String(text));
  if (!m) return null;
  const offset = Number(m[1]), bytes = Number(m[2]);
  if (offset % 4096 || bytes % 4096 || bytes <= 0 || offset + bytes > FLASH_BYTES) return null;
  return { offset, bytes };
}
// A W25Q16JV's typical times (datasheet tSE, tPP); the real chip may take several times longer.
export const FLASH_ERASE_NS_PER_4K = 45e6;
export const FLASH_PROG_NS_PER_PAGE = 0.4e6;

export class Pico {
  /**
   * firmware: path of a MicroPython .uf2; fs: its filesystem's { offset, bytes } (parseFs);
   * flash: littlefs image bytes (placed at fs.offset) or null;
   * flashTiming: erases and page programs take their typical time (else none: rp2040js has no
   * flash timing at all).
   */
  constructor({ firmware, fs: fsAt, flash = null, flashTiming = false, spiInstant = false }) {
    if (!fsAt) throw new Error('the filesystem\'s place (fs: { offset, bytes }) is needed');
    this.fs = fsAt;
    this.simulator = new Simulator();
    this.mcu = this.simulator.rp2040;
    this.clock = this.simulator.clock;
    this.stats = { erase: 0, prog: 0, flashNs: 0 };
    this.flashOps = [];      // [t0_ns, t1_ns] of each erase / program (bounded): when the flash was busy
    this.onFatal = (why) => { throw new Error(why); };
    const mcu = this.mcu;
    mcu.loadBootrom(bootromB1);
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    const buf = fs.readFileSync(firmware);
    for (let off = 0; off + 512 <= buf.length; off += 512) {
      // copy: uf2's decodeBlock ignores a view's byteOffset (a subarray would decode block 0's header)
      const { flashAddress, payload } = decodeBlock(Uint8Array.from(buf.subarray(off, off + 512)));
      mcu.flash.set(payload, flashAddress - FLASH_START);
    }
    if (flash) {
      if (flash.length > fsAt.bytes) throw new Error(`flash image of ${flash.length} B is over the filesystem's ${fsAt.bytes} B`);
      mcu.flash.set(flash, fsAt.offset);
    }
    if (!spiInstant) this._spiTiming();
    this._flashWrites(flashTiming);
  }

  nowNs() {
    return this.clock.nanos;
  }

  at(ns, fn) {
    const alarm = this.clock.createAlarm(fn);
    alarm.schedule(Math.max(0, ns - this.clock.nanos));
    return alarm;
  }

  every(ns, fn) {
    const alarm = this.clock.createAlarm(() => {
      if (fn() !== false) alarm.schedule(ns);
    });
    alarm.schedule(ns);
    return alarm;
  }

  setInput(gpio, high) {
    this.mcu.gpio[gpio].setInputValue(!!high);
  }

  start() {
    // Start at boot2 in flash like rp2040js demo/micropython-run.ts (starting from the bootrom's
    // reset vector never gets going in rp2040js: simulated time stays at 0).
    this.mcu.core.PC = FLASH_START;
    this.simulator.execute();
  }

  stop() {
    this.simulator.stop();
  }

  fsImage() {
    return Uint8Array.from(this.mcu.flash.subarray(this.fs.offset, this.fs.offset + this.fs.bytes));
  }

  // SPI timing. rp2040js's default SPI "device" answers every frame at once, so a DMA transfer
  // (MicroPython's machine.SPI uses DMA for both directions) overruns the 8-entry RX FIFO and the
  // RX channel waits forever. Here each frame completes after its bit time at the programmed SPI
  // clock (clk_peri / (CPSDVSR * (1 + SCR))), and waits while the RX FIFO is full, like the real
  // PL022 pacing. MISO reads 0. clk_peri is rp2040js's, from the clock registers as the firmware
  // set them: MicroPython's rp2 port feeds it from the 48 MHz USB PLL (SPI(baudrate=62_500_000)
  // then runs at 24 MHz, as on a Pico), machine.freq(f, f) from clk_sys (62.5 MHz at 125 MHz).
  // Listeners (a display decoder) go in spiListeners[n]: fn(byte) for every byte sent on SPIn.
  _spiTiming() {
    const mcu = this.mcu;
    this.spiListeners = [[], []];
    this.mcu.spi.forEach((spi, n) => {
      const alarm = this.clock.createAlarm(() => {
        if (spi.rxFIFO.full) alarm.schedule(50);
        else spi.completeTransmit(0);
      });
      const listeners = this.spiListeners[n];
      spi.onTransmit = (value) => {
        for (const fn of listeners) fn(value);
        const c0 = spi.control0;
        const bits = (c0 & 0xf) + 1;
        const div = (spi.clockDivisor || 2) * (1 + ((c0 >> 8) & 0xff));
        alarm.schedule((bits * div * 1e9) / mcu.clkPeri);
      };
    });
  }

  // Flash writes. rp2040js's SSI model only serves reads, so the boot ROM's flash_range_erase /
  // flash_range_program (which MicroPython's rp2.Flash ends up in) would change nothing and
  // littlefs would fail every write. Their entry points in the ROM function table ('RE', 'RP') are
  // patched to BKPT and done here on the flash array, then the call returns (after the chip's
  // typical time with flashTiming: interrupts are off during a flash write on a Pico too).
  _flashWrites(timing) {
    const mcu = this.mcu;
    const rom16 = new Uint16Array(mcu.bootrom.buffer, mcu.bootrom.byteOffset, mcu.bootrom.byteLength >> 1);
    const romFunc = (c1, c2) => {
      const code = c1.charCodeAt(0) | (c2.charCodeAt(0) << 8);
      for (let t = rom16[0x14 >> 1] >> 1; rom16[t]; t += 2) if (rom16[t] === code) return rom16[t + 1] & ~1;
      throw new Error(`ROM function ${c1}${c2} not found`);
    };
    const BK_ERASE = 0x71, BK_PROG = 0x72;
    rom16[romFunc('R', 'E') >> 1] = 0xbe00 | BK_ERASE;
    rom16[romFunc('R', 'P') >> 1] = 0xbe00 | BK_PROG;
    mcu.onBreak = (code) => {
      const core = mcu.core;
      const r = core.registers;
      let ns = 0;
      if (code === BK_ERASE) {
        const off = r[0] >>> 0, count = r[1] >>> 0;
        mcu.flash.fill(0xff, off, off + count);
        this.stats.erase += count;
        ns = FLASH_ERASE_NS_PER_4K * Math.ceil(count / 4096);
      } else if (code === BK_PROG) {
        const off = r[0] >>> 0, src = r[1] >>> 0, count = r[2] >>> 0;
        for (let i = 0; i < count; i++) mcu.flash[off + i] &= mcu.readUint8(src + i);
        this.stats.prog += count;
        ns = FLASH_PROG_NS_PER_PAGE * Math.ceil(count / 256);
      } else {
        this.onFatal(`BKPT ${code} at ${(core.PC >>> 0).toString(16)}`);
        return;
      }
      const t0 = this.clock.nanos;
      if (timing && ns) {
        this.stats.flashNs += ns;
        this.clock.tick(ns);
      }
      if (this.flashOps.length < 100000) this.flashOps.push([t0, this.clock.nanos]);
      core.PC = core.LR & ~1;
    };
  }
}
