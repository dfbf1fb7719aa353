/** Features (or anything named) by name in byte order, the order DynamoDB sorts their keys in. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
