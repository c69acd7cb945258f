// Short sounds made in the browser (Web Audio): your turn, a card played, a
// trick won, the turn timer running out. Nothing is loaded from anywhere. The
// mute switch is kept across visits (localStorage "sparts.sound").

const KEY = "sparts.sound";

// Each: notes of [frequency Hz, start s, length s, wave].
const SOUNDS = {
  turn: [[660, 0, 0.11, "sine"], [880, 0.12, 0.16, "sine"]],
  card: [[190, 0, 0.05, "triangle"]],
  trick: [[523, 0, 0.09, "sine"], [659, 0.08, 0.09, "sine"], [784, 0.16, 0.16, "sine"]],
  warn: [[440, 0, 0.16, "square"], [440, 0.28, 0.16, "square"]],
};

export class Sound {
  constructor() {
    this.muted = localStorage.getItem(KEY) === "off";
    this.ctx = null;
    this.played = []; // what was played, for the tests: [kind, ...] (the last 50)
  }

  setMuted(muted) {
    this.muted = muted;
    try {
      localStorage.setItem(KEY, muted ? "off" : "on");
    } catch {
      // storage disabled: the switch holds for this visit
    }
  }

  play(kind) {
    const notes = SOUNDS[kind];
    if (this.muted || !notes) return;
    this.played.push(kind);
    if (this.played.length > 50) this.played.shift();
    try {
      this.ctx ??= new AudioContext();
      // A page may not start sound before the person has touched it; the context then waits.
      if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
      const now = this.ctx.currentTime;
      for (const [freq, start, length, wave] of notes) {
        const osc = this.ctx.createOscillator();
        const gain = this.ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + start);
        gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
        osc.connect(gain).connect(this.ctx.destination);
        osc.start(now + start);
        osc.stop(now + start + length + 0.02);
      }
    } catch {
      // no Web Audio here: silence
    }
  }
}
