// Every command the extension registers, by id (package.json contributes the same ids).

export const enum CommandId {
  Reflect = 'failureMemory.reflect',
  ShowMemory = 'failureMemory.showMemory',
  MarkResolved = 'failureMemory.markResolved',
  RunAnywayOnce = 'failureMemory.runAnywayOnce',
  ClearMemory = 'failureMemory.clearMemory',
  ExportMemory = 'failureMemory.exportMemory',
  OpenLog = 'failureMemory.openLog',
  DownloadModel = 'failureMemory.downloadModel',
  CopyBrief = 'failureMemory.copyBrief',
  PauseCapture = 'failureMemory.pauseCapture',
  ResumeCapture = 'failureMemory.resumeCapture',
  SetTeamPassword = 'failureMemory.setTeamPassword',
  SyncTeam = 'failureMemory.syncTeam',
  InvokeToolForTests = 'failureMemory.test.invokeTool',
}

/** Reference to one approach in one folder, as commands receive it. */
export interface ApproachRef {
  folder: string;
  key: string;
}

export function isApproachRef(v: unknown): v is ApproachRef {
  return typeof v === 'object' && v !== null && typeof (v as ApproachRef).folder === 'string' && typeof (v as ApproachRef).key === 'string';
}
