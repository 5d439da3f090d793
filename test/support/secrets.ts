// The redaction corpus shared by the tests of everything that stores or hands over text (memory, brief).
// Fake secrets are assembled from pieces so that secret scanners do not flag this repository.
export const rep = (s: string, n: number) => s.repeat(n);
export const FAKE = {
  awsId: 'AKIA' + 'IOSFODNN7' + 'EXAMPLE',
  awsSessionId: 'ASIA' + rep('Q7', 8),
  awsSecret: 'wJalrXUtnFEMI' + '/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY',
  gcpKey: 'AIza' + 'Sy' + rep('A1b2C3d4e5', 3) + 'F6g',
  ghp: 'ghp_' + rep('a1B2c3D4e5', 3) + 'xYzW12',
  gho: 'gho_' + rep('Z9y8X7w6V5', 4),
  ghs: 'ghs_' + rep('Q1w2E3r4T5', 4),
  ghPat: 'github_pat_' + '11ABCDEFG0' + rep('abcXYZ123_', 6),
  glpat: 'glpat-' + rep('Ab3_dE6-', 3),
  npm: 'npm_' + rep('A1b2C3d4E5', 3) + 'abcdef',
  slackBot: 'xoxb-' + '1234567890' + '-' + '0987654321' + '-' + rep('aBcD', 6),
  slackHook: 'https://hooks.slack.com/services/' + 'T0000' + 'AAAA/B0000BBBB/' + rep('XyZ1', 6),
  stripe: 'sk_' + 'live_' + rep('4eC39HqLyjWDarjtT1zdp7dc', 1),
  stripeTest: 'sk_' + 'test_' + rep('51Hq', 6),
  stripeRestricted: 'rk_' + 'live_' + rep('Zz9', 8),
  sendgrid: 'SG' + '.' + rep('aB1cD2eF3g', 2) + '.' + rep('hI4jK5lM6n', 4),
  twilioSid: 'AC' + rep('0a1b2c3d', 4),
  twilioKey: 'SK' + rep('9f8e7d6c', 4),
  openai: 'sk-' + rep('T3BlbkFJ', 6),
  openaiProj: 'sk-' + 'proj-' + rep('Ab1_Cd2-Ef3', 8),
  anthropic: 'sk-' + 'ant-' + 'api03-' + rep('Xy9_Zw8-', 12),
  hf: 'hf_' + rep('AbCdEfGhIj', 3) + 'Klmn',
  jwt: 'eyJ' + 'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' + '.' + 'eyJ' + 'zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ' + '.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  pemBody: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7' + '\n' + rep('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo', 2),
};
