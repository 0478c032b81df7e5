// Maps the user's "jitls.*" settings to what the jitls server reads: the
// initializationOptions sent at start and the workspace/didChangeConfiguration
// payload sent when a setting changes (see the jitls ↔ editor contract).

/** The analyzers jitls runs; each one can be switched off with jitls.analyzers.<name>. */
export const ANALYZERS = ['tracedbool', 'unrolledloop', 'staticargs', 'shapechurn', 'traceeffect', 'wherenan', 'batchedcond'] as const;

/** One of the analyzer names in ANALYZERS. */
export type AnalyzerName = (typeof ANALYZERS)[number];

/** The default for jitls.unrolledLoopMax, the same as the server's -unrolledloop.max. */
export const DEFAULT_UNROLLED_LOOP_MAX = 32;

/** The server-relevant settings after validation. */
export interface ServerSettings {
  /** Analyzer name → enabled. Always holds every name in ANALYZERS. */
  analyzers: Record<AnalyzerName, boolean>;
  /** Loops with a constant trip count above this are reported by unrolledloop. */
  unrolledLoopMax: number;
  /** The events file a program run with JITLINT_EVENTS wrote ("" = none): its recompiles become diagnostics. */
  runtimeEvents: string;
}

/** The initializationOptions object sent to jitls. */
export interface InitializationOptions extends ServerSettings {
  /** True only in a trusted workspace: jitls may then build and run the user's code for previews. */
  allowCodeExecution: boolean;
}

/** A problem found in the user's settings, to show once and log. */
export interface SettingsProblem {
  /** The setting's full name, e.g. "jitls.unrolledLoopMax". */
  setting: string;
  /** What is wrong and what was used instead. */
  message: string;
}

/** The result of reading the settings: the values to send and what was wrong with the input. */
export interface ReadSettings {
  settings: ServerSettings;
  problems: SettingsProblem[];
}

/**
 * Validates the raw "jitls" configuration section (as returned by
 * vscode.workspace.getConfiguration('jitls').get(...)). Values of the wrong
 * type fall back to their defaults and are reported in problems; unknown
 * analyzer names are reported and dropped.
 */
export function readServerSettings(raw: { analyzers?: unknown; unrolledLoopMax?: unknown; runtimeEvents?: unknown }): ReadSettings {
  const problems: SettingsProblem[] = [];
  const analyzers = Object.fromEntries(ANALYZERS.map((name) => [name, true])) as Record<AnalyzerName, boolean>;
  if (raw.analyzers !== undefined && raw.analyzers !== null) {
    if (typeof raw.analyzers !== 'object' || Array.isArray(raw.analyzers)) {
      problems.push({
        setting: 'jitls.analyzers',
        message: `jitls.analyzers must be an object of booleans such as {"tracedbool": false}; all analyzers stay on.`,
      });
    } else {
      for (const [name, value] of Object.entries(raw.analyzers as Record<string, unknown>)) {
        if (!isAnalyzerName(name)) {
          problems.push({
            setting: `jitls.analyzers.${name}`,
            message: `jitls.analyzers.${name}: no analyzer is called "${name}" (known: ${ANALYZERS.join(', ')}); the setting is ignored.`,
          });
        } else if (typeof value !== 'boolean') {
          problems.push({
            setting: `jitls.analyzers.${name}`,
            message: `jitls.analyzers.${name} must be true or false, not ${JSON.stringify(value)}; the analyzer stays on.`,
          });
        } else {
          analyzers[name] = value;
        }
      }
    }
  }
  let unrolledLoopMax = DEFAULT_UNROLLED_LOOP_MAX;
  const max = raw.unrolledLoopMax;
  if (max !== undefined && max !== null) {
    if (typeof max === 'number' && Number.isInteger(max) && max >= 1) {
      unrolledLoopMax = max;
    } else {
      problems.push({
        setting: 'jitls.unrolledLoopMax',
        message: `jitls.unrolledLoopMax must be a whole number of at least 1, not ${JSON.stringify(max)}; using ${DEFAULT_UNROLLED_LOOP_MAX}.`,
      });
    }
  }
  let runtimeEvents = '';
  if (raw.runtimeEvents !== undefined && raw.runtimeEvents !== null) {
    if (typeof raw.runtimeEvents === 'string') {
      runtimeEvents = raw.runtimeEvents.trim();
    } else {
      problems.push({
        setting: 'jitls.runtimeEvents',
        message: `jitls.runtimeEvents must be the path of a file, not ${JSON.stringify(raw.runtimeEvents)}; no runtime events are shown.`,
      });
    }
  }
  return { settings: { analyzers, unrolledLoopMax, runtimeEvents }, problems };
}

/** Builds the initializationOptions for a server start in a workspace that is (or is not) trusted. */
export function initializationOptions(settings: ServerSettings, workspaceTrusted: boolean): InitializationOptions {
  return {
    allowCodeExecution: workspaceTrusted,
    analyzers: { ...settings.analyzers },
    unrolledLoopMax: settings.unrolledLoopMax,
    runtimeEvents: settings.runtimeEvents,
  };
}

/**
 * Builds the `settings` value of a workspace/didChangeConfiguration
 * notification. Trust is deliberately absent: the server only accepts it at
 * start, and the extension restarts the server when trust is granted.
 */
export function didChangeConfigurationSettings(settings: ServerSettings): { jitls: ServerSettings } {
  return {
    jitls: { analyzers: { ...settings.analyzers }, unrolledLoopMax: settings.unrolledLoopMax, runtimeEvents: settings.runtimeEvents },
  };
}

function isAnalyzerName(name: string): name is AnalyzerName {
  return (ANALYZERS as readonly string[]).includes(name);
}
