/**
 * A catalogue text with one value in bold ('Approve the registration of **Ana Díaz** (…)?'), the value placed
 * where the language puts it. The value is React text, never parsed as markup.
 */
import type { ReactNode } from 'react';

/** Stands for the bold value while the text is translated; no catalogue text holds it. */
const MARK = '\u0000';

export function BoldValue(
  { render, value }: { render(mark: string): string; value: ReactNode },
) {
  const [before, ...after] = render(MARK).split(MARK);
  return (
    <>
      {before}
      <strong>{value}</strong>
      {after.join('')}
    </>
  );
}
