// A UART of the emulated Pico that MicroPython's machine.UART can use (rp2040js 1.4.1's RPUART
// needs two fixes), and the wire that carries its bytes to another Pico's UART at the line's pace.
//
// rp2040js raises the TX interrupt on every interrupt check ("TODO proper FIFO for TX"), so once
// MicroPython's UART enables TXIM its handler runs, clears TXIC and is entered again at once: the
// core never leaves the UART0 IRQ (the first `UART(0)` hangs the Pico). Here, as on a PL011 whose TX
// FIFO is always drained, the TX interrupt is an event: raised when a byte written to UARTDR has left
// the FIFO, cleared by UARTICR.
//
//   fixUart(pico, 0)                    the fix above, on UART0
//   const w = new Wire(from, to, opts)  from/to: {pico}; from's UART0 TX into to's UART0 RX
const TXINTR = 1 << 5;

export function fixUart(pico, n) {
  const uart = pico.mcu.uart[n];
  uart.checkInterrupts = function checkInterrupts() {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  uart.txDone = () => {
    uart.interruptStatus |= TXINTR;
    uart.checkInterrupts();
  };
  return uart;
}

/** Bits a character takes on the line: start, 5-8 data, parity, 1-2 stop (UARTLCR_H). */
export function charBits(uart) {
  const lcr = uart.lineCtrlRegister;
  return 1 + uart.wordLength + ((lcr >> 1) & 1) + ((lcr >> 3) & 1 ? 2 : 1);
}
