// The destination test of a job from its detail (t): prepared by the command (prepareTest), the secrets
// the server's copy lacks typed first, one prompt each (the typed values live in a ref, never in state).
import { useRef, useState } from 'react';
import type { Values } from '../../destination/fields.js';
import type { JobDetail } from '../../management/types.js';
import type { ConnectionTestProps } from '../test/ConnectionTest.js';
import { type Action, detailJob, type JobsState } from './state.js';

export interface PreparedTest {
  values: Values;
  title: string;
  notes: string[];
  /** What `w` on the test screen uses (the config folder's journal, the matched profile). */
  writeWith?: ConnectionTestProps['writeWith'];
}

/** Secrets the server's copy of the destination lacks and no local profile supplies, by writer key. */
export interface SecretsToType {
  missing: { key: string; label: string }[];
}

/** The secret prompt of a job's destination test; the typed values live in a ref, never in state. */
interface SecretAsk {
  job: JobDetail;
  missing: SecretsToType['missing'];
  index: number;
  typed: Record<string, string>;
}

export interface DestinationTestOptions {
  prepareTest?: (
    job: JobDetail,
    typed?: Readonly<Record<string, string>>,
  ) => Promise<PreparedTest | SecretsToType>;
  latest: () => JobsState;
  dispatch: (action: Action) => void;
  /** Shows the prepared test. */
  setTesting: (test: PreparedTest) => void;
}

/** The secret being asked (for the screen), `t`'s handler, and the secret prompt's for the keys. */
export function useDestinationTest({ prepareTest, latest, dispatch, setTesting }: DestinationTestOptions) {
  const ask = useRef<SecretAsk | undefined>(undefined);
  const [asking, setAsking] = useState<{
    label: string;
    index: number;
    count: number;
    destination: string;
  }>();
  const showAsk = () => {
    const current = ask.current;
    setAsking(
      current && {
        label: current.missing[current.index]?.label ?? '',
        index: current.index,
        count: current.missing.length,
        destination: current.job.destination.name,
      },
    );
  };
  const prepare = (job: JobDetail, typed?: Record<string, string>) => {
    if (!prepareTest) return;
    dispatch({ type: 'notice', tone: 'busy', text: `Preparing the test of ${job.destination.name}…` });
    prepareTest(job, typed).then(
      (prepared) => {
        if ('missing' in prepared) {
          if (typed)
            return dispatch({ type: 'notice', tone: 'error', text: 'The typed secrets were not enough' });
          // Asked only while the job's detail is still open, so Esc leads back to it.
          if (detailJob(latest())?.id !== job.id)
            return dispatch({
              type: 'notice',
              tone: 'warn',
              text: `Testing ${job.destination.name} needs secrets typed: press t in its job’s detail`,
            });
          ask.current = { job, missing: prepared.missing, index: 0, typed: {} };
          return showAsk();
        }
        dispatch({
          type: 'notice',
          tone: 'ok',
          text: prepared.notes.slice(1).join(' ') || prepared.notes[0] || '',
        });
        setTesting(prepared);
      },
      (error: unknown) => dispatch({ type: 'notice', tone: 'error', text: (error as Error).message }),
    );
  };
  const startTest = () => {
    const job = detailJob(latest());
    if (!prepareTest || !job) return;
    if (!job.destination.config)
      return dispatch({
        type: 'notice',
        tone: 'warn',
        text: 'The job’s detail (with its destination) is still loading',
      });
    prepare(job);
  };
  // Read per key (through the ref), so the secrets of a burst of keys each land in their field.
  const secretPrompt = {
    asking: () => ask.current !== undefined,
    submit: (value: string) => {
      const current = ask.current;
      if (!current) return;
      const field = current.missing[current.index];
      if (field) current.typed[field.key] = value;
      current.index += 1;
      if (current.index < current.missing.length) return showAsk();
      ask.current = undefined;
      showAsk();
      prepare(current.job, current.typed);
    },
    cancel: () => {
      ask.current = undefined;
      showAsk();
      dispatch({ type: 'notice', tone: 'warn', text: 'Test cancelled; nothing was saved' });
    },
  };
  return { asking, startTest, secretPrompt };
}
