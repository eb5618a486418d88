/**
 * `wepql lsp`'s options and examples, apart from the command: the CLI's
 * entry reads them before the command loads, to answer the editor's
 * `initialize` at once when the command line holds nothing to check first
 * (src/cli/main.ts).
 */
import type { CommandDefinition } from '../command.js';

/**
 * `wepql lsp`: options and examples, the source of its help.
 *
 * @example
 * definition.options.map((o) => o.flag); // ['--schema', '--case-sensitive', '--stdio']
 */
export const definition: CommandDefinition = {
  name: 'lsp',
  summary: 'run the language server for editors over standard input and output (.wepql files of saved filters, JSON/NDJSON too)',
  details: [
    'Editors start it; see docs/editors.md for VS Code, Neovim and others. Exit 0 after the client ends the session, 2 for a usage error.',
  ],
  options: [
    {
      flag: '--schema',
      value: 'FILE',
      description: 'check, complete and explain against this schema file (else initializationOptions.schema)',
    },
    { flag: '--case-sensitive', description: 'the lint rules compare strings case-sensitively' },
    { flag: '--stdio', description: 'accepted because editors pass it; stdio is the only transport' },
  ],
  examples: ['wepql lsp --schema schemas/employee.json'],
};
