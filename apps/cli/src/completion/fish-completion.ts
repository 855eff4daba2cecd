import { type CommandSpec, flattenSpec } from "./command-spec";

/**
 * fish completions: a helper finds the command typed so far among the known command paths, and
 * one `complete` line per subcommand and option is conditioned on it.
 */
export function fishCompletion(spec: CommandSpec): string {
  const name = spec.name;
  const fn = `__${name.replace(/\W/g, "_")}`;
  const commands = flattenSpec(spec);
  const nested = commands.filter((c) => c.path.length > 0).map((c) => quote(c.path.join(" ")));
  const lines = commands.flatMap((c) => {
    const at = quote(`${fn}_at ${quote(c.path.join(" "))}`);
    // Where subcommands are expected, a file name is never right.
    const files = c.subcommands.length > 0 ? " -f" : "";
    return [
      ...c.subcommands.map(
        (s) => `complete -c ${name}${files} -n ${at} -a ${quote(s.name)} -d ${quote(s.description)}`,
      ),
      ...c.options.map((o) => {
        const flags = [o.long && `-l ${o.long.slice(2)}`, o.short && `-s ${o.short.slice(1)}`]
          .filter(Boolean)
          .join(" ");
        return `complete -c ${name}${files} -n ${at} ${flags}${o.takesValue ? " -r" : ""} -d ${quote(o.description)}`;
      }),
    ];
  });
  return `# ${name} completion for fish. Save it:  ${name} completion fish > ~/.config/fish/completions/${name}.fish
function ${fn}_path
    set -l path
    for word in (commandline -opc)[2..-1]
        string match -q -- '-*' $word; and continue
        if contains -- (string join ' ' $path $word) ${nested.join(" ")}
            set path $path $word
        end
    end
    string join ' ' $path
end
function ${fn}_at
    set -l path (${fn}_path)
    test "$path" = "$argv[1]"
end
${lines.join("\n")}
`;
}

function quote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
