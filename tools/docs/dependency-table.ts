/**
 * The project rule that the README says why each dependency is there: every package of
 * package.json (runtime and dev) names a row of the README's "Dependencies" table, and every
 * package a row names is in package.json (a removed package leaves no stale row behind).
 */

/** Packages named in backticks in the first cell of each row of the section's table. */
export function tablePackages(readme: string, heading = 'Dependencies'): Set<string> {
  const start = readme.search(new RegExp(`^##\\s+${heading}\\b.*$`, 'm'))
  if (start < 0) return new Set()
  const rest = readme.slice(start).split('\n').slice(1)
  const end = rest.findIndex((line) => /^#{1,2}\s/.test(line))
  const rows = (end < 0 ? rest : rest.slice(0, end)).filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
  const names = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]))
  return new Set(names)
}

export interface DependencyProblems {
  /** In package.json, no row says why. */
  unexplained: string[]
  /** A row names a package package.json does not have. */
  stale: string[]
}

/** Compares the table with package.json's dependencies and devDependencies. */
export function dependencyProblems(readme: string, packageJson: { dependencies?: object; devDependencies?: object }): DependencyProblems {
  const declared = new Set([...Object.keys(packageJson.dependencies ?? {}), ...Object.keys(packageJson.devDependencies ?? {})])
  const named = tablePackages(readme)
  return {
    unexplained: [...declared].filter((name) => !named.has(name)).sort(),
    stale: [...named].filter((name) => !declared.has(name)).sort(),
  }
}
