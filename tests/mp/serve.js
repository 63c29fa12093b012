// An emulated MicroPython Pico on stdin/stdout: rp2040js runs the UF2's MicroPython and its
// USB CDC (the REPL) is bridged to this process's stdin (bytes the host sends) and stdout
// (bytes the board sends). tests/mpboard.py puts a pseudo-terminal in front of it, so
// mpremote and pyserial talk to it as to a Pico on a USB port.
//
// usage: node serve.js --bootrom bootrom.js --flash FILE [--uf2 IMAGE.uf2]
//   --flash FILE: the board's flash (2 MiB), read at start and written back (aside and renamed)
//   when the board stops; --uf2 writes the image's blocks over it first (what the UF2
//   bootloader does: the rest of the flash, littlefs included, is kept).
// Stops on SIGTERM/SIGINT or when stdin closes (exit 0), at once on SIGUSR1 (a power cut: the
// flash as it is at that instruction; exit 0). A board asking for its UF2 bootloader
// (machine.bootloader(): the boot ROM's reset_usb_boot) saves its flash and exits 4.
// stderr: one line "ready" once USB is connected, then nothing unless something goes wrong.
'use strict';
const fs = require('fs');
const path = require('path');
const { Simulator, ConsoleLogger, LogLevel, USBCDC } = require('rp2040js');
const { decodeBlock } = require('uf2');

const FLASH_SIZE = 2 * 1024 * 1024; // a Pico's W25Q16
const opts = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) opts[argv[i].replace(/^--/, '')] = argv[i + 1];
if (!opts.bootrom || !opts.flash) {
  process.stderr.write('usage: node serve.js --bootrom B --flash FILE [--uf2 IMAGE]\n');
  process.exit(64);
}
const { bootromB1 } = require(path.resolve(opts.bootrom));

const sim = new Simulator();
const mcu = sim.rp2040;
mcu.loadBootrom(bootromB1); // resets the chip, which blanks its flash: load the flash after
mcu.logger = new ConsoleLogger(LogLevel.Error);
{
  const flash = new Uint8Array(mcu.flash.length).fill(0xff);
  if (fs.existsSync(opts.flash)) flash.set(fs.readFileSync(opts.flash).subarray(0, FLASH_SIZE));
  if (opts.uf2) {
    const d = fs.readFileSync(opts.uf2);
    for (let o = 0; o + 512 <= d.length; o += 512) {
      const { flashAddress, payload } = decodeBlock(new Uint8Array(d.subarray(o, o + 512)));
      flash.set(payload, flashAddress - 0x10000000);
    }
  }
  mcu.flash.set(flash);
}

function saveFlash() {
  const tmp = opts.flash + '.tmp';
  fs.writeFileSync(tmp, mcu.flash.subarray(0, FLASH_SIZE));
  fs.renameSync(tmp, opts.flash);
}

// SPI bytes take their time on the wire (as tests/cp/lane.js); nobody answers on I2C
mcu.spi.forEach((spi) => {
  const done = sim.clock.createAlarm(() => spi.completeTransmit(0xff));
  spi.onTransmit = () => done.schedule(Math.max(8e9 / (spi.clockFrequency || 1e6), 8));
});
for (const i2c of mcu.i2c) {
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = () => i2c.completeConnect(false);
  i2c.onWriteByte = () => i2c.completeWrite(false);
  i2c.onReadByte = () => i2c.completeRead(0xff);
  i2c.onStop = () => i2c.completeStop();
}
for (const p of [12, 13, 14, 15]) mcu.gpio[p].setInputValue(true); // buttons idle high
// the flash's chip select idles high (BOOTSEL released): tests/cp/lane.js says why
mcu.qspi.forEach((pin) => { pin.padValue |= 0x40; });
mcu.qspi[1].setInputValue(true);

// Flash writes through the boot ROM's flash_range_erase / flash_range_program (as lane.js);
// reset_usb_boot is the board asking for its bootloader.
const rom16 = (a) => mcu.readUint16(a);
const code = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
const romFunc = (w) => {
  for (let p = rom16(0x14); rom16(p); p += 4) if (rom16(p) === w) return rom16(p + 2) & ~1;
  return -1;
};
const ERASE = romFunc(code('R', 'E'));
const PROGRAM = romFunc(code('R', 'P'));
const USB_BOOT = romFunc(code('U', 'B'));
function flashOp(pc) {
  const r = mcu.core.registers;
  const addr = r[0] & 0xffffff;
  const { flash, sram } = mcu;
  if (pc === ERASE) flash.fill(0xff, addr, Math.min(addr + r[1], flash.length));
  else {
    const data = r[1];
    const inRam = data >= 0x20000000 && data + r[2] <= 0x20000000 + sram.length;
    for (let i = 0; i < r[2] && addr + i < flash.length; i++) {
      flash[addr + i] &= inRam ? sram[data - 0x20000000 + i] : mcu.readUint8(data + i);
    }
  }
  r[15] = r[14] & ~1; // return (BX LR)
}

const cdc = new USBCDC(mcu.usbCtrl);
cdc.onSerialData = (value) => process.stdout.write(Buffer.from(value));
cdc.onDeviceConnected = () => process.stderr.write('ready\n');
// A real host sends no OUT packet while it has nothing to send: keep the armed OUT endpoint
// pending until bytes are queued (rp2040js answers every arming with a zero-length packet
// 10 us later, ~33,000 USB interrupts a second that slow the emulated CPU about 3x).
let pendingRead = null;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  if (cdc.txFIFO.itemCount === 0) { pendingRead = { endpoint, size }; return; }
  const b = new Uint8Array(Math.min(size, cdc.txFIFO.itemCount));
  for (let i = 0; i < b.length; i++) b[i] = cdc.txFIFO.pull();
  mcu.usbCtrl.endpointReadDone(endpoint, b);
};
const queue = [];
function feed() {
  while (queue.length && cdc.txFIFO.itemCount < 256) {
    const chunk = queue[0];
    let i = 0;
    while (i < chunk.length && cdc.txFIFO.itemCount < 256) cdc.txFIFO.push(chunk[i++]);
    if (i === chunk.length) queue.shift(); else queue[0] = chunk.subarray(i);
  }
  if (pendingRead && cdc.txFIFO.itemCount) {
    const q = pendingRead;
    pendingRead = null;
    mcu.usbCtrl.onEndpointRead(q.endpoint, q.size);
  }
}
process.stdin.on('data', (d) => { queue.push(d); feed(); });

let stopped = false;
function stop(status) {
  if (stopped) return;
  stopped = true;
  saveFlash();
  process.exit(status);
}
process.stdin.on('end', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
process.on('SIGUSR1', () => stop(0));

mcu.core.PC = 0x10000000;
const cycleNanos = 1e9 / 125e6;
function slice() {
  const { clock } = sim;
  const t0 = Date.now();
  for (;;) {
    for (let i = 0; i < 20000; i++) {
      if (mcu.core.waiting) {
        const dt = clock.nanosToNextAlarm;
        if (dt <= 0) break;
        clock.tick(dt);
      } else {
        const pc = mcu.core.registers[15];
        if (pc === ERASE || pc === PROGRAM) flashOp(pc);
        else if (pc === USB_BOOT) { stop(4); return; }
        clock.tick(mcu.core.executeInstruction() * cycleNanos);
      }
    }
    if (Date.now() - t0 > 20 || (mcu.core.waiting && clock.nanosToNextAlarm <= 0)) break;
  }
  feed();
  if (!stopped) setImmediate(slice);
}
setImmediate(slice);
