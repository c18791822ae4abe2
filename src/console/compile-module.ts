// The console's modules are TypeScript (src/console/assets/*.ts). `npm run build` compiles them into
// dist/; a service run from source (as the tests run it) compiles each one here instead, when it is first
// asked for, with the same options (tsconfig.console.json), so that the browser gets the same JavaScript
// either way. This only strips types, one module at a time: checking them is `npm run typecheck`'s job.
// The compiler is a devDependency, so it is loaded only when called, which a built service never does.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';

const CONFIG = fileURLToPath(new URL('../../tsconfig.console.json', import.meta.url));

interface Compiler {
  typescript: typeof ts;
  options: ts.CompilerOptions;
}

let compiler: Promise<Compiler> | undefined;

async function loadCompiler(): Promise<Compiler> {
  const typescript = (await import('typescript')).default;
  const { config, error } = typescript.readConfigFile(CONFIG, typescript.sys.readFile);
  if (error) throw new Error(typescript.flattenDiagnosticMessageText(error.messageText, '\n'));
  return { typescript, options: typescript.parseJsonConfigFileContent(config, typescript.sys, dirname(CONFIG)).options };
}

/** The JavaScript of one console module, from its TypeScript source at `path`. */
export async function compileModule(path: string): Promise<Buffer> {
  const source = await readFile(path, 'utf8');
  compiler ??= loadCompiler();
  const { typescript, options } = await compiler;
  return Buffer.from(typescript.transpileModule(source, { compilerOptions: options, fileName: path }).outputText);
}
