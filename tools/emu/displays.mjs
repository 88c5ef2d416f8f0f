// The display options run.mjs and usb_pty.mjs share: `--st7789 spi=1,dc=8,cs=9,w=240,h=240,x=0,y=0`
// and `--ssd1306 i2c=0,addr=60,w=128,h=64,sda=4,scl=5` (wiring.py gives them per board; sda/scl let
// the SSD1306 answer the bit-banged I2C.scan()), and the decoder each puts on the emulated Pico's bus.
import { ST7789 } from './st7789.mjs';
import { SSD1306 } from './ssd1306.mjs';

export const ST7789_KEYS = ['spi', 'dc', 'cs', 'w', 'h', 'x', 'y'];
export const SSD1306_KEYS = ['i2c', 'addr', 'w', 'h', 'sda', 'scl'];

/** "k=v,..." with numbers (0x.. too) for `keys` only, as an object; a bad part goes to usage(why). */
export function spec(text, keys, usage) {
  const out = {};
  for (const part of text.split(',')) {
    const [k, v] = part.split('=');
    if (!keys.includes(k) || v === undefined || !/^(0x)?[0-9a-f]+$/i.test(v)) usage(`bad device spec ${part}`);
    out[k] = Number(v);
  }
  return out;
}

export function st7789(pico, s) {
  return new ST7789(pico, { spi: s.spi, dc: s.dc, cs: s.cs, width: s.w, height: s.h, xoff: s.x || 0, yoff: s.y || 0 });
}

export function ssd1306(pico, s) {
  return new SSD1306(pico, { i2c: s.i2c, addr: s.addr, width: s.w, height: s.h, sda: s.sda ?? -1,
    scl: s.scl ?? -1 });
}
