import type { Rolldown } from 'vite';

// Left to itself the bundler gives every set of lazy screens that shares a module its own chunk,
// so a cold load of the console fetched ~96 scripts (index.html alone listed 32), each a request
// and a compile in a new browser context. These groups merge only what every signed-in first
// load runs anyway; lazy screens keep the bundler's own chunks (bench/notes/suite-speed-2026-11-28.md).
//
// - `sign-in`: what the sign-in page (login.html) and the console (index.html) both import
//   statically (colour scheme, stylesheets, preload helper), so neither page loads the other's
//   code. The sign-in page's own entry stays in its own chunk: index.html must not run it.
// - `console`: the console entry's static closure less the above. Rolldown's `$initial` tag marks
//   exactly the modules the entries use (after tree-shaking); a walk of `importedIds` would not,
//   as Mantine's and Tabler's index files import every component they export.
// - `shell`: the signed-in layout's own modules and, through `includeDependenciesRecursively`,
//   the components they use that the console does not already hold. Every screen but the
//   not-found page renders inside the shell, so a screen that shares one of these loads nothing
//   it would not have loaded anyway.

type Lookup = Rolldown.ChunkingContext['getModuleInfo'];

/** Every module `entry` imports statically, directly or through others, itself included. */
function staticImports(entry: string, lookup: Lookup): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of lookup(id)?.importedIds ?? []) stack.push(next);
  }
  return seen;
}

/** The console's chunk groups; `root` is apps/web with a trailing slash. */
export function firstLoadChunkGroups(root: string): Rolldown.CodeSplittingGroup[] {
  let graph: { signIn: Set<string>; shared: Set<string>; shell: Set<string> } | undefined;
  // Computed once, on the first module the bundler asks about (the graph is complete by then).
  const load = (ctx: Rolldown.ChunkingContext) => {
    const lookup: Lookup = (id) => ctx.getModuleInfo(id);
    if (graph) return graph;
    const signIn = staticImports(`${root}login.html`, lookup);
    const console = staticImports(`${root}index.html`, lookup);
    const shared = new Set([...signIn].filter((id) => console.has(id) && !lookup(id)?.isEntry));
    const shell = staticImports(`${root}src/app/layouts/shell-layout.tsx`, lookup);
    graph = { signIn, shared, shell };
    return graph;
  };
  return [
    {
      debugName: 'sign-in',
      name: (id, ctx) => (load(ctx).shared.has(id) ? 'sign-in' : null),
      includeDependenciesRecursively: false,
      priority: 3,
    },
    {
      debugName: 'console',
      name: (id, ctx) => (ctx.getModuleInfo(id)?.isEntry || load(ctx).signIn.has(id) ? null : 'console'),
      tags: ['$initial'],
      includeDependenciesRecursively: false,
      priority: 2,
    },
    {
      debugName: 'shell',
      // Our own modules only: the walk reaches every component through the libraries' index files.
      name: (id, ctx) => (id.startsWith(`${root}src/`) && load(ctx).shell.has(id) ? 'shell' : null),
      priority: 1,
    },
  ];
}
