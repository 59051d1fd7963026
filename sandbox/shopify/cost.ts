import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

// Shopify's calculated query cost (shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits).

/** What a mutation costs, whatever it selects. */
export const MUTATION_COST = 10;

/**
 * What one resolved field adds to a query's actual cost: 1 per object returned, 2 per connection,
 * nothing for scalars, enums, edges and page info.
 */
export function resolvedFieldCost(returnType: GraphQLOutputType, value: unknown): number {
  const named = getNamedType(returnType);
  if (value === null || value === undefined || isLeafType(named)) return 0;
  if (named.name.endsWith("Connection")) return 2;
  if (named.name.endsWith("Edge") || named.name === "PageInfo") return 0;
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).length;
  return 1;
}

/**
 * Shopify's calculated query cost, before running: objects 1, scalars and enums 0, a connection
 * 2 plus its page size times the cost of one item, a list with `first` that many times its item,
 * a mutation 10. Fragments on several types are added up, so this is an upper bound.
 */
export function requestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number {
  if (operation.operation === "mutation") {
    return rootFieldCount(operation.selectionSet, document) * MUTATION_COST;
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  }
  const defaults = new Map<string, unknown>();
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue?.kind === Kind.INT) {
      defaults.set(definition.variable.name.value, Number(definition.defaultValue.value));
    }
  }

  const pageSize = (node: FieldNode) => {
    for (const arg of node.arguments ?? []) {
      if (arg.name.value !== "first" && arg.name.value !== "last") continue;
      if (arg.value.kind === Kind.INT) return Number(arg.value.value);
      if (arg.value.kind === Kind.VARIABLE) {
        const name = arg.value.name.value;
        const given = variables[name] ?? defaults.get(name);
        if (typeof given === "number") return given;
      }
    }
    return undefined;
  };

  const selectionCost = (
    parent: GraphQLNamedType,
    set: SelectionSetNode,
    seen: Set<string>,
  ): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
        const field = parent.getFields()[selection.name.value];
        if (!field) continue;
        const named = getNamedType(field.type);
        if (isLeafType(named)) continue;
        const children = selection.selectionSet
          ? selectionCost(named, selection.selectionSet, seen)
          : 0;
        if (named.name.endsWith("Connection")) {
          total += 2 + (pageSize(selection) ?? 1) * children;
        } else if (named.name.endsWith("Edge") || named.name === "PageInfo") {
          total += children;
        } else {
          total += (pageSize(selection) ?? 1) * (1 + children);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? schema.getType(selection.typeCondition.name.value)
          : parent;
        if (type) total += selectionCost(type, selection.selectionSet, seen);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        const type = schema.getType(fragment.typeCondition.name.value);
        if (type)
          total += selectionCost(
            type,
            fragment.selectionSet,
            new Set([...seen, fragment.name.value]),
          );
      }
    }
    return total;
  };

  const root = schema.getQueryType();
  return root ? selectionCost(root, operation.selectionSet, new Set()) : 0;
}

function rootFieldCount(set: SelectionSetNode, document: DocumentNode): number {
  let count = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== "__typename") count += 1;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += rootFieldCount(selection.selectionSet, document);
    } else {
      const fragment = document.definitions.find(
        (d): d is FragmentDefinitionNode =>
          d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
      );
      if (fragment) count += rootFieldCount(fragment.selectionSet, document);
    }
  }
  return count;
}
