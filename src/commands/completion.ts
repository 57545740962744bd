// floe completion bash|zsh|fish: a completion script generated from the command table and each
// command's --help (its flags), with the fixed values of the flags that have them; profile names come
// from "floe profiles names" when the shell completes.
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, parseCommandArgs, UsageError } from '../cli/io.js';
import { block } from '../cli/output.js';
import type { CommandTable } from '../cli/usage.js';
import { AUTH_TYPES, STORAGE_KINDS } from '../destination/fields.js';
import { PRESET_IDS, PRESETS } from '../destination/presets.js';
import { CATALOG_FLAVOURS } from '../sandbox/catalog/flavours/index.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

export const HELP = `Usage: floe completion bash|zsh|fish

Prints a completion script for the shell: commands, their flags and actions, the values of --preset,
--auth-type, --storage, --format and --catalog, and profile names (read with "floe profiles names" as
you type). Install it once:

  bash   floe completion bash > ~/.local/share/bash-completion/completions/floe
  zsh    floe completion zsh > "\${fpath[1]}/_floe"   (or: source <(floe completion zsh) in ~/.zshrc)
  fish   floe completion fish > ~/.config/fish/completions/floe.fish

Then open a new shell. From a clone without a global install, "npx floe" runs floe; the script
completes the command "floe".`;

/** What completes each command: its flags, and the words it takes first (actions, or the shell). */
export interface CompletionSpec {
  commands: { name: string; summary: string; flags: string[]; words: string[] }[];
  /** Flags whose value is one of a fixed set. */
  values: Record<string, readonly string[]>;
  /** The auth types each preset offers: --auth-type after --preset NAME completes only those. */
  presetAuth: Record<string, readonly string[]>;
}

/** The spec from the command table (main.ts's, handed to `run`) and each command's --help. */
export async function completionSpec(table: CommandTable): Promise<CompletionSpec> {
  const commands = await Promise.all(
    Object.entries(table).map(async ([name, command]) => {
      const module = (await command.load()) as { HELP?: string; ACTIONS?: readonly string[] };
      // The flags a help lists: in its usage line's brackets and at the start of its flag lines.
      const help = module.HELP ?? '';
      const listed = [...help.matchAll(/^ {2,}(--[a-z0-9][a-z0-9-]*)|\[(--[a-z0-9][a-z0-9-]*)/gm)];
      const flags = [...new Set(['--help', ...listed.map((m) => m[1] ?? m[2] ?? '')])].sort();
      const words = name === 'completion' ? [...SHELLS] : [...(module.ACTIONS ?? [])];
      return { name, summary: command.summary, flags, words };
    }),
  );
  const { FORMATS } = await import('./export.js');
  return {
    commands,
    values: {
      '--preset': PRESET_IDS,
      '--auth-type': AUTH_TYPES,
      '--storage': STORAGE_KINDS,
      '--format': FORMATS,
      '--catalog': CATALOG_FLAVOURS,
    },
    presetAuth: Object.fromEntries(PRESET_IDS.map((id) => [id, PRESETS[id].authTypes])),
  };
}

const BASH = (spec: CompletionSpec) => `# floe completion for bash (floe completion bash)
_floe() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="\${COMP_WORDS[1]}"
  local words=""
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${spec.commands.map((c) => c.name).join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "$prev" in
    --profile|-p) # Names are matched as text, never put through compgen -W's word expansion.
      local name; COMPREPLY=()
      while IFS= read -r name; do
        [[ $name == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
      done < <("\${COMP_WORDS[0]}" profiles names 2>/dev/null)
      return ;;
    --auth-type)
      local preset="" i
      for ((i = 1; i < COMP_CWORD; i++)); do [ "\${COMP_WORDS[i]}" = --preset ] && preset="\${COMP_WORDS[i+1]}"; done
      case "$preset" in
${Object.entries(spec.presetAuth)
  .map(([preset, types]) => `        ${preset}) words="${types.join(' ')}" ;;`)
  .join('\n')}
        *) words="${(spec.values['--auth-type'] ?? []).join(' ')}" ;;
      esac
      COMPREPLY=($(compgen -W "$words" -- "$cur")); return ;;
${Object.entries(spec.values)
  .filter(([flag]) => flag !== '--auth-type')
  .map(
    ([flag, values]) => `    ${flag}) COMPREPLY=($(compgen -W "${values.join(' ')}" -- "$cur")); return ;;`,
  )
  .join('\n')}
  esac
  case "$command" in
${spec.commands.map((c) => `    ${c.name}) words="${[...c.words, ...c.flags].join(' ')}" ;;`).join('\n')}
  esac
  if [[ "$cur" == -* ]] || [ "$COMP_CWORD" -eq 2 ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _floe floe
`;

const ZSH = (spec: CompletionSpec) => `#compdef floe
# floe completion for zsh (floe completion zsh): zsh's bash-completion layer runs the bash function.
autoload -U +X bashcompinit && bashcompinit
${BASH(spec)}`;

const fishQuote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const FISH = (spec: CompletionSpec) => {
  const names = spec.commands.map((c) => c.name).join(' ');
  const lines = [
    '# floe completion for fish (floe completion fish)',
    ...spec.commands.map(
      (c) =>
        `complete -c floe -n "not __fish_seen_subcommand_from ${names}" -a ${c.name} -d ${fishQuote(c.summary)}`,
    ),
  ];
  for (const c of spec.commands) {
    const when = `-n "__fish_seen_subcommand_from ${c.name}"`;
    if (c.words.length > 0) lines.push(`complete -c floe -f ${when} -a ${fishQuote(c.words.join(' '))}`);
    for (const flag of c.flags) {
      const name = flag.slice(2);
      const values = spec.values[flag];
      const value =
        flag === '--profile'
          ? ` -x -a '(floe profiles names 2>/dev/null)'`
          : values
            ? ` -x -a ${fishQuote(values.join(' '))}`
            : '';
      lines.push(`complete -c floe ${when} -l ${name}${flag === '--profile' ? ' -s p' : ''}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
};

export function completionScript(shell: Shell, spec: CompletionSpec): string {
  return shell === 'bash' ? BASH(spec) : shell === 'zsh' ? ZSH(spec) : FISH(spec);
}

export type Options = { help: true } | { help: false; shell: Shell };

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'completion',
    argv,
    { help: { type: 'boolean' } },
    true,
  );
  if (flags.help) return { help: true };
  const shell = SHELLS.find((s) => s === positionals[0]);
  if (!shell || positionals.length > 1)
    throw new UsageError(
      [
        `name one shell: ${SHELLS.join(', ')}${positionals[0] ? ` (not "${positionals.join(' ')}")` : ''}, e.g. floe completion bash`,
      ],
      'completion',
    );
  return { help: false, shell };
}

/** The script for the shell; `table` is main.ts's command table (handed over by it, never imported). */
export async function run(options: Options, io: Io, table: CommandTable): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  io.out.put(block(completionScript(options.shell, await completionSpec(table))));
  return EXIT.OK;
}
