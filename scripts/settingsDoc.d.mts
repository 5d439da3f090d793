// Types of scripts/settingsDoc.mjs (a plain Node script: gen-settings.mjs runs it without a compiler).
export const SETTINGS_START: string;
export const SETTINGS_END: string;
export function settingsMarkdown(properties: Record<string, Record<string, unknown>>): string;
export function withSettings(doc: string, properties: Record<string, Record<string, unknown>>): string | undefined;
