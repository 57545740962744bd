import { useRef, useState } from 'react';
import { isInterrupt, type Keypress } from '../../text/keys.js';
import { editLine, lineAtEnd } from '../components/line.js';
import { useBracketedPaste } from '../components/TextInput.js';
import { inkStyle, useKeys } from '../components/useKeys.js';
import { KEYMAP, keyScreen, matches } from './keymap.js';
import { type Action, actionJob, type JobAction, type JobsState, syncRunning } from './state.js';
import type { useJobsBrowser } from './useJobsBrowser.js';
import type { useRunLogs } from './useRunLogs.js';

export interface JobsKeysOptions {
  latest: () => JobsState;
  dispatch: (action: Action) => void;
  commands: ReturnType<typeof useJobsBrowser>['commands'];
  runLogs: ReturnType<typeof useRunLogs>;
  /** Rows of the detail panes. */
  panes: number;
  logsLimit: number;
  onExit: (code: number) => void;
  /** False while another screen (the connection test) has the keyboard. */
  active: boolean;
  /** t in a job's detail: test the job's destination. */
  onTest: () => void;
  /** b in a job's detail: the tables of the job's streams. */
  onTables: () => void;
  /** The secret a job's destination test asks for, when one is being asked for (read per key). */
  secretPrompt: {
    asking: () => boolean;
    submit: (value: string) => void;
    cancel: () => void;
  };
}

/** Stars for the one-line secret fields: the characters typed so far, never the text. */
export interface Masked {
  password: number;
  secret: number;
}

/** The password (on sign-in) and the secret a destination test asks for: typed, cancelled, submitted. */
function useSecretFields(
  commands: JobsKeysOptions['commands'],
  secretPrompt: JobsKeysOptions['secretPrompt'],
) {
  // The password and the test's secret are kept out of React state and the reducer: only their
  // lengths are rendered, as stars.
  const secret = useRef('');
  const testSecret = useRef('');
  const [masked, setMasked] = useState<Masked>({ password: 0, secret: 0 });

  const typeSecret = (text: string) => {
    secret.current = text;
    setMasked((m) => ({ ...m, password: [...text].length }));
  };
  const typeTestSecret = (text: string) => {
    testSecret.current = text;
    setMasked((m) => ({ ...m, secret: [...text].length }));
  };
  const testSecretKeys = (press: Keypress) => {
    if (press.name === 'escape') {
      typeTestSecret('');
      return secretPrompt.cancel();
    }
    const edit = editLine(lineAtEnd(testSecret.current), press);
    if (!edit) return;
    // Enter on an empty field does nothing: the test needs the secret.
    if (edit.submitted && edit.line.value === '') return;
    typeTestSecret(edit.submitted ? '' : edit.line.value);
    if (edit.submitted) secretPrompt.submit(edit.line.value);
  };
  const passwordKeys = (press: Keypress) => {
    if (press.name === 'escape') {
      typeSecret('');
      return commands.cancelPassword();
    }
    const edit = editLine(lineAtEnd(secret.current), press);
    if (!edit) return;
    typeSecret(edit.submitted ? '' : edit.line.value);
    if (edit.submitted) commands.submitPassword(edit.line.value);
  };
  return { masked, passwordKeys, testSecretKeys };
}

/** p, r or c: asks to confirm the action on the action job (c only while a sync runs). */
function askToConfirm(
  state: JobsState,
  dispatch: JobsKeysOptions['dispatch'],
  action: 'sync' | 'toggle' | 'cancel',
) {
  const job = actionJob(state);
  if (!job) return;
  if (action === 'cancel' && !syncRunning(state))
    return dispatch({
      type: 'notice',
      tone: 'warn',
      text: `Nothing is running for “${job.name}”: c cancels a running sync`,
    });
  const resolved: JobAction = action === 'toggle' ? (job.activate ? 'pause' : 'resume') : action;
  dispatch({ type: 'confirm', action: resolved, jobId: job.id, name: job.name });
}

/** The open log's older or newer page, when there is one and none is loading. */
function pageLogs(
  state: JobsState,
  commands: JobsKeysOptions['commands'],
  limit: number,
  direction: 'older' | 'newer',
): void {
  const logs = state.detail?.logs;
  if (direction === 'older' && logs?.page?.has_more_older && !logs.loading)
    commands.loadLogs(logs.task, { cursor: logs.page.older_cursor, limit, direction: 'older' });
  if (direction === 'newer' && logs?.page?.has_more_newer && !logs.loading)
    commands.loadLogs(logs.task, { cursor: logs.page.newer_cursor, limit, direction: 'newer' });
}

/** Edits a one-line text field (filter, project, search) with the key; null when the key does nothing. */
const editField = (text: string, press: Keypress) => editLine(lineAtEnd(text), press) ?? null;

/** The log search field: typed, Enter for the next match, Esc closes it. */
function searchKeys(dispatch: JobsKeysOptions['dispatch'], press: Keypress, search: string) {
  if (press.name === 'escape') return dispatch({ type: 'log-search-close' });
  const edit = editField(search, press);
  if (!edit) return;
  if (edit.line.value !== search) dispatch({ type: 'log-search-change', text: edit.line.value });
  if (edit.submitted) dispatch({ type: 'log-search-next' });
}

/** The filter and project fields, and the confirmation of an action (y confirms, any other key cancels). */
function overlayKeys(
  overlay: Extract<JobsState['overlay'], { kind: 'filter' | 'project' | 'confirm' }>,
  press: Keypress,
  {
    latest,
    dispatch,
    commands,
    runLogs,
    submitProject,
  }: Pick<JobsKeysOptions, 'latest' | 'dispatch' | 'commands' | 'runLogs'> & {
    submitProject: (value: string) => void;
  },
) {
  const [input, key] = inkStyle(press);
  const current = latest();
  if (overlay.kind === 'filter') {
    if (key.escape) return dispatch({ type: 'filter-clear' });
    const edit = editField(current.filter, press);
    if (!edit) return;
    if (edit.line.value !== current.filter) dispatch({ type: 'filter-change', text: edit.line.value });
    if (edit.submitted) dispatch({ type: 'filter-apply' });
    return;
  }
  if (overlay.kind === 'project') {
    if (key.escape) return dispatch({ type: 'overlay-close' });
    const edit = editField(overlay.draft, press);
    if (!edit) return;
    if (edit.line.value !== overlay.draft) dispatch({ type: 'project-change', draft: edit.line.value });
    if (edit.submitted) submitProject(edit.line.value);
    return;
  }
  if (input === 'y' || input === 'Y') {
    const { jobId } = overlay;
    // In the job's detail, the run the sync started is selected and followed.
    void commands.perform(overlay.action, jobId, overlay.name).then((started) => {
      const now = latest();
      if (started && now.view === 'detail' && now.detail?.jobId === jobId) runLogs.followRun(started);
    });
  } else dispatch({ type: 'overlay-close' });
}

/** Handles the keys; returns how many characters of the password and of the secret have been typed. */
export function useJobsKeys({
  latest,
  dispatch,
  commands,
  runLogs,
  panes,
  logsLimit,
  onExit,
  active,
  onTest,
  onTables,
  secretPrompt,
}: JobsKeysOptions): Masked {
  const { masked, passwordKeys, testSecretKeys } = useSecretFields(commands, secretPrompt);
  const leave = (code: number) => {
    onExit(code);
    return 'leave' as const;
  };
  const submitProject = (value: string) => {
    const project = value.trim();
    if (project === '' || project === latest().project) dispatch({ type: 'overlay-close' });
    else commands.switchProject(project);
  };

  const ask = (action: 'sync' | 'toggle' | 'cancel') => askToConfirm(latest(), dispatch, action);
  const olderLogs = () => pageLogs(latest(), commands, logsLimit, 'older');
  const newerLogs = () => pageLogs(latest(), commands, logsLimit, 'newer');

  const now = latest();
  const nowSearching =
    now.view === 'detail' && now.detail?.pane === 'logs' && now.detail.logs?.view?.searching === true;
  useBracketedPaste(
    active &&
      (now.session === 'password' ||
        secretPrompt.asking() ||
        now.overlay.kind === 'filter' ||
        now.overlay.kind === 'project' ||
        nowSearching),
  );

  // One call per key of a chunk, in order, each seeing the state the keys before it left.
  useKeys(
    (press) => {
      if (isInterrupt(press)) return leave(130);
      const [input, key] = inkStyle(press);
      const current = latest();
      if (current.session === 'password') return passwordKeys(press);
      if (current.session === 'relogin') return;
      if (secretPrompt.asking()) return testSecretKeys(press);
      const logView = current.view === 'detail' ? current.detail?.logs?.view : undefined;
      if (logView?.searching && current.detail?.pane === 'logs')
        return searchKeys(dispatch, press, logView.search);
      const overlay = current.overlay;
      if (overlay.kind === 'filter' || overlay.kind === 'project' || overlay.kind === 'confirm')
        return overlayKeys(overlay, press, { latest, dispatch, commands, runLogs, submitProject });
      const screen = keyScreen(current);
      const binding = KEYMAP[screen].find((b) => matches(b, input, key));
      if (!binding) return;
      if (!binding.always && (current.session === 'expired' || current.phase !== 'ready')) return;
      return binding.run({
        state: current,
        detail: current.detail,
        dispatch,
        commands,
        runLogs,
        onTest,
        onTables,
        panes,
        logsLimit,
        ask,
        olderLogs,
        newerLogs,
        leave,
      });
    },
    { isActive: active },
  );
  return masked;
}
