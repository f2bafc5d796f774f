/**
 * Reads a document aloud with the browser's own speech synthesis (Web Speech API): one utterance per sentence,
 * page after page, so the sentence being read can be shown and a pause, a stop or a new speed takes effect at
 * once. The voices are the tablet's, so it reads offline too.
 */
import { type Position, type Speed } from './speech.ts';

export type PlayerState = 'playing' | 'paused' | 'stopped' | 'finished' | 'failed';

export interface PlayerListener {
  /** A sentence starts being read (its page is where reading is now). */
  sentence(at: Position, text: string): void;
  /** The voice reached a word: its place in the sentence (from the utterance's boundary events). */
  word(charIndex: number, charLength: number): void;
  state(state: PlayerState): void;
}

export interface PlayerOptions {
  synth: SpeechSynthesis;
  voice: SpeechSynthesisVoice;
  language: string;
  pageCount: number;
  /** A page's sentences (1-based page), fetched when reading reaches it. */
  sentencesOf(page: number): Promise<string[]>;
  listener: PlayerListener;
}

export class ReadAloudPlayer {
  #options: PlayerOptions;
  #at: Position = { page: 1, sentence: 0 };
  #sentences: string[] = [];
  #rate: Speed = 1;
  /** Bumped on every start, stop and speed change: events of an utterance cancelled since are ignored. */
  #run = 0;
  #state: PlayerState = 'stopped';

  constructor(options: PlayerOptions) {
    this.#options = options;
  }

  get state(): PlayerState {
    return this.#state;
  }

  /** Reads from the first sentence of `page` on. */
  async start(page: number): Promise<void> {
    const run = this.#restart();
    this.#set('playing');
    try {
      const found = await this.#firstPageWithText(page, run);
      if (run !== this.#run) return;
      if (!found) return this.#set('finished');
      this.#speak(run);
    } catch {
      if (run === this.#run) this.#fail();
    }
  }

  pause(): void {
    if (this.#state !== 'playing') return;
    this.#options.synth.pause();
    this.#set('paused');
  }

  resume(): void {
    if (this.#state !== 'paused') return;
    this.#options.synth.resume();
    this.#set('playing');
  }

  stop(): void {
    this.#restart();
    this.#set('stopped');
  }

  /** A new speed: the sentence being read starts again at it. */
  setRate(rate: Speed): void {
    this.#rate = rate;
    if (this.#state !== 'playing' && this.#state !== 'paused') return;
    const run = this.#restart();
    this.#set('playing');
    this.#speak(run);
  }

  #restart(): number {
    this.#run++;
    // cancel() also clears a pause, so what follows is heard.
    this.#options.synth.cancel();
    return this.#run;
  }

  #set(state: PlayerState): void {
    this.#state = state;
    this.#options.listener.state(state);
  }

  /** Moves to the first sentence of the first page from `page` on that has text; false when none has. */
  async #firstPageWithText(page: number, run: number): Promise<boolean> {
    for (let p = page; p <= this.#options.pageCount; p++) {
      const sentences = await this.#options.sentencesOf(p);
      if (run !== this.#run) return false;
      if (sentences.length > 0) {
        this.#at = { page: p, sentence: 0 };
        this.#sentences = sentences;
        return true;
      }
    }
    return false;
  }

  #speak(run: number): void {
    const { synth, voice, language, listener } = this.#options;
    const at = this.#at;
    const text = this.#sentences[at.sentence];
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.voice = voice;
    utterance.lang = voice.lang || language;
    utterance.rate = this.#rate;
    utterance.addEventListener('start', () => {
      if (run === this.#run) listener.sentence(at, text);
    });
    utterance.addEventListener('boundary', (event) => {
      if (run === this.#run && event.name !== 'sentence') {
        listener.word(event.charIndex, event.charLength ?? 0);
      }
    });
    utterance.addEventListener('end', () => {
      if (run === this.#run) void this.#advance(run);
    });
    utterance.addEventListener('error', (event) => {
      // 'interrupted' and 'canceled' are our own stop, pause or speed change.
      if (run !== this.#run || event.error === 'interrupted' || event.error === 'canceled') return;
      this.#fail();
    });
    // The sentence shows as soon as it is queued: some voices fire 'start' late, or never.
    listener.sentence(at, text);
    synth.speak(utterance);
  }

  /** Reading cannot go on (a page's text could not be read, the voice failed): it stops and says so. */
  #fail(): void {
    this.#restart();
    this.#set('failed');
  }

  async #advance(run: number): Promise<void> {
    if (this.#at.sentence + 1 < this.#sentences.length) {
      this.#at = { page: this.#at.page, sentence: this.#at.sentence + 1 };
      return this.#speak(run);
    }
    try {
      const found = await this.#firstPageWithText(this.#at.page + 1, run);
      if (run !== this.#run) return;
      if (!found) {
        this.#run++;
        return this.#set('finished');
      }
      this.#speak(run);
    } catch {
      if (run === this.#run) this.#fail();
    }
  }
}
