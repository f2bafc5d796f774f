/**
 * The Read aloud bar under the viewer's toolbar, loaded only when a reader asks for it: it reads the document
 * from the page shown, with play and pause, stop and speed, and shows the sentence being read in large type
 * with the word being spoken marked. The caption is plain text, not a live region: the voice already says it,
 * and a screen reader saying it at the same time would talk over it; the state (paused, finished, no voice)
 * is announced.
 */
import { CaretRightOutlined, PauseOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PdfDocument } from '../engine.ts';
import { type PlayerState, ReadAloudPlayer } from './player.ts';
import {
  chooseVoice,
  pageText,
  readingLanguage,
  type Speed,
  SPEEDS,
  splitSentences,
  type TextPiece,
} from './speech.ts';

export interface ReadAloudPanelProps {
  pdf: PdfDocument;
  /** The page shown when Read aloud was pressed: reading starts there. */
  startPage: number;
  /** Shows a page (reading moved on to it). */
  showPage(page: number): void;
}

type Phase =
  | { kind: 'preparing' }
  | { kind: 'unsupported' }
  | { kind: 'noText' }
  | { kind: 'noVoice'; language: string }
  | { kind: 'ready'; player: ReadAloudPlayer };

/** The browser's voices; Chromium lists them only after 'voiceschanged', so that is waited for a moment. */
function voicesOf(synth: SpeechSynthesis): Promise<SpeechSynthesisVoice[]> {
  const now = synth.getVoices();
  if (now.length > 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => {
      synth.removeEventListener('voiceschanged', done);
      clearTimeout(timer);
      resolve(synth.getVoices());
    };
    const timer = setTimeout(done, 1500);
    synth.addEventListener('voiceschanged', done);
  });
}

/** The language's name in the reader's language ('Spanish', 'inglés'). */
function languageName(tag: string, readerLanguage: string): string {
  try {
    return new Intl.DisplayNames([readerLanguage], { type: 'language' }).of(tag.split('-')[0]) ?? tag;
  } catch {
    return tag;
  }
}

export default function ReadAloudPanel({ pdf, startPage, showPage }: ReadAloudPanelProps) {
  const { t, i18n } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ kind: 'preparing' });
  const [state, setState] = useState<PlayerState>('stopped');
  const [caption, setCaption] = useState<{ page: number; text: string } | null>(null);
  const [word, setWord] = useState<{ at: number; length: number } | null>(null);
  const [speed, setSpeed] = useState<Speed>(1);
  const showPageRef = useRef(showPage);
  showPageRef.current = showPage;
  const shownPage = useRef(startPage);

  useEffect(() => {
    let cancelled = false;
    let player: ReadAloudPlayer | null = null;
    const synth = typeof speechSynthesis === 'undefined' ? null : speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === 'undefined') {
      setPhase({ kind: 'unsupported' });
      return;
    }
    const texts = new Map<number, Promise<string[]>>();
    let language = i18n.language;
    const sentencesOf = (page: number) => {
      let found = texts.get(page);
      if (!found) {
        found = pdf.getPage(page)
          .then((p) => p.getTextContent())
          .then((content) => splitSentences(pageText(content.items as TextPiece[]), language));
        texts.set(page, found);
      }
      return found;
    };
    (async () => {
      const metadata = await pdf.getMetadata().catch(() => null);
      const declared = (metadata?.info as { Language?: string } | undefined)?.Language;
      language = readingLanguage(declared, i18n.language);
      // A document with no text on any page (a scan) says so before anything else.
      let hasText = false;
      for (let page = 1; page <= pdf.numPages && !hasText && !cancelled; page++) {
        hasText = (await sentencesOf(page)).length > 0;
      }
      if (cancelled) return;
      if (!hasText) return setPhase({ kind: 'noText' });
      const voice = chooseVoice(await voicesOf(synth), language);
      if (cancelled) return;
      if (!voice) return setPhase({ kind: 'noVoice', language });
      player = new ReadAloudPlayer({
        synth,
        voice,
        language,
        pageCount: pdf.numPages,
        sentencesOf,
        listener: {
          sentence(at, text) {
            if (cancelled) return;
            setCaption({ page: at.page, text });
            setWord(null);
            if (at.page !== shownPage.current) {
              shownPage.current = at.page;
              showPageRef.current(at.page);
            }
          },
          word(at, length) {
            if (!cancelled) setWord({ at, length });
          },
          state(next) {
            if (!cancelled) setState(next);
          },
        },
      });
      setPhase({ kind: 'ready', player });
      void player.start(startPage);
    })().catch(() => {
      if (!cancelled) setPhase({ kind: 'noText' });
    });
    // A viewer window closed mid-sentence stops speaking with it.
    const silence = () => player?.stop();
    addEventListener('pagehide', silence);
    return () => {
      cancelled = true;
      removeEventListener('pagehide', silence);
      player?.stop();
    };
    // Read aloud starts once per opening of the bar, from the page shown then.
  }, [pdf]);

  if (phase.kind !== 'ready') {
    const message = phase.kind === 'preparing'
      ? null
      : phase.kind === 'noText'
      ? t('readAloud.noText')
      : phase.kind === 'noVoice'
      ? t('readAloud.noVoice', { language: languageName(phase.language, i18n.language) })
      : t('readAloud.unsupported');
    return (
      <section className='read-aloud' aria-label={t('readAloud.region')} data-testid='read-aloud'>
        {message === null
          ? <Typography.Text role='status'>{t('readAloud.preparing')}</Typography.Text>
          : <Alert type='warning' role='alert' title={message} showIcon />}
      </section>
    );
  }

  const { player } = phase;
  const playing = state === 'playing';
  const status = state === 'paused'
    ? t('readAloud.paused', { page: caption?.page ?? startPage })
    : state === 'finished'
    ? t('readAloud.finished')
    : state === 'failed'
    ? t('readAloud.failed')
    : state === 'stopped'
    ? t('readAloud.stopped')
    : '';

  return (
    <section className='read-aloud' aria-label={t('readAloud.region')} data-testid='read-aloud'>
      <Flex wrap gap={8} align='center'>
        {playing
          ? (
            <Button icon={<PauseOutlined aria-hidden />} onClick={() => player.pause()}>
              {t('readAloud.pause')}
            </Button>
          )
          : (
            <Button
              type='primary'
              icon={<CaretRightOutlined aria-hidden />}
              onClick={() => state === 'paused' ? player.resume() : void player.start(shownPage.current)}
            >
              {state === 'paused' ? t('readAloud.resume') : t('readAloud.play')}
            </Button>
          )}
        <Button
          icon={<StopOutlined aria-hidden />}
          onClick={() => player.stop()}
          disabled={state === 'stopped' || state === 'finished'}
        >
          {t('readAloud.stop')}
        </Button>
        <Flex gap={6} align='center'>
          <Typography.Text id='read-aloud-speed'>{t('readAloud.speed')}</Typography.Text>
          <Select
            aria-labelledby='read-aloud-speed'
            className='read-aloud-speed'
            value={speed}
            options={SPEEDS.map((value) => ({ value, label: `${value}×` }))}
            onChange={(value: Speed) => {
              setSpeed(value);
              player.setRate(value);
            }}
            virtual={false}
          />
        </Flex>
        <span className='read-aloud-state' role='status'>{status}</span>
      </Flex>
      {caption && (
        <p className='read-aloud-caption' data-testid='read-aloud-caption' data-page={caption.page}>
          <span className='visually-hidden'>{t('readAloud.caption', { page: caption.page })}</span>
          <Caption text={caption.text} word={word} />
        </p>
      )}
    </section>
  );
}

/** The sentence, with the word being spoken marked when the voice reports where it is. */
function Caption({ text, word }: { text: string; word: { at: number; length: number } | null }) {
  if (!word || word.at < 0 || word.at >= text.length) {
    return <span className='read-aloud-sentence'>{text}</span>;
  }
  const end = word.length > 0 ? word.at + word.length : (text.slice(word.at).search(/\s|$/) + word.at);
  return (
    <span className='read-aloud-sentence'>
      {text.slice(0, word.at)}
      <mark className='read-aloud-word'>{text.slice(word.at, end)}</mark>
      {text.slice(end)}
    </span>
  );
}
