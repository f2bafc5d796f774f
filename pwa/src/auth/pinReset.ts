/** The day staff reset a PIN, in the reader's language, in plain words ("November 26, 2026" in English). */
export function resetDate(iso: string | undefined, language: string): string {
  const at = iso ? new Date(iso) : new Date();
  return at.toLocaleDateString(language, { day: 'numeric', month: 'long', year: 'numeric' });
}
