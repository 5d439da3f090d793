// Generated from package.json's contributes.configuration by scripts/gen-settings.mjs: do not edit.
// Each failureMemory.* setting's type, default and limits as declared there (with its description);
// src/core/config.ts derives the settings' types from this and validates their values with it.
export const DECLARED_SETTINGS = {
  "threshold": { type: "integer", default: 5, minimum: 1, maximum: 1000 },
  "blockMode": { type: "string", enum: ["interrupt", "warn", "off"], default: "interrupt" },
  "gate.strongestAnswer": { type: "string", enum: ["deny", "ask", "warn"], default: "deny" },
  "shortTermWindow": { type: "integer", default: 5, minimum: 1, maximum: 100 },
  "capture.terminal": { type: "boolean", default: true },
  "capture.tasks": { type: "boolean", default: true },
  "storeOutput": { type: "boolean", default: true },
  "maxOutputBytes": { type: "integer", default: 16384, minimum: 1024, maximum: 1048576 },
  "redaction.extraPatterns": { type: "array", default: [] },
  "ignoreCommands": { type: "array", default: [] },
  "notifications.sameError": { type: "boolean", default: true },
  "reflection.useLanguageModel": { type: "boolean", default: false },
  "reflection.earlierReflections": { type: "integer", default: 3, minimum: 1, maximum: 10 },
  "embeddings.modelPath": { type: "string", default: "" },
  "embeddings.allowDownload": { type: "boolean", default: true },
  "team.enabled": { type: "boolean", default: false },
  "team.databaseUrl": { type: "string", default: "" },
  "team.project": { type: "string", default: "" },
  "team.shareOutput": { type: "boolean", default: false },
  "team.blockOnTeamFailures": { type: "boolean", default: false },
  "team.machineName": { type: "string", default: "" },
  "team.pullIntervalSeconds": { type: "integer", default: 60, minimum: 10, maximum: 3600 },
  "team.retentionDays": { type: "integer", default: 90, minimum: 0, maximum: 3650 },
  "team.maxRowsPerProject": { type: "integer", default: 100000, minimum: 0, maximum: 100000000 },
} as const;
