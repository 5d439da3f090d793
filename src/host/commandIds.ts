// Every command the extension registers, by id (package.json contributes the same ids; a unit test
// holds the two lists equal). A plain enum, not a const one, so that the test can list it.

export enum CommandId {
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
  SetupAgentGates = 'failureMemory.setupAgentGates',
  /** Only for end-to-end tests (registered when FAILURE_MEMORY_E2E_LOG is set; hidden otherwise). */
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
