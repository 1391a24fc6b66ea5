/**
 * The completion scripts `books completion SHELL` prints. Each hands the command line to
 * `books __complete SHELL` and shows what it prints (completion.ts): the first line says whether
 * to offer the values that follow or let the shell complete paths. Errors never reach the shell.
 */

/** The shells `books completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# books completion for bash.
# Load it in every shell with:  echo 'source <(books completion bash)' >> ~/.bashrc
# or install it:                books completion bash > ~/.local/share/bash-completion/completions/books
_books() {
  local IFS=$'\\n'
  local -a lines
  lines=($(books __complete bash --line "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null)) || return 0
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  case "\${lines[0]}" in
    :files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    :directories) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    :values) COMPREPLY=("\${lines[@]:1}") ;;
    *) COMPREPLY=() ;;
  esac
  return 0
}
complete -F _books books
`;

const ZSH = `#compdef books
# books completion for zsh.
# Load it in every shell (after compinit) with:  echo 'source <(books completion zsh)' >> ~/.zshrc
# or install it in your fpath:                    books completion zsh > "\${fpath[1]}/_books"
_books() {
  local -a lines candidates
  lines=("\${(@f)$(books __complete zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  case "\${lines[1]}" in
    :files) _files ;;
    :directories) _files -/ ;;
    :values)
      candidates=("\${(@)lines[2,-1]}")
      (( \${#candidates} )) && _describe -t values 'books' candidates ;;
  esac
  return 0
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _books "$@"
else
  compdef _books books
fi
`;

const FISH = `# books completion for fish.
# Install it with:  books completion fish > ~/.config/fish/completions/books.fish
function __books_complete
    set -l out (books __complete fish --line (commandline -cp) 2>/dev/null)
    switch "$out[1]"
        case :files
            __fish_complete_path (commandline -ct)
        case :directories
            __fish_complete_directories (commandline -ct)
        case :values
            printf '%s\\n' $out[2..-1]
    end
end
complete -c books -f -a '(__books_complete)'
`;

export const COMPLETION_SCRIPTS: Readonly<Record<Shell, string>> = {
  bash: BASH,
  zsh: ZSH,
  fish: FISH,
};
