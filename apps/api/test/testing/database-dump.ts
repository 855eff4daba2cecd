import type { Database } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { sql } from "drizzle-orm";

/**
 * Every row of every table of the database, each as its text (`row::text`): what a dump of the
 * database would show, to prove a secret is in none of it.
 */
export async function databaseDump(db: Database): Promise<string> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const texts: string[] = [];
  for (const { name } of tables) {
    const rows = rowsOf<{ row: string }>(await db.execute(sql.raw(`select t::text as row from "${name}" t`)));
    for (const { row } of rows) texts.push(`${name}: ${row}`);
  }
  return texts.join("\n");
}
