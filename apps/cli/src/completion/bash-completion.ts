import { type CommandSpec, flattenSpec } from "./command-spec";

/**
 * A bash completion function for the tree: it finds the command typed so far by matching the
 * words against the known command paths, then offers that command's subcommands and options (and
 * leaves an option's value, or a file argument, to bash's default completion).
 */
export function bashCompletion(spec: CommandSpec): string {
  const commands = flattenSpec(spec);
  const nested = commands.filter((c) => c.path.length > 0).map((c) => quote(c.path.join(" ")));
  const valueOptions = commands.flatMap((c) =>
    c.options
      .filter((o) => o.takesValue)
      .flatMap((o) => [o.long, o.short])
      .filter((flag): flag is string => flag !== undefined)
      .map((flag) => quote(`${c.path.join(" ")}:${flag}`)),
  );
  const cases = commands.map((c) => {
    const words = [
      ...c.subcommands.map((s) => s.name),
      ...c.options.flatMap((o) => [o.long, o.short]).filter((f) => f !== undefined),
    ];
    return `    ${quote(c.path.join(" "))}) words=${quote(words.join(" "))} ;;`;
  });
  return `# ${spec.name} completion for bash. Load it with:  source <(${spec.name} completion bash)
# or save it:  ${spec.name} completion bash > ~/.local/share/bash-completion/completions/${spec.name}
_${ident(spec.name)}_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) continue ;; esac
    case "\${path:+$path }$word" in
      ${nested.length > 0 ? nested.join("|") : "''"}) path="\${path:+$path }$word" ;;
    esac
  done
  case "$path:$prev" in
    ${valueOptions.length > 0 ? valueOptions.join("|") : "''"}) return 0 ;;
  esac
  case "$path" in
${cases.join("\n")}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _${ident(spec.name)}_completion ${spec.name}
`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function ident(name: string): string {
  return name.replace(/\W/g, "_");
}
