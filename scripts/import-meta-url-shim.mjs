// Injected into the CommonJS bin bundle (scripts/bundle-bin.mjs) as the value of
// import.meta.url, which CommonJS does not have.
/* global __filename -- this file only ever runs inside the CommonJS bundle */
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
