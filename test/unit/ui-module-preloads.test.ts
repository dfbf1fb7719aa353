import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fillIndexHtml } from '../../lib/ui/index-html.js';
import { entryModulePreloads } from '../../lib/ui/module-preloads.js';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';

const TEMPLATE = '<html><head><script type="module" crossorigin src="/static/index-abc.js"></script></head><body></body></html>';

describe("the UI entry's static imports, preloaded as modules", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function build(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'ui-module-preloads-'));
    made.push(dir);
    mkdirSync(join(dir, 'static'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'static', name), text);
    return dir;
  }

  it('follows the import statements each chunk opens with, through each other, each once, in the order met', () => {
    const dir = build({
      'index-abc.js': 'import{a as e,n as t}from"./jsx-1.js";import * as ns from "./chart-2.js";import"./side-3.js";var x=1;',
      'jsx-1.js': 'import{t}from"./shared-4.js";export const a=1,n=2;',
      'chart-2.js': 'import{t}from"./shared-4.js";import{a}from"./jsx-1.js";export default 1;',
      'side-3.js': 'console.log(1)',
      'shared-4.js': 'export const t=1;',
    });

    expect(entryModulePreloads(dir, TEMPLATE)).toEqual(['/static/jsx-1.js', '/static/chart-2.js', '/static/side-3.js', '/static/shared-4.js']);
  });

  it('leaves dynamic imports, imports inside the code and the entry itself alone', () => {
    const dir = build({
      'index-abc.js': 'import{a}from"./jsx-1.js";const page=()=>import("./page-9.js");const s=`import{b}from"./fake-8.js"`;',
      'jsx-1.js': 'import"./index-abc.js";export const a=1;',
    });

    expect(entryModulePreloads(dir, TEMPLATE)).toEqual(['/static/jsx-1.js']);
  });

  it('names nothing when the template has no module entry or the build lacks a file, so the page is as before', () => {
    const dir = build({ 'index-abc.js': 'import{a}from"./missing-1.js";' });

    expect(entryModulePreloads(dir, TEMPLATE)).toEqual([]);
    expect(entryModulePreloads(dir, '<script src="/static/index-abc.js"></script>')).toEqual([]);
  });

  it('links them at the top of <head> under the assets\' prefix, with the crossorigin of the entry\'s own script tag', () => {
    const modulePreloads = ['/static/jsx-1.js', '/static/chart-2.js'];

    const atRoot = fillIndexHtml(TEMPLATE, { baseUriPath: '', preloadApi: false, modulePreloads });
    const fromCdn = fillIndexHtml(TEMPLATE, { baseUriPath: '/toggles', cdnPrefix: 'https://cdn.example.com/ui', preloadApi: false, modulePreloads });

    expect(atRoot).toContain('<head>\n        <link rel="modulepreload" crossorigin href="/static/jsx-1.js" />\n        <link rel="modulepreload" crossorigin href="/static/chart-2.js" />');
    expect(fromCdn).toContain('<link rel="modulepreload" crossorigin href="https://cdn.example.com/ui/static/chart-2.js" />');
    expect(fillIndexHtml(TEMPLATE, { baseUriPath: '/toggles', preloadApi: false, modulePreloads })).toContain('href="/toggles/static/jsx-1.js"');
  });

  it("finds the four chunks Unleash 7.6.5's entry imports in the installed build", () => {
    const ui = installedUi();
    if (!ui) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    const template = '<script type="module" crossorigin src="/static/index-Sdmd_3Nu.js"></script>';

    expect(entryModulePreloads(ui.buildDir, template)).toEqual([
      '/static/jsx-runtime-ButemYzH.js', '/static/toDate-zSA17Csy.js', '/static/objectId-D7ukzTLu.js', '/static/chart-BMc0j_v5.js',
    ]);
  });
});
