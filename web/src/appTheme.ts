/** The app's antd theme seeds: brand blue and rounded corners (the console, and the viewer's antd parts). */
export const APP_THEME = { colorPrimary: '#2563eb', borderRadius: 8 };
