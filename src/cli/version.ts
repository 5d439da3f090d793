/** The version the CLI reports (package.json's). */
export const VERSION = '0.1.0';
