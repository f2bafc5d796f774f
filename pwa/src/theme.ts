/** The antd theme: one brand colour, system fonts only (no web fonts are fetched). */
import type { ThemeConfig } from 'antd';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1f3a5f',
    colorLink: '#1f5fa8',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    // The derived selection colour of a dark primary is a mid grey; a light tint keeps the text readable.
    Menu: { itemSelectedBg: '#e6edf5', itemSelectedColor: '#1f3a5f' },
  },
};
