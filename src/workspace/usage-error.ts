/**
 * The error every user-input problem becomes below the command line: a
 * config key the tool cannot use, a selector it cannot read, a file it
 * cannot open. The CLI prints its message and exits 2; the language server
 * shows it as a diagnostic. It lives here, not in `cli/`, because
 * `workspace/` (read by both the CLI and the language server) raises it.
 */

/**
 * A problem with what the user asked for (a flag, a file, a config key);
 * the CLI exits 2 with its message, never with a stack trace.
 *
 * @example
 * throw new UsageError('cannot read views.json: no such file');
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
