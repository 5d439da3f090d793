// Normalizing an error line: masking what changes from one run of the same failure to the next
// (timestamps, durations, PIDs, ports, temp paths, ids, line:col positions), so that the same failure
// gives the same text on every run while different failures stay different. Pure and linear.

const PATH_TAIL = String.raw`[^\s'"\`()<>,;|]*`;
const TMP_RE = new RegExp(
  [
    // POSIX temp dirs: /tmp, /var/tmp, macOS /var/folders (also under /private), /dev/shm
    String.raw`(?<![\w.~-])(?:\/private)?\/(?:tmp|var\/tmp|var\/folders|dev\/shm)(?![\w.-])(?:\/${PATH_TAIL})?`,
    // Windows temp dirs
    String.raw`(?<![\w])[A-Za-z]:[\\\/](?:Users[\\\/][^\\\/\s]+[\\\/]AppData[\\\/]Local[\\\/]Temp|Windows[\\\/]Temp|Temp|tmp)(?![\w.-])(?:[\\\/]${PATH_TAIL})?`,
    // $TMPDIR-like references
    String.raw`\$\{?(?:TMPDIR|TEMP|TMP)\}?(?:[\\\/]${PATH_TAIL})?`,
    String.raw`%(?:TEMP|TMP)%(?:[\\\/]${PATH_TAIL})?`,
  ].join('|'),
  'gi',
);
const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const ISO_RE =
  /\b\d{4}[-/]\d{2}[-/]\d{2}(?:[T _]\d{2}[:_]\d{2}(?:[:_]\d{2}(?:[.,_]\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2}\b)?(?!\d)/g;
const MONTHS = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const DAYS = 'Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?';
const MONTH_DATE_RE = new RegExp(
  String.raw`\b(?:(?:${DAYS}),?\s+)?(?:\d{1,2}\s+)?(?:${MONTHS})\.?\s+\d{1,4}(?:,?\s+\d{4})?\b`,
  'g',
);
const SLASH_DATE_RE = /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g;
const CLOCK_RE = /(?<![\w:.])\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?(?:\s?[AP]M\b)?|\s?[AP]M\b)(?![\w:])/gi;
const ADDR_RE = /\b0x[0-9a-f]{6,}\b/gi;
const HOST_PORT_RE = /(\blocalhost|\b\d{1,3}(?:\.\d{1,3}){3}|\]|::|\*):\d{1,5}\b/g;
const URL_PORT_RE = /(:\/\/[\w.-]+):\d{1,5}\b/g;
const PORT_WORD_RE = /\b(port)\b\s*(?:[:=]\s*)?\d{1,5}\b/gi;
const PID_RE = /\b(pid|PID|Pid)\b\s*(?:[:=#]\s*)?\d+|\((node|deno|bun):\d+\)|\[\d{3,7}\]/g;
const DUR_RE =
  /\b(?:\d+(?:\.\d+)?(?:ms|µs|us|ns|h|m|s))+(?![\w])|\b\d+(?:\.\d+)?\s?(?:msecs?|secs?|seconds?|mins?|minutes?|hrs?|hours?)\b|\b\d+(?:\.\d+)?\s(?:ms|s)\b/g;
const FILE_BEFORE = String.raw`(?<=\.[A-Za-z][\w-]{0,9}|\b(?:Makefile|makefile|GNUmakefile|Dockerfile|Containerfile|Jenkinsfile|Rakefile|Gemfile|Vagrantfile)|<anonymous>|[)\]])`;
const PAREN_POS_RE = new RegExp(String.raw`(?<=\.[A-Za-z][\w-]{0,9})\(\d+,\s*\d+\)`, 'g');
const BRACKET_POS_RE = new RegExp(String.raw`(?<=\.[A-Za-z][\w-]{0,9}:)\[\d+,\s*\d+\]`, 'g');
const LINE_COL_RE = new RegExp(String.raw`${FILE_BEFORE}(?::\d+){1,3}(?!\d)`, 'g');
const LINE_WORD_RE = /\b(line|Line|column|Column|col|ln)\s+\d+/g;
const HEX_RE = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
const LONG_NUM_RE = /\b\d{5,}\b/g;

/**
 * Masks what changes between two runs of the same failure: timestamps and dates (`<time>`),
 * durations (`<dur>`), PIDs (`<pid>`), ports (`<port>`), temp paths (`<tmp>`), UUIDs (`<uuid>`),
 * hex ids and SHAs (`<hex>`), memory addresses (`<addr>`), line:col positions and long numbers (`<n>`);
 * collapses whitespace. Error codes (ENOENT, TS2322, E0425, 404…) and the words stay.
 */
export function normalizeErrorLine(line: string): string {
  if (!line) return '';
  let s = line.length > 4000 ? line.slice(0, 4000) : line;
  s = s.replace(TMP_RE, '<tmp>');
  s = s.replace(UUID_RE, '<uuid>');
  s = s.replace(ISO_RE, '<time>');
  s = s.replace(MONTH_DATE_RE, '<time>');
  s = s.replace(SLASH_DATE_RE, '<time>');
  s = s.replace(CLOCK_RE, '<time>');
  // HRESULT-like codes (0x8…/0xC… with 8 digits) are error codes, not addresses
  s = s.replace(ADDR_RE, m => (m.length === 10 && /^0x[89c]/i.test(m) ? m : '<addr>'));
  s = s.replace(HOST_PORT_RE, '$1:<port>');
  s = s.replace(URL_PORT_RE, '$1:<port>');
  s = s.replace(PORT_WORD_RE, '$1 <port>');
  s = s.replace(PID_RE, (m, word: string | undefined, runtime: string | undefined) =>
    word ? `${word} <pid>` : runtime ? `(${runtime}:<pid>)` : '[<pid>]',
  );
  s = s.replace(DUR_RE, '<dur>');
  s = s.replace(PAREN_POS_RE, '(<n>,<n>)');
  s = s.replace(BRACKET_POS_RE, '[<n>,<n>]');
  s = s.replace(LINE_COL_RE, m => m.replace(/\d+/g, '<n>'));
  s = s.replace(LINE_WORD_RE, '$1 <n>');
  s = s.replace(HEX_RE, '<hex>');
  s = s.replace(LONG_NUM_RE, '<n>');
  return s.replace(/\s+/g, ' ').trim();
}
