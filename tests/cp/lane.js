// The board lanes' driver: boots a real Pico UF2 in rp2040js (headless) — Adafruit's
// CircuitPython (code.py starts the Lunchbox app, from the CIRCUITPY drive) or MicroPython
// (main.py starts it, from the littlefs file system) — presses its buttons on the GPIOs,
// power-cycles it (a new chip with the same flash, so nvm, the drive and the file system
// survive and the heap starts empty), and reads the pixels the display controller was sent.
// Grown from CircuitPython's own REPL driver (cpdrive.js beside it).
//
// usage: node lane.js --uf2 FILE.uf2 --bootrom bootrom.js --fs fs.img --script keys.json
//                     [--runtime circuitpython | micropython] [--fs-at OFFSET]
//                     [--buttons prev=12,next=13,ok=14,back=15] [--display st7789:dc=16,cs=17
//                     | ssd1306:addr=0x3c] [--out DIR] [--timeout S] [--app 0] [--usb-idle 0]
//
// The file system image goes into the flash at --fs-at (bytes from the flash's start): by
// default where the runtime keeps it on a 2 MB Pico, CircuitPython's FAT drive at 1 MB,
// MicroPython's littlefs at the flash's end (the image is as long as MicroPython's area).
//
// keys.json: a list of words: prev next ok back, long:NAME (held 1 s), undo (= long:back),
// wait:MS (emulated), reset (a power cut: the chip starts again on the same flash),
// shot:NAME (the display controller's memory as DIR/NAME.ppm or .pgm), mark:NAME,
// type:TEXT (sent on the console as typed; "\n" as Enter, so "\u0003" is Ctrl-C),
// expect:TEXT (until the console has shown TEXT since the last type:).
// --app 0: no app on the drive (the REPL is driven with type:/expect:); start the words once
// the USB console is connected, not at the app's first LBX line.
// Each press waits until the app has handled something new: the app prints a line
// "LBX <handled> ..." after each handled event (settings.toml LUNCHBOX_TRACE = 1).
//
// stdout: one JSON object a line: {"t":"line","boot":n,"emu":s,"text":...} for every console
// line, {"t":"boot","boot":n}, {"t":"key","word":...,"emu":s}, {"t":"shot","path":...},
// {"t":"mark",...}, {"t":"done","shows":b,"faults":[...]} or {"t":"error","why":...}; a shot
// and the end say whether the panel shows its frame (awake, display on) and what was sent
// sooner than the panel's datasheet allows (faults). "emu" is the emulated clock
// since the chip's last power-on, in seconds (cycles at its system clock: 125 MHz).
//
// The gaps of the bare emulator closed here: SPI bytes take their time on the wire (8 bits at
// the programmed SCK rate), so a DMA-fed transfer completes and displayio's refresh() returns;
// an SSD1306 answers on I2C; a power cut keeps the flash; the flash's chip select is pulled up,
// so BOOTSEL reads released (CircuitPython 10 reads it at start-up); the USB host sends an OUT
// packet only when it has bytes to send, as a real one (the bare emulator answered every armed
// OUT endpoint at once with an empty packet: ~33,000 needless USB interrupts an emulated
// second, which slowed the emulated CPU ~3x on Python-heavy work; --usb-idle 0 brings that
// back, for comparing figures); emulated time follows the chip's system clock when the
// firmware changes it. Not modelled: flash XIP cache misses (the emulator reads flash at RAM
// speed), bus contention, the panel's own timing.
'use strict';
const fs = require('fs');
const path = require('path');
const { Simulator, ConsoleLogger, LogLevel, USBCDC } = require('rp2040js');
const { decodeBlock } = require('uf2');
const { StringDecoder } = require('string_decoder');

const opts = { buttons: 'prev=12,next=13,ok=14,back=15', display: 'st7789:dc=16,cs=17',
  out: '.', timeout: 900, pressMs: 50, longMs: 1000, settleMs: 20, idleS: 3, app: 1,
  runtime: 'circuitpython', fsAt: null, usbIdle: 1 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, '');
  const v = argv[++i];
  if (k === 'uf2') opts.uf2 = v;
  else if (k === 'bootrom') opts.bootrom = v;
  else if (k === 'fs') opts.fs = v;
  else if (k === 'script') opts.script = v;
  else if (k === 'buttons') opts.buttons = v;
  else if (k === 'display') opts.display = v;
  else if (k === 'out') opts.out = v;
  else if (k === 'timeout') opts.timeout = Number(v);
  else if (k === 'idle') opts.idleS = Number(v);
  else if (k === 'app') opts.app = Number(v);
  else if (k === 'runtime') opts.runtime = v;
  else if (k === 'fs-at') opts.fsAt = Number(v);
  else if (k === 'usb-idle') opts.usbIdle = Number(v);
  else { process.stderr.write(`lane.js: unknown option ${argv[i - 1]}\n`); process.exit(64); }
}
if (!opts.uf2 || !opts.bootrom || !opts.fs || !opts.script) {
  process.stderr.write('usage: node lane.js --uf2 F --bootrom B --fs IMG --script KEYS.json\n');
  process.exit(64);
}
if (!['circuitpython', 'micropython'].includes(opts.runtime)) {
  process.stderr.write(`lane.js: --runtime ${opts.runtime}: circuitpython or micropython\n`);
  process.exit(64);
}
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const { bootromB1 } = require(path.resolve(opts.bootrom));
const words = JSON.parse(fs.readFileSync(opts.script, 'utf8'));

const buttons = {};
for (const kv of opts.buttons.split(',')) {
  const [name, pin] = kv.split('=');
  buttons[name] = Number(pin);
}
const [dispKind, dispArgs] = opts.display.split(':');
const disp = { kind: dispKind };
for (const kv of (dispArgs || '').split(',').filter((s) => s)) {
  const [k, v] = kv.split('=');
  disp[k] = Number(v);
}

const PICO_FLASH = 2 * 1024 * 1024;

// the flash as it first is: the UF2's blocks and the file system image; later boots reuse the
// flash the last chip left (its nvm and file writes)
function firstFlash() {
  const sim = new Simulator();
  const flash = new Uint8Array(sim.rp2040.flash.length).fill(0xff);
  const f = fs.openSync(opts.uf2, 'r');
  const buf = new Uint8Array(512);
  while (fs.readSync(f, buf) === buf.length) {
    const { flashAddress, payload } = decodeBlock(buf);
    flash.set(payload, flashAddress - 0x10000000);
  }
  fs.closeSync(f);
  const image = fs.readFileSync(opts.fs);
  // CircuitPython 9/10 on a 2 MB Pico: CIRCUITPY from 1 MB; MicroPython: its littlefs area
  // ends with the Pico's 2 MB flash (rp2's MICROPY_HW_FLASH_STORAGE_BASE; rp2040js gives
  // every chip 16 MB, of which the firmware sees what its build says)
  const at = opts.fsAt != null ? opts.fsAt
    : opts.runtime === 'micropython' ? PICO_FLASH - image.length : 0x100000;
  if (at < 0 || at + image.length > PICO_FLASH) {
    throw new Error(`the file system image (${image.length} B at ${at}) is not in the flash`);
  }
  flash.set(image, at);
  return flash;
}

// --- the display controllers, fed from the bus ------------------------------------------

// The ST7789's power state, with the ST7789V datasheet's waits (9.1.2 SWRESET, 9.1.11
// SLPOUT, 9.1.10 SLPIN): after a power-on or SWRESET the panel sleeps with its display off;
// SLPOUT no sooner than 120 ms after SWRESET, no command within 5 ms of SWRESET or SLPOUT,
// SLPIN no sooner than 120 ms after SLPOUT. A command sent too soon is a fault (the panel
// may ignore it on a real board); a frame is shown only once the panel is out of sleep with
// its display on. `now` is the emulated clock in seconds.
// The panel's RAM is kept as the glass has it (240 columns by 320 rows), so a frame reads back
// the same whichever way the firmware addresses it: MADCTL (0x36) is applied as the ST7789V
// does. MV (0x20) exchanges the host's column and row (CASET then runs along the 320 rows);
// MX (0x40) then mirrors the glass's columns and MY (0x80) its rows; ML (0x10) and the colour
// order bits change nothing stored. (That the mirrors act on the glass's axes after the
// exchange is what makes the vendors' settings for the Display Pack agree: Adafruit's MX|MY
// with its column start 53, and Pimoroni's MX|MV with row start 53 and MY|MV with row start
// 52, all address the glass's columns 52-186.)
function st7789(now) {
  const W = 240;
  const H = 320;
  const ram = new Uint16Array(W * H);
  const s = { cmd: -1, args: [], x0: 0, x1: W - 1, y0: 0, y1: H - 1, x: 0, y: 0, hi: -1,
    bytes: 0, frames: 0, lo: [W, H], hiXY: [0, 0], asleep: true, on: false, faults: [],
    resetAt: -1, sleptOutAt: -1, madctl: 0 };
  const store = (x, y, px) => {
    let col = x;
    let row = y;
    if (s.madctl & 0x20) { col = y; row = x; }
    if (s.madctl & 0x40) col = W - 1 - col;
    if (s.madctl & 0x80) row = H - 1 - row;
    if (col < 0 || col >= W || row < 0 || row >= H) return;
    ram[row * W + col] = px;
    if (col < s.lo[0]) s.lo[0] = col;
    if (row < s.lo[1]) s.lo[1] = row;
    if (col > s.hiXY[0]) s.hiXY[0] = col;
    if (row > s.hiXY[1]) s.hiXY[1] = row;
  };
  const fault = (why) => { if (s.faults.length < 20) s.faults.push(`${why} at ${now().toFixed(4)} s`); };
  s.command = (b) => {
    const t = now();
    const ms = (since) => (since < 0 ? Infinity : (t - since) * 1000);
    if (ms(s.resetAt) < 5) fault(`command 0x${b.toString(16)} ${ms(s.resetAt).toFixed(1)} ms after SWRESET`);
    else if (ms(s.sleptOutAt) < 5) fault(`command 0x${b.toString(16)} ${ms(s.sleptOutAt).toFixed(1)} ms after SLPOUT`);
    if (b === 0x01) { s.resetAt = t; s.asleep = true; s.on = false; s.madctl = 0; }
    else if (b === 0x11) {
      if (ms(s.resetAt) < 120) fault(`SLPOUT ${ms(s.resetAt).toFixed(1)} ms after SWRESET`);
      if (s.asleep) s.sleptOutAt = t;
      s.asleep = false;
    } else if (b === 0x10) {
      if (ms(s.sleptOutAt) < 120) fault(`SLPIN ${ms(s.sleptOutAt).toFixed(1)} ms after SLPOUT`);
      s.asleep = true;
    } else if (b === 0x29) s.on = true;
    else if (b === 0x28) s.on = false;
  };
  s.shows = () => !s.asleep && s.on;
  s.byte = (b, isData) => {
    s.bytes++;
    if (!isData) {
      s.command(b);
      s.cmd = b;
      s.args = [];
      s.hi = -1;
      if (b === 0x2c) { s.x = s.x0; s.y = s.y0; s.frames++; }
      return;
    }
    if (s.cmd === 0x36) {
      s.madctl = b;
    } else if (s.cmd === 0x2a || s.cmd === 0x2b) {
      s.args.push(b);
      if (s.args.length === 4) {
        const a = (s.args[0] << 8) | s.args[1];
        const z = (s.args[2] << 8) | s.args[3];
        if (s.cmd === 0x2a) { s.x0 = a; s.x1 = z; } else { s.y0 = a; s.y1 = z; }
      }
    } else if (s.cmd === 0x2c) {
      s.lastData = now();
      if (s.hi < 0) { s.hi = b; return; }
      const px = (s.hi << 8) | b;
      s.hi = -1;
      store(s.x, s.y, px);
      if (++s.x > s.x1) { s.x = s.x0; s.y++; }
    }
  };
  // the part of the RAM that was ever written, as a binary PPM
  s.image = () => {
    const [lx, ly] = s.lo;
    const [hx, hy] = s.hiXY;
    if (hx < lx) return null;
    const w = hx - lx + 1;
    const h = hy - ly + 1;
    const head = Buffer.from(`P6\n${w} ${h}\n255\n`);
    const body = Buffer.alloc(w * h * 3);
    let o = 0;
    for (let y = ly; y <= hy; y++) {
      for (let x = lx; x <= hx; x++) {
        const p = ram[y * W + x];
        body[o++] = ((p >> 11) & 0x1f) * 255 / 31;
        body[o++] = ((p >> 5) & 0x3f) * 255 / 63;
        body[o++] = (p & 0x1f) * 255 / 31;
      }
    }
    return { ext: 'ppm', data: Buffer.concat([head, body]) };
  };
  return s;
}

// The SSD1306 after power-on: display off (sleep, 0xAE) until 0xAF; its charge pump (0x8D
// 0x14) must be on before 0xAF or the panel stays dark (application note, "charge pump").
function ssd1306(now) {
  const W = 128;
  const H = 64;
  const ram = new Uint8Array(W * (H / 8));
  const s = { c0: 0, c1: W - 1, p0: 0, p1: 7, col: 0, page: 0, want: 0, setting: 0, args: [],
    bytes: 0, frames: 0, on: false, pump: false, faults: [] };
  s.shows = () => s.on && s.pump;
  s.command = (b) => {
    if (s.want) {
      s.args.push(b);
      if (--s.want === 0) {
        if (s.setting === 0x21) { s.c0 = s.args[0]; s.c1 = s.args[1]; s.col = s.c0; }
        if (s.setting === 0x22) { s.p0 = s.args[0] & 7; s.p1 = s.args[1] & 7; s.page = s.p0; }
        if (s.setting === 0x8d) s.pump = (s.args[0] & 0x04) !== 0;
      }
      return;
    }
    if (b === 0xaf) {
      if (!s.pump && s.faults.length < 20) s.faults.push('display on (0xAF) with the charge pump off');
      s.on = true;
    } else if (b === 0xae) s.on = false;
    if (b === 0x21 || b === 0x22) { s.setting = b; s.want = 2; s.args = []; s.frames++; }
    else if ([0x81, 0x20, 0xa8, 0xd3, 0xd5, 0xd9, 0xda, 0xdb, 0x8d].includes(b)) {
      s.setting = b; s.want = 1; s.args = [];
    }
  };
  s.data = (b) => {
    s.bytes++;
    s.lastData = now();
    ram[s.page * W + s.col] = b;
    if (++s.col > s.c1) { s.col = s.c0; if (++s.page > s.p1) s.page = s.p0; }
  };
  s.image = () => {
    const head = Buffer.from(`P5\n${W} ${H}\n255\n`);
    const body = Buffer.alloc(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        body[y * W + x] = (ram[(y >> 3) * W + x] >> (y & 7)) & 1 ? 255 : 0;
      }
    }
    return { ext: 'pgm', data: Buffer.concat([head, body]) };
  };
  return s;
}

// --- one power-on ------------------------------------------------------------------------

let boots = 0;
let chip = null;
let panel = null;

function powerOn(flash) {
  boots++;
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.loadBootrom(bootromB1); // resets the chip, which blanks its flash: load the flash after
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.flash.set(flash);
  const c = { sim, mcu, typed: '', line: '', connected: false, stopped: false, until: null,
    handled: -1, reboots: 0, lbx: 0, lastLbxEmu: 0, boot: boots };
  c.emu = () => sim.clock.nanos / 1e9;

  // SPI: a byte is on the wire for 8 SCK periods, then its (dummy) answer arrives, so the
  // TX and RX DMA channels pace each other as on the chip
  mcu.spi.forEach((spi) => {
    let pending = 0;
    const done = sim.clock.createAlarm(() => spi.completeTransmit(pending));
    spi.onTransmit = (value) => {
      if (panel && panel.byte && disp.kind === 'st7789') {
        const dc = mcu.gpio[disp.dc].outputValue;
        panel.byte(value & 0xff, dc);
      }
      pending = 0xff;
      const hz = spi.clockFrequency || 1e6;
      done.schedule(Math.max(8e9 / hz, 8));
    };
  });
  // I2C: the OLED at its address acknowledges and takes bytes; nobody else answers
  mcu.i2c.forEach((i2c) => {
    let mine = false;
    let first = false;
    let mode = 0;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address) => {
      mine = disp.kind === 'ssd1306' && address === (disp.addr || 0x3c);
      first = true;
      mode = 0;
      i2c.completeConnect(mine);
    };
    i2c.onWriteByte = (value) => {
      if (mine && panel) {
        if (first) { mode = value; first = false; }
        else if (mode === 0x40) panel.data(value);
        else if (mode === 0x80) { panel.command(value); first = true; }
        else panel.command(value);
      }
      i2c.completeWrite(mine);
    };
    i2c.onReadByte = () => i2c.completeRead(0xff);
    i2c.onStop = () => i2c.completeStop();
  });
  // RESETS: the bare emulator keeps a block's state through its reset, so an I2C block
  // still looks enabled after busio.I2C.deinit() and the next VM finds it "in use"; on the
  // chip a reset puts the block back to its power-on state (the parts that matter here)
  const resets = mcu.findPeripheral(0x4000c000);
  const resetWrite = resets.writeUint32.bind(resets);
  resets.writeUint32 = (offset, value) => {
    const before = resets.reset;
    resetWrite(offset, value);
    const asserted = resets.reset & ~before;
    mcu.i2c.forEach((i2c, k) => {
      if (asserted & (1 << (3 + k))) { i2c.enable = 0; i2c.txFIFO.reset(); i2c.rxFIFO.reset(); }
    });
    mcu.spi.forEach((spi, k) => {
      if (asserted & (1 << (16 + k))) { spi.control1 = 0; spi.txFIFO.reset(); spi.rxFIFO.reset(); }
    });
  };
  // The flash's chip select (QSPI SS) idles high: the Pico pulls it up through a 10 K
  // resistor and the BOOTSEL button pulls it low only while pressed. CircuitPython 10 reads
  // BOOTSEL at start-up (supervisor/port.c port_boot_button_pressed: SS output floated, then
  // SIO GPIO_HI_IN bit 1) and, when it reads low, waits for the button to be released. The
  // bare emulator reads every QSPI pin low (no input set) and leaves the QSPI pads' input
  // enable clear (pads 0x36), where the chip's reset values have IE set (SS: 0x5a): CP 10
  // waited there for ever, with USB never started. Not modelled: pressing BOOTSEL.
  mcu.qspi.forEach((pin) => { pin.padValue |= 0x40; });
  mcu.qspi[1].setInputValue(true);
  // I2C lines and buttons idle high (the board's pull-ups)
  for (const name of Object.keys(buttons)) mcu.gpio[buttons[name]].setInputValue(true);
  if (disp.kind === 'ssd1306') {
    for (const pin of [disp.sda || 4, disp.scl || 5]) mcu.gpio[pin].setInputValue(true);
    bitbangAck(mcu.gpio[disp.sda || 4], mcu.gpio[disp.scl || 5], disp.addr || 0x3c);
  }

  const cdc = new USBCDC(mcu.usbCtrl);
  c.cdc = cdc;
  // the console is UTF-8 both ways, as a terminal's (a character may span two packets)
  const utf8 = new StringDecoder('utf8');
  cdc.onSerialData = (value) => {
    const s = utf8.write(Buffer.from(value));
    // what expect: looks in, kept bounded: a console flooded for minutes (a crash loop) made
    // an ever longer string to append to, and the driver slower by the minute
    c.typed += s;
    if (c.typed.length > 65536) c.typed = c.typed.slice(-32768);
    c.line += s;
    let i;
    while ((i = c.line.indexOf('\n')) >= 0) {
      const text = c.line.slice(0, i).replace(/\r$/, '');
      c.line = c.line.slice(i + 1);
      // CircuitPython says "soft reboot", MicroPython "MPY: soft reboot"
      if (text.includes('soft reboot')) c.reboots++;
      const m = /LBX (\d+) /.exec(text);
      if (m) {
        c.handled = Number(m[1]);
        c.lbx++;
        c.lastLbxEmu = c.emu();
        // the driver waits for this pass: the chip stops here until it has acted, so what
        // comes next starts at the same emulated moment whatever this machine's load (the
        // time the driver took to notice used to run on: a flow's save or dim came or not)
        if (c.stopAtLbx) c.until = c.sim.clock.nanos;
      }
      // an LBX line also says when the panel last took a pixel: the end of that pass's
      // refresh, before the trace's own collect and print (a box without the trace shows
      // its screen then)
      const drawn = m && panel && panel.lastData != null ? Number(panel.lastData.toFixed(4)) : null;
      emit({ t: 'line', boot: c.boot, emu: Number(c.emu().toFixed(4)), text, drawn });
    }
  };
  // rp2040js takes the LAST CDC data interface; boot.py's usb_cdc.enable(console=True,
  // data=True) puts the console first: switch to it once the descriptor is complete
  const usbWrite = mcu.usbCtrl.onEndpointWrite;
  let fixed = false;
  mcu.usbCtrl.onEndpointWrite = (endpoint, buffer) => {
    usbWrite(endpoint, buffer);
    if (!fixed && cdc.descriptorsSize != null && cdc.descriptors.length === cdc.descriptorsSize) {
      fixed = true;
      const ep = firstCdcData(cdc.descriptors);
      if (ep.in >= 0 && ep.out >= 0) { cdc.inEndpoint = ep.in; cdc.outEndpoint = ep.out; }
    }
  };
  cdc.onDeviceConnected = () => { c.connected = true; };
  // The watchdog resets the chip when it runs out, as on the board: a new chip on the same
  // flash, as a power cut (the bare emulator only logged, and its expired timer then fired
  // for ever at the same instant: the driver hung). The run says so: {"t":"watchdog"}.
  const watchdog = mcu.findPeripheral(0x40058000);
  watchdog.onWatchdogTrigger = () => {
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    if (c.stopped) return;
    c.stopped = true;
    // where the core was (pc, lr; asleep or not): a hang's place, for the one reading the run
    emit({ t: 'watchdog', boot: c.boot, emu: Number(c.emu().toFixed(4)),
      pc: mcu.core.PC, lr: mcu.core.registers[14], waiting: mcu.core.waiting });
    setImmediate(() => {
      if (chip !== c) return;
      const flash = new Uint8Array(mcu.flash);
      panel = newPanel();
      chip = powerOn(flash);
    });
  };
  // what is typed waits here until the device asks for it; a host sends an OUT packet only
  // when it has something to send (rp2040js's USBCDC answers every armed OUT endpoint with
  // an empty packet 10 us later: a storm of USB interrupts no real host causes)
  c.outQ = [];
  c.pendingRead = null;
  const feed = (endpoint, size) => {
    const b = new Uint8Array(Math.min(size, c.outQ.length));
    for (let i = 0; i < b.length; i++) b[i] = c.outQ.shift();
    mcu.usbCtrl.endpointReadDone(endpoint, b);
  };
  const cdcRead = mcu.usbCtrl.onEndpointRead;
  // With nothing to send, the host still answers an armed OUT endpoint once a millisecond
  // (an empty packet): a real bus's 1 ms frames wake a sleeping chip, and CircuitPython at
  // times sleeps with no alarm of its own and relies on that. Without it, about one loaded
  // run in three saw the board asleep until the watchdog reset it, 8 s on (a flow then went
  // on in the menu). Once a millisecond, not the bare emulator's every 10 us.
  const frame = sim.clock.createAlarm(() => {
    if (c.pendingRead && !c.stopped) {
      const q = c.pendingRead;
      c.pendingRead = null;
      feed(q.endpoint, q.size);
    }
  });
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) cdcRead(endpoint, size);
    else if (c.outQ.length || !opts.usbIdle) feed(endpoint, size);
    else {
      c.pendingRead = { endpoint, size };
      frame.schedule(1e6);
    }
  };
  c.send = (byte) => {
    c.outQ.push(byte);
    if (c.pendingRead) {
      const q = c.pendingRead;
      c.pendingRead = null;
      feed(q.endpoint, q.size);
    }
  };
  mcu.core.PC = 0x10000000;
  const flashOps = flashFunctions(mcu);
  const slice = () => {
    if (c.stopped) return;
    const { clock } = sim;
    const t0 = Date.now();
    for (;;) {
      for (let i = 0; i < 20000; i++) {
        // the driver's moment (the end of a press, a wait): the chip stops there until the
        // driver has acted, so a 50 ms press is 50 ms on the chip's clock, whatever this
        // machine's load (a sleeping chip used to jump to its next alarm with the button
        // still down: a tap held for hundreds of ms, auto-repeats the app rightly made)
        if (c.until !== null && clock.nanos >= c.until) break;
        if (mcu.core.waiting) {
          let dt = clock.nanosToNextAlarm;
          // asleep with nothing scheduled (MicroPython waits for an interrupt with no tick,
          // CircuitPython always has one): time still passes, a millisecond a slice, so what
          // the driver does at an emulated time (a press, a wait) comes
          const idle = dt <= 0;
          if (idle) dt = 1e6;
          if (c.until !== null) dt = Math.min(dt, c.until - clock.nanos);
          clock.tick(dt);
          if (idle) break;
        } else {
          const pc = mcu.core.registers[15];
          if (pc === flashOps.erase || pc === flashOps.program) flashOps.run(pc);
          // the cycle's length at the system clock the firmware set (125 MHz at reset)
          clock.tick(mcu.core.executeInstruction() * (1e9 / mcu.clkSys));
        }
      }
      if (Date.now() - t0 > 20 || (mcu.core.waiting && clock.nanosToNextAlarm <= 0)) break;
      if (c.until !== null && clock.nanos >= c.until) break;
    }
    setImmediate(slice);
  };
  setImmediate(slice);
  emit({ t: 'boot', boot: c.boot });
  return c;
}

// CircuitPython probes an I2C address with a zero-length write, which the RP2040's I2C block
// cannot do, so it bit-bangs that one on the same pins (ports/raspberrypi/common-hal/busio/
// I2C.c): the OLED answers it at the pin level, pulling SDA low for the ACK of its address
function bitbangAck(sdaPin, sclPin, addr) {
  const LOW = 0;
  let scl = true;
  let sda = true;
  let bits = -1; // -1: no transfer; 0..8: bits of the address byte clocked in; 9: acking
  let byte = 0;
  const update = () => {
    const nscl = sclPin.value !== LOW;
    const nsda = sdaPin.value !== LOW;
    if (nscl && scl && sda && !nsda) { bits = 0; byte = 0; } // START
    else if (nscl && scl && !sda && nsda) { bits = -1; sdaPin.setInputValue(true); } // STOP
    else if (nscl && !scl && bits >= 0 && bits < 8) { byte = (byte << 1) | (nsda ? 1 : 0); bits++; }
    else if (!nscl && scl && bits === 8) {
      if ((byte >> 1) === addr) sdaPin.setInputValue(false);
      bits = 9;
    } else if (!nscl && scl && bits === 9) { sdaPin.setInputValue(true); bits = -1; }
    scl = nscl;
    sda = nsda;
  };
  sdaPin.addListener(update);
  sclPin.addListener(update);
}

// Flash writes: the bare emulator has no SPI flash behind its SSI, so microcontroller.nvm and
// the drive read back unchanged after a write. CircuitPython erases and programs through the
// boot ROM's flash_range_erase ('RE') and flash_range_program ('RP'); when the core reaches
// either, do what the flash chip would (erase to 0xFF, program by AND) and return to the
// caller, as the ROM function would after its own SSI traffic.
function flashFunctions(mcu) {
  const rom16 = (a) => mcu.readUint16(a);
  const code = (c1, c2) => c1.charCodeAt(0) | (c2.charCodeAt(0) << 8);
  const find = (want) => {
    for (let p = rom16(0x14); rom16(p); p += 4) if (rom16(p) === want) return rom16(p + 2) & ~1;
    return -1;
  };
  const ops = { erase: find(code('R', 'E')), program: find(code('R', 'P')), erased: 0,
    programmed: 0 };
  const { flash, sram } = mcu;
  ops.run = (pc) => {
    const r = mcu.core.registers;
    const addr = r[0] & 0xffffff;
    if (pc === ops.erase) {
      flash.fill(0xff, addr, Math.min(addr + r[1], flash.length));
      ops.erased += r[1];
    } else {
      const data = r[1];
      const inRam = data >= 0x20000000 && data + r[2] <= 0x20000000 + sram.length;
      for (let i = 0; i < r[2] && addr + i < flash.length; i++) {
        flash[addr + i] &= inRam ? sram[data - 0x20000000 + i] : mcu.readUint8(data + i);
      }
      ops.programmed += r[2];
    }
    mcu.core.registers[15] = r[14] & ~1; // return (BX LR)
  };
  return ops;
}

function firstCdcData(d) {
  let i = 0;
  let inData = false;
  let seen = false;
  const r = { in: -1, out: -1 };
  while (i + 1 < d.length && d[i] >= 2) {
    const len = d[i];
    const type = d[i + 1];
    if (type === 4 && len === 9) {
      if (seen && r.in >= 0 && r.out >= 0) break;
      inData = d[i + 4] === 2 && d[i + 5] === 0x0a;
      if (inData) seen = true;
    } else if (inData && type === 5 && len === 7 && (d[i + 3] & 3) === 2) {
      if (d[i + 2] & 0x80) r.in = d[i + 2] & 0xf;
      else r.out = d[i + 2] & 0xf;
    }
    i += len;
  }
  return r;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitEmu(ms) {
  const c = chip;
  const until = c.sim.clock.nanos + ms * 1e6;
  c.until = until;  // the chip stops there (powerOn's slice)
  try {
    while (c.sim.clock.nanos < until && !c.stopped) await sleep(2);
  } finally {
    c.until = null;
  }
}
// the app is up when it printed its first LBX line; a crash prints a traceback instead.
// Without an app (--app 0): when the USB console is connected.
async function waitForApp(limitS) {
  const t0 = Date.now();
  const c = chip;
  c.stopAtLbx = opts.app;  // the first pass's moment, exactly (powerOn's line handler)
  try {
    while (opts.app ? c.lbx === 0 : !c.connected) {
      if (Date.now() - t0 > limitS * 1000) {
        throw new Error(opts.app ? 'the app never started (no LBX line)'
          : 'USB never enumerated (no console)');
      }
      await sleep(5);
    }
  } finally {
    c.stopAtLbx = false;
    c.until = null;
  }
}

// the REPL: what is typed goes to the console's OUT endpoint, Enter as CR
function type(text) {
  chip.typed = '';
  for (const ch of Buffer.from(text.replace(/\n/g, '\r'), 'utf8')) chip.send(ch);
}
async function expect(text, limitS) {
  const t0 = Date.now();
  while (!chip.typed.includes(text)) {
    if (Date.now() - t0 > limitS * 1000) {
      throw new Error(`the console never showed ${JSON.stringify(text)}`);
    }
    await sleep(5);
  }
}

async function press(name, holdMs) {
  if (!(name in buttons)) throw new Error(`unknown button ${name}`);
  const before = chip.lbx;
  const reboots = chip.reboots;
  const pin = chip.mcu.gpio[buttons[name]];
  pin.setInputValue(false);
  await waitEmu(holdMs);
  pin.setInputValue(true);
  // until the app has handled it (or a while, for a press that does nothing there), on the
  // chip's clock: it stops at the pass's LBX line or idleS on, and the settle runs from there
  const c = chip;
  const e = c.sim.clock.nanos;
  const t = Date.now();
  c.stopAtLbx = true;
  c.until = e + opts.idleS * 1e9;
  try {
    while (chip === c && c.lbx === before && !c.stopped && Date.now() - t < 600000) {
      // a press that starts another VM (a game, or back to the menu) prints no pass of its
      // own: wait for the new VM's first one
      if (c.reboots > reboots && c.until < e + 60e9) c.until = e + 60e9;
      if (c.sim.clock.nanos >= c.until) break;
      await sleep(2);
    }
  } finally {
    c.stopAtLbx = false;
    c.until = null;
  }
  await waitEmu(opts.settleMs);
}

function shot(name) {
  const img = panel && panel.image();
  if (!img) { emit({ t: 'shot', name, path: null, faults: panel ? panel.faults : [] }); return; }
  const p = path.join(opts.out, `${name}.${img.ext}`);
  fs.writeFileSync(p, img.data);
  emit({ t: 'shot', name, path: p, bytes: panel.bytes, frames: panel.frames,
    shows: panel.shows(), faults: panel.faults });
}

// the emulated clock of the chip now running (a power cut makes a new chip and panel)
// (a fault found before a power cut stays in the run's list)
const newPanel = () => {
  const now = () => (chip ? chip.emu() : 0);
  const p = disp.kind === 'st7789' ? st7789(now) : ssd1306(now);
  if (panel) p.faults = panel.faults;
  return p;
};

async function main() {
  setTimeout(() => {
    emit({ t: 'error', why: 'total timeout' });
    process.exit(3);
  }, opts.timeout * 1000).unref();
  panel = newPanel();
  chip = powerOn(firstFlash());
  await waitForApp(600);
  for (const w0 of words) {
    let w = w0;
    emit({ t: 'key', word: w, emu: Number(chip.emu().toFixed(4)), boot: chip.boot });
    if (w.startsWith('wait:')) await waitEmu(Number(w.slice(5)));
    else if (w.startsWith('mark:')) emit({ t: 'mark', name: w.slice(5), emu: chip.emu() });
    else if (w.startsWith('shot:')) shot(w.slice(5));
    else if (w.startsWith('type:')) type(w.slice(5));
    else if (w.startsWith('expect:')) await expect(w.slice(7), 600);
    else if (w === 'reset') {
      const flash = new Uint8Array(chip.mcu.flash);
      chip.stopped = true;
      panel = newPanel();
      chip = powerOn(flash);
      await waitForApp(600);
    } else {
      let hold = opts.pressMs;
      if (w === 'undo') { w = 'long:back'; }
      if (w.startsWith('long:')) { w = w.slice(5); hold = opts.longMs; }
      await press(w, hold);
    }
  }
  await waitEmu(200);
  emit({ t: 'done', emu: chip.emu(), shows: panel.shows(), faults: panel.faults });
  process.exit(0);
}
main().catch((e) => {
  emit({ t: 'error', why: e.message });
  process.exit(2);
});
