// Writes docs/reliability.md from the rows the tests in this folder declare: `npm run reliability:table`.
import { writeFile } from 'node:fs/promises';
import { loadRowGroups, renderTable, TABLE_PATH } from './table.js';

const groups = await loadRowGroups();
const text = renderTable(groups);
await writeFile(new URL(`../../${TABLE_PATH}`, import.meta.url), text);
console.log(`${TABLE_PATH}: ${groups.reduce((sum, group) => sum + group.rows.length, 0)} rows`);
