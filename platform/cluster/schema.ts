// Makes the two databases (history and SQL visibility) with the server's own SQL tool: create, set up once, update.
import { execa } from 'execa';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ClusterInstallError } from './install.js';
import type { ClusterBinaries } from './pins.js';

/** The databases and the schema folder of each (under the version's `schema/postgresql/v12/`). */
export const clusterDatabases = [
  { name: 'temporal', schema: 'temporal' },
  { name: 'temporal_visibility', schema: 'visibility' },
] as const;

/** Creates both databases on the first run, then brings their schemas to this server version (a no-op when current). */
export async function applySchemas(bin: ClusterBinaries, postgresPort: number, stateDir: string): Promise<void> {
  const base = ['--plugin', 'postgres12', '--ep', '127.0.0.1', '-p', String(postgresPort), '-u', 'postgres'];
  for (const db of clusterDatabases) {
    const run = async (args: string[]) => {
      const result = await execa(bin.sqlTool, [...base, '--db', db.name, ...args], { reject: false, all: true });
      if (result.failed)
        throw new ClusterInstallError(
          `temporal-sql-tool --db ${db.name} ${args.join(' ')} failed:\n${(result.all ?? '').slice(-2000)}`,
        );
    };
    // The marker is written after setup-schema succeeded: a run stopped before it starts the database over.
    const marker = path.join(stateDir, `schema-${db.name}.done`);
    const setUp = await access(marker).then(
      () => true,
      () => false,
    );
    if (!setUp) {
      await execa(bin.sqlTool, [...base, '--db', db.name, 'drop-database', '--force'], { reject: false });
      await run(['create-database']);
      await run(['setup-schema', '-v', '0.0']);
      await writeFile(marker, 'setup-schema done\n');
    }
    await run(['update-schema', '-d', path.join(bin.schemaDir, db.schema, 'versioned')]);
  }
}
