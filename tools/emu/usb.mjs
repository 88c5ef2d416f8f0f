// The USB host side: the Pico's CDC serial port (MicroPython's REPL), and a raw-REPL script runner
// (the protocol mpremote uses: Ctrl-A, code, Ctrl-D; "OK" <stdout> \x04 <stderr> \x04 ">").
//
//   const port = new SerialPort(pico)    port.onData = (bytes) => ...;  port.write(bytes)
//   runRaw(port, code, { onOut, onErr, onBanner })  -> Promise<{ err }>  (after the raw REPL prompt)
import { USBCDC } from 'rp2040js';

export class SerialPort {
  constructor(pico) {
    const cdc = (this.cdc = new USBCDC(pico.mcu.usbCtrl));
    this.onData = () => {};
    this.onConnect = () => {};
    this.connected = false;
    this.stats = { epReads: 0, held: 0 };
    // A real USB host NAKs the CDC OUT endpoint until it has data to send. rp2040js's USBCDC
    // instead completes every OUT read at once, with 0 bytes when it has nothing: the device
    // re-arms, gets another empty packet 10 us later, and so on (~33,000 OUT completions per
    // simulated second; an empty `for` loop ran 3x slower in simulated time). So an OUT read with
    // nothing to send is held until write() has bytes for it.
    this.heldRead = null;
    this.txQueue = [];
    const cdcRead = cdc.usb.onEndpointRead;
    this._cdcRead = cdcRead;
    cdc.usb.onEndpointRead = (ep, size) => {
      this.stats.epReads++;
      if (ep !== 0 && ep === cdc.outEndpoint && cdc.txFIFO.empty) {
        this.stats.held++;
        this.heldRead = [ep, size];
        return;
      }
      cdcRead(ep, size);
    };
    cdc.onDeviceConnected = () => {
      this.connected = true;
      this.onConnect();
    };
    cdc.onSerialData = (data) => this.onData(data);
    // what does not fit in the CDC FIFO now is sent 100 us of device time later
    this.pumpAlarm = pico.clock.createAlarm(() => this.pump());
  }

  write(bytes) {
    for (const b of typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes) this.txQueue.push(b);
    this.pump();
  }

  pump() {
    const cdc = this.cdc;
    while (this.txQueue.length && !cdc.txFIFO.full) cdc.sendSerialByte(this.txQueue.shift());
    if (this.heldRead && !cdc.txFIFO.empty) {
      const [ep, size] = this.heldRead;
      this.heldRead = null;
      this._cdcRead(ep, size);
    }
    if (this.txQueue.length) this.pumpAlarm.schedule(100e3);
  }
}

const RAW_PROMPT = 'raw REPL; CTRL-B to exit\r\n>';

/** Interrupt whatever runs, enter the raw REPL, run `code`; resolves with the error text ('' if none). */
export function runRaw(port, code, { onOut = () => {}, onErr = () => {}, onBanner = () => {}, onStart = () => {} } = {}) {
  return new Promise((resolve) => {
    let state = 'enter';
    let text = '';
    let rx = Buffer.alloc(0);
    let err = '';
    port.onData = (data) => {
      if (state === 'enter') {
        text += Buffer.from(data).toString('latin1');
        if (text.includes(RAW_PROMPT)) {
          onBanner(text);
          state = 'ok';
          onStart();
          port.write(code + '\x04');
        }
        return;
      }
      rx = Buffer.concat([rx, Buffer.from(data)]);
      if (state === 'ok') {
        if (rx.length < 2) return;
        if (rx[0] !== 0x4f || rx[1] !== 0x4b) { // "OK"
          state = 'done';
          resolve({ err: 'device did not accept the raw REPL command: ' + rx.toString('latin1') });
          return;
        }
        rx = rx.subarray(2);
        state = 'out';
      }
      if (state === 'out') {
        const i = rx.indexOf(0x04);
        if (i < 0) { onOut(rx); rx = Buffer.alloc(0); return; }
        onOut(rx.subarray(0, i));
        rx = rx.subarray(i + 1);
        state = 'err';
      }
      if (state === 'err') {
        const i = rx.indexOf(0x04);
        if (i < 0) return;
        err = rx.subarray(0, i).toString('latin1');
        if (err) onErr(err);
        state = 'done';
        resolve({ err });
      }
    };
    port.write('\r\x03\x03\x01');
  });
}
