import { ValidationFailed } from '../../errors.js';

interface Weighted {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
}

const TOTAL_WEIGHT = 1000;

/**
 * Unleash's weight normalisation, run on every save of a variant list: `fix` variants keep
 * their weight, `variable` ones share the rest of 1000 (the remainder +1 each to the first in
 * input order), and the list is sorted by name, because SDKs pick variants in list order.
 */
export function normaliseVariants<V extends Weighted>(variants: V[], field = 'variants'): V[] {
  if (variants.length === 0) return [];
  const names = new Set<string>();
  for (const [index, variant] of variants.entries()) {
    if (names.has(variant.name)) throw new ValidationFailed(`${field}.${index}.name: variant names must be unique (${variant.name})`);
    names.add(variant.name);
  }
  const variable = variants.filter((variant) => variant.weightType === 'variable');
  if (variable.length === 0) throw new ValidationFailed(`${field}: there must be at least one "variable" variant`);
  const fixedSum = variants.filter((v) => v.weightType === 'fix').reduce((sum, v) => sum + v.weight, 0);
  if (fixedSum > TOTAL_WEIGHT) {
    throw new ValidationFailed(`${field}: the fixed weights add up to ${fixedSum}, more than ${TOTAL_WEIGHT} (100%)`);
  }
  const share = Math.floor((TOTAL_WEIGHT - fixedSum) / variable.length);
  let remainder = (TOTAL_WEIGHT - fixedSum) % variable.length;
  const weighted = variants.map((variant) => {
    if (variant.weightType === 'fix') return variant;
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return { ...variant, weight: share + extra };
  });
  return weighted.sort((a, b) => a.name.localeCompare(b.name));
}
