/** The antd theme: one brand colour, system fonts only (no web fonts are fetched). */
import type { ThemeConfig } from 'antd';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1f3a5f',
    colorLink: '#1f5fa8',
    borderRadius: 6,
    // Secondary text (Typography type='secondary', descriptions, the footer's 'Powered by'): antd's default,
    // black at 45% (#8c8c8c), is 3.4:1 on white, under WCAG 1.4.3's 4.5:1; at 65% (#595959) it is 7:1.
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    // Danger buttons' text and error messages: antd's #ff4d4f is 3.4:1 on white; this red is 5.9:1.
    colorError: '#cf1322',
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    // The derived selection colour of a dark primary is a mid grey; a light tint keeps the text readable.
    Menu: { itemSelectedBg: '#e6edf5', itemSelectedColor: '#1f3a5f' },
  },
};
