/**
 * The offender portal runs on shared facility tablets, touched with a finger:
 * every antd control (buttons, fields, selects, a modal's ×, the viewer's
 * toolbar) is 44 CSS px high, the target size of WCAG 2.5.5 and of Apple's and
 * Android's touch guidelines. Nested inside the app's theme, so only the height changes.
 */
import type { ThemeConfig } from 'antd';

export const TABLET_THEME: ThemeConfig = {
  token: { controlHeight: 44 },
};
