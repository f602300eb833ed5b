import path from 'node:path';
import type { Rollup } from 'vite';

type ChunkingContext = { getModuleInfo(moduleId: string): Rollup.ModuleInfo | null };

type ClosureGroup = {
  /** The chunk's name. */
  name: string;
  /** The modules whose static imports the chunk holds; they keep chunks of their own. */
  roots: readonly string[];
  /** Modules whose static imports the chunk must not take: the entry's (index.html's script). */
  apart: readonly string[];
  /** Modules not captured nor followed (left to the automatic split). */
  exclude: (id: string) => boolean;
  /**
   * Side-effect-free modules (the contract's): the entry takes from them only the names
   * it uses, so what `apart` imports through them is not held apart; such a module the
   * group may take must then not be one the entry uses.
   */
  pure?: (id: string) => boolean;
};

/** The modules `roots` import statically, however deeply, without those `skip` says no to. */
function staticClosure(ctx: ChunkingContext, roots: readonly string[], skip: (id: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id) || skip(id)) continue;
    seen.add(id);
    queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * A code-splitting group's `name` function (rolldown's `output.codeSplitting.groups`):
 * the modules `roots` import statically, however deeply (code a browser runs anyway when
 * it runs the roots), go into one chunk; the roots themselves keep their own chunks (the
 * app's and the screens' entries, which the manifest and route-preloads.json name), and
 * dynamic imports stay on demand. What `apart` imports is left where it is: the entry
 * would otherwise import the chunk, and index.html load it at once.
 */
export function staticClosureGroup({ name, roots, apart, exclude, pure = () => false }: ClosureGroup) {
  const captured = new WeakMap<object, Set<string>>();
  return (moduleId: string, ctx: ChunkingContext): string | null => {
    const rootInfo = roots.map((root) => ctx.getModuleInfo(path.normalize(root)));
    const first = rootInfo[0];
    if (!first || rootInfo.some((info) => !info)) return null; // Not this build (the server bundle).
    let chunk = captured.get(first);
    if (!chunk) {
      const rootIds = new Set(rootInfo.map((info) => info!.id));
      const entry = staticClosure(ctx, apart.map((id) => path.normalize(id)), pure);
      chunk = staticClosure(ctx, [...rootIds], (id) => exclude(id) || entry.has(id));
      for (const id of rootIds) chunk.delete(id);
      captured.set(first, chunk);
    }
    return chunk.has(moduleId) ? name : null;
  };
}
