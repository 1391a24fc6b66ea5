import { COMPLETION_SCRIPTS, SHELLS } from '../completion/scripts.js';
import { argument, defineCommand, oneOf } from '../command.js';

/**
 * `books completion bash|zsh|fish`: the script that completes books' commands, flags, their
 * values and the names on the platform (workspaces, entities, accounts, classes, rules).
 */
export const command = defineCommand({
  summary: 'Print the shell completion script for bash, zsh or fish (see --help for where it goes)',
  arguments: { shell: argument('bash, zsh or fish', { choices: SHELLS }) },
  examples: [
    "echo 'source <(books completion bash)' >> ~/.bashrc",
    'books completion bash > ~/.local/share/bash-completion/completions/books',
    "echo 'source <(books completion zsh)' >> ~/.zshrc      # after compinit",
    'books completion zsh > "${fpath[1]}/_books"',
    'books completion fish > ~/.config/fish/completions/books.fish',
  ],
  async run(ctx, { shell }) {
    ctx.output.write(COMPLETION_SCRIPTS[oneOf('the shell', shell, SHELLS)]);
  },
});
