// The turn chime: two soft notes when the game comes to this player while they look elsewhere (another tab or
// window), as Board Game Arena rings. Made with Web Audio, so there is no sound file to fetch. On by default; the
// choice is kept in this browser.

const KEY = "foodgames.chime";

let audio = null;
let rung = 0;

/** Whether the chime is on in this browser. */
export function chimeOn() {
  try {
    return localStorage.getItem(KEY) !== "0";
  } catch {
    return true;
  }
}

/** Turn the chime on or off in this browser. */
export function setChimeOn(on) {
  try {
    localStorage.setItem(KEY, on ? "1" : "0");
  } catch {
    // A browser that keeps nothing (private mode) still honours the choice until the page closes.
  }
  if (on) unlock();
}

/** How many times the chime rang on this page (for the browser tests). */
export function chimesRung() {
  return rung;
}

// Browsers let a page make sound only after the person has touched it: the audio is made ready at the first
// touch or key, so a chime later, while the tab is in the background, can sound.
function unlock() {
  if (!audio) {
    // Older Safari names it with its prefix.
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return;
    try {
      audio = new Context();
    } catch {
      return;
    }
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
}

/** Make the audio ready at the person's first touch or key on the page. */
export function armChime() {
  const once = () => {
    if (chimeOn()) unlock();
    window.removeEventListener("pointerdown", once, true);
    window.removeEventListener("keydown", once, true);
  };
  window.addEventListener("pointerdown", once, true);
  window.addEventListener("keydown", once, true);
}

/** Whether the person is looking at another tab or window. */
export function lookingElsewhere() {
  return document.hidden || !document.hasFocus();
}

/** Ring once, if the chime is on. */
export function ring() {
  if (!chimeOn()) return;
  rung += 1;
  unlock();
  if (!audio || audio.state !== "running") return;
  const start = audio.currentTime + 0.01;
  for (const [offset, frequency] of [[0, 660], [0.16, 880]]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    // A quick rise and a soft fall: no click at either end.
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.4);
  }
}
