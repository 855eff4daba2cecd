import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import {
  CATEGORY_ORDERING,
  CATEGORY_SCOPES,
  type TransactionCategorySchema,
} from "@allot/contract/transaction-categories/transaction-category";
import { ApiError } from "@allot/sdk/api-error";
import type { RouteInput } from "@allot/sdk/route-types";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { confirmDestructive } from "../confirm";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { printJson, reportError, UsageError } from "../output";
import { resolveCategory, splitCategoryName } from "../resolve/category";

type Category = z.infer<typeof TransactionCategorySchema>;
type Options = ApiOptions & OutputOptions;

const COLUMNS: Column<Category>[] = [
  { header: "Group", value: (c) => c.group },
  { header: "Name", value: (c) => c.name },
  { header: "Owner", value: (c) => c.owner ?? "(global)" },
  { header: "Archived", value: (c) => (c.archived ? "yes" : "no") },
  { header: "Id", value: (c) => c.id },
];

const FIELDS: Column<Category>[] = [
  { header: "id", value: (c) => c.id },
  { header: "full name", value: (c) => c.full_name },
  { header: "group", value: (c) => c.group },
  { header: "name", value: (c) => c.name },
  { header: "owner", value: (c) => c.owner ?? "(global)" },
  { header: "archived", value: (c) => (c.archived ? "yes" : "no") },
  { header: "created at", value: (c) => c.created_at },
];

interface ListFlags {
  group?: string;
  archived?: boolean;
  scope?: (typeof CATEGORY_SCOPES)[number];
  search?: string;
  /** One of the --ordering choices commander checked. */
  ordering?: RouteInput<typeof transactionCategoryRoutes.list>["ordering"];
}

/** `allot categories`: list the visible transaction categories; create, rename, archive and delete your own. */
export function registerCategoriesCommands(categories: Command, env: CliEnv): void {
  categories.addHelpText(
    "after",
    '\nExamples:\n  $ allot categories --scope mine\n  $ allot categories create "Food : Groceries"\n  $ allot categories rename "Food : Groceries" "Food : Supermarket"\n',
  );

  addApiOptions(addOutputOptions(categories.command("list", { isDefault: true })))
    .description("List the categories you can use: global ones, yours, and your co-owners' (the default)")
    .option("--group <group>", "only this group (exact, any case)")
    .option("--search <text>", "only those whose group or name contains this (any case)")
    .addOption(
      new Option("--scope <scope>", "global: built in; mine: yours; shared: other owners'").choices(
        CATEGORY_SCOPES,
      ),
    )
    .option("--archived", "only archived categories")
    .option("--no-archived", "only active categories")
    .addOption(
      new Option("--ordering <field>", "sort by a field; a leading - reverses").choices(
        CATEGORY_ORDERING.flatMap((field) => [field, `-${field}`]),
      ),
    )
    .addHelpText(
      "after",
      "\nExamples:\n  $ allot categories --group Food --no-archived\n  $ allot categories list --search coffee --json\n",
    )
    .action((options: Options & ListFlags) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const rows: Category[] = [];
        for await (const category of client.paginate(transactionCategoryRoutes.list, {
          group: options.group,
          search: options.search,
          scope: options.scope,
          archived: options.archived,
          ordering: options.ordering ?? "full_name",
          page_size: 500,
        }))
          rows.push(category);
        emitList(rows, COLUMNS, options, "No categories match.");
      }),
    );

  addApiOptions(addOutputOptions(categories.command("create")))
    .description("Create a category of your own")
    .argument("<category>", '"Group : Name"')
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot categories create "Food : Groceries"\n  $ allot categories create "Home:Garden" --json\n',
    )
    .action((text: string, options: Options) =>
      run(options, async () => {
        const parts = fullName(text, "<category>");
        const client = await openApiClient(env, options);
        emitRecord(await client.call(transactionCategoryRoutes.create, parts), FIELDS, options);
      }),
    );

  addApiOptions(addOutputOptions(categories.command("rename")))
    .description('Rename one of your categories: a new "Group : Name", or a new name in the same group')
    .argument("<category>", '"Group : Name", a unique name, or an id')
    .argument("<new-name>", '"New group : New name", or just the new name')
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot categories rename "Food : Groceries" "Food : Supermarket"\n  $ allot categories rename Groceries Supermarket --json\n',
    )
    .action((nameOrId: string, newName: string, options: Options) =>
      run(options, async () => {
        const { group, name } = splitCategoryName(newName);
        if (!name || group === "")
          throw new UsageError(
            `Give the new name as "Group : Name" or just a name, not '${newName}'.`,
            "invalid_category",
          );
        const client = await openApiClient(env, options);
        const category = await resolveCategory(client, nameOrId);
        const changes = group === null ? { name } : { group, name };
        emitRecord(
          await client.call(transactionCategoryRoutes.update, { id: category.id, ...changes }),
          FIELDS,
          options,
        );
      }),
    );

  addApiOptions(addOutputOptions(categories.command("archive")))
    .description("Archive one of your categories: hidden from pickers, still valid where used")
    .argument("<category>", '"Group : Name", a unique name, or an id')
    .option("--yes", "do not ask: archive it")
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot categories archive "Food : Takeaway"\n  $ allot categories archive CATEGORY_ID --yes --json\n',
    )
    .action((nameOrId: string, options: Options & { yes?: boolean }) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const category = await resolveCategory(client, nameOrId);
        await confirmDestructive(`Archive category '${category.full_name}'?`, options.yes);
        emitRecord(
          await client.call(transactionCategoryRoutes.archive, { id: category.id }),
          FIELDS,
          options,
        );
      }),
    );

  addApiOptions(categories.command("delete"))
    .description("Delete one of your categories (only while no transaction uses it; archive it otherwise)")
    .argument("<category>", '"Group : Name", a unique name, or an id')
    .option("--yes", "do not ask: delete it")
    .option("--json", "print JSON for scripts")
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot categories delete "Food : Typo"\n  $ allot categories delete CATEGORY_ID --yes --json\n',
    )
    .action((nameOrId: string, options: ApiOptions & { yes?: boolean; json?: boolean }) =>
      run(
        options,
        async () => {
          const client = await openApiClient(env, options);
          const category = await resolveCategory(client, nameOrId);
          await confirmDestructive(`Delete category '${category.full_name}'?`, options.yes);
          await client.call(transactionCategoryRoutes.delete, { id: category.id });
          if (options.json) printJson({ id: category.id, full_name: category.full_name, deleted: true });
          else process.stdout.write(shown`Deleted category '${category.full_name}'.\n`);
        },
        true,
      ),
    );
}

/** "Group : Name" into its parts, or a usage error showing the shape. */
function fullName(text: string, what: string): { group: string; name: string } {
  const { group, name } = splitCategoryName(text);
  if (!group || !name)
    throw new UsageError(
      `${what} must be "Group : Name" (e.g. "Food : Groceries"), not '${text}'.`,
      "invalid_category",
    );
  return { group, name };
}

async function run(options: { json?: boolean }, work: () => Promise<void>, deleting = false): Promise<void> {
  try {
    await work();
  } catch (error) {
    reportError(error, Boolean(options.json));
    // 409 on delete: transactions or allocations still use the category.
    if (deleting && error instanceof ApiError && error.status === 409 && !options.json)
      process.stderr.write("hint: it is in use: archive it instead with `allot categories archive`.\n");
  }
}
