/** The tones of pills, banners and lines (tone-* classes); always with an icon and a word, never colour alone. */
export type Tone = 'ok' | 'info' | 'warning' | 'danger' | 'neutral';
