import { type CommandSpec, flattenSpec } from "./command-spec";

/**
 * A zsh completion function: like the bash one (find the command typed so far, offer its
 * subcommands and options), with each candidate's description beside it.
 */
export function zshCompletion(spec: CommandSpec): string {
  const name = spec.name;
  const fn = `_${name.replace(/\W/g, "_")}`;
  const commands = flattenSpec(spec);
  const nested = commands.filter((c) => c.path.length > 0).map((c) => quote(c.path.join(" ")));
  const cases = commands.map((c) => {
    const items = [
      ...c.subcommands.map((s) => describe(s.name, s.description)),
      ...c.options.flatMap((o) =>
        [o.long, o.short].filter((f) => f !== undefined).map((flag) => describe(flag, o.description)),
      ),
    ];
    return `    (${quote(c.path.join(" "))}) items=(${items.join(" ")}) ;;`;
  });
  return `#compdef ${name}
# ${name} completion for zsh. Load it with:  source <(${name} completion zsh)
# or save it as _${name} in a folder of your $fpath.
${fn}() {
  local path_="" word candidate
  local -a items
  for word in \${words[2,CURRENT-1]}; do
    [[ $word == -* ]] && continue
    candidate="\${path_:+$path_ }$word"
    case $candidate in
      (${nested.length > 0 ? nested.join("|") : "''"}) path_=$candidate ;;
    esac
  done
  case $path_ in
${cases.join("\n")}
  esac
  _describe -t commands '${name}' items && return 0
  _files
}
if [[ "\${funcstack[1]}" == "${fn}" ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${name}
fi
`;
}

function describe(word: string, description: string): string {
  return quote(`${word.replaceAll(":", "\\:")}:${description}`);
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
