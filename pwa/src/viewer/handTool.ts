/**
 * The hand tool: dragging the document pans it, the way pdf.js's own viewer
 * does, instead of selecting text.
 */

/** Starts panning `container` on drag; returns the function that stops it. */
export function attachHandTool(container: HTMLElement): () => void {
  const abort = new AbortController();
  const { signal } = abort;
  let last: { x: number; y: number } | null = null;
  container.classList.add('viewer-hand');
  container.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    last = { x: event.clientX, y: event.clientY };
    container.classList.add('viewer-hand-grabbing');
    event.preventDefault();
  }, { signal });
  window.addEventListener('pointermove', (event) => {
    if (!last) return;
    container.scrollLeft -= event.clientX - last.x;
    container.scrollTop -= event.clientY - last.y;
    last = { x: event.clientX, y: event.clientY };
  }, { signal });
  const release = () => {
    last = null;
    container.classList.remove('viewer-hand-grabbing');
  };
  window.addEventListener('pointerup', release, { signal });
  window.addEventListener('pointercancel', release, { signal });
  return () => {
    abort.abort();
    release();
    container.classList.remove('viewer-hand');
  };
}
