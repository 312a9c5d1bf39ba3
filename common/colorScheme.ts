/** Where MUI keeps the chosen mode (`light`, `dark` or `system`): its default key. */
export const MODE_STORAGE_KEY = 'mui-mode';

/**
 * Run by index.html before anything is painted: the class of the colour scheme in effect
 * (the one chosen on this browser, else the system's) on <html>, as MUI's ThemeProvider sets
 * it once the app runs, so a page never shows the other scheme first.
 */
export const COLOR_SCHEME_SCRIPT =
  `try{var m=localStorage.getItem('${MODE_STORAGE_KEY}');` +
  "var d=m==='dark'||(m!=='light'&&matchMedia('(prefers-color-scheme: dark)').matches);" +
  "document.documentElement.classList.add(d?'dark':'light')}catch(e){}";
