import { DEFAULT_ENTITY_CATEGORY } from '@common/constants';
import type { Entity } from '@common/schemas/entities';

/** Entities grouped by category, categories and names in alphabetical order. */
export function groupByCategory(entities: Entity[]): [string, Entity[]][] {
  const groups = new Map<string, Entity[]>();
  for (const entity of entities) {
    const category = entity.category || DEFAULT_ENTITY_CATEGORY;
    groups.set(category, [...(groups.get(category) ?? []), entity]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, members]) => [
      category,
      [...members].sort((a, b) => a.name.localeCompare(b.name)),
    ]);
}
