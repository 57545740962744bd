// What the setup wizard draws for each step (the state comes from model.ts; keys are read in Wizard.tsx).
import { Box } from 'ink';
import type { Context } from '../../app/context.js';
import { cleartextWarnings } from '../../catalog/transport.js';
import {
  AUTH_TYPE_INFO,
  type FieldId,
  STORAGE_INFO,
  STORAGE_KINDS,
  type Values,
} from '../../destination/fields.js';
import { PRESET_IDS, PRESETS } from '../../destination/presets.js';
import { sanitize } from '../../text/sanitize.js';
import { ChoiceList } from '../components/ChoiceList.js';
import { truncate } from '../components/layout.js';
import type { Line } from '../components/line.js';
import { Paragraph } from '../components/Paragraph.js';
import { chromeRows, type Hint, Screen } from '../components/Screen.js';
import { Text } from '../components/Text.js';
import { Form } from './Form.js';
import { authChoices } from './model.js';
import { sourceTag } from './origin.js';
import { reviewLines } from './review.js';
import { ENV_NOTE, fromEnv, reviewHints, reviewView, secretsPlace } from './reviewLayout.js';
import {
  type FormStep,
  formNotes,
  formRows,
  isChoiceStep,
  isFormStep,
  rowValue,
  STEPS,
  secretEnvVars,
} from './rows.js';
import { KEYCHAIN_CHOICES, type WizardState } from './state.js';

const QUIT: Hint = ['Ctrl-C', 'quit'];
const LEAVE: Hint = ['q', 'leave'];
const FORM_TITLES: Record<FormStep, (v: Values) => string> = {
  fields: (v) => `Catalog and authentication: ${AUTH_TYPE_INFO[v.authType].label}`,
  storage: (v) => `Object storage: ${STORAGE_INFO[v.storage].label}`,
  advanced: () => 'Advanced',
};

export function WizardScreen({
  state,
  ctx,
  width,
  height,
  line,
  keychainNote,
}: {
  state: WizardState;
  ctx: Context;
  /** Why the keychain will not work here, said on the review before saving tries it. */
  keychainNote?: string;
  width: number;
  height: number;
  /** The focused text field's value and cursor. */
  line: Line | undefined;
}) {
  const { step, values } = state;
  const title = `floe setup · profile "${state.profileName}"`;
  const numbered = (STEPS as readonly string[]).indexOf(step);
  const position = numbered >= 0 ? `step ${numbered + 1} of ${STEPS.length}` : undefined;
  const back: Hint = ['Esc', 'back'];

  if (isFormStep(step)) {
    const rows = formRows(step, values);
    const focus = Math.min(state.focus[step], rows.length - 1);
    const focused = rows[focus];
    const hints: Hint[] = [
      ['↑/↓ Tab', 'move'],
      ['Enter', focus === rows.length - 1 ? 'continue' : 'next'],
      ...(focused?.type === 'boolean' ? ([['Space', 'toggle']] as Hint[]) : []),
      back,
      QUIT,
      ['*', 'required'],
    ];
    const shownErrors = rows.filter((r) => state.errors[r.id]).length;
    const notes = [
      ...(step === 'fields' && state.notice ? [state.notice] : []),
      ...formNotes(step, values),
      ...(state.blocked && shownErrors > 0
        ? [
            `✗ Cannot continue: ${shownErrors === 1 ? '1 field marked ✗ needs' : `${shownErrors} fields marked ✗ need`} a fix.`,
          ]
        : []),
    ];
    return (
      <Screen
        title={title}
        position={position}
        subtitle={FORM_TITLES[step](values)}
        width={width}
        hints={hints}
      >
        <Form
          rows={rows}
          values={Object.fromEntries(rows.map((r) => [r.id, rowValue(values, r)]))}
          focus={focus}
          errors={state.errors}
          sources={Object.fromEntries(
            rows.map((r) => [r.id, sourceTag(state.origins[r.id as FieldId], r.id)]),
          )}
          notes={notes}
          width={width}
          height={height - chromeRows(hints, width)}
          line={line}
        />
      </Screen>
    );
  }

  if (isChoiceStep(step) && step !== 'keychain') {
    const choices =
      step === 'preset'
        ? PRESET_IDS.map((id) => ({
            label: PRESETS[id].label,
            help: `${PRESETS[id].help}\n${PRESETS[id].pitfall}`,
          }))
        : step === 'authType'
          ? authChoices(values).map((t) => AUTH_TYPE_INFO[t])
          : STORAGE_KINDS.map((k) => STORAGE_INFO[k]);
    const subtitle =
      step === 'preset'
        ? 'Catalog: which Iceberg REST catalog OLake writes to'
        : step === 'authType'
          ? `Authentication type: how floe and OLake sign in to ${PRESETS[values.preset].label}`
          : 'Object storage: where OLake writes data and metadata files';
    const hints: Hint[] = [
      ['↑/↓', 'choose'],
      ['Enter', 'next'],
      step === 'preset' && !state.editing ? ['Esc', 'leave'] : back,
      LEAVE,
      QUIT,
    ];
    return (
      <Screen title={title} position={position} subtitle={subtitle} width={width} hints={hints}>
        {step === 'authType' && state.notice && (
          <Box marginBottom={1}>
            <Paragraph color="yellow" text={state.notice} width={width} />
          </Box>
        )}
        <ChoiceList
          choices={choices}
          selected={state.cursor[step]}
          width={width}
          compact={step === 'preset'}
        />
      </Screen>
    );
  }

  if (step === 'review') {
    const lines = reviewLines(values, state.origins);
    const labelWidth = Math.max(...lines.map((l) => l.label.length)) + 2;
    const view = reviewView(state, width, height);
    const hints = reviewHints(state);
    const start = Math.min(state.reviewScroll, view.max);
    const shown = view.scrolls ? lines.slice(start, start + view.rows) : lines;
    const below = lines.length - start - shown.length;
    return (
      <Screen
        title={title}
        position={position}
        subtitle="Review: check the values, then save"
        width={width}
        hints={hints}
      >
        {view.scrolls && <Text dimColor>{start > 0 ? `  ↑ ${start} more` : ' '}</Text>}
        {shown.map((line, i) => {
          const selected = start + i === state.reviewCursor;
          return (
            <Text key={line.label} color={selected ? 'cyan' : undefined}>
              {`${selected ? '›' : ' '} ${line.label.padEnd(labelWidth)}`}
              {truncate(sanitize(line.value), Math.max(width - labelWidth - 2, 10))}
            </Text>
          );
        })}
        {view.scrolls && <Text dimColor>{below > 0 ? `  ↓ ${below} more` : ' '}</Text>}
        <Box marginTop={1}>
          <Text>{truncate(`Secrets: ${secretsPlace(ctx, state.storage, values, keychainNote)}`, width)}</Text>
        </Box>
        {fromEnv(state) && <Paragraph dimColor text={ENV_NOTE} width={width} />}
        {cleartextWarnings(values).map((warning) => (
          <Text key={warning} color="yellow">{`! ${warning}`}</Text>
        ))}
        {state.reviewIssues.map((issue) => (
          <Text key={issue.field} color="red">{`✗ ${issue.message}`}</Text>
        ))}
      </Screen>
    );
  }

  if (step === 'keychain') {
    const vars = secretEnvVars(state.pending ?? values);
    const choices = KEYCHAIN_CHOICES.map((choice) => {
      if (choice === 'file')
        return {
          label: 'Store them in a file',
          help: `Plaintext, not encrypted: mode 0600 at ${ctx.vault.backend('file').location}`,
        };
      if (choice === 'env')
        return {
          label: "Don't store them",
          help:
            vars.length > 0
              ? `Nothing is stored; ${vars.join(', ')} must be set in the environment at run time`
              : 'This profile has no secrets, so nothing needs to be stored',
        };
      return { label: 'Cancel', help: 'Save nothing and leave setup' };
    });
    return (
      <Screen
        title={title}
        subtitle="Where the secrets go"
        width={width}
        hints={[['↑/↓', 'choose'], ['Enter', 'confirm'], back, LEAVE, QUIT]}
      >
        <Text color="yellow">{`✗ The OS keychain cannot be used: ${sanitize(state.keychainReason ?? '')}`}</Text>
        <Box marginY={1}>
          <Text>{`Where should the secrets of "${state.profileName}" go?`}</Text>
        </Box>
        <ChoiceList choices={choices} selected={state.cursor.keychain} width={width} />
      </Screen>
    );
  }

  if (step === 'saveError')
    return (
      <Screen
        title={title}
        subtitle="The profile was not saved"
        width={width}
        hints={[['Enter', 'retry'], back, LEAVE, QUIT]}
      >
        <Text color="red">{`✗ ${sanitize(state.saveError ?? '')}`}</Text>
      </Screen>
    );

  if (step === 'saving')
    return (
      <Screen title={title} subtitle="Saving…" width={width} hints={[QUIT]}>
        <Text>{`● Saving profile "${state.profileName}" (secrets: ${secretsPlace(ctx, state.storage, values)})`}</Text>
      </Screen>
    );

  if (step === 'saved')
    return (
      <Screen title={title} subtitle={`✓ Saved profile "${state.profileName}"`} width={width} hints={[]}>
        <Text>{`Settings: ${ctx.config.path}`}</Text>
        <Text>{`Secrets: ${secretsPlace(ctx, state.storage, state.pending ?? values)}`}</Text>
      </Screen>
    );

  if (step === 'leave')
    return (
      <Screen
        title={title}
        subtitle="Leave setup?"
        width={width}
        hints={[['y/Enter', 'leave'], ['n/Esc', 'stay'], QUIT]}
      >
        <Text>{`What you typed is not saved: profile "${state.profileName}" stays as it was.`}</Text>
      </Screen>
    );

  return (
    <Screen title={title} subtitle="Setup left" width={width} hints={[]}>
      <Text>{`Nothing was saved: profile "${state.profileName}" is as it was.`}</Text>
    </Screen>
  );
}
