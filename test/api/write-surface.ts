import { writeFile } from 'node:fs/promises';
import { loadSurface, renderSurface, SURFACE_PATH } from './surface.js';

await writeFile(new URL(`../../${SURFACE_PATH}`, import.meta.url), renderSurface(await loadSurface()));
console.log(`wrote ${SURFACE_PATH}`);
