// Diagnosis codes of the orchestrator itself (the chains have their own tables).
export const CHECK_DIAGNOSES = {
  CHECK_INTERNAL_ERROR:
    'A check stopped on an unexpected error inside floe (a bug); its unfinished steps are marked failed.',
} as const;

export type CheckDiagnosisCode = keyof typeof CHECK_DIAGNOSES;
