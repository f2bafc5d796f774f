/**
 * An icon drawn from one SVG path of antd's icon set (its 64 64 896 896 view box), inline: the tablet's and
 * the lists' path carries no icon library. Decorative: hidden from screen readers, never focused.
 */
export function InlineIcon({ path }: { path: string }) {
  return (
    <svg
      viewBox='64 64 896 896'
      width='1em'
      height='1em'
      fill='currentColor'
      aria-hidden='true'
      focusable='false'
    >
      <path d={path} />
    </svg>
  );
}
