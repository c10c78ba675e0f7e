import * as prettier from 'prettier';

const OPTIONS: prettier.Options = { singleQuote: true, printWidth: 120, trailingComma: 'all', endOfLine: 'lf' };

/** Formats one generated file by its extension. A parse failure prints the source and fails. */
export async function formatGenerated(path: string, source: string): Promise<string> {
  const parser = path.endsWith('.json') ? 'json' : 'typescript';
  try {
    return await prettier.format(source, { ...OPTIONS, parser });
  } catch (error) {
    throw new Error(`prettier could not parse generated ${path}: ${(error as Error).message}\n----- source -----\n${source}`);
  }
}
