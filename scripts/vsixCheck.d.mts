// Types of scripts/vsixCheck.mjs (a plain Node script: package.mjs runs it without a compiler).
export interface RuntimeFile {
  path: string;
  why: string;
}
export function builtBundles(distDir: string): string[];
export function manifestFiles(pkg: Record<string, unknown>): string[];
export function namedAssets(text: string, has: (path: string) => boolean): string[];
export function cssUrls(cssText: string, cssPath: string): string[];
export function markdownImages(mdText: string, mdPath: string): string[];
export function runtimeFiles(root: string): RuntimeFile[];
export function missingFromVsix(entries: readonly string[], required: readonly RuntimeFile[]): RuntimeFile[];
